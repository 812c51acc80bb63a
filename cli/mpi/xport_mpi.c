/* SPDX-License-Identifier: Apache-2.0 */
/* xport_mpi.c -- xport.h on MPI (the fedref-mpi program; GNUmakefile
 * builds it with mpicc when it is found).  Messages: one MPI_Bcast of the
 * length (uint64) and one of the bytes, in chunks of at most INT_MAX. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include "../xport.h"

static int rank, size = 1, started;
static char describe[160];

int xp_init(int *argc, char ***argv, char *err, size_t errlen)
{
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag && MPI_Init(argc, argv) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init failed");
        return -1;
    }
    started = !flag;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    for (int i = 0; lib[i]; i++)
        if (lib[i] == ',' || lib[i] == '\n') { lib[i] = '\0'; break; }
    snprintf(describe, sizeof describe, "MPI, %d rank%s (%s)", size, size == 1 ? "" : "s", lib);
    return 0;
}

void xp_finalize(void)
{
    if (started) MPI_Finalize();
    started = 0;
}

int xp_rank(void) { return rank; }
int xp_size(void) { return size; }
const char *xp_describe(void) { return describe; }

int xp_bcast(char **buf, size_t *len, int root)
{
    uint64_t n = rank == root ? (uint64_t)*len : 0;
    if (MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
    if (rank != root) {
        *buf = malloc(n ? (size_t)n : 1);
        *len = (size_t)n;
        if (*buf == NULL) {            /* the others would wait for this rank: stop the job */
            fprintf(stderr, "fedref: error: out of memory on rank %d (%llu bytes)\n", rank, (unsigned long long)n);
            MPI_Abort(MPI_COMM_WORLD, 2);
            return -1;
        }
    }
    for (uint64_t off = 0; off < n;) {
        int chunk = n - off > (uint64_t)INT_MAX ? INT_MAX : (int)(n - off);
        if (MPI_Bcast(*buf + off, chunk, MPI_BYTE, root, MPI_COMM_WORLD) != MPI_SUCCESS) return -1;
        off += (uint64_t)chunk;
    }
    return 0;
}

int xp_all(int ok)
{
    int in = ok != 0, out = 0;
    if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD) != MPI_SUCCESS) return 0;
    return out;
}
