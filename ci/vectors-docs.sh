#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The checkpoint files of 002 and 000 must follow from the docs alone:
# docs/rng_reference.py (Python, standard library only, written from
# docs/RNG.md, docs/FEDEPM.md section 6 and docs/VECTORS.md) regenerates
# every input (d, X, b, Delta) and every selection `sel` of
# vectors/{fedepm,sfedavg,sfedprox,fedepm_dp}.json from the data
# description and run seed in each case comment, and compares them
# exactly; it also recomputes cr, the record shapes, the stopping decision,
# the initial scales nu0 and the noise of each client's last upload from
# its noise stream.  The same for the SSCA runs of 000
# (vectors/ssca_alg1.json .. ssca_sgdm_f.json), from docs/RNG.md 3.9 and
# docs/SSCA.md sections 5, 6 and 10: the inputs of fr_ssca_synth and
# fr_ssca_init_w, every mini-batch index, the reals per round, the shapes,
# norm2, cons and the Lemma 1 records.  The same for the runs of 003's
# Algorithm 1 (vectors/fedpdm_run_{full,partial,noise,rule11}.json), from
# docs/RNG.md 3.10 and docs/FEDPDM.md sections 4.5 and 5: the inputs (the
# synthetic problem, x0, eta, sigma), the participation S_t, every
# mini-batch index, Q/capped against (11), the scales sigma_{i,t}, the last
# server step with the noise of each client's last upload, and (21)'s parts
# at the first and last states.  The same for the runs of 004
# (vectors/proxal_admm.json, proxal_alg1.json, proxal_alg3.json), from
# docs/RNG.md 3.11 and docs/PROXAL.md sections 2, 4 and 5: every input
# (fr_proxal_gen_qp / fr_proxal_gen_lg data, the state wk, mu or the start
# w0, mu0, and rho) bit for bit from the case comment, the record shapes,
# eps = q^(iters-1), tau_k, dw, inner_ok, the decision (8), thm31_ok, and
# for QP kkt2, feas, dmu, obj and the final mu from c(w^{k+1}); and the seeded
# inputs of kkt_residual and proxal_lk (the generated QP, the "random
# dyadic" cases of stream (2024, 0)).  Any drift between docs and files
# fails.
set -eu
dir=${1:-vectors}
command -v python3 >/dev/null 2>&1 || { echo "vectors-docs: python3 not found (make deps)" >&2; exit 1; }
python3 docs/rng_reference.py --vectors "$dir"
echo "vectors-docs: the checkpoint inputs and selections follow from the docs"
