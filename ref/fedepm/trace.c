/* SPDX-License-Identifier: Apache-2.0 */
/* trace.c -- the record of one run of FedEPM, SFedAvg or SFedProx
 * (fedref.h, fr_fedepm_trace; docs/FEDEPM.md section 1 lists what is
 * recorded).  Every mpfr_t of a trace has the working precision given to
 * fr_fedepm_trace_init; the runs take their working precision from it. */
#include <stdlib.h>
#include <string.h>
#include "../internal.h"
#include "rounds.h"

void fr_fedepm_trace_clear(fr_fedepm_trace *t)
{
    if (t == NULL)
        return;
    fri_vec_free(t->w, t->cap * t->n);
    fri_vec_free(t->f, t->cap);
    fri_vec_free(t->gnorm2, t->cap);
    fri_vec_free(t->W, t->m * t->n);
    fri_vec_free(t->Z, t->m * t->n);
    fri_vec_free(t->nu0, t->m);
    fri_vec_free(t->loss0, t->m);
    fri_vec_free(t->eps_basic, t->m);
    fri_vec_free(t->eps_adv, t->m);
    fri_vec_free(t->nu, t->cap * t->nsel);
    fri_vec_free(t->loss, t->cap * t->nsel);
    free(t->sel);
    if (t->w != NULL)                      /* snr is live exactly when w is */
        mpfr_clear(t->snr);
    memset(t, 0, sizeof *t);
}

/* The reset state (fedref_common.h, rule 3): every value NaN, every sel
 * entry SIZE_MAX, no rounds. */
void fri_fl_trace_reset(fr_fedepm_trace *t)
{
    for (size_t k = 0; k < t->cap * t->n; k++)
        mpfr_set_nan(t->w[k]);
    for (size_t k = 0; k < t->cap; k++) {
        mpfr_set_nan(t->f[k]);
        mpfr_set_nan(t->gnorm2[k]);
    }
    for (size_t k = 0; k < t->m * t->n; k++) {
        mpfr_set_nan(t->W[k]);
        mpfr_set_nan(t->Z[k]);
    }
    for (size_t k = 0; k < t->cap * t->nsel; k++) {
        t->sel[k] = SIZE_MAX;
        mpfr_set_nan(t->nu[k]);
        mpfr_set_nan(t->loss[k]);
    }
    for (size_t i = 0; i < t->m; i++) {
        mpfr_set_nan(t->nu0[i]);
        mpfr_set_nan(t->loss0[i]);
        mpfr_set_nan(t->eps_basic[i]);
        mpfr_set_nan(t->eps_adv[i]);
    }
    mpfr_set_nan(t->snr);
    t->rounds = 0;
    t->iters = 0;
    t->cr = 0;
    t->stop = FR_STOP_ROUNDS;
    t->snr_clients = 0;
}

/* Argument errors leave *t unchanged; FR_ENOMEM leaves it zeroed, so
 * fr_fedepm_trace_clear is safe after any failure of a zeroed trace.
 * Class order: P's and prm's classes (fr_fedepm_sizes_check) at their
 * places, the trace's sizes with FR_ESIZE, then the precision. */
int fr_fedepm_trace_init(fr_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm, mpfr_prec_t prec)
{
    const int sc = fr_fedepm_sizes_check(P, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE || prm->rounds >= SIZE_MAX)
        return FR_ESIZE;
    const size_t m = P->m, n = P->n, nsel = prm->nsel;
    const size_t cap = (size_t)prm->rounds + 1;
    if (cap > FR_COUNT_MAX / n || cap > FR_COUNT_MAX / nsel || m > FR_COUNT_MAX / n)
        return FR_ESIZE;
    if (prec < MPFR_PREC_MIN || prec > FR_PREC_MAX)
        return FR_EPREC;
    if (sc != FR_OK)
        return sc;

    fr_fedepm_trace u;
    memset(&u, 0, sizeof u);
    u.w = fri_vec_new(cap * n, prec);
    u.cap = u.w != NULL ? cap : 0;
    u.n = n;
    u.f = fri_vec_new(cap, prec);
    u.gnorm2 = fri_vec_new(cap, prec);
    u.sel = malloc(cap * nsel * sizeof *u.sel);
    if (u.w != NULL)
        mpfr_init2(u.snr, prec);
    if (u.w == NULL || u.f == NULL || u.gnorm2 == NULL || u.sel == NULL) {
        u.cap = cap;                       /* vec_free ignores the NULL ones */
        u.m = 0;
        fr_fedepm_trace_clear(&u);
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    u.cap = cap;
    u.m = m;
    u.nsel = nsel;
    u.W = fri_vec_new(m * n, prec);
    u.Z = fri_vec_new(m * n, prec);
    u.nu0 = fri_vec_new(m, prec);
    u.loss0 = fri_vec_new(m, prec);
    u.eps_basic = fri_vec_new(m, prec);
    u.eps_adv = fri_vec_new(m, prec);
    u.nu = fri_vec_new(cap * nsel, prec);
    u.loss = fri_vec_new(cap * nsel, prec);
    if (u.W == NULL || u.Z == NULL || u.nu0 == NULL || u.loss0 == NULL || u.eps_basic == NULL
        || u.eps_adv == NULL || u.nu == NULL || u.loss == NULL) {
        fr_fedepm_trace_clear(&u);
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    fri_fl_trace_reset(&u);
    *t = u;
    return FR_OK;
}
