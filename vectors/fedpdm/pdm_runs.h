/* SPDX-License-Identifier: Apache-2.0 */
/* pdm_runs.h -- the checkpoint files of Algorithm 1 of 003 (pdm_runs.c):
 * the tolerance shared with the audit (cli/fedpdm/audit_runs.c). */
#ifndef FEDREF_VECTORS_PDM_RUNS_H
#define FEDREF_VECTORS_PDM_RUNS_H

/* The tolerance of fast on a checkpoint (rel = abs), empirical: the
 * largest relative error measured between fast and ref on the committed
 * files and in the audit is in docs/VECTORS.md (fedpdm_run rows); 2^-32
 * (the other run vectors' tolerance) leaves a wide margin.  Not a proved
 * bound (fedfast/fedpdm.h: no error bound on a trajectory; a rule-11
 * decision taken differently would exceed any tol, so the golden problems
 * keep every ||v||^2 far from nu). */
#define VPDM_RUN_TOL 0x1p-32

/* The schema's bound on a run (FR_ESIZE beyond it, in both wings, before
 * the run starts): T (N Qmax b + (T + 1) D_tot) m n <= VPDM_WORK_MAX
 * (2^17), the local gradients plus (21) and (24) at every state, so that a
 * case is checked in well under a second at the checker's precisions (the
 * largest committed case, fedpdm_run_partial's N = 6, m = 3, n = 4, T = 5,
 * is 17280).  vpdm_work_max is VPDM_WORK_MAX (the fuzz target lowers it). */
#define VPDM_WORK_MAX (1ul << 17)
extern unsigned long vpdm_work_max;

#endif
