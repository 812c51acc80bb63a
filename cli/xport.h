/* SPDX-License-Identifier: Apache-2.0 */
/* xport.h -- the processes of a distributed `fedref certify` (certify.c):
 * one process (xport_serial.c, the fedref program) or the ranks of an MPI
 * job (mpi/xport_mpi.c, the fedref-mpi program, built when mpicc is
 * found).  Every process runs the same certification; the only data they
 * exchange are ref's outputs, as exact bytes, each from the rank that
 * computed it to all (xp_bcast), in a fixed order. */
#ifndef FEDREF_CLI_XPORT_H
#define FEDREF_CLI_XPORT_H

#include <stddef.h>

/* Start the transport (MPI_Init under MPI); 0, or -1 with err. */
int xp_init(int *argc, char ***argv, char *err, size_t errlen);
void xp_finalize(void);
int xp_rank(void);
int xp_size(void);
/* What runs the processes: "one process" or "MPI, P ranks (Open MPI x.y.z)". */
const char *xp_describe(void);
/* Give every process root's *len bytes *buf: at root they are read, at the
 * others *buf is replaced by a malloc'd copy (the caller frees it) and *len
 * set.  0, or -1 (a transport or allocation failure on this process). */
int xp_bcast(char **buf, size_t *len, int root);
/* The logical and of ok over every process (a failure on one rank stops
 * every rank at the same point). */
int xp_all(int ok);

#endif
