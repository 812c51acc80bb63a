/* SPDX-License-Identifier: Apache-2.0 */
/* numfmt.c -- decimal strings <-> numbers for the vector files.
 * Inputs are read exactly as written (rounded to nearest at the target
 * precision); expected values are written correctly rounded to
 * VEC_DIGITS significant digits; inputs are written exactly. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>
#include <gmp.h>
#include "vectors.h"

/* Accept [+-]digits[.digits][e[+-]digits], or nan / inf / -inf. */
static int special(const char *s, int *kind)
{
    if (strcasecmp(s, "nan") == 0) { *kind = 0; return 1; }
    if (strcasecmp(s, "inf") == 0 || strcasecmp(s, "+inf") == 0) { *kind = 1; return 1; }
    if (strcasecmp(s, "-inf") == 0) { *kind = -1; return 1; }
    return 0;
}

static int well_formed(const char *s)
{
    const char *p = s;
    int digits = 0;
    if (*p == '+' || *p == '-') p++;
    while (isdigit((unsigned char)*p)) { p++; digits++; }
    if (*p == '.') { p++; while (isdigit((unsigned char)*p)) { p++; digits++; } }
    if (digits == 0) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!isdigit((unsigned char)*p)) return 0;
        while (isdigit((unsigned char)*p)) p++;
    }
    return *p == '\0';
}

int num_parse_mpfr(mpfr_t x, const char *s)
{
    int k;
    if (s == NULL) return -1;
    if (special(s, &k)) {
        if (k == 0) mpfr_set_nan(x); else mpfr_set_inf(x, k);
        return 0;
    }
    if (!well_formed(s)) return -1;
    mpfr_strtofr(x, s, NULL, 10, MPFR_RNDN);
    return 0;
}

int num_is_integer(const char *s, int maxdigits)
{
    if (s == NULL || !well_formed(s)) return 0;
    const char *p = s + (*s == '+' || *s == '-');
    long nint = 0, j = 0, first = -1, last = -1;   /* digit positions, 0 = leftmost */
    for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
        if (*p == '.') { nint = j; continue; }
        if (*p != '0') { if (first < 0) first = j; last = j; }
        j++;
    }
    if (strchr(s, '.') == NULL) nint = j;
    if (first < 0) return 1;                        /* a zero */
    long E = 0;
    if (*p == 'e' || *p == 'E') {
        char *end;
        errno = 0;
        E = strtol(p + 1, &end, 10);
        if (errno || E > 100000 || E < -100000) return 0;
    }
    /* the value is sum_j d_j 10^(nint - 1 - j + E): an integer iff the last
     * nonzero digit has a non-negative power, of nint - first + E digits */
    return nint - 1 - last + E >= 0 && nint - first + E <= maxdigits;
}

int num_parse_double(double *x, const char *s)
{
    int k;
    if (s == NULL) return -1;
    if (special(s, &k)) {
        *x = k == 0 ? (double)NAN : k * (double)INFINITY;
        return 0;
    }
    if (!well_formed(s)) return -1;
    *x = strtod(s, NULL);   /* correctly rounded (glibc) */
    return 0;
}

/* Turn "d1d2...dk" with decimal exponent e (value 0.d1..dk * 10^e) into
 * plain or scientific notation, without trailing zeros. */
static char *format_digits(int neg, const char *dig, long e)
{
    size_t k = strlen(dig);
    while (k > 1 && dig[k - 1] == '0') k--;
    char *out = malloc(k + 64);
    if (out == NULL) return NULL;
    char *p = out;
    if (neg) *p++ = '-';
    if (e >= 1 && e <= 21) {                     /* ddd.ddd or ddd000 */
        for (long i = 0; i < e; i++) *p++ = (size_t)i < k ? dig[i] : '0';
        if ((size_t)e < k) { *p++ = '.'; memcpy(p, dig + e, k - e); p += k - e; }
        *p = '\0';
    } else if (e <= 0 && e > -7) {               /* 0.000ddd */
        *p++ = '0'; *p++ = '.';
        for (long i = 0; i < -e; i++) *p++ = '0';
        memcpy(p, dig, k); p[k] = '\0';
    } else {                                     /* d.ddde+XX */
        *p++ = dig[0];
        if (k > 1) { *p++ = '.'; memcpy(p, dig + 1, k - 1); p += k - 1; }
        sprintf(p, "e%ld", e - 1);
    }
    return out;
}

char *num_round_decimal(mpfr_srcptr x, int digits, mpfr_rnd_t rnd)
{
    if (mpfr_zero_p(x)) return strdup("0");
    if (mpfr_nan_p(x)) return strdup("nan");
    if (mpfr_inf_p(x)) return strdup(mpfr_sgn(x) > 0 ? "inf" : "-inf");
    mpfr_exp_t e;
    char *s = mpfr_get_str(NULL, &e, 10, (size_t)digits, x, rnd);
    if (s == NULL) return NULL;
    int neg = s[0] == '-';
    char *out = format_digits(neg, s + neg, (long)e);
    mpfr_free_str(s);
    return out;
}

char *num_exact_decimal(mpfr_srcptr x)
{
    if (!mpfr_regular_p(x)) return num_round_decimal(x, 1, MPFR_RNDN);
    mpz_t mz;
    mpz_init(mz);
    mpfr_exp_t e2 = mpfr_get_z_2exp(mz, x);      /* x = mz * 2^e2 exactly */
    int neg = mpz_sgn(mz) < 0;
    mpz_abs(mz, mz);
    long e10 = 0;
    if (e2 >= 0) {
        mpz_mul_2exp(mz, mz, (mp_bitcnt_t)e2);
    } else {                                     /* mz 2^e2 = mz 5^-e2 10^e2 */
        mpz_t five;
        mpz_init(five);
        mpz_ui_pow_ui(five, 5, (unsigned long)(-e2));
        mpz_mul(mz, mz, five);
        mpz_clear(five);
        e10 = (long)e2;
    }
    char *dig = mpz_get_str(NULL, 10, mz);
    mpz_clear(mz);
    if (dig == NULL) return NULL;
    char *out = format_digits(neg, dig, (long)strlen(dig) + e10);
    free(dig);
    return out;
}
