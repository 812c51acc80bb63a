#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Paper 004's QP (25) evaluations, Algorithm 2 and Algorithms 1 and 3 in numpy, against fast.

Usage: proxal_numpy.py [--reps N] DIR

DIR holds what cli/proxal/bench_proxal.c wrote (it runs this script as a
subprocess): manifest.txt and per setting s the .f64 inputs s{s}_A (n blocks
d x d), _b, _C (n + 1 blocks mt x d, block 0 the server's), _e, _w, _wk, _mu
(n + 1 blocks of mt), _w0, and fast's outputs.  The vectorised numpy a user
would write, the formulas of include/fedfast/proxal.h (every row of QP an
equality; s = 1 / ((n + 1) beta)):

  eval  client 1: f = w^T A_1 w / 2 + b_1^T w, g = A_1 w + b_1, c = C_1 w + e_1,
        J = C_1^T (a view);
  lk    (6): t_i = mu_i + beta c_i(w); l_k = sum_i f_i + sum (mu c + beta c^2 / 2)
        + ||w - w^k||^2 / (2 beta), grad = sum_i (A_i w + b_i) + sum_i C_i^T t_i +
        (w - w^k) / beta (stacked A and C: one batched matmul each);
  pik   (11), i = 1: f_1 + AL_1 + s ||w - w^k||^2 / 2 and its gradient;
  admm  Algorithm 2 on F_i = P_{i,k} from w^k (tau = 0.1, q = 0.95, rho_i = 1,
        (18) as printed): the blocks' matrices H_0 + (sum rho) I and H_i + rho_i
        I factored once per call, each subproblem (14)/(15) one exact Newton
        step from its warm start unless ||grad phi||_inf <= eps_{t+1} already,
        (16)-(19).  Two formulations, both timed, the faster one reported
        (both printed, so a reader sees the other is not faster):
          "scipy": scipy.linalg.cho_factor / cho_solve (check_finite=False)
                   per block, the clients' gradients by batched matmuls
                   (A @ X[..., None]: one BLAS gemv per client);
          "linalg": numpy.linalg.cholesky, the explicit inverses L^-T L^-1
                   (numpy.linalg.solve on the factor, batched), the batched
                   products by einsum (the earlier script);
  alg1, alg3: Algorithm 1 (the admm above per outer iteration, its factors
        kept for the run) and cProx-AL (Newton on l_k, its constant Hessian
        factored once per run), mu0 = 0, sbar = 0.1, eps1 = eps2 = 1e-3, stop by
        (8).  alg3 is also timed in a third, QP-specific formulation,
        "summed": grad l_k = (sum_i A_i) w + sum_i b_i + C^T t + (w - w^k)/beta,
        one product with the summed matrix instead of one per client.  fast
        also computes the KKT records every outer iteration; numpy does not.
Checked against fast: eval/lk/pik values and gradients (relative to max(1,
|fast|)), admm and the runs' w (max|numpy - fast| / max(1, max|fast|)); the
errors go to DIR/numpy.txt ("ROW SETTING seconds err"), bench_proxal.c
judges them.  Times: CPU (time.process_time), median of reps of an inner
loop of >= 20 ms (runs: of min(reps, 3), one call each).
Exit 0 on success, 2 on a usage or input error, 3 if numpy cannot be imported.
"""
import argparse
import os
import sys
import time

try:
    import numpy as np
except ImportError:
    print("proxal_numpy: numpy is not installed (Debian: python3-numpy)", file=sys.stderr)
    sys.exit(3)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402 (beside this script)
from benchlib import load, rel_to_max1  # noqa: E402

try:
    import scipy
    import scipy.linalg as sla
except ImportError:       # the linalg formulation alone
    scipy = sla = None


def cputime(fn, reps, inner_min=0.02):
    """benchlib.timeit on this process's CPU time (the C side's clock)."""
    return benchlib.timeit(fn, reps, clock=time.process_time, inner_min=inner_min)


def bmv(M, X):
    """The batched products M_i x_i, (k, r, c) by (k, c): matmul, one BLAS call each."""
    return np.matmul(M, X[:, :, None])[:, :, 0]


class QP:
    def __init__(self, A, b, C, e, beta, form="scipy"):
        self.A, self.b, self.C, self.e, self.beta = A, b, C, e, beta
        self.n, self.d = b.shape
        self.s = 1.0 / ((self.n + 1) * beta)
        self.form = form
        self.C1, self.C1T = C[1:], np.ascontiguousarray(np.transpose(C[1:], (0, 2, 1)))

    def eval1(self, w):
        Aw = self.A[0] @ w
        return 0.5 * (w @ Aw) + self.b[0] @ w, Aw + self.b[0], self.C[1] @ w + self.e[1], self.C[1].T

    def lk(self, w, wk, mu):
        Aw = self.A @ w                                   # (n, d)
        c = self.C @ w + self.e                           # (n + 1, mt)
        t = mu + self.beta * c
        dw = w - wk
        v = 0.5 * np.sum(Aw @ w) + np.sum(self.b @ w) + np.sum(mu * c + 0.5 * self.beta * c * c) \
            + (dw @ dw) / (2 * self.beta)
        Ct = t.reshape(-1) @ self.C.reshape(-1, self.d) if self.form == "scipy" \
            else np.einsum("ijk,ij->k", self.C, t)
        g = Aw.sum(axis=0) + self.b.sum(axis=0) + Ct + dw / self.beta
        return v, g

    def pik(self, w, wk, mu):
        Aw = self.A[0] @ w
        c = self.C[1] @ w + self.e[1]
        t = mu[1] + self.beta * c
        dw = w - wk
        v = 0.5 * (w @ Aw) + self.b[0] @ w + np.sum(mu[1] * c + 0.5 * self.beta * c * c) \
            + 0.5 * self.s * (dw @ dw)
        return v, Aw + self.b[0] + self.C[1].T @ t + self.s * dw

    # ---- Algorithm 2 on F_i = P_{i,k} --------------------------------------
    def factors(self, rho):
        """The factors of H_0 + sum(rho) I and H_i + rho_i I, once per
        Algorithm 1 run or admm call: scipy's cho_factor per block, or (linalg)
        the inverses from numpy.linalg.cholesky and a solve on the factor."""
        d, I = self.d, np.eye(self.d)
        CtC = np.matmul(np.transpose(self.C, (0, 2, 1)), self.C)   # (n + 1, d, d)
        M = np.empty((self.n + 1, d, d))
        M[0] = self.beta * CtC[0] + (self.s + rho.sum()) * I
        M[1:] = self.A + self.beta * CtC[1:] + (self.s + rho)[:, None, None] * I
        if self.form == "scipy":
            return [sla.cho_factor(M[i], lower=True, check_finite=False) for i in range(self.n + 1)]
        L = np.linalg.cholesky(M)
        Li = np.linalg.solve(L, np.broadcast_to(I, L.shape))   # L^-1, batched
        return np.transpose(Li, (0, 2, 1)) @ Li          # M^-1 = L^-T L^-1

    def solve(self, Fa, i, g):
        """(H_i + r_i I)^-1 g with the factors of block i."""
        if self.form == "scipy":
            return sla.cho_solve(Fa[i], g, check_finite=False)
        return Fa[i] @ g

    def grad_clients(self, X, wk, mu):
        """grad F_i at the rows of X (n, d), i = 1..n."""
        if self.form == "scipy":
            t = mu[1:] + self.beta * (bmv(self.C1, X) + self.e[1:])
            return bmv(self.A, X) + self.b + bmv(self.C1T, t) + self.s * (X - wk)
        c = np.einsum("imk,ik->im", self.C[1:], X) + self.e[1:]
        t = mu[1:] + self.beta * c
        return np.einsum("ikl,il->ik", self.A, X) + self.b + np.einsum("imk,im->ik", self.C[1:], t) \
            + self.s * (X - wk)

    def grad_server(self, x, wk, mu):
        t = mu[0] + self.beta * (self.C[0] @ x + self.e[0])
        return self.C[0].T @ t + self.s * (x - wk)

    def admm(self, Fa, w0, wk, mu, rho, tau, q, tmax=10000):
        n = self.n
        G = self.grad_clients(np.broadcast_to(w0, (n, self.d)), wk, mu)
        u = np.tile(w0, (n, 1))
        lam = -G
        ut = w0 - G / rho[:, None]
        x = w0.copy()
        R = rho.sum()
        eps = 1.0
        t = 0
        while t < tmax:
            if t > 0:
                eps *= q
            gp = self.grad_server(x, wk, mu) + R * x - rho @ ut      # (14)
            if np.max(np.abs(gp)) > eps:
                x = x - self.solve(Fa, 0, gp)
            Gx = self.grad_clients(np.broadcast_to(x, (n, self.d)), wk, mu)
            gp = self.grad_clients(u, wk, mu) + lam + rho[:, None] * (u - x)   # (15) at u_i^t
            act = np.max(np.abs(gp), axis=1) > eps
            if self.form == "scipy":                             # the active clients only
                un = u.copy()
                for i in np.flatnonzero(act):
                    un[i] -= self.solve(Fa, i + 1, gp[i])
            else:
                un = u - np.where(act[:, None], np.einsum("ikl,il->ik", Fa[1:], gp), 0.0)
            e18 = np.max(np.abs(Gx + lam - rho[:, None] * (x - u)), axis=1)   # (18) printed
            lam = lam + rho[:, None] * (un - x)                  # (16)
            ut = un + lam / rho[:, None]                         # (17)
            u = un
            t += 1
            if eps + e18.sum() <= tau:                           # (19)
                break
        return x, t

    # ---- Algorithms 1 and 3 ------------------------------------------------
    def lk_summed(self, S, bs, Cs, w, wk, mu):
        """grad l_k for (25) with S = sum_i A_i, bs = sum_i b_i formed once:
        one product with S instead of one with each A_i (QP only)."""
        t = mu.reshape(-1) + self.beta * (Cs @ w + self.e.reshape(-1))
        return S @ w + bs + t @ Cs + (w - wk) / self.beta

    def run(self, alg3, w0, rho, q, beta, sbar=0.1, eps1=1e-3, eps2=1e-3, kmax=10000, summed=False):
        """summed (alg3): the gradient of l_k by lk_summed, the other
        formulations through lk, owner by owner, as fast does."""
        mt = self.C.shape[1]
        wk, mu = w0.copy(), np.zeros((self.n + 1, mt))
        if alg3:
            Cs = self.C.reshape(-1, self.d)
            S, bs = self.A.sum(axis=0), self.b.sum(axis=0)
            H = S + beta * (Cs.T @ Cs) + np.eye(self.d) / beta
            if self.form == "scipy":
                Hf = [sla.cho_factor(H, lower=True, check_finite=False)]
            else:
                Li = np.linalg.solve(np.linalg.cholesky(H), np.eye(self.d))
                Hf = [Li.T @ Li]
        else:
            Fa = self.factors(rho)
        k = 0
        for k in range(kmax):
            tau = sbar / ((k + 1.0) * (k + 1.0))
            if alg3:
                x = wk.copy()
                for _ in range(51):
                    g = self.lk_summed(S, bs, Cs, x, wk, mu) if summed else self.lk(x, wk, mu)[1]
                    if np.max(np.abs(g)) <= tau:
                        break
                    x = x - self.solve(Hf, 0, g)
            else:
                x, _ = self.admm(Fa, wk, wk, mu, rho, min(tau, 1.0), q)
            mun = mu + beta * (self.C @ x + self.e)
            dw, dmu = np.max(np.abs(x - wk)), np.max(np.abs(mun - mu))
            wk, mu = x, mun
            if dw + beta * tau <= beta * eps1 and dmu <= beta * eps2:   # (8)
                break
        return wk, k + 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--reps", type=int, default=0)
    a = ap.parse_args()
    try:
        lines = open(os.path.join(a.dir, "manifest.txt")).read().splitlines()
    except OSError as e:
        print("proxal_numpy: error: %s" % e, file=sys.stderr)
        return 2
    reps, settings, fast = a.reps, [], {}
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "reps":
            reps = reps or int(f[1])
        elif f[0] == "setting":
            settings.append([int(x) for x in f[1:5]] + [float.fromhex(f[5]), int(f[6])])
        elif f[0] in ("eval", "lk", "pik"):
            fast[(f[0], int(f[1]))] = float.fromhex(f[2])
        elif f[0] in ("admm", "alg1", "alg3"):
            fast[(f[0], int(f[1]))] = int(f[2])
        else:
            print("proxal_numpy: error: unknown manifest line: %s" % line, file=sys.stderr)
            return 2
    reps = max(reps, 1)
    print("  numpy %s, OPENBLAS_NUM_THREADS=%s" % (np.__version__,
                                                  os.environ.get("OPENBLAS_NUM_THREADS", "(unset)")))
    forms = ["scipy", "linalg"] if sla is not None else ["linalg"]
    print("  proxal_numpy: formulations %s%s; each row reports the faster (both printed, us)"
          % (", ".join(forms), "" if sla is None else " (scipy %s)" % scipy.__version__))
    out = []
    try:
        for s, n, d, mt, beta, runs in settings:
            data = (load(a.dir, "s%d_A" % s, n * d * d).reshape(n, d, d), load(a.dir, "s%d_b" % s, n * d).reshape(n, d),
                    load(a.dir, "s%d_C" % s, (n + 1) * mt * d).reshape(n + 1, mt, d),
                    load(a.dir, "s%d_e" % s, (n + 1) * mt).reshape(n + 1, mt), beta)
            w, wk = load(a.dir, "s%d_w" % s, d), load(a.dir, "s%d_wk" % s, d)
            mu = load(a.dir, "s%d_mu" % s, (n + 1) * mt).reshape(n + 1, mt)
            rho = np.ones(n)
            rows = {}                                   # name -> [(seconds, err, form)]
            for form in forms:
                Q = QP(*data, form=form)
                f, g, c, _ = Q.eval1(w)
                err = max(rel_to_max1(f, fast[("eval", s)]), rel_to_max1(g, load(a.dir, "s%d_eval" % s, d)),
                          rel_to_max1(c, load(a.dir, "s%d_eval_c" % s, mt)))
                rows.setdefault("eval", []).append((cputime(lambda: Q.eval1(w), reps), err, form))
                v, g = Q.lk(w, wk, mu)
                err = max(rel_to_max1(v, fast[("lk", s)]), rel_to_max1(g, load(a.dir, "s%d_lk" % s, d)))
                rows.setdefault("lk", []).append((cputime(lambda: Q.lk(w, wk, mu), reps), err, form))
                v, g = Q.pik(w, wk, mu)
                err = max(rel_to_max1(v, fast[("pik", s)]), rel_to_max1(g, load(a.dir, "s%d_pik" % s, d)))
                rows.setdefault("pik", []).append((cputime(lambda: Q.pik(w, wk, mu), reps), err, form))

                def admm():
                    return Q.admm(Q.factors(rho), wk, wk, mu, rho, 0.1, 0.95)
                x, it = admm()
                err = rel_to_max1(x, load(a.dir, "s%d_admm_w" % s, d))
                if it != fast[("admm", s)]:
                    print("  proxal_numpy: admm setting %d (%s): %d iterations, fast %d"
                          % (s, form, it, fast[("admm", s)]))
                rows.setdefault("admm", []).append((cputime(admm, reps), err, form))
                if runs:
                    w0 = load(a.dir, "s%d_w0" % s, d)
                    rr = min(reps, 3)
                    for name, alg3 in (("alg1", 0), ("alg3", 1)):
                        x, k = Q.run(alg3, w0, rho, 0.95, beta)
                        err = rel_to_max1(x, load(a.dir, "s%d_%s" % (s, name), d))
                        if k != fast[(name, s)]:
                            print("  proxal_numpy: %s (%s): %d outer iterations, fast %d"
                                  % (name, form, k, fast[(name, s)]))
                        rows.setdefault(name, []).append(
                            (cputime(lambda: Q.run(alg3, w0, rho, 0.95, beta), rr, inner_min=0.0), err, form))
                    if form == forms[0]:                # alg3 with one summed matrix (QP-specific)
                        x, k = Q.run(1, w0, rho, 0.95, beta, summed=True)
                        err = rel_to_max1(x, load(a.dir, "s%d_alg3" % s, d))
                        rows["alg3"].append((cputime(lambda: Q.run(1, w0, rho, 0.95, beta, summed=True), rr,
                                                     inner_min=0.0), err, "summed"))
            cells = []
            for name in ("eval", "lk", "pik", "admm", "alg1", "alg3"):
                if name not in rows:
                    continue
                best = min(rows[name])
                # the faster formulation's time; the larger error of the two (neither may disagree)
                out.append("%s %d %r %r" % (name, s, best[0], max(r[1] for r in rows[name])))
                cells.append("%s %s" % (name, "/".join("%.4g" % (1e6 * r[0]) for r in rows[name])))
            print("  proxal_numpy: n d mt %d %d %d: %s" % (n, d, mt, ", ".join(cells)))
    except (OSError, ValueError, KeyError, np.linalg.LinAlgError) as e:
        print("proxal_numpy: error: %s" % e, file=sys.stderr)
        return 2
    with open(os.path.join(a.dir, "numpy.txt"), "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
