/* SPDX-License-Identifier: Apache-2.0 */
/* stepsize.c -- vector schema of ssca_stepsize, the stepsize validator of
 * 000 (4) and (6) (001: (3) and (5)) for rho^(t) = a1 t^-alpha1 and
 * gamma^(t) = a2 t^-alpha2: params a1, alpha1, a2, alpha2; no inputs;
 * expect
 *   rho_conditions    (boolean) every condition of (4) holds,
 *   gamma_conditions  (boolean) every condition of (6) holds,
 *   rho_fail          the failing bits of (4), an exact integer,
 *   gamma_fail        the failing bits of (6), an exact integer,
 * with the bits of enum fr_ssca_cond (fedspec/ssca.h): 1 POS (x > 0),
 * 2 LE1 (x <= 1), 4 LIM0 (x -> 0), 8 SUM (sum x = +inf), 16 SQSUM
 * (sum x^2 < inf, gamma only), 32 RATIO (gamma/rho -> 0, gamma only).
 * The verdict is exact in ref and fast (comparisons only): tol 0, and the
 * booleans are compared exactly. */
#include <math.h>
#include "../vectors.h"

static const vspec params[] = {{"a1", VK_SCALAR}, {"alpha1", VK_SCALAR}, {"a2", VK_SCALAR},
                               {"alpha2", VK_SCALAR}, {NULL, 0}};
static const vspec inputs[] = {{NULL, 0}};
static const vspec expects[] = {{"rho_conditions", VK_BOOL}, {"gamma_conditions", VK_BOOL},
                                {"rho_fail", VK_SCALAR, .cmp = VC_INT}, {"gamma_fail", VK_SCALAR, .cmp = VC_INT}, {NULL, 0}};

static int ref(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec)
{
    (void)in;
    unsigned r, g;
    int st = fr_ssca_stepsize(&r, &g, par[0].v[0], par[1].v[0], par[2].v[0], par[3].v[0]);
    if (st != FR_OK) return st;
    for (int k = 0; k < 4; k++)
        if (rt_alloc(&out[k], 1, 1, prec) != 0) return FR_ENOMEM;
    mpfr_set_ui(out[0].v[0], r == 0, MPFR_RNDN);
    mpfr_set_ui(out[1].v[0], g == 0, MPFR_RNDN);
    mpfr_set_ui(out[2].v[0], r, MPFR_RNDN);           /* exact: < 64 */
    mpfr_set_ui(out[3].v[0], g, MPFR_RNDN);
    return FR_OK;
}

static int fast(ftensor *par, ftensor *in, ftensor *out)
{
    (void)in;
    unsigned r, g;
    int st = ff_ssca_stepsize(&r, &g, par[0].v[0], par[1].v[0], par[2].v[0], par[3].v[0]);
    if (st != FR_OK) return st;
    for (int k = 0; k < 4; k++)
        if (ft_alloc(&out[k], 1, 1) != 0) return FR_ENOMEM;
    out[0].v[0] = r == 0;
    out[1].v[0] = g == 0;
    out[2].v[0] = r;
    out[3].v[0] = g;
    return FR_OK;
}

/* The verdict is exact (fedfast/ssca.h): no ff_ssca_stepsize_bound. */
static void tol(const ftensor *par, const ftensor *in, double *rel, double *abs)
{
    (void)par; (void)in;
    *rel = *abs = 0;
}

/* The audit sweep: each parameter from the values where a condition
 * changes (0, -0, 1/2, 1 and their binary64 neighbours, alpha1 itself for
 * alpha2), small negatives and random dyadics of either sign. */
static double edge_or_random(frng_t *g, double alpha1)
{
    static const double pool[] = {0.0, -0.0, 0.5, 1, -1, 2, 0x1p-1074, 0x1.fffffffffffffp1023};
    uint64_t r, k;
    frng_below(g, 4, &r);
    if (r == 0) {
        frng_below(g, sizeof pool / sizeof pool[0], &k);
        return pool[k];
    }
    if (r == 1) {                                   /* a neighbour of 1/2 or 1 (or of alpha1) */
        frng_below(g, 6, &k);
        double c = k < 2 ? 0.5 : k < 4 ? 1 : alpha1;
        double x = k % 2 ? nextafter(c, INFINITY) : nextafter(c, -INFINITY);
        return isfinite(x) ? x : c;                 /* no neighbour beyond DBL_MAX */
    }
    if (r == 2 && !isnan(alpha1))
        return alpha1;                              /* alpha2 = alpha1 (or a = alpha) */
    uint64_t e;
    frng_below(g, 24, &e);
    frng_below(g, 2, &k);
    double u = (double)(frng_u53(g) >> 40) * 0x1p-13;   /* 13 bits: short decimals */
    return (k ? -1 : 1) * ldexp(u, (int)e - 12);
}

static void sample(frng_t *g, ftensor *par, ftensor *in)
{
    (void)in;
    for (int k = 0; k < 4; k++) ft_alloc(&par[k], 1, 1);
    par[1].v[0] = edge_or_random(g, 0.75);
    par[0].v[0] = edge_or_random(g, par[1].v[0]);
    par[3].v[0] = edge_or_random(g, par[1].v[0]);
    par[2].v[0] = edge_or_random(g, par[3].v[0]);
}

static void one(vgen *g, const char *comment, const char *flags, int invalid,
                double a1, double alpha1, double a2, double alpha2)
{
    vg_group(g, NULL, (double[]){a1, alpha1, a2, alpha2});
    vg_case(g, comment, flags, invalid, NULL);
}

static void golden(vgen *g)
{
    const double up1 = nextafter(1, 2), dn1 = nextafter(1, 0), uphalf = nextafter(0.5, 1);
    /* the experiments of 000 Sec. VI: rho = a1/t^alpha, gamma = a2/t^alpha (one alpha) */
    one(g, "000 Sec. VI sample-based, B = 10: rho = 0.9/t^0.1, gamma = 0.5/t^0.1; (4) holds, (6) fails "
        "SQSUM (alpha2 = 0.1 <= 1/2) and RATIO (alpha2 = alpha1)", "paper-schedule", 0, 0.9, 0.1, 0.5, 0.1);
    one(g, "000 Sec. VI sample-based, B = 100: rho = 0.3/t^0.1, gamma = 0.3/t^0.1; (6) fails SQSUM and "
        "RATIO", "paper-schedule", 0, 0.3, 0.1, 0.3, 0.1);
    one(g, "000 Sec. VI sample-based, B = 6000: rho = 0.2/t^0.1, gamma = 0.3/t^0.1 (gamma > rho at every "
        "t); (6) fails SQSUM and RATIO", "paper-schedule", 0, 0.2, 0.1, 0.3, 0.1);
    one(g, "000 Sec. VI feature-based, B = 10: rho = 0.9/t^0.3, gamma = 0.3/t^0.3; (6) fails SQSUM and "
        "RATIO", "paper-schedule", 0, 0.9, 0.3, 0.3, 0.3);
    one(g, "000 Sec. VI feature-based, B = 100: rho = 0.9/t^0.1, gamma = 0.5/t^0.1 (as sample-based "
        "B = 10); (6) fails SQSUM and RATIO", "paper-schedule", 0, 0.9, 0.1, 0.5, 0.1);
    one(g, "000 Sec. VI feature-based, B = 1000: rho = 0.3/t^0.1, gamma = 0.3/t^0.1 (as sample-based "
        "B = 100); (6) fails SQSUM and RATIO", "paper-schedule", 0, 0.3, 0.1, 0.3, 0.1);
    /* 001 Sec. VI: gamma = a2/t^(alpha + 0.05); fedref reads the exponent as
     * the binary64 sum RN(alpha + 0.05) */
    one(g, "001 Sec. VI, B = 1: rho = 0.4/t^0.4, gamma = 0.4/t^(0.4 + 0.05), exponent read as the binary64 "
        "sum RN(0.4 + 0.05); (5) fails SQSUM only (alpha2 < 1/2)", "paper-schedule", 0, 0.4, 0.4, 0.4,
        0.4 + 0.05);
    one(g, "001 Sec. VI, B = 10: rho = 0.6/t^0.3, gamma = 0.9/t^(0.3 + 0.05), exponent read as the binary64 "
        "sum RN(0.3 + 0.05); (5) fails SQSUM only", "paper-schedule", 0, 0.6, 0.3, 0.9, 0.3 + 0.05);
    one(g, "001 Sec. VI, B = 100: rho = 0.9/t^0.3, gamma = 0.9/t^(0.3 + 0.05), exponent read as the "
        "binary64 sum RN(0.3 + 0.05); (5) fails SQSUM only", "paper-schedule", 0, 0.9, 0.3, 0.9,
        0.3 + 0.05);
    /* schedules that satisfy everything */
    one(g, "rho = 1/t^0.5, gamma = 1/t^0.75: every condition holds (rho^(1) = gamma^(1) = 1)",
        "conditions-hold,boundary", 0, 1, 0.5, 1, 0.75);
    one(g, "rho = 0.9/t^0.6, gamma = 0.5/t^0.9: every condition holds", "conditions-hold", 0, 0.9, 0.6,
        0.5, 0.9);
    one(g, "rho = 1/t^0.5, gamma = 1/t: every condition holds (alpha2 = 1: sum gamma still diverges)",
        "conditions-hold,condition-edge", 0, 1, 0.5, 1, 1);
    /* SQSUM: alpha2 = 1/2 and its neighbours */
    one(g, "alpha2 = 1/2: sum gamma^2 = a2^2 sum 1/t diverges: SQSUM fails", "condition-edge", 0, 1, 0.25,
        1, 0.5);
    one(g, "alpha2 = nextafter(1/2, 1): sum gamma^2 converges: every condition holds",
        "condition-edge,conditions-hold", 0, 1, 0.25, 1, uphalf);
    one(g, "alpha2 = nextafter(1/2, 0): SQSUM fails", "condition-edge", 0, 1, 0.25, 1, nextafter(0.5, 0));
    /* SUM: alpha = 1 and nextafter(1, 2) */
    one(g, "alpha1 = 1: sum rho diverges (harmonic): (4) holds; alpha2 = alpha1 = 1: RATIO fails",
        "condition-edge", 0, 1, 1, 1, 1);
    one(g, "alpha1 = nextafter(1, 2): sum rho converges: SUM fails for rho; alpha2 = 0.75 < alpha1: "
        "RATIO fails", "condition-edge", 0, 1, up1, 1, 0.75);
    one(g, "alpha2 = nextafter(1, 2): sum gamma converges: SUM fails for gamma, the rest holds",
        "condition-edge", 0, 1, 0.5, 1, up1);
    one(g, "alpha1 = nextafter(1, 0), alpha2 = 1: every condition holds", "condition-edge,conditions-hold",
        0, 1, dn1, 1, 1);
    /* RATIO: alpha2 against alpha1 */
    one(g, "alpha2 = alpha1 = 0.75: gamma/rho = a2/a1 is constant: RATIO fails, the rest holds",
        "condition-edge", 0, 0.5, 0.75, 0.5, 0.75);
    one(g, "alpha2 = nextafter(alpha1, 1), alpha1 = 0.75: gamma/rho = t^-2^-53 -> 0 (slowly): every "
        "condition holds", "condition-edge,conditions-hold", 0, 0.5, 0.75, 0.5, nextafter(0.75, 1));
    one(g, "alpha2 = nextafter(alpha1, 0), alpha1 = 0.75: gamma/rho grows: RATIO fails",
        "condition-edge", 0, 0.5, 0.75, 0.5, nextafter(0.75, 0));
    /* LE1: a = 1 and nextafter(1, 2) */
    one(g, "a1 = nextafter(1, 2): rho^(1) > 1: LE1 fails for rho", "condition-edge", 0, up1, 0.5, 1, 0.75);
    one(g, "a2 = nextafter(1, 2): gamma^(1) > 1: LE1 fails for gamma", "condition-edge", 0, 1, 0.5, up1,
        0.75);
    one(g, "a1 = a2 = nextafter(1, 0): every condition holds", "condition-edge,conditions-hold", 0, dn1, 0.5,
        dn1, 0.75);
    /* zeros */
    one(g, "a2 = 0: gamma = 0: POS and SUM fail; LE1, LIM0, SQSUM hold; gamma/rho = 0 -> 0: RATIO holds",
        "boundary", 0, 1, 0.5, 0, 0.75);
    one(g, "a1 = 0: rho = 0: POS and SUM fail for rho; gamma/rho is undefined: RATIO fails", "boundary", 0,
        0, 0.5, 1, 0.75);
    one(g, "a1 = a2 = 0: both sequences are 0: POS and SUM fail for both; RATIO fails (0/0)", "boundary",
        0, 0, 0.5, 0, 0.75);
    one(g, "a1 = -0: as a1 = 0 (POS and SUM fail for rho, RATIO fails)", "boundary,signed-zero", 0, -0.0,
        0.5, 1, 0.75);
    one(g, "a2 = -0: as a2 = 0 (POS and SUM fail for gamma, RATIO holds)", "boundary,signed-zero", 0, 1,
        0.5, -0.0, 0.75);
    one(g, "alpha1 = -0: rho = 0.5 constant: LIM0 fails; alpha2 = 0.75 > alpha1: RATIO holds",
        "boundary,signed-zero", 0, 0.5, -0.0, 0.5, 0.75);
    one(g, "alpha2 = -0, alpha1 = 0: both constant: LIM0 fails for both, SQSUM and RATIO fail for gamma",
        "boundary,signed-zero", 0, 0.5, 0, 0.5, -0.0);
    /* constants */
    one(g, "constants rho = 1, gamma = 1 (alpha = 0): LIM0 fails for both; SQSUM and RATIO fail",
        "boundary", 0, 1, 0, 1, 0);
    one(g, "constant rho = 0.5 (alpha1 = 0), gamma = 0.5/t^0.75: LIM0 fails for rho only", "boundary", 0,
        0.5, 0, 0.5, 0.75);
    /* negative exponents and coefficients */
    one(g, "alpha1 = -0.5: rho = 0.5 t^0.5 grows: LE1 and LIM0 fail (SUM holds); RATIO holds", "negative-schedule", 0,
        0.5, -0.5, 0.5, 0.75);
    one(g, "alpha2 = -1: gamma = 0.5 t grows: LE1, LIM0, SQSUM and RATIO fail (SUM holds)", "negative-schedule", 0,
        1, 0.5, 0.5, -1);
    one(g, "a1 = -0.5, a2 = -0.25: negative sequences: POS and SUM (the sum is -inf) fail for both; "
        "gamma/rho -> 0 still", "negative-schedule", 0, -0.5, 0.5, -0.25, 0.75);
    one(g, "a1 = -2, alpha1 = -1: rho = -2t: POS, LIM0, SUM fail; LE1 holds (rho <= 0)", "negative-schedule", 0, -2,
        -1, 1, 0.75);
    /* extremes */
    one(g, "a1 = a2 = 2^-1074 (subnormal), alpha1 = 2^-1074 > 0, alpha2 = 0.75: every condition holds",
        "underflow,condition-edge,conditions-hold", 0, 0x1p-1074, 0x1p-1074, 0x1p-1074, 0.75);
    one(g, "alpha2 = DBL_MAX: gamma = t^-DBL_MAX: sum gamma converges: SUM fails, SQSUM and RATIO hold", "overflow", 0,
        1, 0.5, 1, 0x1.fffffffffffffp1023);
    one(g, "a1 = DBL_MAX: LE1 fails for rho", "overflow", 0, 0x1.fffffffffffffp1023, 0.5, 1, 0.75);
    /* invalid: NaN and infinities */
    one(g, "NaN a1", "nan", 1, NAN, 0.5, 1, 0.75);
    one(g, "NaN alpha1", "nan", 1, 1, NAN, 1, 0.75);
    one(g, "NaN a2", "nan", 1, 1, 0.5, NAN, 0.75);
    one(g, "NaN alpha2", "nan", 1, 1, 0.5, 1, NAN);
    one(g, "a1 = inf", "inf", 1, INFINITY, 0.5, 1, 0.75);
    one(g, "alpha1 = inf", "inf", 1, 1, INFINITY, 1,
        0.75);
    one(g, "a2 = inf", "inf", 1, 1, 0.5, INFINITY, 0.75);
    one(g, "alpha2 = inf", "inf", 1, 1, 0.5, 1, INFINITY);
    one(g, "alpha1 = -inf", "inf", 1, 1, -INFINITY, 1, 0.75);
    one(g, "a2 = -inf", "inf", 1, 1, 0.5, -INFINITY, 0.75);
}

const vfunc vfunc_ssca_stepsize = {"ssca_stepsize", "000 eq. (4), (6); 001 eq. (3), (5)", params, inputs,
                                   expects, ref, fast, tol, golden, sample, 0, 0};
