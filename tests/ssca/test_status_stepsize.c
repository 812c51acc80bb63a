/* SPDX-License-Identifier: Apache-2.0 */
/* test_status_stepsize.c -- one error semantics, module ssca, the stepsize
 * validator: the same bad input gives the same status in ref
 * (fr_ssca_stepsize) and fast (ff_ssca_stepsize), with both outputs
 * untouched and every mpfr_t argument bit for bit as before
 * (fedref_common.h, "Error semantics"; the engine: tests/status_engine.h).
 * A schedule that breaks (4) or (6) is a verdict, not an error: FR_OK rows
 * say so.  After the table, fr_ssca_cond_reason, which has no status: its
 * documented answer (NULL) to every argument outside its table. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "../status_engine.h"

Suite *suite_status_ssca_stepsize(void);

#define NaN NAN
#define Inf INFINITY

/* stepsize(rho_fail = slot 0's NULL bit, gamma_fail = slot 1's NULL bit,
 * a1 = c0, alpha1 = c1, a2 = c2, alpha2 = c3); flag 1: gamma_fail is the
 * same object as rho_fail (two outputs overlap).  The outputs are this
 * adapter's unsigned sentinels: untouched on error, written on success. */
static void b_step(st_case *c)
{
    c->s[0] = 0.9;                         /* 000 Sec. VI, sample-based B = 10 */
    c->s[1] = 0.1;
    c->s[2] = 0.5;
    c->s[3] = 0.1;
}

#define SENT_R 0x5a5a5a5au
#define SENT_G 0xa5a5a5a5u

static int step_call(st_case *c, int st, const unsigned out[2])
{
    int written = out[0] != SENT_R || out[1] != SENT_G;
    if (st != FR_OK && written)
        st_failf(c, "an output was written on error");
    if (st == FR_OK && (out[0] == SENT_R || out[1] == SENT_G))
        st_failf(c, "an output was not written on success");
    if (st == FR_OK && (out[0] & ~(unsigned)FR_SSCA_RHO_CONDS) != 0)
        st_failf(c, "rho_fail %#x has a bit outside (4)", out[0]);
    if (st == FR_OK && (out[1] & ~(unsigned)FR_SSCA_GAMMA_CONDS) != 0)
        st_failf(c, "gamma_fail %#x has a bit outside (6)", out[1]);
    return st;
}

/* The output pointers of a row: NULL bits, then the overlap flag. */
static void step_outs(st_case *c, unsigned out[2], unsigned **r, unsigned **g)
{
    out[0] = SENT_R;
    out[1] = SENT_G;
    *r = c->null & 1 ? NULL : &out[0];
    *g = c->null & 2 ? NULL : c->flag ? *r : &out[1];
    if (c->flag && *r == NULL && !(c->null & 2))
        *g = &out[0];                       /* both name out[0]; rho_fail NULL wins */
}

static int r_step(st_case *c, st_ref *r)
{
    unsigned out[2], *pr, *pg;
    step_outs(c, out, &pr, &pg);
    return step_call(c, fr_ssca_stepsize(pr, pg, r->s[0], r->s[1], r->s[2], r->s[3]), out);
}

static int f_step(st_case *c, st_fast *f)
{
    (void)f;
    unsigned out[2], *pr, *pg;
    step_outs(c, out, &pr, &pg);
    return step_call(c, ff_ssca_stepsize(pr, pg, c->s[0], c->s[1], c->s[2], c->s[3]), out);
}

static const st_fn STEP = {"fr_ssca_stepsize / ff_ssca_stepsize", b_step, r_step, f_step, NULL, NULL};

static const st_row ROWS[] = {
    /* FR_ENULL: each output, each mpfr_t parameter (ref) */
    ROW(STEP, FR_ENULL, NUL(0)),
    ROW(STEP, FR_ENULL, NUL(1)),
    ROW(STEP, FR_ENULL, NUL(0), NUL(1)),
    REF_ROW(STEP, FR_ENULL, NULS(0)),
    REF_ROW(STEP, FR_ENULL, NULS(1)),
    REF_ROW(STEP, FR_ENULL, NULS(2)),
    REF_ROW(STEP, FR_ENULL, NULS(3)),
    /* FR_ENONFINITE: NaN and both infinities in each parameter */
    ROW(STEP, FR_ENONFINITE, SC(0, NaN)),
    ROW(STEP, FR_ENONFINITE, SC(1, NaN)),
    ROW(STEP, FR_ENONFINITE, SC(2, NaN)),
    ROW(STEP, FR_ENONFINITE, SC(3, NaN)),
    ROW(STEP, FR_ENONFINITE, SC(0, Inf)),
    ROW(STEP, FR_ENONFINITE, SC(1, -Inf)),
    ROW(STEP, FR_ENONFINITE, SC(2, -Inf)),
    ROW(STEP, FR_ENONFINITE, SC(3, Inf)),
    /* FR_EDOM: the two outputs are one object */
    ROW(STEP, FR_EDOM, FLAG(1)),
    /* class order: NULL before non-finite before overlap */
    ROW(STEP, FR_ENULL, NUL(1), SC(0, NaN)),
    ROW(STEP, FR_ENULL, NUL(0), FLAG(1)),
    REF_ROW(STEP, FR_ENULL, NULS(3), SC(0, Inf)),
    ROW(STEP, FR_ENONFINITE, SC(3, NaN), FLAG(1)),
    /* verdicts, not errors: outside the papers' schedules, every edge */
    ROW(STEP, FR_OK, SC(0, -1), SC(1, -2)),
    ROW(STEP, FR_OK, SC(0, -0.0), SC(2, -0.0)),
    ROW(STEP, FR_OK, SC(0, 0x1.fffffffffffffp1023), SC(3, -0x1.fffffffffffffp1023)),
    ROW(STEP, FR_OK, SC(1, 0.5), SC(3, 0.5)),
    ROW(STEP, FR_OK, SC(0, 0x1p-1074), SC(1, -0x1p-1074)),
};

#define NROWS (sizeof ROWS / sizeof ROWS[0])

START_TEST(status_row)
{
    st_run_row(&ROWS[_i], (size_t)_i);
}
END_TEST

/* fr_ssca_cond_reason has no status: NULL for everything outside its
 * table (a bit of another sequence, no bit, several bits, a bit beyond
 * RATIO, a sequence other than 0 and 1), a fixed non-empty string inside. */
START_TEST(cond_reason_no_status)
{
    const int seqs[] = {-2, -1, 2, 3, 1 << 30};
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
        for (unsigned k = 0; k < 32; k++)
            ck_assert_ptr_null(fr_ssca_cond_reason(seqs[i], 1u << k));
    const unsigned bad[] = {0, 3, 48, 64, 1u << 31, ~0u};
    for (int seq = 0; seq <= 1; seq++)
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
            ck_assert_ptr_null(fr_ssca_cond_reason(seq, bad[i]));
    ck_assert_ptr_null(fr_ssca_cond_reason(0, FR_SSCA_SQSUM));
    ck_assert_ptr_null(fr_ssca_cond_reason(0, FR_SSCA_RATIO));
    const char *s = fr_ssca_cond_reason(0, FR_SSCA_POS);
    ck_assert(s != NULL && s[0] != '\0');
    ck_assert_ptr_eq(fr_ssca_cond_reason(0, FR_SSCA_POS), s);         /* a static string */
}
END_TEST

Suite *suite_status_ssca_stepsize(void)
{
    Suite *s = suite_create("status_ssca_stepsize");
    TCase *tc = tcase_create("rows");
    tcase_add_loop_test(tc, status_row, 0, (int)NROWS);
    tcase_add_test(tc, cond_reason_no_status);
    suite_add_tcase(s, tc);
    return s;
}
