/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_dp.c -- `fedref dp eps | sigma | laplace`: the certified privacy
 * accountants of fedref from the command line (docs/DP.md): options, the
 * rounds file, the search of dp sigma and the report (text or one JSON
 * object).  The numbers come from dp_acct.c.  Every epsilon printed is an
 * upper bound rounded up in decimal, every lower bound rounded down, every
 * sigma rounded up (dp_fmt). */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dp.h"

void cli_dp_usage(FILE *f)
{
    fputs("usage: fedref dp eps --sigma S --sensitivity s --rounds T --delta D [OPTIONS]\n"
          "       fedref dp eps --rounds-file F --delta D [OPTIONS]\n"
          "       fedref dp sigma --eps E --sensitivity s --rounds T --delta D [OPTIONS]\n"
          "       fedref dp laplace --scale NU[,NU...] --sensitivity S[,S...] --delta D\n"
          "                         [--uploads U] [--json] [--impl ref|fast] [--prec BITS]\n"
          "\n"
          "Certified privacy accounting (docs/DP.md).  Every epsilon printed is an upper\n"
          "bound of the true one, rounded up in decimal; eps_lower, when printed, a lower\n"
          "bound rounded down; a sigma is rounded up.  Decimal inputs are read toward\n"
          "their safe side, so the bounds hold for the numbers as written.\n"
          "\n"
          "eps: T rounds of the Gaussian mechanism (L2 sensitivity s, noise N(0, S^2 I)),\n"
          "  one client's data replaced (client level).  With --clients N --sampled K\n"
          "  (K < N) each round is the STATELESS K-of-N subsampled Gaussian (a fresh\n"
          "  uniform K-subset), against an observer who does not learn which clients took\n"
          "  part; without them, or with K = N, no amplification (against the server and\n"
          "  every observer).\n"
          "  --first-full R     the first R rounds with all N clients (Algorithm 1 of 003:\n"
          "                     R = 1), the rest K of N\n"
          "  --rounds-file F    one round per line 'sigma,sensitivity' (decimals, no\n"
          "                     spaces; '#' starts a comment line); replaces --sigma,\n"
          "                     --sensitivity and --rounds\n"
          "  --accountant A     pld (privacy-loss distribution: the K-of-N profile of\n"
          "                     Dong-Roth-Su 2022 Thm 4.2, connect-the-dots of Doroshenko\n"
          "                     et al. 2022, composed by FFT with a rigorous error bound;\n"
          "                     T < 2^18), rdp (Wang-Balle-Kasiviswanathan 2019 Thm 9 +\n"
          "                     Mironov 2017 Prop. 3), exact (K = N only: the rounds\n"
          "                     compose to one Gaussian; Balle-Wang 2018 Thm 8), or all\n"
          "                     (default: the least of those that apply; pld only for\n"
          "                     subsampled rounds); rdp-improved: rdp with the conversion\n"
          "                     of Canonne-Kamath-Steinke / Balle et al. 2020 (T <= 2^20)\n"
          "  --alpha-max A      RDP orders 2..A (2..1024, default 256)\n"
          "  --impl ref|fast    ref: MPFR at --prec bits (default 128), directed rounding;\n"
          "                     fast: binary64, outward rounding factors (default ref)\n"
          "  --digits D         significant digits printed (3..40, default 10)\n"
          "  --json             one JSON object: eps, eps_lower (or null), method,\n"
          "                     relation, observer and the inputs, numbers as strings\n"
          "  eps_lower: the exact epsilon of the rounds with all N clients (all of them\n"
          "  when K = N), or, when pld runs, the larger of that and pld's lower bound: the\n"
          "  epsilon of a neighbouring pair every round realises (the replaced client\n"
          "  contributes its sensitivity, the others 0), so the true epsilon of the\n"
          "  mechanism lies in [eps_lower, eps].\n"
          "sigma: the least sigma (every round alike) whose certified eps is <= E, by\n"
          "  bisection to 2^-40 relative, printed rounded up (12 digits unless --digits)\n"
          "  and checked: eps at the printed sigma is recomputed and is <= E.  Takes the\n"
          "  options of eps except --sigma and --rounds-file.  With pld under --impl ref\n"
          "  the search's trial points are evaluated by fast and only the printed sigma\n"
          "  by ref (a sigma at most the search's tolerance above ref's least).\n"
          "laplace: 002's Laplace uploads, upload j pure (S_j/NU_j)-DP (one record\n"
          "  replaced; S_j the l1 sensitivity given the past, docs/FEDEPM.md 9), composed\n"
          "  by basic, advanced and the optimal composition (Kairouz-Oh-Viswanath 2015;\n"
          "  eps = the least of the three); --sensitivity one value or one per scale;\n"
          "  --uploads U repeats the list U times (default 1).\n"
          "\n"
          "Limits: --rounds <= 2^40; < 2^18 for pld; <= 2^20 when every round needs its own entry\n"
          "(a rounds file, or --first-full with K < N); distinct rounds x alpha-max^2\n"
          "<= 2^26; uploads <= 2^16.  Exit 0, or 2 on a usage or input error.\n", f);
}

/* ---- options ---------------------------------------------------------------- */

typedef struct {
    const char *sigma, *sens, *delta, *eps, *scale, *file, *accountant, *impl;
    unsigned long T, N, K, R, amax, prec, digits, uploads;
    int have_T, have_N, have_K, json;
} dp_opts;

/* the value of an unsigned option in [lo, hi], named in the error */
static int opt_ul(const char *name, const char *v, unsigned long lo, unsigned long hi, unsigned long *out)
{
    unsigned long x;
    char what[160];
    int r = cli_parse_ul(v, &x);
    if (r == 0 && x >= lo && x <= hi) { *out = x; return 0; }
    if (r == 0)
        snprintf(what, sizeof what, "%s must be %lu..%lu", name, lo, hi);
    else
        snprintf(what, sizeof what, "%s must be an unsigned decimal integer %lu..%lu", name, lo, hi);
    cli_error(what, v);
    return 2;
}

static int parse_opts(dp_opts *o, int argc, char **argv, const char *sub)
{
    memset(o, 0, sizeof *o);
    o->amax = 256;
    o->prec = 128;
    o->uploads = 1;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) { o->json = 1; continue; }
        if (strncmp(a, "--", 2) != 0 || i + 1 >= argc) {
            cli_error(strncmp(a, "--", 2) == 0 ? "option needs a value" : "unknown argument of dp", a);
            return 2;
        }
        const char *v = argv[++i];
        const char **s = NULL;
        int rc = 0;
        if (strcmp(a, "--sigma") == 0) s = &o->sigma;
        else if (strcmp(a, "--sensitivity") == 0) s = &o->sens;
        else if (strcmp(a, "--delta") == 0) s = &o->delta;
        else if (strcmp(a, "--eps") == 0) s = &o->eps;
        else if (strcmp(a, "--scale") == 0) s = &o->scale;
        else if (strcmp(a, "--rounds-file") == 0) s = &o->file;
        else if (strcmp(a, "--accountant") == 0) s = &o->accountant;
        else if (strcmp(a, "--impl") == 0) s = &o->impl;
        else if (strcmp(a, "--rounds") == 0) { rc = opt_ul(a, v, 1, 1ul << 40, &o->T); o->have_T = 1; }
        else if (strcmp(a, "--clients") == 0) { rc = opt_ul(a, v, 1, ULONG_MAX, &o->N); o->have_N = 1; }
        else if (strcmp(a, "--sampled") == 0) { rc = opt_ul(a, v, 1, ULONG_MAX, &o->K); o->have_K = 1; }
        else if (strcmp(a, "--first-full") == 0) rc = opt_ul(a, v, 0, 1ul << 40, &o->R);
        else if (strcmp(a, "--alpha-max") == 0) rc = opt_ul(a, v, 2, 1024, &o->amax);
        else if (strcmp(a, "--prec") == 0) rc = opt_ul(a, v, 53, 8192, &o->prec);
        else if (strcmp(a, "--digits") == 0) rc = opt_ul(a, v, 3, 40, &o->digits);
        else if (strcmp(a, "--uploads") == 0) rc = opt_ul(a, v, 1, DP_UPLOADS_MAX, &o->uploads);
        else { cli_error("unknown option of dp", a); return 2; }
        if (rc) return rc;
        if (s) {
            if (*s) { cli_error("option given twice", a); return 2; }
            *s = v;
        }
    }
    /* which options each subcommand takes */
    const int eps = strcmp(sub, "eps") == 0, sig = strcmp(sub, "sigma") == 0, lap = strcmp(sub, "laplace") == 0;
    struct { const char *name; int given, ok; } chk[] = {
        {"--sigma", o->sigma != NULL, eps}, {"--eps", o->eps != NULL, sig},
        {"--scale", o->scale != NULL, lap}, {"--uploads", o->uploads != 1, lap},
        {"--rounds-file", o->file != NULL, eps}, {"--rounds", o->have_T, !lap},
        {"--clients", o->have_N, !lap}, {"--sampled", o->have_K, !lap}, {"--first-full", o->R != 0, !lap},
        {"--accountant", o->accountant != NULL, !lap}, {"--alpha-max", o->amax != 256, !lap},
    };
    for (size_t j = 0; j < sizeof chk / sizeof chk[0]; j++)
        if (chk[j].given && !chk[j].ok) {
            char what[80];
            snprintf(what, sizeof what, "dp %s does not take this option", sub);
            cli_error(what, chk[j].name);
            return 2;
        }
    if (o->digits == 0) o->digits = sig ? 12 : 10;
    if (o->impl && strcmp(o->impl, "ref") != 0 && strcmp(o->impl, "fast") != 0) {
        cli_error("--impl takes ref or fast", o->impl);
        return 2;
    }
    if (o->accountant && strcmp(o->accountant, "rdp") != 0 && strcmp(o->accountant, "exact") != 0
        && strcmp(o->accountant, "all") != 0 && strcmp(o->accountant, "rdp-improved") != 0
        && strcmp(o->accountant, "pld") != 0) {
        cli_error("--accountant takes pld, rdp, rdp-improved, exact or all", o->accountant);
        return 2;
    }
    return 0;
}

/* A decimal option: finite, and > 0 (what 'p'), >= 0 ('z') or in (0, 1)
 * ('d'), read at precision p both ways (so that both readings are in the
 * domain).  0 or 2 after cli_error naming the option (and line). */
static int check_num(const char *name, const char *v, int what, mpfr_prec_t p, const char *where)
{
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, (mpfr_ptr)0);
    int bad = v == NULL || dp_parse(lo, v, MPFR_RNDD) != 0 || dp_parse(hi, v, MPFR_RNDU) != 0;
    const char *msg = "is missing";
    char text[200];
    if (v != NULL) msg = "must be a decimal number";
    if (!bad && (!mpfr_number_p(lo) || !mpfr_number_p(hi))) { bad = 1; msg = "must be finite"; }
    if (!bad && what == 'p' && mpfr_sgn(lo) <= 0) { bad = 1; msg = "must be > 0"; }
    if (!bad && what == 'z' && mpfr_sgn(lo) < 0) { bad = 1; msg = "must be >= 0"; }
    if (!bad && what == 'd' && (mpfr_sgn(lo) <= 0 || mpfr_cmp_ui(hi, 1) >= 0)) { bad = 1; msg = "must be in (0, 1)"; }
    if (!bad && p == 53 && !mpfr_zero_p(lo)
        && (mpfr_cmp_d(hi, DBL_MAX) > 0 || mpfr_cmp_ui_2exp(lo, 1, -1074) < 0)) {
        bad = 1;
        msg = "is outside binary64's range (at 53 bits: use --impl ref --prec 64 or more)";
    }
    mpfr_clears(lo, hi, (mpfr_ptr)0);
    if (!bad) return 0;
    snprintf(text, sizeof text, "%s%s%s %s", where ? where : "", where ? ": " : "", name, msg);
    cli_error(text, v ? v : "dp");
    return 2;
}

/* ---- output ----------------------------------------------------------------- */

/* x with dig significant digits rounded in direction rnd (MPFR's decimal
 * conversion, exact direction): an upper bound printed is never below x. */
static const char *dp_fmt(char *buf, size_t n, mpfr_srcptr x, int dig, mpfr_rnd_t rnd)
{
    mpfr_snprintf(buf, n, "%.*R*g", dig, rnd, x);
    return buf;
}

/* s as a JSON string (quotes added; \", \\ and control characters escaped) */
static void json_str(const char *s)
{
    if (s == NULL) { fputs("null", stdout); return; }
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static void json_field(const char *k, const char *v, int last)
{
    printf("\"%s\":", k);
    json_str(v);
    fputs(last ? "}\n" : ",", stdout);
}

static void json_ul(const char *k, unsigned long v)
{
    printf("\"%s\":%lu,", k, v);
}

static const char RELATION[] = "replace-one: one client's data replaced (client level; one record replaced is a "
                               "special case)";
static const char OBS_SERVER[] = "the server, who learns which clients took part, and so every observer (no "
                                 "amplification)";
static const char OBS_SUB[] = "an observer who does not learn which clients took part, for the stateless "
                              "K-of-N subsampled Gaussian (a fresh uniform K-subset each round, uploads a "
                              "function of the public history and the client's data only); not the server, "
                              "not Algorithm 1 of 003, whose clients keep state";

static void method_text(char *m, size_t n, const dp_gauss_in *in, const dp_gauss_out *o)
{
    const char *conv = in->improved ? "Canonne-Kamath-Steinke 2020 / Balle et al. 2020" : "Mironov 2017 Prop. 3";
    if (o->best == DP_ACCT_PLD)
        snprintf(m, n, "PLD: the profile max(delta_AB, delta_BA) of one round (Dong-Roth-Su 2022 Thm 4.2, K of N "
                       "without replacement, replace-one; delta_AB of Balle-Barthe-Gaboardi 2018)%s, discretised by "
                       "connect-the-dots (Doroshenko et al. 2022, masses rounded up), composed by FFT (Higham 2002 "
                       "Thm 24.2's error bound added)", in->R && in->K < in->N ? ", the first rounds the Gaussian's" : "");
    else if (o->best == DP_ACCT_EXACT)
        snprintf(m, n, "exact: the rounds compose to one Gaussian of ratio sqrt(sum_t (s_t/sigma_t)^2), its "
                       "epsilon by the analytic Gaussian (Balle-Wang 2018 Thm 8)");
    else if (in->K < in->N)
        snprintf(m, n, "RDP: Wang-Balle-Kasiviswanathan 2019 Thm 9 (K of N without replacement, "
                       "replace-one)%s, composed, %s conversion at alpha = %lu (orders 2..%lu)",
                 in->R ? ", the first rounds alpha mu (all clients)" : "", conv, o->alpha, in->amax);
    else
        snprintf(m, n, "RDP: the Gaussian's alpha mu composed, %s conversion at alpha = %lu (orders 2..%lu)", conv,
                 o->alpha, in->amax);
}

static void lower_text(char *m, size_t n, const dp_gauss_in *in, const dp_gauss_out *o)
{
    if (o->pld_lower)
        snprintf(m, n, "PLD of an achievable pair (A^T vs B^T, B = N(0,1), A = (1-q) N(0,1) + q N(s/sigma,1): the "
                       "replaced client contributes its sensitivity, the others 0), losses rounded down, masses "
                       "rounded down: the true epsilon is above it");
    else if (in->K >= in->N)
        snprintf(m, n, "exact Gaussian composition of all rounds, rounded down (certified by the analytic "
                       "Gaussian's condition), for a mechanism attaining its sensitivities");
    else if (o->have_lower)
        snprintf(m, n, "the %lu round(s) with all clients alone (exact Gaussian); the subsampled rounds are "
                       "not counted: fedref has no sound lower bound for them", o->lower_rounds);
    else
        snprintf(m, n, "none: fedref has no sound lower bound for subsampled rounds (no achievable pair of the "
                       "K-of-N mechanism as observed is established)");
}

static const char *prec_text(char *b, size_t n, const dp_gauss_in *in)
{
    if (in->fast) snprintf(b, n, "fast (binary64, outward rounding factors)");
    else snprintf(b, n, "ref (MPFR, %ld bits, directed rounding)", (long)in->prec);
    return b;
}

static void print_gauss(const dp_gauss_in *in, const dp_gauss_out *o, const dp_opts *op, const char *sigma_str)
{
    char e[128], lo[128], r[128], x[128], pl[128], m[600], lt[400], pt[80];
    const int dig = (int)op->digits;
    dp_fmt(e, sizeof e, o->eps, dig, MPFR_RNDU);
    if (o->have_lower) dp_fmt(lo, sizeof lo, o->lower, dig, MPFR_RNDD);
    if (o->have_rdp) dp_fmt(r, sizeof r, o->rdp, dig, MPFR_RNDU);
    if (o->have_exact) dp_fmt(x, sizeof x, o->exact, dig, MPFR_RNDU);
    if (o->have_pld) dp_fmt(pl, sizeof pl, o->pld, dig, MPFR_RNDU);
    method_text(m, sizeof m, in, o);
    lower_text(lt, sizeof lt, in, o);
    prec_text(pt, sizeof pt, in);
    const char *obs = in->K < in->N ? OBS_SUB : OBS_SERVER;
    if (op->json) {
        fputs("{", stdout);
        json_field("command", "dp eps", 0);
        json_field("eps", e, 0);
        json_field("eps_lower", o->have_lower ? lo : NULL, 0);
        json_field("eps_lower_note", lt, 0);
        json_field("method", m, 0);
        json_field("relation", RELATION, 0);
        json_field("observer", obs, 0);
        json_field("eps_rdp", o->have_rdp ? r : NULL, 0);
        if (o->have_rdp) json_ul("alpha", o->alpha);
        json_field("eps_exact", o->have_exact ? x : NULL, 0);
        json_field("eps_pld", o->have_pld ? pl : NULL, 0);
        json_field("impl", in->fast ? "fast" : "ref", 0);
        json_ul("prec", in->fast ? 53ul : (unsigned long)in->prec);
        json_field("rounding", "eps, eps_rdp, eps_exact, eps_pld rounded up; eps_lower rounded down", 0);
        json_field("sigma", sigma_str, 0);
        json_field("sensitivity", in->rows ? NULL : in->sens[0], 0);
        json_field("rounds_file", op->file, 0);
        json_ul("rounds", in->T);
        json_ul("clients", in->N);
        json_ul("sampled", in->K);
        json_ul("first_full", in->R);
        json_field("delta", in->delta, 0);
        json_field("accountant", op->accountant ? op->accountant : "all", 0);
        printf("\"alpha_max\":%lu}\n", in->amax);
        return;
    }
    printf("fedref dp eps: %s; %d digits, upper bounds rounded up, lower bounds down\n", pt, dig);
    printf("  eps        %s  (certified upper bound, %s)\n", e,
           o->best == DP_ACCT_EXACT ? "exact" : o->best == DP_ACCT_PLD ? "pld" : "rdp");
    printf("  eps_lower  %s%s%s\n", o->have_lower ? lo : "", o->have_lower ? "  " : "", lt);
    if (o->have_rdp) printf("  rdp        %s  (alpha %lu)\n", r, o->alpha);
    if (o->have_pld) printf("  pld        %s\n", pl);
    if (o->have_exact) printf("  exact      %s\n", x);
    else if (in->acct & DP_ACCT_EXACT) printf("  exact      not applicable: subsampled rounds\n");
    printf("  method     %s\n  relation   %s\n  observer   %s\n", m, RELATION, obs);
    printf("  inputs     rounds %lu, clients %lu, sampled %lu, first-full %lu, delta %s", in->T, in->N, in->K,
           in->R, in->delta);
    if (in->rows) printf(", rounds file %s\n", op->file);
    else printf(", sigma %s, sensitivity %s\n", sigma_str, in->sens[0]);
}

/* ---- the rounds file ---------------------------------------------------------- */

typedef struct {
    char *buf;
    char **sigma, **sens;
    size_t n;
} dp_rows;

static void rows_free(dp_rows *r)
{
    free(r->buf);
    free(r->sigma);
    free(r->sens);
}

/* Strict: each line 'sigma,sensitivity' (two decimals, nothing else), or
 * a comment line starting with '#'; every line ends with '\n' (the last may
 * not); no empty line, CR, NUL or space.  Errors name the line. */
static int rows_load(dp_rows *r, const char *path, mpfr_prec_t p)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "rb");
    if (f == NULL) { cli_error(strerror(errno), path); return 2; }
    size_t cap = 1 << 16, len = 0;
    r->buf = malloc(cap + 1);
    for (size_t got; r->buf && (got = fread(r->buf + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len == cap) {
            if (cap >= (size_t)64 << 20) { fclose(f); cli_error("rounds file larger than 64 MiB", path); return 2; }
            char *nb = realloc(r->buf, 2 * cap + 1);
            if (nb == NULL) break;
            r->buf = nb;
            cap *= 2;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (r->buf == NULL || err) { cli_error(err ? "cannot read the rounds file" : "out of memory", path); return 2; }
    r->buf[len] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += r->buf[i] == '\n';
    r->sigma = malloc(lines * sizeof *r->sigma);
    r->sens = malloc(lines * sizeof *r->sens);
    if (r->sigma == NULL || r->sens == NULL) { cli_error("out of memory", path); return 2; }
    char where[300];
    size_t line = 0;
    for (char *s = r->buf; s < r->buf + len;) {
        char *nl = memchr(s, '\n', (size_t)(r->buf + len - s)), *end = nl ? nl : r->buf + len;
        line++;
        snprintf(where, sizeof where, "%s line %zu", path, line);
        if (memchr(s, '\0', (size_t)(end - s)) || memchr(s, '\r', (size_t)(end - s))
            || (*s != '#' && (memchr(s, ' ', (size_t)(end - s)) || memchr(s, '\t', (size_t)(end - s))))) {
            cli_error("rounds file: NUL or CR in a line, or space or tab in a round's line", where);
            return 2;
        }
        *end = '\0';
        if (*s != '#') {
            char *c = strchr(s, ',');
            if (s == end) { cli_error("rounds file: empty line", where); return 2; }
            if (c == NULL || strchr(c + 1, ',')) {
                cli_error("rounds file: a line must be 'sigma,sensitivity'", where);
                return 2;
            }
            *c = '\0';
            if (check_num("sigma", s, 'p', p, where) || check_num("sensitivity", c + 1, 'z', p, where))
                return 2;
            if (r->n == DP_ROUNDS_MAX) { cli_error("rounds file: more than 2^20 rounds", where); return 2; }
            r->sigma[r->n] = s;
            r->sens[r->n] = c + 1;
            r->n++;
        }
        s = end + 1;
    }
    if (r->n == 0) { cli_error("rounds file: no round", path); return 2; }
    return 0;
}

/* ---- dp eps and dp sigma ---------------------------------------------------------- */

/* The Gaussian input from the options (sigma checked by the caller).
 * Returns 0 or 2 after cli_error. */
static int gauss_in(dp_gauss_in *in, const dp_opts *o, dp_rows *rows, const char **sig1, const char **sens1)
{
    memset(in, 0, sizeof *in);
    in->fast = o->impl && strcmp(o->impl, "fast") == 0;
    in->prec = (mpfr_prec_t)o->prec;
    const mpfr_prec_t p = in->fast ? 53 : in->prec;
    if (o->have_N != o->have_K) { cli_error("--clients and --sampled go together", o->have_N ? "--sampled" : "--clients"); return 2; }
    in->N = o->have_N ? o->N : 1;
    in->K = o->have_K ? o->K : 1;
    if (in->K > in->N) { cli_error("--sampled must be <= --clients", "--sampled"); return 2; }
    in->acct = !o->accountant || strcmp(o->accountant, "all") == 0 ? DP_ACCT_ALL
             : strncmp(o->accountant, "rdp", 3) == 0 ? DP_ACCT_RDP
             : strcmp(o->accountant, "pld") == 0 ? DP_ACCT_PLD : DP_ACCT_EXACT;
    in->improved = o->accountant && strcmp(o->accountant, "rdp-improved") == 0;
    if (in->acct == DP_ACCT_EXACT && in->K < in->N) {
        cli_error("--accountant exact needs every round with all clients (--sampled = --clients)", "--accountant");
        return 2;
    }
    in->amax = o->amax;
    in->R = o->R;
    if (check_num("--delta", o->delta, 'd', p, NULL)) return 2;
    in->delta = o->delta;
    if (o->file) {
        if (o->sigma || o->sens || o->have_T) {
            cli_error("--rounds-file replaces --sigma, --sensitivity and --rounds", "--rounds-file");
            return 2;
        }
        if (rows_load(rows, o->file, p)) return 2;
        in->rows = rows->n;
        in->T = rows->n;
        in->sigma = (const char *const *)rows->sigma;
        in->sens = (const char *const *)rows->sens;
    } else {
        if (!o->have_T) { cli_error("--rounds is missing", "dp"); return 2; }
        if (check_num("--sensitivity", o->sens, 'z', p, NULL)) return 2;
        in->T = o->T;
        *sens1 = o->sens;
        *sig1 = o->sigma;
        in->sigma = sig1;
        in->sens = sens1;
    }
    if (in->R > in->T) { cli_error("--first-full must be <= the number of rounds", "--first-full"); return 2; }
    if (in->acct == DP_ACCT_PLD && in->T > DP_PLD_ROUNDS_MAX) {
        cli_error("--accountant pld composes fewer than 2^18 rounds", "--rounds");
        return 2;
    }
    const int arrays = in->rows || (in->R > 0 && in->K < in->N) || in->improved;
    if (arrays && in->T > DP_ROUNDS_MAX) {
        cli_error("--rounds must be <= 2^20 when every round needs its own entry (--first-full with K < N, "
                  "rdp-improved)",
                  "--rounds");
        return 2;
    }
    /* the accountant's work: runs of distinct rounds times amax^2 */
    unsigned long runs = 2;
    if (in->rows) {
        runs = 1;
        for (size_t t = 1; t < in->rows; t++)
            runs += strcmp(in->sigma[t], in->sigma[t - 1]) || strcmp(in->sens[t], in->sens[t - 1]) || t == in->R;
    }
    if ((in->acct & DP_ACCT_RDP) && runs * in->amax * in->amax > DP_WORK_MAX) {
        cli_error("too much work for the RDP accountant: distinct rounds x alpha-max^2 > 2^26 (lower --alpha-max)",
                  "--rounds-file");
        return 2;
    }
    return 0;
}

static int dp_eps(int argc, char **argv)
{
    dp_opts o;
    if (parse_opts(&o, argc, argv, "eps")) return 2;
    dp_gauss_in in;
    dp_rows rows = {0};
    const char *sig1 = NULL, *sens1 = NULL;
    int rc = gauss_in(&in, &o, &rows, &sig1, &sens1);
    if (rc == 0 && !o.file) rc = check_num("--sigma", o.sigma, 'p', in.fast ? 53 : in.prec, NULL);
    if (rc == 0) {
        dp_gauss_out out;
        dp_gauss_out_init(&out, in.fast ? 53 : in.prec);
        rc = dp_gauss_eval(&out, &in, NULL);
        if (rc == 0) print_gauss(&in, &out, &o, o.file ? NULL : o.sigma);
        dp_gauss_out_clear(&out);
    }
    rows_free(&rows);
    return rc;
}

#define SIGMA_TOL_BITS 40        /* the search's relative bracket 2^-40 */

static int dp_sigma(int argc, char **argv)
{
    dp_opts o;
    if (parse_opts(&o, argc, argv, "sigma")) return 2;
    dp_gauss_in in;
    dp_rows rows = {0};
    const char *sig1 = NULL, *sens1 = NULL;
    int rc = gauss_in(&in, &o, &rows, &sig1, &sens1);
    const mpfr_prec_t p = in.fast ? 53 : in.prec;
    if (rc == 0) rc = check_num("--eps", o.eps, 'p', p, NULL);
    if (rc == 0) rc = check_num("--sensitivity", o.sens, 'p', p, NULL);
    if (rc) return rc;
    in.no_lower = 1;
    /* pld under ref: the trial points by fast (a search may be sloppy), the
     * printed sigma certified by ref below */
    dp_gauss_in srch = in;
    if (!in.fast && dp_pld_applies(&in)) srch.fast = 1;
    mpfr_t E, lo, hi, mid, chk;
    mpfr_inits2(p, E, lo, hi, mid, chk, (mpfr_ptr)0);
    dp_parse(E, o.eps, MPFR_RNDD);                   /* the target, down */
    dp_gauss_out out;
    dp_gauss_out_init(&out, p);
    int ok = 0;
    /* meets(x): the certified eps at sigma = x is <= E */
#define MEETS_AT(w, x) ((rc = dp_gauss_eval_at(&out, (w), (x))) == 0 && mpfr_lessequal_p(out.eps, E))
#define MEETS(x) MEETS_AT(&srch, x)
    mpfr_set_ui(hi, 1, MPFR_RNDN);
    for (int k = 0; k < 1100 && !(ok = MEETS(hi)) && rc == 0; k++) mpfr_mul_2ui(hi, hi, 1, MPFR_RNDN);
    if (rc == 0 && !ok) { cli_error("no sigma up to 2^1100 meets --eps", o.eps); rc = 2; }
    mpfr_div_2ui(lo, hi, 1, MPFR_RNDN);
    if (rc == 0 && mpfr_cmp_ui(hi, 1) == 0)
        for (int k = 0; k < 1100 && MEETS(lo); k++) {
            mpfr_set(hi, lo, MPFR_RNDN);
            mpfr_div_2ui(lo, lo, 1, MPFR_RNDN);
        }
    /* lo fails, hi meets: bisect to 2^-SIGMA_TOL_BITS relative */
    while (rc == 0) {
        mpfr_sub(mid, hi, lo, MPFR_RNDU);
        mpfr_div(mid, mid, hi, MPFR_RNDU);
        if (mpfr_cmp_ui_2exp(mid, 1, -SIGMA_TOL_BITS) <= 0) break;
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        if (mpfr_equal_p(mid, lo) || mpfr_equal_p(mid, hi)) break;
        if (MEETS(mid)) mpfr_set(hi, mid, MPFR_RNDN);
        else if (rc == 0) mpfr_set(lo, mid, MPFR_RNDN);
    }
    /* the printed sigma (rounded up), read back as dp eps reads it, checked */
    char s[128] = "", e[128] = "", m[600], pt[80];
    for (int k = 0; rc == 0 && k < 8; k++) {
        dp_fmt(s, sizeof s, hi, (int)o.digits, MPFR_RNDU);
        dp_parse(chk, s, MPFR_RNDD);
        if (MEETS_AT(&in, chk)) break;
        if (rc == 0 && k == 7) { cli_error("the printed sigma could not be certified", s); rc = 2; }
        mpfr_nextabove(chk);
        mpfr_mul_ui(hi, chk, 1, MPFR_RNDU);
        mpfr_mul_2si(mid, hi, -(long)o.digits * 3, MPFR_RNDU);
        mpfr_add(hi, hi, mid, MPFR_RNDU);
    }
#undef MEETS
#undef MEETS_AT
    if (rc == 0) {
        dp_fmt(e, sizeof e, out.eps, (int)o.digits, MPFR_RNDU);
        method_text(m, sizeof m, &in, &out);
        prec_text(pt, sizeof pt, &in);
        const char *obs = in.K < in.N ? OBS_SUB : OBS_SERVER;
        if (o.json) {
            fputs("{", stdout);
            json_field("command", "dp sigma", 0);
            json_field("sigma", s, 0);
            json_field("eps_at_sigma", e, 0);
            json_field("tolerance", "the least sigma to 2^-40 relative, then rounded up", 0);
            json_field("method", m, 0);
            json_field("relation", RELATION, 0);
            json_field("observer", obs, 0);
            json_field("impl", in.fast ? "fast" : "ref", 0);
            json_ul("prec", (unsigned long)p);
            json_field("eps_target", o.eps, 0);
            json_field("sensitivity", o.sens, 0);
            json_ul("rounds", in.T);
            json_ul("clients", in.N);
            json_ul("sampled", in.K);
            json_ul("first_full", in.R);
            json_field("delta", in.delta, 0);
            json_field("accountant", o.accountant ? o.accountant : "all", 0);
            printf("\"alpha_max\":%lu}\n", in.amax);
        } else {
            printf("fedref dp sigma: %s; sigma rounded up, eps rounded up\n", pt);
            printf("  sigma      %s  (least to 2^-40 relative, then rounded up)\n", s);
            printf("  eps        %s  at that sigma (certified upper bound, <= %s)\n", e, o.eps);
            printf("  method     %s\n  relation   %s\n  observer   %s\n", m, RELATION, obs);
            printf("  inputs     rounds %lu, clients %lu, sampled %lu, first-full %lu, delta %s, sensitivity %s\n",
                   in.T, in.N, in.K, in.R, in.delta, o.sens);
        }
    }
    dp_gauss_out_clear(&out);
    mpfr_clears(E, lo, hi, mid, chk, (mpfr_ptr)0);
    rows_free(&rows);
    return rc;
}

/* ---- dp laplace ----------------------------------------------------------------- */

/* split a comma list (in place) into at most max entries; count or 0 */
static size_t split_list(char *s, char **out, size_t max)
{
    size_t n = 0;
    for (char *p = s;; p++) {
        char *c = strchr(p, ',');
        if (n == max) return 0;
        out[n++] = p;
        if (c == NULL) break;
        *c = '\0';
        p = c;
    }
    return n;
}

static int dp_laplace(int argc, char **argv)
{
    dp_opts o;
    if (parse_opts(&o, argc, argv, "laplace")) return 2;
    dp_laplace_in in = {0};
    in.fast = o.impl && strcmp(o.impl, "fast") == 0;
    in.prec = (mpfr_prec_t)o.prec;
    const mpfr_prec_t p = in.fast ? 53 : in.prec;
    if (o.scale == NULL) { cli_error("--scale is missing", "dp laplace"); return 2; }
    if (o.sens == NULL) { cli_error("--sensitivity is missing", "dp laplace"); return 2; }
    if (check_num("--delta", o.delta, 'd', p, NULL)) return 2;
    char *sc = strdup(o.scale), *se = strdup(o.sens);
    char **a = malloc(DP_UPLOADS_MAX * sizeof *a), **b = malloc(DP_UPLOADS_MAX * sizeof *b);
    const char **ls = NULL, **lv = NULL;
    int rc = 0;
    if (!sc || !se || !a || !b) { cli_error("out of memory", "dp"); rc = 2; }
    size_t ns = rc ? 0 : split_list(sc, a, DP_UPLOADS_MAX), nv = rc ? 0 : split_list(se, b, DP_UPLOADS_MAX);
    if (rc == 0 && (ns == 0 || nv == 0)) { cli_error("more than 2^16 values", ns ? "--sensitivity" : "--scale"); rc = 2; }
    if (rc == 0 && nv != 1 && nv != ns) {
        cli_error("--sensitivity takes one value or one per --scale value", o.sens);
        rc = 2;
    }
    for (size_t j = 0; rc == 0 && j < ns; j++) rc = check_num("--scale", a[j], 'p', p, NULL);
    for (size_t j = 0; rc == 0 && j < nv; j++) rc = check_num("--sensitivity", b[j], 'z', p, NULL);
    if (rc == 0 && ns * o.uploads > DP_UPLOADS_MAX) { cli_error("more than 2^16 uploads", "--uploads"); rc = 2; }
    if (rc == 0) {
        in.k = ns * o.uploads;
        ls = malloc(in.k * sizeof *ls);
        lv = malloc(in.k * sizeof *lv);
        if (!ls || !lv) { cli_error("out of memory", "dp"); rc = 2; }
    }
    if (rc == 0) {
        for (size_t j = 0; j < in.k; j++) {
            ls[j] = a[j % ns];
            lv[j] = b[nv == 1 ? 0 : j % ns];
        }
        in.scale = ls;
        in.sens = lv;
        in.delta = o.delta;
        dp_laplace_out out;
        dp_laplace_out_init(&out, p);
        rc = dp_laplace_eval(&out, &in);
        if (rc == 0) {
            char e[128], l[128], bs[128], ad[128], ti[128];
            const int dig = (int)o.digits;
            dp_fmt(e, sizeof e, out.eps, dig, MPFR_RNDU);
            dp_fmt(l, sizeof l, out.lower, dig, MPFR_RNDD);
            dp_fmt(bs, sizeof bs, out.basic, dig, MPFR_RNDU);
            dp_fmt(ad, sizeof ad, out.adv, dig, MPFR_RNDU);
            dp_fmt(ti, sizeof ti, out.tight, dig, MPFR_RNDU);
            const char *m = out.best == 2 ? "optimal composition (Kairouz-Oh-Viswanath 2015, Thms 2.4 and 3.5: "
                                            "randomized response at each eps_j, eps_j rounded up to a grid) of pure "
                                            "eps_j = S_j/nu_j (Laplace), at delta"
                          : out.best ? "advanced composition (Dwork-Rothblum-Vadhan 2010, general form for unequal "
                                       "eps_j) of pure eps_j = S_j/nu_j (Laplace), at delta"
                                     : "basic composition: sum_j eps_j of pure eps_j = S_j/nu_j (Laplace); delta 0";
            const char *which = out.best == 2 ? "optimal" : out.best ? "advanced" : "basic";
            const char *rel = "replace-one: one record of the client replaced (S_j the l1 sensitivity of upload "
                              "j given everything released before it)";
            const char *obs = "everything the run releases (every upload, the selections): no amplification";
            const char *lt = "the largest single upload, exact (eps_j + 2 ln(1 - delta)) for a one-dimensional "
                             "query attaining S_j, rounded down";
            if (o.json) {
                fputs("{", stdout);
                json_field("command", "dp laplace", 0);
                json_field("eps", e, 0);
                json_field("eps_lower", l, 0);
                json_field("eps_lower_note", lt, 0);
                json_field("eps_basic", bs, 0);
                json_field("eps_advanced", ad, 0);
                json_field("eps_optimal", ti, 0);
                json_field("method", m, 0);
                json_field("relation", rel, 0);
                json_field("observer", obs, 0);
                json_field("impl", in.fast ? "fast" : "ref", 0);
                json_ul("prec", (unsigned long)p);
                json_field("scale", o.scale, 0);
                json_field("sensitivity", o.sens, 0);
                json_ul("uploads", (unsigned long)in.k);
                json_field("delta", o.delta, 1);
            } else {
                char pt[80];
                if (in.fast) snprintf(pt, sizeof pt, "fast (binary64, outward rounding factors)");
                else snprintf(pt, sizeof pt, "ref (MPFR, %ld bits, directed rounding)", (long)p);
                printf("fedref dp laplace: %s; %d digits, upper bounds rounded up, lower bounds down\n", pt, dig);
                printf("  eps        %s  (certified upper bound, %s)\n", e, which);
                printf("  eps_lower  %s  %s\n", l, lt);
                printf("  basic      %s  (pure, delta 0)\n  advanced   %s  (delta %s)\n", bs, ad, o.delta);
                printf("  optimal    %s  (delta %s)\n", ti, o.delta);
                printf("  method     %s\n  relation   %s\n  observer   %s\n", m, rel, obs);
                printf("  inputs     %zu uploads, scale %s, sensitivity %s, delta %s\n", in.k, o.scale, o.sens,
                       o.delta);
            }
        }
        dp_laplace_out_clear(&out);
    }
    free(sc); free(se); free(a); free(b); free(ls); free(lv);
    return rc;
}

int cmd_dp(int argc, char **argv)
{
    if (argc < 1) {
        cli_error("missing subcommand: eps, sigma or laplace", "dp");
        cli_dp_usage(stderr);
        return 2;
    }
    if (cli_is_help(argv[0])) { cli_dp_usage(stdout); return 0; }
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) { cli_dp_usage(stdout); return 0; }
    if (strcmp(argv[0], "eps") == 0) return dp_eps(argc - 1, argv + 1);
    if (strcmp(argv[0], "sigma") == 0) return dp_sigma(argc - 1, argv + 1);
    if (strcmp(argv[0], "laplace") == 0) return dp_laplace(argc - 1, argv + 1);
    cli_error("unknown subcommand of dp (eps, sigma or laplace)", argv[0]);
    cli_dp_usage(stderr);
    return 2;
}
