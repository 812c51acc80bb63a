/* util.c -- small helpers every subcommand uses (cli.h): option numbers
 * and the monotonic clock. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include "cli.h"

int cli_parse_ul(const char *s, unsigned long *out)
{
    char *end;
    if (s == NULL || *s == '\0' || *s == '-')
        return -1;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
