/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_vectors.c -- libFuzzer target for the vector reader and checker
 * (vectors/vread.c, vectors/vcheck.c): any bytes are read as a vector file
 * and, when the reader accepts them, every case is checked with ref and fast
 * (`fedref vectors check --impl both`).  The oracles are the sanitizers
 * (ASan, UBSan, LeakSanitizer), libFuzzer's timeout and memory limits, and
 * the invariants below: a rejected file has a located message, every case of
 * an accepted file is counted once, and a valid case that passes fails
 * once its first expected value e is moved far away, to e' = -sgn(e) K
 * (sgn(0) = 1) with K = 2|e| + 1, plus (2 abs + (1 + rel)|e| + 1)/(1 - rel)
 * when rel < 1: ref (any certified_bits >= 1) and fast (its tol) must both
 * reject e' whatever they computed, as they passed e (a silent pass, e.g. a
 * NaN compared as equal, shows here); e' is judged against the same
 * evaluations as e (vcase_check_pair: one ref and one fast evaluation per
 * case).  A boolean expected value (VK_BOOL)
 * is moved to the other boolean instead, an exact integer (VC_INT) to the
 * next integer: both must reject it.
 *
 * The work of one input is bounded here so that none takes more than a
 * second or so under the sanitizers: at most FUZZ_MAX_BYTES bytes, the
 * first FUZZ_MAX_CASES cases and no more than FUZZ_MAX_WORK units of their
 * vfunc.check_work (the accountants' bisections: 2 or 3 units a case), one
 * ref and one fast evaluation a case, runs of at most FUZZ_WORK_MAX units
 * of the run schemas' work (vectors/fedepm/runs.h, vectors/ssca/runs.h,
 * vectors/fedpdm/pdm_runs.h; the committed SSCA runs and the small fedepm
 * run groups fit, the R = 60 one is then an FR_ESIZE case) and RDP cases
 * of at most FUZZ_ACCT_WORK_MAX (R alpha_max^2, vectors/fedpdm/
 * acct_common.h), ProxAL runs of at most FUZZ_PROXAL_ITER_MAX iterations
 * (kmax x tmax, vectors/proxal/alg_common.h: the committed runs, with
 * kmax = 200 and tmax = 2000, are then FR_ESIZE cases; their mutants ran
 * for up to 49 s), on top of the reader's limits (certified_bits <=
 * VEC_CERTIFIED_BITS_MAX).
 *
 * Built by `make fuzz` (a campaign of FUZZ_SECONDS, seeded from the vector files
 * and tests/fuzz/corpus/) and `make fuzz-replay` (the corpus once, in
 * `make check`); tests/fuzz/replay.c runs it without libFuzzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../vectors/vectors.h"
#include "../../vectors/fedepm/runs.h"
#include "../../vectors/ssca/runs.h"
#include "../../vectors/fedpdm/pdm_runs.h"
#include "../../vectors/fedpdm/acct_common.h"
#include "../../vectors/proxal/alg_common.h"

#define FUZZ_MAX_BYTES 65536
#define FUZZ_MAX_CASES 8
#define FUZZ_MAX_WORK 8           /* units of vfunc.check_work */
#define FUZZ_ACCT_WORK_MAX (1ul << 16)   /* R alpha_max^2: alpha_max <= 256 */
#define FUZZ_WORK_MAX (1ul << 14)
#define FUZZ_PROXAL_ITER_MAX 1000ul   /* kmax x tmax */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* e' of the comment above for case c; NULL if it has no expected value
 * (*fast_too: whether fast must reject it as well).  A boolean field
 * (VK_BOOL) has no tolerance: e' is the other boolean, and both ref and
 * fast must reject it. */
static char *far_value(const vcase *c, const vspec *expects, size_t ne, char ***slot, int *fast_too)
{
    char **where = NULL;
    enum vkind kind = VK_SCALAR;
    enum vcmp cmp = VC_REAL;
    for (size_t k = 0; k < ne && where == NULL; k++)
        if (c->expect[k].rows * c->expect[k].cols > 0) {
            where = &c->expect[k].s[0];
            kind = expects[k].kind;
            cmp = expects[k].cmp;
        }
    if (where == NULL) return NULL;
    if (kind == VK_BOOL) {
        *fast_too = 1;
        *slot = where;
        return strdup(vt_bool_parse(*where) == 1 ? "false" : "true");
    }
    if (cmp == VC_INT) {                 /* an exact integer: off by one, whatever tol says */
        mpfr_t e;
        mpfr_init2(e, 256);
        num_parse_mpfr(e, *where);       /* an integer of <= 40 digits: exact */
        mpfr_add_ui(e, e, 1, MPFR_RNDN);
        char *s = num_round_decimal(e, 60, MPFR_RNDN);
        mpfr_clear(e);
        *fast_too = 1;
        *slot = where;
        return s;
    }
    mpfr_t e, K, t, rel, abs;
    mpfr_inits2(256, e, K, t, rel, abs, (mpfr_ptr)0);
    num_parse_mpfr(e, *where);
    num_parse_mpfr(rel, c->tol_rel);
    num_parse_mpfr(abs, c->tol_abs);
    int sgn = mpfr_sgn(e) < 0 ? -1 : 1;
    mpfr_abs(e, e, MPFR_RNDU);
    mpfr_mul_2ui(K, e, 1, MPFR_RNDU);
    mpfr_add_ui(K, K, 1, MPFR_RNDU);                      /* 2|e| + 1 */
    *fast_too = mpfr_cmp_ui(rel, 1) < 0;
    if (*fast_too) {
        mpfr_add_ui(t, rel, 1, MPFR_RNDU);
        mpfr_mul(t, t, e, MPFR_RNDU);
        mpfr_add(t, t, abs, MPFR_RNDU);
        mpfr_add(t, t, abs, MPFR_RNDU);
        mpfr_add_ui(t, t, 1, MPFR_RNDU);
        mpfr_ui_sub(rel, 1, rel, MPFR_RNDD);
        mpfr_div(t, t, rel, MPFR_RNDU);
        mpfr_add(K, K, t, MPFR_RNDU);
    }
    if (sgn > 0) mpfr_neg(K, K, MPFR_RNDN);
    char *s = mpfr_number_p(K) ? num_round_decimal(K, 60, sgn > 0 ? MPFR_RNDD : MPFR_RNDU) : NULL;
    mpfr_clears(e, K, t, rel, abs, (mpfr_ptr)0);
    *slot = where;
    return s;
}

/* Check case c alone with ref and fast, and alt (c with one expected value
 * replaced) against the same evaluations: 1 if c passes, *alt_pass the
 * impls under which alt passes. */
static int passes(const vfile *f, const vcase *c, const vcase *alt, int *alt_pass, FILE *sink)
{
    vcheck_stats st = {0};
    *alt_pass = vcase_check_pair(f, c, alt, VCHECK_REF | VCHECK_FAST, sink, &st);
    if (st.passed + st.failed != 1)
        abort();
    return st.passed == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (size > FUZZ_MAX_BYTES)
        return 0;
    if (sink == NULL && (sink = fopen("/dev/null", "w")) == NULL)
        abort();
    vrun_work_max = FUZZ_WORK_MAX;
    vssca_work_max = FUZZ_WORK_MAX;           /* the SSCA runs' schema (vectors/ssca/runs.h) */
    vpdm_work_max = FUZZ_WORK_MAX;            /* 003's runs (vectors/fedpdm/pdm_runs.h) */
    vacct_work_max = FUZZ_ACCT_WORK_MAX;      /* 003's RDP accountant (vectors/fedpdm/acct_common.h) */
    valg_iter_max = FUZZ_PROXAL_ITER_MAX;     /* 004's Algorithms 1 and 3 (vectors/proxal/alg_common.h) */
    vfile f;
    char err[1024] = "";
    if (vfile_read_buffer(&f, (const char *)data, size, "fuzz.json", err, sizeof err) == 0) {
        size_t ne = vspec_count(f.fn->expects);
        unsigned w = f.fn->check_work ? f.fn->check_work : 1;
        for (size_t i = 0; i < f.ncases && i < FUZZ_MAX_CASES && (i + 1) * w <= FUZZ_MAX_WORK; i++) {
            vcase *c = &f.cases[i];
            char **slot = NULL, *far = NULL;
            int fast_too = 0, alt_pass = 0;
            if (!c->invalid)
                far = far_value(c, f.fn->expects, ne, &slot, &fast_too);
            if (far == NULL) {
                passes(&f, c, NULL, &alt_pass, sink);
                continue;
            }
            /* alt: c with e' in place of e (its own copy of that field's strings) */
            vcase alt = *c;
            size_t k = 0;
            while (slot != &c->expect[k].s[0]) k++;
            size_t n = c->expect[k].rows * c->expect[k].cols;
            char **s = malloc(n * sizeof *s);
            if (s == NULL) abort();
            memcpy(s, c->expect[k].s, n * sizeof *s);
            s[0] = far;
            alt.expect[k].s = s;
            if (passes(&f, c, &alt, &alt_pass, sink)
                && ((alt_pass & VCHECK_REF) || (fast_too && (alt_pass & VCHECK_FAST))))
                abort();                  /* a silent pass */
            free(s);
            free(far);
        }
    } else if (strstr(err, "fuzz.json") == NULL) {   /* a message that says where */
        abort();
    }
    vfile_free(&f);
    return 0;
}
