/* internal.h -- helpers shared by the loaders of data/ (not installed). */
#ifndef FEDREF_DATA_INTERNAL_H
#define FEDREF_DATA_INTERNAL_H

#include <stddef.h>

/* Write the formatted message into err (errlen bytes, terminated when
 * errlen > 0) and return status. */
int fdi_fail(char *err, size_t errlen, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
