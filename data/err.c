/* err.c -- the loaders' error messages (data/data.h: "NAME: where: what"). */
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

int fdi_fail(char *err, size_t errlen, int status, const char *fmt, ...)
{
    if (err != NULL && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return status;
}
