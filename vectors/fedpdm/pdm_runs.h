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

#endif
