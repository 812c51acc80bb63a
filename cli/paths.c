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

int cli_vectors_dir(const char *explicit_dir, char *out, size_t outlen)
{
    if (explicit_dir) return put(out, outlen, explicit_dir);
    const char *env = getenv("FEDREF_VECTORS_DIR");
    if (env && *env) return put(out, outlen, env);
    /* a build tree: <checkout>/build[/<tree>]/bin/fedref */
    char exe[PATH_MAX], cand[PATH_MAX + 32];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        for (int up = 0; up < 4; up++) {
            char *slash = strrchr(exe, '/');
            if (slash == NULL) break;
            *slash = '\0';                          /* bin, then build or <tree> */
            snprintf(cand, sizeof cand, "%s/vectors/soft.json", exe);
            if (up >= 1 && access(cand, R_OK) == 0) {
                snprintf(cand, sizeof cand, "%s/vectors", exe);
                return put(out, outlen, cand);
            }
        }
    }
    return put(out, outlen, FEDREF_DATADIR "/vectors");
}
