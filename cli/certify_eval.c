/* SPDX-License-Identifier: Apache-2.0 */
/* certify_eval.c -- the evaluator of `fedref certify` (certify.h): ref's
 * outputs at the precisions the generator asks, from the checkpoint or
 * computed, spread over the processes, every result given to every
 * process as exact bytes in the order of the precisions, so that every
 * process takes the same decisions and rank 0 writes what one process
 * would write. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "certify.h"
#include "cli.h"
#include "xport.h"

/* The time ref takes at precision p, from the last two evaluations
 * measured (t at precision q, t0 at q0): t (p/q)^a with the exponent a
 * they show (clamped to [1, 2]; 1.3 until two took long enough to tell). */
static double predict(const ceval *ev, double p)
{
    double a = 1.3;
    if (ev->t_prev > 0.05 && ev->t_unit > 0.05 && ev->p_prev != ev->p_unit)
        a = fmin(2.0, fmax(1.0, log(ev->t_unit / ev->t_prev) / log(ev->p_unit / ev->p_prev)));
    return ev->t_unit * pow(p / ev->p_unit, a);
}

int certify_eval(void *arg, const vfunc *fn, long id, rtensor *par, rtensor *in, const mpfr_prec_t *prec,
                 size_t n, rtensor (*out)[VEC_MAX_FIELDS], int *status)
{
    ceval *ev = arg;
    size_t nf = vspec_count(fn->expects);
    int me = xp_rank(), np = xp_size(), ok = 1;
    size_t miss[8], nmiss = 0;
    char *mine[8] = {0};
    size_t minelen[8] = {0};
    /* 1. what the checkpoint has (every process holds the same records) */
    for (size_t j = 0; j < n && ok; j++) {
        const crecord *r = cstore_find(ev->store, id, (long)prec[j]);
        if (r == NULL) { miss[nmiss++] = j; continue; }
        if (cstore_unpack(r->buf, r->len, nf, &status[j], out[j]) != 0) {
            snprintf(ev->err, sizeof ev->err, "the checkpoint's record of case %ld at %ld bits is malformed: "
                     "remove the checkpoint", id, (long)prec[j]);
            ok = 0;
        }
        ev->reused++;
    }
    if (!xp_all(ok)) return -1;
    /* 2. the missing ones: the k-th by process k mod P */
    for (size_t k = 0; k < nmiss && ok; k++) {
        if ((int)(k % (size_t)np) != me) continue;
        size_t j = miss[k];
        if (!ev->quiet) {
            char where[64] = "", eta[96] = "";
            double left = 0;
            for (size_t q = k; q < nmiss && ev->t_unit > 0; q += (size_t)np) left += predict(ev, (double)prec[miss[q]]);
            if (np > 1) snprintf(where, sizeof where, "; rank %d of %d", me, np);
            if (ev->t_unit > 0) snprintf(eta, sizeof eta, "; about %.0f s left at this precision step", left);
            cli_progress("certify: case %ld: ref at %ld bits (%zu of %zu%s%s; %.0f s elapsed)", id, (long)prec[j],
                         k + 1, nmiss, where, eta, cli_now() - ev->t_start);
        }
        if (!ev->quiet) cli_step_note("case %ld, ref at %ld bits", id, (long)prec[j]);
        double t0 = cli_now();
        status[j] = fn->ref(par, in, out[j], prec[j]);
        double dt = cli_now() - t0;
        ev->t_prev = ev->t_unit; ev->p_prev = ev->p_unit;
        ev->t_unit = dt; ev->p_unit = (double)prec[j];
        ev->mine++;
        if (cstore_pack(status[j], out[j], nf, &mine[k], &minelen[k]) != 0) {
            snprintf(ev->err, sizeof ev->err, "out of memory packing ref's outputs");
            ok = 0;
        }
        if (ok && me == 0
            && cstore_add(ev->store, id, (long)prec[j], mine[k], minelen[k], ev->err, sizeof ev->err) != 0)
            ok = 0;
        if (!ev->quiet) cli_progress("certify: case %ld: %ld bits done in %.1f s", id, (long)prec[j], dt);
    }
    if (!xp_all(ok)) {
        for (size_t k = 0; k < nmiss; k++) free(mine[k]);
        return -1;
    }
    /* 3. every result to every process, in order */
    for (size_t k = 0; k < nmiss && np > 1; k++) {
        int owner = (int)(k % (size_t)np);
        size_t j = miss[k];
        char *buf = owner == me ? mine[k] : NULL;
        size_t len = owner == me ? minelen[k] : 0;
        if (xp_bcast(&buf, &len, owner) != 0) {
            snprintf(ev->err, sizeof ev->err, "the transport failed giving out case %ld at %ld bits", id,
                     (long)prec[j]);
            ok = 0;
        }
        if (ok && owner != me) {
            if (cstore_unpack(buf, len, nf, &status[j], out[j]) != 0) {
                snprintf(ev->err, sizeof ev->err, "malformed bytes from rank %d (case %ld, %ld bits)", owner, id,
                         (long)prec[j]);
                ok = 0;
            } else if (me == 0 && cstore_add(ev->store, id, (long)prec[j], buf, len, ev->err, sizeof ev->err) != 0) {
                ok = 0;
            }
        }
        if (owner != me) free(buf);
        if (!xp_all(ok)) break;
    }
    for (size_t k = 0; k < nmiss; k++) free(mine[k]);
    ev->computed += nmiss;
    return ok ? 0 : -1;
}

const char *certify_eval_error(void *arg)
{
    return ((ceval *)arg)->err;
}
