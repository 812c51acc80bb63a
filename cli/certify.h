/* SPDX-License-Identifier: Apache-2.0 */
/* certify.h -- the pieces of `fedref certify` (docs/CERTIFY.md): the
 * command (certify.c), the data set of a run (certify_data.c), the exact
 * record of ref's outputs and the checkpoint (certify_store.c), and the
 * evaluator that runs ref across the processes with progress
 * (certify_eval.c). */
#ifndef FEDREF_CLI_CERTIFY_H
#define FEDREF_CLI_CERTIFY_H

#include <stdint.h>
#include <jansson.h>
#include "../vectors/vectors.h"

/* ---- certify_data.c ---- */
/* Fill the data fields of fn (fn->data) in the case's input object from
 * the CSV file path (sklearn's layout with its header, or with features >
 * 0 bare rows of that many features and a label < classes), split among
 * `clients` clients in near-equal contiguous blocks (the first D mod N one
 * larger); replaces fields the object has.  0, or -1 with err. */
int certify_data_fill(const vfunc *fn, json_t *input, const char *path, size_t features, size_t classes,
                      unsigned long clients, char *said, size_t saidlen, char *err, size_t errlen);
/* said: on success, what was filled ("data: FILE (n samples of d
 * features, k classes, fnv1a H) split among N clients: X, b, d"), for the
 * case's comment.  certify_data_when: 1 if input (a case's input object)
 * satisfies d->when (or d has none). */
int certify_data_when(const vdata *d, json_t *input);

/* ---- certify_store.c ---- */
/* ref's outputs at one precision as bytes: the status (int32), then per
 * expected field rows and cols (uint64) and each value as
 * mpfr_fpif_export writes it (exact, its precision included); all
 * little-endian.  pack: *buf malloc'd; unpack allocates out[] (fields
 * nf).  0, or -1 (memory; unpack: malformed bytes). */
int cstore_pack(int status, const rtensor *out, size_t nf, char **buf, size_t *len);
int cstore_unpack(const char *buf, size_t len, size_t nf, int *status, rtensor *out);

/* The identity of a case: FNV-1a 64 of the function's name and of every
 * param and input as the generator writes them (shape, then the binary64
 * values' bytes). */
uint64_t cstore_case_digest(const vfunc *fn, const ftensor *par, const ftensor *in);

/* A checkpoint: the records (case id, precision, bytes) of the ref
 * evaluations done so far for one certification (function, fedref
 * version and case digests), rewritten whole after each new record,
 * atomically (a temporary file, fsync, rename). */
typedef struct {
    long id;
    long prec;
    char *buf;
    size_t len;
} crecord;
typedef struct {
    char *path;                     /* NULL: no checkpoint is kept */
    char function[128];
    uint64_t digest;                /* of the certification's cases */
    crecord *rec;
    size_t n, cap;
} cstore;
/* The bytes of file path (*buf malloc'd); 0, or -1 with err. */
int cstore_slurp(const char *path, char **buf, size_t *len, char *err, size_t errlen);
/* Parse a checkpoint's bytes into st (whose function and digest are set):
 * 0; -1 with err if they are not a checkpoint of the same function,
 * fedref version and cases, or are malformed (name in messages). */
int cstore_parse(cstore *st, const char *buf, size_t len, const char *name, char *err, size_t errlen);
/* Append a record (a copy of buf) and rewrite the file (when path is
 * set); 0, or -1 with err. */
int cstore_add(cstore *st, long id, long prec, const char *buf, size_t len, char *err, size_t errlen);
/* The record of (id, prec), NULL if none. */
const crecord *cstore_find(const cstore *st, long id, long prec);
void cstore_free(cstore *st);

/* ---- certify_eval.c ---- */
/* The evaluator of vgen_opts: each precision of a case from the
 * checkpoint when recorded, else computed by one process (the j-th
 * missing one by process j mod P) and given to all; rank 0 records it in
 * the checkpoint.  Progress on stderr (rank 0). */
typedef struct {
    cstore *store;
    int quiet;
    char err[512];
    double t_start;                 /* cli_now() at the start */
    double t_unit, p_unit;          /* the last measured evaluation: seconds, precision */
    double t_prev, p_prev;          /* the one before */
    unsigned long computed, reused;  /* evaluations computed (by every process), read from the checkpoint */
    unsigned long mine;              /* of the computed, those this process did */
} ceval;
int certify_eval(void *arg, const vfunc *fn, long id, rtensor *par, rtensor *in, const mpfr_prec_t *prec,
                 size_t n, rtensor (*out)[VEC_MAX_FIELDS], int *status);
const char *certify_eval_error(void *arg);

#endif
