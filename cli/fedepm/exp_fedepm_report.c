/* SPDX-License-Identifier: Apache-2.0 */
/* exp_fedepm_report.c -- the report of the experiment `fedepm`: the
 * statistics over trials, the summary CSV files, the plots (Figs. 2-5),
 * the tables beside the paper's Table I, and one verdict per claim of 002
 * Sec. VII-C (exp_fedepm.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../cli.h"
#include "exp_fedepm.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* linear interpolation between order statistics */
static double quantile(const double *v, size_t k, double p)
{
    if (k == 0) return NAN;
    double h = p * (double)(k - 1);
    size_t i = (size_t)h;
    if (i + 1 >= k) return v[k - 1];
    double lo = v[i], hi = v[i + 1], fr = h - (double)i;
    if (lo == hi || fr == 0) return lo;
    if (!isfinite(lo) || !isfinite(hi)) return fr < 0.5 ? lo : hi;   /* +-Inf: the nearer one */
    return lo + fr * (hi - lo);
}

static efp_stat stat_of(const efp_result *r, size_t k, size_t off)
{
    double v[256];
    size_t nv = 0;
    double s = 0;
    for (size_t t = 0; t < k && nv < 256; t++) {
        double x = *(const double *)((const char *)&r[t] + off);
        if (isnan(x)) continue;
        v[nv++] = x;
        s += x;
    }
    qsort(v, nv, sizeof *v, cmp_double);
    return (efp_stat){nv ? s / (double)nv : NAN, quantile(v, nv, 0.5), quantile(v, nv, 0.25),
                      quantile(v, nv, 0.75)};
}

void efp_summarise(const efp_result *r, size_t k, efp_summary *s)
{
    efp_result tmp[256];
    size_t kk = k < 256 ? k : 256;
    s->capped = 0;
    for (size_t t = 0; t < kk; t++) {
        tmp[t] = r[t];
        tmp[t].eps_basic = (double)r[t].cr;   /* CR as a double, in a spare field */
        s->capped += r[t].stop == FR_STOP_ROUNDS;
    }
    s->cr = stat_of(tmp, kk, offsetof(efp_result, eps_basic));
    s->tct = stat_of(tmp, kk, offsetof(efp_result, tct));
    s->lct = stat_of(tmp, kk, offsetof(efp_result, lct));
    s->fm = stat_of(tmp, kk, offsetof(efp_result, fm));
    s->snr = stat_of(tmp, kk, offsetof(efp_result, snr));
    s->acc = stat_of(tmp, kk, offsetof(efp_result, acc));
}

/* The configurations of group g (and m, 0 = any) in order. */
static size_t select_cfg(const efp_all *a, char g, size_t m, size_t *idx)
{
    size_t k = 0;
    for (size_t c = 0; c < a->ncfg; c++)
        if (a->cfg[c].grp == g && (m == 0 || a->cfg[c].m == m)) idx[k++] = c;
    return k;
}

static double xval(const efp_cfg *c)
{
    return c->grp == 'K' || c->grp == 'W' ? (double)c->k0 : c->grp == 'R' ? c->rho : c->eps;
}

static const efp_summary *S(const efp_all *a, size_t c, int alg)
{
    return &a->sum[c * EFP_NALG + alg];
}

/* The summary of a group as CSV: x, then per algorithm 12 columns. */
static int write_sum(exp_ctx *ctx, const efp_all *a, const char *file, const size_t *idx, size_t k)
{
    char hdr[2048] = "x";
    static const char *const col[] = {"cr_mean", "cr_med", "cr_q25", "cr_q75", "tct_mean",
                                      "tct_med", "lct_mean", "fm_med", "snr_med", "snr_q25",
                                      "snr_q75", "acc_med"};
    for (int al = 0; al < EFP_NALG; al++)
        for (size_t j = 0; j < 12; j++) {
            strcat(hdr, ",");
            strcat(hdr, efp_alg_name[al]);
            strcat(hdr, "_");
            strcat(hdr, col[j]);
        }
    FILE *f = exp_csv_open(ctx, file, hdr);
    if (f == NULL) return 2;
    for (size_t i = 0; i < k; i++) {
        fprintf(f, "%g", xval(&a->cfg[idx[i]]));
        for (int al = 0; al < EFP_NALG; al++) {
            const efp_summary *s = S(a, idx[i], al);
            fprintf(f, ",%g,%g,%g,%g,%g,%g,%g,%.8g,%g,%g,%g,%g", s->cr.mean, s->cr.med, s->cr.q25,
                    s->cr.q75, s->tct.mean, s->tct.med, s->lct.mean, s->fm.med, s->snr.med,
                    s->snr.q25, s->snr.q75, s->acc.med);
        }
        fprintf(f, "\n");
    }
    return exp_csv_close(ctx, f, file);
}

/* gnuplot column of algorithm al, statistic j (0-based as in write_sum). */
static int gc(int al, int j)
{
    return 2 + 12 * al + j;
}

/* The paper's Table I (LCT in seconds; columns SFedAvg, SFedProx, FedEPM as
 * printed; its second block is headed m = 128 while the text says m = 100). */
static const double table1[2][5][3] = {
    {{0.0037, 0.0082, 0.0011}, {0.0067, 0.0155, 0.0015}, {0.0096, 0.0226, 0.0018},
     {0.0125, 0.0293, 0.0021}, {0.0148, 0.0360, 0.0023}},
    {{0.0058, 0.0109, 0.0019}, {0.0097, 0.0198, 0.0024}, {0.0132, 0.0279, 0.0030},
     {0.0172, 0.0359, 0.0036}, {0.0213, 0.0457, 0.0041}}};

static const char *const color[EFP_NALG] = {"#d62728", "#1f77b4", "#2ca02c"};

static int report_k0(exp_ctx *ctx, const efp_all *a, char grp)
{
    size_t idx[16];
    int rc = 0;
    const size_t ms[2] = {50, 100};
    const int W = grp == 'W';
    const char *regime = W ? " [weak noise, eps = 1e5]" : "";
    if (select_cfg(a, grp, 0, idx) == 0) return 0;
    exp_md(ctx, W ? "### Effect of k0 with weak noise (eps = 1e5; ours: the regime where the runs converge)\n\n"
                  : "### Effect of k0 (Fig. 3, Table I; Fig. 2 for f/m)\n\n");
    /* Fig. 2: the objective per aggregation, first trial, m = 50 */
    char script[8192];
    if (!W) {
        size_t k = select_cfg(a, 'K', 50, idx), np = 0, pick[3];
        for (size_t i = 0; i < k && np < 3; i++) {
            unsigned long k0 = a->cfg[idx[i]].k0;
            if (k0 == 4 || k0 == 12 || k0 == 20) pick[np++] = idx[i];
        }
        int o = snprintf(script, sizeof script,
                         "set datafile separator ','\nset multiplot layout 1,%zu title '002 Fig. 2: f(w)/m per communication round, %s, m = 50, eps = 0.1, rho = 0.5 (trial 1)'\n"
                         "set logscale y\nset format y '10^{%%L}'\nset xlabel 'communication rounds (CR)'\nset ylabel 'f(w)/m'\nset key bottom right font ',8'\nset grid\n"
                         /* 3 to 5 x tics in a third of the width: a 1-2-5 step */
                         "step(m) = (q = m / 2.0, s = 10**floor(log10(q)), q / s >= 5 ? 5 * s : q / s >= 2 ? 2 * s : s)\n", np, a->dname);
        for (size_t i = 0; i < np; i++) {
            const efp_cfg *c = &a->cfg[pick[i]];
            o += snprintf(script + o, sizeof script - (size_t)o, "%sset title 'k0 = %lu'\nmx = 1\n", i ? "unset key\n" : "", c->k0);
            for (int al = 0; al < EFP_NALG; al++)
                o += snprintf(script + o, sizeof script - (size_t)o,
                              "stats 'fedepm_traj_K_m50_k%lu_rho0.5_eps0.1_%s.csv' using 2 every ::1 nooutput\n"
                              "mx = STATS_max > mx ? STATS_max : mx\n", c->k0, efp_alg_name[al]);
            o += snprintf(script + o, sizeof script - (size_t)o, "set xtics 0, step(mx)\nplot ");
            for (int al = 0; al < EFP_NALG; al++)
                o += snprintf(script + o, sizeof script - (size_t)o,
                              "'fedepm_traj_K_m50_k%lu_rho0.5_eps0.1_%s.csv' using 2:3 every ::1 with lines lw 2 dt %d lc rgb '%s' title '%s'%s",
                              c->k0, efp_alg_name[al], al + 1, color[al], efp_alg_name[al], al + 1 < EFP_NALG ? ", " : "\n");
        }
        snprintf(script + o, sizeof script - (size_t)o, "unset multiplot\n");
        if (np && exp_plot(ctx, "fedepm_fig2_objective.png", "f(w)/m per CR (cf. Fig. 2)", script) != 0) return 2;
    }
    double worst_fm_gap = 0, fm_ref = 0;
    int fewest_cr = 1, fastest = 1, lct_lowest = 1, prox_lct_highest = 1, prox_fewer_cr = 1;
    int mono_cr[EFP_NALG] = {1, 1, 1}, mono_tct[EFP_NALG] = {1, 1, 1};
    size_t ncases = 0, n_prox_fewer = 0, n_tie_cap = 0, n_fewest = 0, n_fastest = 0, ncapped[EFP_NALG] = {0}, nruns = 0;
    double lct_ratio_min = INFINITY, lct_ratio_max = 0;
    for (int im = 0; im < 2; im++) {
        size_t k = select_cfg(a, grp, ms[im], idx);
        if (k == 0) continue;
        char file[64];
        snprintf(file, sizeof file, "fedepm_sum_%c_m%zu.csv", grp, ms[im]);
        if (write_sum(ctx, a, file, idx, k) != 0) return 2;
        exp_md(ctx, "m = %zu (paper's Table I: %s). Means over %zu trial%s; capped = runs that "
                    "reached R = %lu without the stopping rule firing (of %zu).\n\n"
                    "| k0 | CR FedEPM | CR SFedAvg | CR SFedProx | capped E/A/P | TCT s E/A/P | "
                    "LCT ms E/A/P | paper LCT ms E/A/P | f/m (median) E/A/P | accuracy E/A/P |\n"
                    "|---|---|---|---|---|---|---|---|---|---|\n",
               ms[im], ms[im] == 50 ? "m = 50, at eps = 0.1" : "the block headed m = 128; the text says 100",
               a->T, a->T == 1 ? " (one run, no mean)" : "s", a->cap, a->T);
        for (size_t i = 0; i < k; i++) {
            const efp_cfg *c = &a->cfg[idx[i]];
            const efp_summary *e = S(a, idx[i], 0), *v = S(a, idx[i], 1), *p = S(a, idx[i], 2);
            int kk = (int)(c->k0 / 4) - 1;
            exp_md(ctx, "| %lu | %.1f | %.1f | %.1f | %zu/%zu/%zu | %.3f / %.3f / %.3f | "
                        "%.3f / %.3f / %.3f | %.1f / %.1f / %.1f | %.4g / %.4g / %.4g | "
                        "%.3f / %.3f / %.3f |\n",
                   c->k0, e->cr.mean, v->cr.mean, p->cr.mean, e->capped, v->capped, p->capped,
                   e->tct.mean, v->tct.mean, p->tct.mean, 1e3 * e->lct.mean, 1e3 * v->lct.mean,
                   1e3 * p->lct.mean, 1e3 * table1[im][kk][2], 1e3 * table1[im][kk][0],
                   1e3 * table1[im][kk][1], e->fm.med, v->fm.med, p->fm.med, e->acc.med,
                   v->acc.med, p->acc.med);
            /* the claims */
            ncases++;
            nruns += a->T;
            for (int al = 0; al < EFP_NALG; al++) ncapped[al] += S(a, idx[i], al)->capped;
            double fmn = fmin(e->fm.med, fmin(v->fm.med, p->fm.med));
            double fmax_ = fmax(e->fm.med, fmax(v->fm.med, p->fm.med));
            if (c->k0 == 4 || c->k0 == 12 || c->k0 == 20) {
                double gap = (fmax_ - fmn) / fmn;
                if (gap > worst_fm_gap) { worst_fm_gap = gap; fm_ref = fmn; }
            }
            int few = e->cr.mean < v->cr.mean && e->cr.mean < p->cr.mean;
            int fast = e->tct.mean < v->tct.mean && e->tct.mean < p->tct.mean;
            n_fewest += few;
            n_fastest += fast;
            fewest_cr &= few;
            fastest &= fast;
            lct_lowest &= e->lct.mean < v->lct.mean && e->lct.mean < p->lct.mean;
            prox_lct_highest &= p->lct.mean > v->lct.mean && p->lct.mean > e->lct.mean;
            n_prox_fewer += p->cr.mean < v->cr.mean;
            n_tie_cap += p->capped == a->T && v->capped == a->T;
            prox_fewer_cr &= p->cr.mean < v->cr.mean;
            lct_ratio_min = fmin(lct_ratio_min, v->lct.mean / e->lct.mean);
            lct_ratio_max = fmax(lct_ratio_max, v->lct.mean / e->lct.mean);
            if (i > 0)
                for (int al = 0; al < EFP_NALG; al++) {
                    mono_cr[al] &= S(a, idx[i], al)->cr.mean <= S(a, idx[i - 1], al)->cr.mean;
                    mono_tct[al] &= S(a, idx[i], al)->tct.mean <= S(a, idx[i - 1], al)->tct.mean;
                }
        }
        exp_md(ctx, "\n");
    }
    (void)fm_ref;
    /* Fig. 3: CR and TCT against k0 */
    {
        int o = snprintf(script, sizeof script,
                         "set datafile separator ','\nset multiplot layout 1,2 title '002 Fig. 3: effect of k0 (%s, eps = %s, rho = 0.5; means over %zu trial%s; CR capped at %lu)'\n"
                         "set xlabel 'k0 (local steps between communications)'\nset xtics 4\nset grid\nset key top right font ',7'\nset offsets 0.8,0.8,0,0\n"
                         "set yrange [0:%g]\n", a->dname, W ? "1e5" : "0.1", a->T, a->T == 1 ? "" : "s", a->cap, 1.4 * (double)a->cap);
        for (int panel = 0; panel < 2; panel++) {
            o += snprintf(script + o, sizeof script - (size_t)o, "%s\nset ylabel '%s'\nplot ",
                          panel ? "set logscale y\nunset key\nset autoscale y" : "unset logscale y\nset key top right width -4",
                          panel ? "total computational time TCT (s)" : "communication rounds CR");
            for (int im = 0; im < 2; im++) {
                size_t k = select_cfg(a, grp, ms[im], idx);
                if (k == 0) continue;
                for (int al = 0; al < EFP_NALG; al++)
                    o += snprintf(script + o, sizeof script - (size_t)o,
                                  "%s'fedepm_sum_%c_m%zu.csv' using ($1+%g):%d every ::1 with linespoints lw 2 dt %d pt %d lc rgb '%s' title '%s, m = %zu'",
                                  (im || al) ? ", " : "", grp, ms[im], 0.25 * (al - 1) + 0.08 * im,
                                  gc(al, panel ? 4 : 0), im ? 2 : 1, im ? 6 : 7, color[al], efp_alg_name[al], ms[im]);
            }
            if (panel == 0)   /* runs at the cap are censored: say so where they lie */
                o += snprintf(script + o, sizeof script - (size_t)o,
                              ", %lu with lines dt 3 lw 1 lc rgb 'black' title 'round cap R = %lu (censored)'",
                              a->cap, a->cap);
            o += snprintf(script + o, sizeof script - (size_t)o, "\n");
        }
        snprintf(script + o, sizeof script - (size_t)o, "unset multiplot\n");
        if (exp_plot(ctx, W ? "fedepm_fig3_k0_weak.png" : "fedepm_fig3_k0.png",
                     W ? "CR and TCT against k0, weak noise (eps = 1e5)" : "CR and TCT against k0 (cf. Fig. 3)", script) != 0)
            return 2;
    }
    /* verdicts */
    char claim[256], capnote[256];
    snprintf(capnote, sizeof capnote, "runs that reached the cap R = %lu (CR censored): FedEPM %zu, SFedAvg %zu, SFedProx %zu of %zu each",
             a->cap, ncapped[0], ncapped[1], ncapped[2], nruns);
    if (!W) {
        exp_verdict(ctx, "the three algorithms eventually approach the same f(w)/m", "Fig. 2, Sec. VII-C 1)",
                    worst_fm_gap < 0.05 ? EXP_HOLDS : EXP_FAILS,
                    "largest relative spread of the median final f/m over the algorithms at k0 in {4, 12, 20}: %.3g "
                    "(holds if < 5%%); %s",
                    worst_fm_gap, worst_fm_gap < 0.05 ? "all three settle at the same value" : "SFedAvg and SFedProx do not settle at FedEPM's value within the round cap under noise (39): the noise, whose scale (39) grows with ||g_i||_1 and so with beta ||w||, drives the averaged server point away (see the plot)");
    } else {
        exp_verdict(ctx, "the three algorithms eventually approach the same f(w)/m [weak noise, eps = 1e5]", "Fig. 2, Sec. VII-C 1)",
                    worst_fm_gap < 0.05 ? EXP_HOLDS : EXP_FAILS,
                    "largest relative spread of the median final f/m over the algorithms at k0 in {4, 12, 20}: %.3g (holds if < 5%%)",
                    worst_fm_gap);
    }
    int ncens = ncapped[0] + ncapped[1] + ncapped[2] == 3 * nruns;
    int mono_all = mono_cr[0] && mono_cr[1] && mono_cr[2] && mono_tct[0] && mono_tct[1] && mono_tct[2];
    snprintf(claim, sizeof claim, "the bigger k0, the fewer CR and the shorter TCT%s", regime);
    exp_verdict(ctx, claim, "Fig. 3",
                ncens ? EXP_UNTESTED : mono_all ? EXP_HOLDS : mono_cr[0] || mono_tct[0] ? EXP_PARTLY : EXP_FAILS,
                "mean CR non-increasing in k0: FedEPM %s, SFedAvg %s, SFedProx %s; mean TCT "
                "non-increasing: FedEPM %s, SFedAvg %s, SFedProx %s; %s (a capped run has CR = R "
                "whatever k0, and its TCT grows with k0: k0 local steps per round)",
                mono_cr[0] ? "yes" : "no", mono_cr[1] ? "yes" : "no", mono_cr[2] ? "yes" : "no",
                mono_tct[0] ? "yes" : "no", mono_tct[1] ? "yes" : "no", mono_tct[2] ? "yes" : "no", capnote);
    snprintf(claim, sizeof claim, "FedEPM uses the fewest CR and runs the fastest%s", regime);
    exp_verdict(ctx, claim, "Fig. 3",
                ncens ? EXP_UNTESTED : fewest_cr && fastest ? EXP_HOLDS : n_fewest + n_fastest > 0 ? EXP_PARTLY : EXP_FAILS,
                "fewest mean CR in %zu of %zu (m, k0) settings, shortest mean TCT in %zu of %zu; %s",
                n_fewest, ncases, n_fastest, ncases, capnote);
    snprintf(claim, sizeof claim, "SFedProx needs fewer CR than SFedAvg%s", regime);
    exp_verdict(ctx, claim, "Fig. 3, Sec. VII-C 2)",
                ncapped[1] + ncapped[2] == 2 * nruns ? EXP_UNTESTED : prox_fewer_cr ? EXP_HOLDS : n_prox_fewer ? EXP_PARTLY : EXP_FAILS,
                "fewer mean CR in %zu of %zu settings (in %zu both hit the cap in every trial: a tie that tests nothing); %s",
                n_prox_fewer, ncases, n_tie_cap, capnote);
    snprintf(claim, sizeof claim, "FedEPM has the lowest LCT, SFedProx the highest%s", regime);
    exp_verdict(ctx, claim, "Table I",
                lct_lowest && prox_lct_highest ? EXP_HOLDS : lct_lowest || prox_lct_highest ? EXP_PARTLY : EXP_FAILS,
                "FedEPM lowest in every setting: %s; SFedProx highest in every setting: %s; "
                "SFedAvg/FedEPM LCT ratio %.2g to %.2g (Table I: 3.4 to 6.4 at m = 50, 3.1 to 5.2 at m = 128)",
                lct_lowest ? "yes" : "no", prox_lct_highest ? "yes" : "no", lct_ratio_min, lct_ratio_max);
    return rc;
}

static int report_rho_eps(exp_ctx *ctx, const efp_all *a, char g)
{
    size_t idx[16];
    size_t k = select_cfg(a, g, 0, idx);
    if (k == 0) return 0;
    const int R = g == 'R';
    char file[64], script[8192];
    snprintf(file, sizeof file, "fedepm_sum_%c.csv", g);
    if (write_sum(ctx, a, file, idx, k) != 0) return 2;
    exp_md(ctx, "### Effect of %s (Fig. %d)\n\n%s. Medians [quartiles] over %zu trial%s.\n\n"
                "| %s | CR FedEPM | CR SFedAvg | CR SFedProx | TCT s E/A/P (median) | SNR FedEPM | SNR SFedAvg | SNR SFedProx |\n"
                "|---|---|---|---|---|---|---|---|\n",
           R ? "rho" : "eps", R ? 4 : 5, R ? "(eps, k0, m) = (0.1, 12, 50)" : "(rho, k0, m) = (0.5, 12, 50)",
           a->T, a->T == 1 ? " (one run: no spread)" : "s", R ? "rho" : "eps");
    for (size_t i = 0; i < k; i++) {
        exp_md(ctx, "| %.1f ", xval(&a->cfg[idx[i]]));
        for (int al = 0; al < EFP_NALG; al++) {
            const efp_summary *s = S(a, idx[i], al);
            exp_md(ctx, "| %.0f [%.0f, %.0f] ", s->cr.med, s->cr.q25, s->cr.q75);
        }
        exp_md(ctx, "| %.3f / %.3f / %.3f ", S(a, idx[i], 0)->tct.med, S(a, idx[i], 1)->tct.med,
               S(a, idx[i], 2)->tct.med);
        for (int al = 0; al < EFP_NALG; al++) {
            const efp_summary *s = S(a, idx[i], al);
            exp_md(ctx, "| %.2f [%.2f, %.2f] ", s->snr.med, s->snr.q25, s->snr.q75);
        }
        exp_md(ctx, "|\n");
    }
    exp_md(ctx, "\n");
    int o = snprintf(script, sizeof script,
                     "set datafile separator ','\nset multiplot layout 1,2 title '002 Fig. %d: effect of %s (%s, %s; medians and quartiles over %zu trial%s)'\n"
                     "set xlabel '%s'\nset xtics 0.2\nset grid\nset key top right font ',8' width -4\nset offsets 0.05,0.05,0,0\n"
                     "set yrange [0:%g]\n",
                     R ? 4 : 5, R ? "rho" : "eps", a->dname, R ? "eps = 0.1, k0 = 12, m = 50" : "rho = 0.5, k0 = 12, m = 50", a->T,
                     a->T == 1 ? "" : "s", R ? "rho" : "eps", 1.4 * (double)a->cap);
    for (int panel = 0; panel < 2; panel++) {
        int j = panel == 0 ? 1 : (R ? 5 : 8);
        o += snprintf(script + o, sizeof script - (size_t)o, "%sset ylabel '%s'\n%s\nplot ", panel ? "unset key\nset autoscale y\n" : "",
                      panel == 0 ? "communication rounds CR" : R ? "total computational time TCT (s)"
                                                                  : "SNR = min_i log10(||w_i|| / ||noise_i||)",
                      panel == 1 && R ? "set logscale y" : "unset logscale y");
        for (int al = 0; al < EFP_NALG; al++) {
            double dx = 0.01 * (al - 1);
            if (panel == 0 || !R)
                o += snprintf(script + o, sizeof script - (size_t)o,
                              "%s'%s' using ($1+%g):%d:%d:%d every ::1 with yerrorlines lw 2 lc rgb '%s' title '%s'",
                              al ? ", " : "", file, dx, gc(al, j), gc(al, j + 1), gc(al, j + 2),
                              color[al], efp_alg_name[al]);
            else
                o += snprintf(script + o, sizeof script - (size_t)o,
                              "%s'%s' using 1:%d every ::1 with linespoints lw 2 lc rgb '%s' title '%s'",
                              al ? ", " : "", file, gc(al, j), color[al], efp_alg_name[al]);
        }
        if (panel == 0)   /* runs at the cap are censored: say so where they lie */
            o += snprintf(script + o, sizeof script - (size_t)o,
                          ", %lu with lines dt 3 lw 1 lc rgb 'black' title 'round cap R = %lu (censored)'",
                          a->cap, a->cap);
        o += snprintf(script + o, sizeof script - (size_t)o, "\n");
    }
    snprintf(script + o, sizeof script - (size_t)o, "unset multiplot\n");
    char png[64], cap[128];
    snprintf(png, sizeof png, "fedepm_fig%d_%s.png", R ? 4 : 5, R ? "rho" : "eps");
    snprintf(cap, sizeof cap, "%s against %s (cf. Fig. %d)", R ? "CR and TCT" : "CR and SNR",
             R ? "rho" : "eps", R ? 4 : 5);
    if (exp_plot(ctx, png, cap, script) != 0) return 2;

    /* the claims */
    const efp_summary *first[EFP_NALG], *last[EFP_NALG];
    int lowest_cr = 1, lowest_t = 1, snr_up = 1, snr_smallest = 1;
    size_t n_low = 0, ncap = 0, nall = 0;
    double cr_spread = 0;
    for (size_t i = 0; i < k; i++)
        for (int al = 0; al < EFP_NALG; al++) {
            ncap += S(a, idx[i], al)->capped;
            nall += a->T;
        }
    char capnote[160];
    snprintf(capnote, sizeof capnote, "%zu of %zu runs reached the cap R = %lu (CR censored)", ncap, nall, a->cap);
    for (int al = 0; al < EFP_NALG; al++) {
        first[al] = S(a, idx[0], al);
        last[al] = S(a, idx[k - 1], al);
        double lo = INFINITY, hi = 0;
        for (size_t i = 0; i < k; i++) {
            lo = fmin(lo, S(a, idx[i], al)->cr.med);
            hi = fmax(hi, S(a, idx[i], al)->cr.med);
            if (i > 0) snr_up &= S(a, idx[i], al)->snr.med >= S(a, idx[i - 1], al)->snr.med;
        }
        cr_spread = fmax(cr_spread, (hi - lo) / fmax(lo, 1));
    }
    for (size_t i = 0; i < k; i++) {
        const efp_summary *e = S(a, idx[i], 0), *v = S(a, idx[i], 1), *p = S(a, idx[i], 2);
        int l = e->cr.med < v->cr.med && e->cr.med < p->cr.med;
        lowest_cr &= l;
        n_low += l;
        lowest_t &= e->tct.med <= v->tct.med && e->tct.med <= p->tct.med;
        snr_smallest &= e->snr.med < v->snr.med && e->snr.med < p->snr.med;
    }
    if (R) {
        int cr_down = 1, t_up = 1;
        for (int al = 0; al < EFP_NALG; al++) {
            cr_down &= last[al]->cr.med <= first[al]->cr.med;
            t_up &= last[al]->tct.med >= first[al]->tct.med;
        }
        exp_verdict(ctx, "CR slightly decreases and TCT increases as rho rises", "Fig. 4",
                    ncap == nall ? (t_up ? EXP_PARTLY : EXP_FAILS)
                                 : cr_down && t_up ? EXP_HOLDS : cr_down || t_up ? EXP_PARTLY : EXP_FAILS,
                    "median CR at rho = %.1f -> %.1f: FedEPM %.0f -> %.0f, SFedAvg %.0f -> %.0f, "
                    "SFedProx %.0f -> %.0f; median TCT: %.3f -> %.3f, %.3f -> %.3f, %.3f -> %.3f s; %s%s",
                    xval(&a->cfg[idx[0]]), xval(&a->cfg[idx[k - 1]]), first[0]->cr.med,
                    last[0]->cr.med, first[1]->cr.med, last[1]->cr.med, first[2]->cr.med,
                    last[2]->cr.med, first[0]->tct.med, last[0]->tct.med, first[1]->tct.med,
                    last[1]->tct.med, first[2]->tct.med, last[2]->tct.med, capnote,
                    ncap == nall ? ": the CR part is untested, the TCT part is what is judged" : "");
        exp_verdict(ctx, "FedEPM has the lowest median CR and TCT for every rho", "Fig. 4",
                    lowest_cr && lowest_t ? EXP_HOLDS : n_low || lowest_t ? EXP_PARTLY : EXP_FAILS,
                    "strictly lowest median CR at %zu of %zu values of rho; lowest median TCT at all: %s; %s",
                    n_low, k, lowest_t ? "yes" : "no", capnote);
    } else {
        exp_verdict(ctx, "eps does not impact CR and TCT greatly", "Fig. 5",
                    ncap == nall ? EXP_UNTESTED : cr_spread <= 0.25 ? EXP_HOLDS : EXP_FAILS,
                    "largest (max - min)/min of the median CR over eps, any algorithm: %.2f "
                    "(holds if <= 0.25); %s", cr_spread, capnote);
        exp_verdict(ctx, "SNR increases with eps (less privacy)", "Fig. 5",
                    snr_up ? EXP_HOLDS : EXP_PARTLY,
                    "median SNR at eps = %.1f -> %.1f: FedEPM %.2f -> %.2f, SFedAvg %.2f -> %.2f, "
                    "SFedProx %.2f -> %.2f; non-decreasing at every step for all three: %s. The SNR "
                    "is taken at the last upload, so it depends on when a run stops: FedEPM's median "
                    "CR goes %.0f -> %.0f, and an earlier stop means a smaller alpha^k in (39), "
                    "hence a larger noise scale at the last upload",
                    xval(&a->cfg[idx[0]]), xval(&a->cfg[idx[k - 1]]), first[0]->snr.med,
                    last[0]->snr.med, first[1]->snr.med, last[1]->snr.med, first[2]->snr.med,
                    last[2]->snr.med, snr_up ? "yes" : "no", first[0]->cr.med, last[0]->cr.med);
        exp_verdict(ctx, "FedEPM has the smallest SNR (the highest privacy) of the three", "Fig. 5",
                    snr_smallest ? EXP_HOLDS : EXP_FAILS,
                    "FedEPM's median SNR below both baselines' at every eps: %s (a smaller SNR "
                    "is more noise at the last upload, not a privacy guarantee: see below)",
                    snr_smallest ? "yes" : "no");
    }
    return 0;
}

static int report_privacy(exp_ctx *ctx, const efp_all *a)
{
    exp_md(ctx, "### What honest privacy costs (FedEPM, fedref's certified rule against (39))\n\n"
                "FedEPM, m = 50, k0 = 12, rho = 0.5, the stopping rule off (the certified rule "
                "needs it off: the stopping decision is released and data-dependent), R = %lu "
                "rounds fixed, %zu trial%s. The certified rule (docs/FEDEPM.md section 9; "
                "fedref's, not the paper's) adds Lap(S_i/eps) with S_i the l1 sensitivity bound "
                "of the upload, c = 0 (mu data-independent), Delta_i = 2 X1/d_i with X1 = max_t "
                "||x_t||_1 = %.4g over the data (one sample replaced; taking X1 from the data "
                "treats the data's box as public, as a clipping bound would make it; so does the "
                "column scaling). Each upload is then eps-DP given the past; eps basic / adv are "
                "the largest per-client totals of the accountant (basic composition; advanced "
                "with delta' = 1e-5), medians over the trials. Under (39) and without noise the "
                "accountant has no finite bound (inf): the scale of (39) depends on the data "
                "(E-002-39), and an exact release has no finite loss.\n\n"
                "| noise | eps (per upload) | f/m median [q25, q75] | accuracy median [q25, q75] | SNR median | eps basic | eps adv |\n"
                "|---|---|---|---|---|---|---|\n",
           a->prounds, a->T, a->T == 1 ? "" : "s", a->X1);
    FILE *f = exp_csv_open(ctx, "fedepm_privacy.csv",
                           "noise,eps,fm_med,fm_q25,fm_q75,acc_med,acc_q25,acc_q75,snr_med,eps_basic_med,eps_adv_med");
    if (f == NULL) return 2;
    double fm_none = NAN, acc_none = NAN, fm39 = NAN, acc39 = NAN, eps39 = NAN, b39 = NAN;
    double cert_eps_match = NAN, cert_acc = NAN, cert_fm = NAN, cert_basic = NAN, cert_adv = NAN;
    double cert01_fm = NAN, cert01_acc = NAN, cert01_basic = NAN, cert01_adv = NAN;
    for (size_t k = 0; k < a->npm; k++) {
        const efp_summary *s = &a->psum[k];
        double eb[256], ea[256];
        size_t T = a->T < 256 ? a->T : 256;
        for (size_t t = 0; t < T; t++) {
            eb[t] = a->pres[k * a->T + t].eps_basic;
            ea[t] = a->pres[k * a->T + t].eps_adv;
        }
        qsort(eb, T, sizeof *eb, cmp_double);
        qsort(ea, T, sizeof *ea, cmp_double);
        double mb = quantile(eb, T, 0.5), ma = quantile(ea, T, 0.5);
        const efp_pmode *p = &a->pm[k];
        char epsw[32] = "-";
        if (p->noise != FR_NOISE_NONE) snprintf(epsw, sizeof epsw, "%g", p->eps);
        char ub[2][40];   /* the privacy totals rounded up as printed */
        exp_md(ctx, "| %s | %s | %.4g [%.4g, %.4g] | %.3f [%.3f, %.3f] | %.2f | %s | %s |\n", p->name, epsw,
               s->fm.med, s->fm.q25, s->fm.q75, s->acc.med, s->acc.q25, s->acc.q75, s->snr.med,
               cli_fmt_up(ub[0], 40, mb, 4), cli_fmt_up(ub[1], 40, ma, 4));
        fprintf(f, "%s,%g,%.8g,%.8g,%.8g,%g,%g,%g,%g,%g,%g\n",
                p->noise == FR_NOISE_CERT ? "cert" : p->noise == FR_NOISE_EQ39 ? "eq39" : "none",
                p->eps, s->fm.med, s->fm.q25, s->fm.q75, s->acc.med, s->acc.q25, s->acc.q75,
                s->snr.med, mb, ma);
        if (p->noise == FR_NOISE_NONE) { fm_none = s->fm.med; acc_none = s->acc.med; }
        if (p->noise == FR_NOISE_EQ39 && isnan(fm39)) { fm39 = s->fm.med; acc39 = s->acc.med; eps39 = p->eps; b39 = mb; }
        if (p->noise == FR_NOISE_CERT && isnan(cert01_fm)) {
            cert01_fm = s->fm.med; cert01_acc = s->acc.med; cert01_basic = mb; cert01_adv = ma;
        }
        /* the smallest certified eps whose accuracy is within 1 point of no noise */
        if (p->noise == FR_NOISE_CERT && isnan(cert_eps_match) && s->acc.med >= acc_none - 0.01) {
            cert_eps_match = p->eps; cert_acc = s->acc.med; cert_fm = s->fm.med; cert_basic = mb; cert_adv = ma;
        }
    }
    if (exp_csv_close(ctx, f, "fedepm_privacy.csv") != 0) return 2;
    exp_md(ctx, "\n(\"no noise\" has no eps: the uploads are exact.)\n\n");
    char script[4096];
    snprintf(script, sizeof script,
             "set datafile separator ','\nset multiplot layout 1,2 title '002 Sec. VII-C 4): FedEPM, %s, m = 50, k0 = 12, rho = 0.5, R = %lu: certified rule vs (39) (medians)'\n"
             "set logscale x\nset xlabel 'eps per upload'\nset grid\nset key bottom left font ',8' width -3\nset format x '10^{%%L}'\n"
             "set ylabel 'f(w)/m'\nset logscale y\n"
             "plot 'fedepm_privacy.csv' using ($2):(strcol(1) eq 'cert' ? $3 : 1/0) every ::1 with linespoints lw 2 lc rgb '#d62728' title 'certified rule (eps-DP per upload)', "
             "'' using ($2):(strcol(1) eq 'eq39' ? $3 : 1/0) every ::1 with points pt 7 ps 1.5 lc rgb '#1f77b4' title '(39), no finite eps', "
             "%.10g with lines dt 2 lc rgb 'black' title 'no noise'\n"
             "set ylabel 'training accuracy'\nunset logscale y\nset yrange [0:1.05]\nset key bottom right\n"
             "plot 'fedepm_privacy.csv' using ($2):(strcol(1) eq 'cert' ? $6 : 1/0) every ::1 with linespoints lw 2 lc rgb '#d62728' title 'certified', "
             "'' using ($2):(strcol(1) eq 'eq39' ? $6 : 1/0) every ::1 with points pt 7 ps 1.5 lc rgb '#1f77b4' title '(39)', "
             "%.10g with lines dt 2 lc rgb 'black' title 'no noise'\nunset multiplot\n",
             a->dname, a->prounds, fm_none, acc_none);
    if (exp_plot(ctx, "fedepm_privacy.png", "FedEPM: f/m and accuracy against the per-upload eps of the certified rule", script) != 0)
        return 2;
    char u[5][40];   /* privacy totals rounded up as printed */
    exp_md(ctx, "At eps = 0.1 per upload (the paper's budget) the certified rule gives f/m = %.4g "
                "and accuracy %.3f (client total %s basic, %s advanced), against %.4g and %.3f "
                "under (39) at eps = %.1f (which certifies nothing: total %s) and %.4g and %.3f without "
                "noise. ",
           cert01_fm, cert01_acc, cli_fmt_up(u[0], 40, cert01_basic, 4), cli_fmt_up(u[1], 40, cert01_adv, 4),
           fm39, acc39, eps39, cli_fmt_up(u[2], 40, b39, 6), fm_none, acc_none);
    if (!isnan(cert_eps_match))
        exp_md(ctx, "The certified rule comes within one point of the noiseless accuracy only from "
                    "eps = %g per upload (accuracy %.3f, f/m %.4g; client totals %s basic, %s "
                    "advanced).\n\n", cert_eps_match, cert_acc, cert_fm, cli_fmt_up(u[3], 40, cert_basic, 4),
               cli_fmt_up(u[4], 40, cert_adv, 4));
    else
        exp_md(ctx, "No certified eps tried comes within one point of the noiseless accuracy.\n\n");
    /* computed from the runs: the accountant's median per-client total under (39) */
    exp_verdict(ctx, "noise (39) maintains eps-differential privacy (eps = 0.1 ... 0.9)", "Sec. VII-B (39), VII-C 4); Thm. V.1",
                !isfinite(b39) ? EXP_FAILS : b39 <= eps39 ? EXP_HOLDS : EXP_PARTLY,
                "fedref's accountant's median per-client total under (39) at eps = %g: %s; "
                "it gives no finite bound for an upload under (39) (scale "
                "2||g_i||_1/(eps mu) depends on the data, and 2||g_i||_1 does not bound Delta_i: "
                "E-002-39, docs/FEDEPM.md 9). With a certified eps = 0.1 per upload the same run "
                "costs f/m %.4g vs %.4g and accuracy %.3f vs %.3f (no noise %.3f), for a client "
                "total of %s (basic) / %s (advanced, delta' = 1e-5)",
                eps39, u[2], cert01_fm, fm39, cert01_acc, acc39, acc_none, u[0], u[1]);
    return 0;
}

int efp_report(exp_ctx *ctx, const efp_all *a)
{
    exp_md(ctx, "The largest drift of fast from ref in the spot checks: %.2g.\n\n", a->spot_drift);
    if (report_k0(ctx, a, 'K') != 0) return 2;
    if (report_k0(ctx, a, 'W') != 0) return 2;
    if (report_rho_eps(ctx, a, 'R') != 0) return 2;
    if (report_rho_eps(ctx, a, 'E') != 0) return 2;
    if (report_privacy(ctx, a) != 0) return 2;
    return 0;
}
