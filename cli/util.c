/* SPDX-License-Identifier: Apache-2.0 */
/* util.c -- small helpers every subcommand uses (cli.h): option numbers
 * and the monotonic clock, decimals rounded up. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "cli.h"

int cli_parse_ul(const char *s, unsigned long *out)
{
    char *end;
    if (s == NULL || *s < '0' || *s > '9')       /* no sign, no space */
        return -1;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end != '\0')
        return -1;
    if (errno == ERANGE)
        return -2;
    *out = v;
    return 0;
}

void cli_bad_ul(const char *s)
{
    unsigned long v;
    char what[96];
    if (cli_parse_ul(s, &v) == -2) {
        snprintf(what, sizeof what, "out of range: the largest value is %lu", ULONG_MAX);
        cli_error(what, s);
    } else {
        cli_error("not an unsigned decimal integer", s);
    }
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const char *cli_fmt_up(char *buf, size_t n, double x, int dig)
{
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, x, MPFR_RNDN);                      /* exact */
    mpfr_snprintf(buf, n, "%.*RUg", dig, v);
    mpfr_clear(v);
    return buf;
}
