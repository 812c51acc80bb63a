/* SPDX-License-Identifier: Apache-2.0 */
/* run_fedepm_dp.c -- vector function fedepm_dp: checkpoints of FedEPM, 002
 * Algorithm 2, under fedref's certified noise rule and (27) with c = 0
 * (docs/FEDEPM.md section 9): the schema of runs.c, the privacy cases of
 * vrun_golden_dp.  Not a vrun_algo (the trajectory audit runs its own
 * configurations). */
#include "runs.h"

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    return vrun_ref(fr_fedepm_run, par, in, out, prec);
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    return vrun_fast(ff_fedepm_run, par, in, out);
}

const vfunc vfunc_fedepm_dp = {"fedepm_dp", "002 Algorithm 2 with fedref's certified noise rule and (27), c = 0; docs/FEDEPM.md section 9",
                               vrun_params, vrun_inputs, vrun_expects, ref, fast, vrun_tol, vrun_golden_dp,
                               vrun_sample_dp, VRUN_SWEEP_MAX, 1, .data = &vrun_data};
