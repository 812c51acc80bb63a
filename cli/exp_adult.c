/* SPDX-License-Identifier: Apache-2.0 */
/* exp_adult.c -- UCI Adult for the experiments (experiments.h
 * exp_adult_load): the two files of data/adult read by the strict UCI
 * reader (data/uci.c), for 002's preparation (experiment fedepm) and
 * 004's adult-b (experiment proxal, Table 3); docs/DATA.md section 4. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "fedref_common.h"
#include "cli.h"
#include "experiments.h"

/* DIR/adult.data.gz for DIR the data directory, the repository's data/adult
 * beside the executable (build/bin/../../data/adult), or data/adult: the
 * first that exists, into dir. */
static void adult_dir(const exp_ctx *ctx, char *dir, size_t len)
{
    char p[PATH_MAX + 64], exe[PATH_MAX];
    snprintf(p, sizeof p, "%s/adult.data.gz", ctx->data);
    if (access(p, R_OK) == 0) { snprintf(dir, len, "%s", ctx->data); return; }
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0 && (size_t)n < sizeof exe - 1) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            snprintf(p, sizeof p, "%s/../../data/adult/adult.data.gz", exe);
            int w = access(p, R_OK) == 0 ? snprintf(dir, len, "%s/../../data/adult", exe) : -1;
            if (w > 0 && (size_t)w < len) return;
        }
    }
    snprintf(dir, len, "data/adult");
}

int exp_adult_load(const exp_ctx *ctx, fdata_uci u[2])
{
    char dir[PATH_MAX], p[PATH_MAX + 32], err[PATH_MAX + 512];
    adult_dir(ctx, dir, sizeof dir);
    static const char *const file[2] = {"adult.data.gz", "adult.test.gz"};
    for (int k = 0; k < 2; k++) {
        snprintf(p, sizeof p, "%s/%s", dir, file[k]);
        if (fdata_uci_load(&u[k], p, &fdata_adult_schema, err, sizeof err) != FR_OK) {
            if (k) fdata_uci_free(&u[0]);
            cli_error(err, "the repository's data/adult/ (docs/DATA.md)");
            return 2;
        }
    }
    return 0;
}
