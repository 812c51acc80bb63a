/* SPDX-License-Identifier: Apache-2.0 */
/* err.c -- the loaders' error messages (data/data.h: "NAME: where: what")
 * and the quoting of a field in them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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

const char *fdi_quote(char *dst, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = 0, m = n < 32 ? n : 32;
    for (size_t i = 0; i < m; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            dst[k++] = '\\';
            dst[k++] = (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            dst[k++] = (char)c;
        } else {
            dst[k++] = '\\';
            dst[k++] = 'x';
            dst[k++] = hex[c >> 4];
            dst[k++] = hex[c & 15];
        }
    }
    if (m < n) { memcpy(dst + k, "...", 3); k += 3; }
    dst[k] = '\0';
    return dst;
}
