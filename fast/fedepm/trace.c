/* SPDX-License-Identifier: Apache-2.0 */
/* trace.c -- ff_fedepm_trace_init, ff_fedepm_trace_clear: the record of one
 * binary64 run of FedEPM / SFedAvg / SFedProx (docs/FEDEPM.md section 1;
 * the fields are those of fr_fedepm_trace in include/fedref/fedepm.h).
 * init:  checks as fr_fedepm_sizes_check(P, prm) (sizes only) in class
 *        order, with FR_ESIZE if (rounds + 1) n, (rounds + 1) nsel or m n
 *        exceed FR_COUNT_MAX (libfedref's limits); allocates cap = rounds + 1
 *        rows with every value NaN (the privacy fields too), every sel entry SIZE_MAX, rounds = iters = cr = 0, stop =
 *        FR_STOP_ROUNDS, snr = NaN, snr_clients = 0.  t is unchanged on an
 *        argument error; on FR_ENOMEM it is left zeroed (clearable).
 * clear: frees the arrays and zeroes t; safe on a zeroed trace, a trace
 *        whose init failed for lack of memory, and NULL. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rounds.h"

void ff_fedepm_trace_clear(ff_fedepm_trace *t)
{
    if (t == NULL)
        return;
    free(t->w);
    free(t->f);
    free(t->gnorm2);
    free(t->sel);
    free(t->W);
    free(t->Z);
    free(t->nu0);
    free(t->nu);
    free(t->loss0);
    free(t->loss);
    free(t->eps_basic);
    free(t->eps_adv);
    memset(t, 0, sizeof *t);
}

/* 1 iff a x b entries are within FR_COUNT_MAX (libfedref's limit). */
static int fits(size_t a, size_t b)
{
    return a != 0 && b <= FR_COUNT_MAX / a;
}

static void fill_nan(double *x, size_t len)
{
    for (size_t j = 0; j < len; j++)
        x[j] = NAN;
}

void ffi_fl_trace_reset(ff_fedepm_trace *t)
{
    fill_nan(t->w, t->cap * t->n);
    fill_nan(t->f, t->cap);
    fill_nan(t->gnorm2, t->cap);
    fill_nan(t->W, t->m * t->n);
    fill_nan(t->Z, t->m * t->n);
    for (size_t q = 0; q < t->cap * t->nsel; q++)
        t->sel[q] = SIZE_MAX;
    fill_nan(t->nu, t->cap * t->nsel);
    fill_nan(t->loss, t->cap * t->nsel);
    fill_nan(t->nu0, t->m);
    fill_nan(t->loss0, t->m);
    fill_nan(t->eps_basic, t->m);
    fill_nan(t->eps_adv, t->m);
    t->rounds = 0;
    t->iters = 0;
    t->cr = 0;
    t->stop = FR_STOP_ROUNDS;
    t->snr = NAN;
    t->snr_clients = 0;
}

int ff_fedepm_trace_init(ff_fedepm_trace *t, const fr_logreg *P, const fr_fedepm_params *prm)
{
    const int sc = fr_fedepm_sizes_check(P, prm);
    if (sc == FR_ENULL || t == NULL)
        return FR_ENULL;
    if (sc == FR_ESIZE || prm->rounds >= SIZE_MAX)
        return FR_ESIZE;
    const size_t m = P->m, n = P->n, k = prm->nsel;
    const size_t cap = (size_t)prm->rounds + 1;
    if (!fits(cap, n) || !fits(cap, k) || !fits(m, n))
        return FR_ESIZE;
    if (sc != FR_OK)
        return sc;

    ff_fedepm_trace u = {0};
    u.m = m;
    u.n = n;
    u.nsel = k;
    u.cap = cap;
    u.stop = FR_STOP_ROUNDS;
    u.w = malloc(cap * n * sizeof *u.w);
    u.f = malloc(cap * sizeof *u.f);
    u.gnorm2 = malloc(cap * sizeof *u.gnorm2);
    u.sel = malloc(cap * k * sizeof *u.sel);
    u.W = malloc(m * n * sizeof *u.W);
    u.Z = malloc(m * n * sizeof *u.Z);
    u.nu0 = malloc(m * sizeof *u.nu0);
    u.loss0 = malloc(m * sizeof *u.loss0);
    u.eps_basic = malloc(m * sizeof *u.eps_basic);
    u.eps_adv = malloc(m * sizeof *u.eps_adv);
    u.nu = malloc(cap * k * sizeof *u.nu);
    u.loss = malloc(cap * k * sizeof *u.loss);
    if (!u.w || !u.f || !u.gnorm2 || !u.sel || !u.W || !u.Z || !u.nu0 || !u.loss0
        || !u.eps_basic || !u.eps_adv || !u.nu || !u.loss) {
        ff_fedepm_trace_clear(&u);
        memset(t, 0, sizeof *t);
        return FR_ENOMEM;
    }
    ffi_fl_trace_reset(&u);
    *t = u;
    return FR_OK;
}
