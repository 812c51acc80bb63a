/* SPDX-License-Identifier: Apache-2.0 */
/* paths.c -- where the command finds the golden vectors, and progress
 * messages (cli.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

#ifndef FEDREF_DATADIR
#define FEDREF_DATADIR "/usr/local/share/fedref"
#endif

void cli_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fedref: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int put(char *out, size_t outlen, const char *p)
{
    if (strlen(p) >= outlen) return -1;
    strcpy(out, p);
    return is_dir(out) ? 0 : -1;
}

/* The directory holding the running executable, into out; -1 if unknown. */
static int exe_dir(char *out, size_t outlen)
{
    ssize_t len = readlink("/proc/self/exe", out, outlen - 1);
    if (len <= 0 || (size_t)len >= outlen - 1) return -1;
    out[len] = '\0';
    char *slash = strrchr(out, '/');
    if (slash == NULL) return -1;
    *slash = '\0';
    return 0;
}

int cli_vectors_dir(const char *explicit_dir, char *out, size_t outlen)
{
    if (explicit_dir) return put(out, outlen, explicit_dir);
    const char *env = getenv("FEDREF_VECTORS_DIR");
    if (env && *env) return put(out, outlen, env);
    char exe[PATH_MAX], cand[PATH_MAX + 64];
    if (exe_dir(exe, sizeof exe) == 0) {
        /* installed: PREFIX/bin/fedref beside PREFIX/share/fedref/vectors,
         * wherever PREFIX (and DESTDIR) put it */
        snprintf(cand, sizeof cand, "%s/../share/fedref/vectors/soft.json", exe);
        if (access(cand, R_OK) == 0) {
            snprintf(cand, sizeof cand, "%s/../share/fedref/vectors", exe);
            return put(out, outlen, cand);
        }
        /* a build tree: <checkout>/build[/<tree>]/bin/fedref */
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (slash == NULL) break;
            *slash = '\0';                          /* build or <tree>, then the checkout */
            snprintf(cand, sizeof cand, "%s/vectors/soft.json", exe);
            if (access(cand, R_OK) == 0) {
                snprintf(cand, sizeof cand, "%s/vectors", exe);
                return put(out, outlen, cand);
            }
        }
    }
    return put(out, outlen, FEDREF_DATADIR "/vectors");
}
