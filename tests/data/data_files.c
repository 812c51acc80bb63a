/* SPDX-License-Identifier: Apache-2.0 */
/* data_files.c -- temporary files of the data-loader suites (data_files.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "data_files.h"

static char dir[64];

static void cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) { /* leave it */ }
}

const char *df_write(const char *name, const void *buf, size_t len, int gz)
{
    static char path[256];
    if (dir[0] == '\0') {
        strcpy(dir, "/tmp/fedref-data-XXXXXX");
        ck_assert_ptr_nonnull(mkdtemp(dir));
        atexit(cleanup);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (gz) {
        gzFile g = gzopen(path, "wb");
        ck_assert_ptr_nonnull(g);
        ck_assert_int_eq(gzwrite(g, buf, (unsigned)len), (int)len);
        ck_assert_int_eq(gzclose(g), Z_OK);
    } else {
        FILE *f = fopen(path, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
        ck_assert_int_eq(fclose(f), 0);
    }
    return path;
}

const char *df_write_bomb(const char *name, const void *head, size_t len, size_t zero_mib)
{
    static unsigned char zeros[1 << 20];
    const char *path = df_write(name, head, len, 0);   /* the directory, the path */
    gzFile g = gzopen(path, "wb1");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gzwrite(g, head, (unsigned)len), (int)len);
    for (size_t i = 0; i < zero_mib; i++) ck_assert_int_eq(gzwrite(g, zeros, sizeof zeros), (int)sizeof zeros);
    ck_assert_int_eq(gzclose(g), Z_OK);
    return path;
}

const char *df_real(const char *name)
{
    static char path[512];
    const char *d = getenv("FEDREF_DATA_DIR");
    snprintf(path, sizeof path, "%s/%s", d && *d ? d : "build/data", name);
    return access(path, R_OK) == 0 ? path : NULL;
}
