/* SPDX-License-Identifier: Apache-2.0 */
/* data_files.h -- the data-loader suites' temporary files: a directory
 * made once per process (mkdtemp, removed at exit), files written plain or
 * gzip-compressed (zlib). */
#ifndef FEDREF_TEST_DATA_FILES_H
#define FEDREF_TEST_DATA_FILES_H

#include <stddef.h>

/* Write len bytes to DIR/name (gzip when gz): the path (static storage,
 * valid until the next call). */
const char *df_write(const char *name, const void *buf, size_t len, int gz);
/* A gzip bomb: DIR/name, the gzip (level 1) of the len bytes of head then
 * zero_mib MiB of zero bytes: the path, as df_write. */
const char *df_write_bomb(const char *name, const void *head, size_t len, size_t zero_mib);
/* The directory of `make data` ($FEDREF_DATA_DIR, else build/data) if it
 * holds name, with name appended; NULL otherwise (the test is skipped). */
const char *df_real(const char *name);

#endif
