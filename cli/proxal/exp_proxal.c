/* SPDX-License-Identifier: Apache-2.0 */
/* exp_proxal.c -- `fedref experiments --only proxal`:
 * 004 Sec. 5, Tables 1-2 (ProxAL: Algorithm 1 against cProx-AL) on the QP
 * settings of Table 1 (exp_proxal_qp.c) and on Neyman-Pearson with the
 * breast-cancer data (exp_proxal_np.c), Table 3 (fairness (28)) on adult-b
 * (exp_proxal_fair.c); ref spot-checks the first outer
 * iterations of both (exp_proxal_ref.c).  exp_proxal.h lists the files. */
#include "../cli.h"
#include "exp_proxal.h"
#include "experiment_registry.h"   /* its own prototype */

int experiment_proxal(exp_ctx *ctx)
{
    exp_plan(ctx, px_qp_runs(ctx) + px_np_runs(ctx) + px_fair_runs(ctx));
    px_fair_plan_kinds(ctx);
    exp_md(ctx, "## 004 (ProxAL): Algorithm 1 against cProx-AL on Table 1's QP and on Neyman-Pearson "
                "(Table 2) with breast-cancer data, fairness (Table 3) on adult-b\n\n"
                "Paper 004 Sec. 5 compares its federated proximal AL method (Algorithm 1, Algorithm 2's inexact "
                "ADMM inside) with the centralised proximal AL method (cProx-AL, Algorithm 3) on a linearly "
                "constrained QP (Sec. 5.1, Table 1) and on Neyman-Pearson classification (Sec. 5.2, Table 2, "
                "Fig. 1). fedref runs both in fast (binary64, LAPACK), reports the paper's columns beside its "
                "figures and adds what the paper does not report: the true KKT residuals of every output "
                "(Definition 1, certified upper bounds) and the Theorem 3.1 certificate of every run.%s\n\n",
           ctx->quick ? " **Quick mode:** reduced settings and 2 trials: a smoke test, not a reproduction." : "");
    int a = px_part_qp(ctx);
    if (a == 2) return 2;
    int b = px_part_np(ctx);
    if (b == 2) return 2;
    int c = px_part_fair(ctx);
    if (c == 2) return 2;
    return a || b || c ? 1 : 0;
}
