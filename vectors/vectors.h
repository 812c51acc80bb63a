/* SPDX-License-Identifier: Apache-2.0 */
/* vectors.h -- golden vectors, schema fedref-vectors/2 (docs/VECTORS.md):
 * the in-memory form of a file, the per-function table that maps the
 * schema's names to ref and fast, the reader, the checker and the
 * generator.  Internal to the fedref CLI and tests (not installed). */
#ifndef FEDREF_VECTORS_H
#define FEDREF_VECTORS_H

#include <stdio.h>
#include <mpfr.h>
#include "fedref.h"
#include "fedfast.h"

#define VEC_SCHEMA "fedref-vectors/2"      /* what the generator writes */
#define VEC_SCHEMA_V1 "fedref-vectors/1"   /* still read (docs/VECTORS.md "Changes") */
#define VEC_DIGITS 40            /* significant digits of expected values */
#define VEC_MAX_FIELDS 16
/* The largest certified_bits a file may claim: the generator writes 130
 * (40 significant digits carry at most 133 bits); 256 leaves room for files
 * with more digits and keeps the checker's precision (max(certified_bits,
 * VEC_EVAL_BITS) + 32, runs: + 128, doubled up to twice) small enough for
 * every case to be checked in seconds. */
#define VEC_CERTIFIED_BITS_MAX 256

struct vgen;

/* The kinds of field.  VK_BOOL is one boolean, written as the JSON string
 * "true" or "false" (nothing else: not a JSON true, not "1", not "TRUE");
 * ref and fast hold it as the number 1 or 0 (1 x 1), and an expected
 * boolean is compared exactly: a tolerance never applies to it. */
/* VK_CHOICE is one string from the fixed list vspec.choices (e.g. "zero",
 * "l1", "box"), written as that JSON string and nothing else; ref and fast
 * hold it as its index in the list (1 x 1: 0, 1, ...). */
enum vkind { VK_SCALAR, VK_VECTOR, VK_MATRIX, VK_BOOL, VK_CHOICE };

/* How an expected number field (VK_SCALAR, VK_VECTOR, VK_MATRIX) is
 * compared (docs/VECTORS.md "Field kinds"), whatever tol and certified_bits
 * say where they do not apply:
 *   VC_REAL   two-sided: fast within tol, ref within 2^-b |expected|;
 *   VC_INT    an exact integer (a count, an index, a draw, a bitmask, a
 *             decision): written as an integer and equal to it in every
 *             implementation; tol and certified_bits never apply;
 *   VC_UPPER  an upper bound (an epsilon, a sigma, a sensitivity): a value
 *             below expected fails by any margin beyond the 40-digit
 *             rounding of expected (2^-VEC_ONE_SIDED_BITS |expected|); above
 *             it, tol (fast) or 2^-b |expected| (ref) apply;
 *   VC_LOWER  a lower bound, the mirror;
 *   VC_EXACT  a real that fast computes exactly (kkt_residual's eps2): fast
 *             must equal it, i.e. be within the 40-digit rounding of
 *             expected (the margin above); tol does not apply; ref as
 *             VC_REAL. */
enum vcmp { VC_REAL, VC_INT, VC_UPPER, VC_LOWER, VC_EXACT };
/* The unsafe side's margin of VC_UPPER / VC_LOWER: expected is the
 * correctly rounded 40-digit decimal of the exact bound, within 10^-39/2
 * < 2^-130 of it (relative). */
#define VEC_ONE_SIDED_BITS 130
/* The least precision the checker evaluates ref at, whatever a file's
 * certified_bits: ref runs at max(b, VEC_EVAL_BITS) + 32 bits (the runs:
 * + 128, doubled up to twice), the precision that certifies the
 * generator's 130 bits; a small b never lowers it. */
#define VEC_EVAL_BITS 130

/* A field: its name and kind; choices (VK_CHOICE only: the allowed strings,
 * NULL-terminated); when (optional fields only, else NULL): "NAME=VALUE",
 * the field is present exactly when the earlier VK_CHOICE field NAME of the
 * same object (params, input) is VALUE, and absent otherwise (e.g. gamma
 * only with h = "l1").  An absent field reaches ref and fast as 0 x 0.
 * cmp (expected fields only; VC_REAL when omitted): how it is compared. */
typedef struct {
    const char *name;
    enum vkind kind;
    const char *const *choices;
    const char *when;
    enum vcmp cmp;
} vspec;

/* A field of a case as written in the file: rows x cols strings (scalar
 * 1 x 1, vector 1 x n, matrix m x n, row-major), decimal numbers, or for
 * a VK_BOOL field (boolean = 1) the single string "true" or "false", or for
 * a VK_CHOICE field (choices != NULL) one of the choices; an absent
 * optional field is 0 x 0 (s NULL). */
typedef struct { size_t rows, cols; char **s; int boolean; const char *const *choices; } vtensor;

/* The same field read by ref (mpfr) or fast (double). */
typedef struct { size_t rows, cols; mpfr_t *v; } rtensor;
typedef struct { size_t rows, cols; double *v; } ftensor;

typedef struct vcase {
    long id;
    char *comment;
    char **flags; size_t nflags;
    int invalid;                     /* "result": "invalid" */
    vtensor param[VEC_MAX_FIELDS];   /* in the order of vfunc.params */
    vtensor input[VEC_MAX_FIELDS];   /* in the order of vfunc.inputs */
    vtensor expect[VEC_MAX_FIELDS];  /* in the order of vfunc.expects */
    char *tol_rel, *tol_abs;         /* what binary64 must meet */
    long certified_bits;             /* |expected - exact| <= 2^-bits |exact| */
    const char *group_label;         /* e.g. "groups[1].cases[3]" for messages */
} vcase;

/* The input fields of a run that a data set fills (fedref certify --data,
 * cli/certify_data.c): the samples-by-features matrix, its labels (binary:
 * each 0 or 1, a data set of two classes; else the class index), and the
 * clients' shares, N near-equal contiguous blocks of the samples (or, with
 * by_features, of the features), written with a leading 0 when lead_zero
 * (004's cnt).  when: "NAME=VALUE", the case's choice field NAME must be
 * VALUE for the data fields to exist (004: kind=np). */
typedef struct vdata {
    const char *matrix, *labels, *sizes;
    int binary, by_features, lead_zero;
    const char *when;
} vdata;

typedef struct vfunc {
    const char *name, *source;
    const vspec *params, *inputs, *expects;   /* each ends with {NULL, 0} */
    /* Evaluate at precision prec: allocate out[] with rt_alloc, return status. */
    int (*ref)(rtensor *par, rtensor *in, rtensor *out, mpfr_prec_t prec);
    int (*fast)(ftensor *par, ftensor *in, ftensor *out);
    /* The tolerance a binary64 implementation must meet on a valid case. */
    void (*tol)(const ftensor *par, const ftensor *in, double *rel, double *abs);
    /* Append the golden cases with the vg_* builder below. */
    void (*golden)(struct vgen *g);
    /* Optional: draw a valid random case (params and inputs, allocated with
     * ft_alloc) for the audit sweep; NULL: the generic sampler. */
    void (*sample)(frng_t *g, ftensor *par, ftensor *in);
    unsigned long sweep_max;   /* at most this many sweep cases (0: no cap) */
    /* 0: ref is correctly rounded (certified by an enclosure).  1: ref runs
     * an iteration at working precision p (not correctly rounded): certified
     * by precision doubling (vgen.c), checked at certified_bits + 128. */
    int iterative;
    /* The work of checking one case, in units of a closed form's (0: 1):
     * > 1 for a ref that bisects at the checker's precision (the
     * accountants); the fuzz target checks at most FUZZ_MAX_WORK units of
     * cases per input. */
    unsigned check_work;
    /* Optional: the file's "changelog", one line per change of an expected
     * value since the function's first file, oldest first, NULL-ended. */
    const char *const *changelog;
    /* Optional: the fields a data set fills (runs), NULL for none. */
    const vdata *data;
} vfunc;

typedef struct {
    char *path;
    const vfunc *fn;
    int version;                     /* 2: fedref-vectors/2, 1: fedref-vectors/1 */
    long precision_bits;             /* generator.precision_bits */
    vcase *cases; size_t ncases;
} vfile;

/* A case flag and the note that explains it in the "notes" table of every
 * file that uses it.
 * Each module defines its vocabulary as `const vflag vflags_MODULE[] = {
 * ..., {NULL, NULL}};` in vectors/MODULE/flags.c; a flag name is defined
 * once across all modules. */
typedef struct { const char *name, *note; } vflag;

/* ---- registry (registry.c; the lists are generated from the sources) ---- */
const vfunc *vfunc_find(const char *name);
const vfunc *const *vfunc_all(void);   /* NULL-terminated */
size_t vspec_count(const vspec *s);
/* The module of fn (its directory under vectors/: "core", "ssca", ...). */
const char *vfunc_module(const vfunc *fn);
/* The note of flag `name`, NULL if no module defines it. */
const char *vflag_note(const char *name);
/* fn on every flag, module by module in module order. */
void vflag_each(void (*fn)(const vflag *f, void *arg), void *arg);

/* ---- numbers (numfmt.c) ---- */
/* Parse a decimal string (or "nan", "inf", "-inf") exactly as strtofr does,
 * round to nearest; 0 on success, -1 if the string is not a number. */
int num_parse_mpfr(mpfr_t x, const char *s);
int num_parse_double(double *x, const char *s);
/* 1 if the decimal string s is an integer (no special) of at most maxdigits
 * digits ("3", "-0", "30e-1", "1.2e3"), else 0. */
int num_is_integer(const char *s, int maxdigits);
/* Exact decimal of a dyadic number (malloc'd); NULL on allocation failure. */
char *num_exact_decimal(mpfr_srcptr x);
/* x rounded to `digits` significant digits (RNDN), trailing zeros removed. */
char *num_round_decimal(mpfr_srcptr x, int digits, mpfr_rnd_t rnd);

/* ---- tensors (tensor.c) ---- */
int rt_alloc(rtensor *t, size_t rows, size_t cols, mpfr_prec_t prec);
void rt_free(rtensor *t);
int ft_alloc(ftensor *t, size_t rows, size_t cols);
void ft_free(ftensor *t);
/* Read a vtensor into ref/fast form (a boolean as 1 or 0, a choice as its
 * index, an absent field as 0 x 0); a number as the binary64 nearest to its
 * decimal, in both (ref: held exactly, at max(prec, 53) bits, so that ref
 * and fast receive the same inputs whatever prec is; a file's inputs are
 * binary64 written exactly, docs/VECTORS.md); -1 on a non-numeric string (a boolean
 * field: a string other than "true" and "false"; a choice field: a string
 * not among its choices). */
int rt_from_v(rtensor *t, const vtensor *v, mpfr_prec_t prec);
int ft_from_v(ftensor *t, const vtensor *v);
/* The index of s in the NULL-terminated list choices, -1 if absent (s or
 * choices NULL included). */
int vt_choice_parse(const char *const *choices, const char *s);
/* A boolean as written: 1 for "true", 0 for "false", -1 for anything else
 * (NULL included). */
int vt_bool_parse(const char *s);
/* A boolean as computed: 1 for the number 1, 0 for a zero of either sign,
 * -1 for anything else (another number, NaN, an infinity). */
int rt_bool(mpfr_srcptr x);
int ft_bool(double x);
void vt_free(vtensor *v);
/* The binary64 value of x, which must be one exactly (the committed inputs
 * are binary64 by the schema): FR_OK, or FR_EDOM if it is not. */
int rt_exact_double(double *out, mpfr_srcptr x);

/* ---- reader (vread.c) ---- */
/* Read and validate a file.  On error returns -1 and writes a one-line
 * message "what (where)" into err. */
int vfile_read(vfile *f, const char *path, char *err, size_t errlen);
/* The same from len bytes in memory (name stands for the path in messages). */
int vfile_read_buffer(vfile *f, const char *buf, size_t len, const char *name, char *err, size_t errlen);
void vfile_free(vfile *f);
/* Read a JSON object (jansson's json_t) holding exactly the fields of spec
 * as a file spells them (numbers: any numeric string, "nan", "inf" among
 * them; booleans "true"/"false"; choices): the output of an external
 * implementation (fedref conform).  out[] in the order of spec (absent
 * optional fields 0 x 0); -1 and "what (name: where)" in err on error (free
 * out with vt_free either way). */
struct json_t;
int vfields_read_json(struct json_t *obj, const vspec *spec, const char *name, const char *where,
                      vtensor *out, char *err, size_t errlen);

/* ---- checker (vcheck.c) ---- */
enum { VCHECK_REF = 1, VCHECK_FAST = 2 };
typedef struct {
    unsigned long passed, failed;
    double max_ulps, max_rel;        /* fast vs expected, over the values of valid
                                        cases judged relatively (tol.rel |e| >= tol.abs) */
    unsigned long nrelative;         /* how many values that is */
    double max_tolfrac;              /* largest |fast - expected| / tol */
    long min_certified_bits;
} vcheck_stats;
/* The comparison of one value, shared by vfile_check and fedref conform
 * (docs/VECTORS.md "Field kinds"). */
typedef struct {
    const char *why;     /* on failure: ", an exact integer", ", exact", ", below an upper
                            bound", ", above a lower bound", ", the sign of zero" or "" */
    int special;         /* the expected value is nan, inf or -inf */
    int stat;            /* fast, a real judged by tol: in the error statistics */
    int relative;        /* fast: tol's relative part dominates (ulps, rel set) */
    double ulps, rel;    /* |got - expected| in binary64 ulps of expected, relative */
    double tolfrac;      /* |got - expected| / tol (0 when tol is 0) */
} vverdict;
/* Judge got against value i (row-major) of the number field k of
 * c->expect (c valid): impl VCHECK_REF by the certified bits (ref's rule:
 * within 2^-b |expected|), VCHECK_FAST by the case's tol (a binary64
 * implementation's rule), both by the field's kind, the sign of a zero
 * and the specials.  prec: the working precision of the comparison (at
 * least got's).  Returns 1 if it passes; v says why not. */
int vvalue_judge(const vfunc *fn, const vcase *c, size_t k, size_t i, mpfr_srcptr got, int impl,
                 mpfr_prec_t prec, vverdict *v);
/* A result of rows x cols values has the shape of the expected field x
 * (the same count and, when there are values, the same rows and columns). */
int vshape_ok(size_t rows, size_t cols, const vtensor *x);
/* got (1 true, 0 false, -1 not a boolean) is the expected boolean x. */
int vbool_ok(const vtensor *x, int got);
/* Check case c of f (counted in st); print one line per wrong field, for
 * each impl checked, to out.  Returns 1 if it passes. */
int vcase_check(const vfile *f, const vcase *c, int impls, FILE *out, vcheck_stats *st);
/* Check every case of f as vcase_check. */
void vfile_check(const vfile *f, int impls, FILE *out, vcheck_stats *st);
/* Check case c of f alone as vfile_check does (counted in st), and judge
 * alt, a copy of c with other expected values, against the same
 * evaluations (nothing printed, not counted): returns the impls (VCHECK_REF,
 * VCHECK_FAST) under which alt passes.  One evaluation for two verdicts:
 * the fuzz target's silent-pass oracle at half the work. */
int vcase_check_pair(const vfile *f, const vcase *c, const vcase *alt, int impls, FILE *out, vcheck_stats *st);

/* ---- the outputs of an external implementation (vreply.c; fedref conform) ---- */
/* The symbolic name of a status ("FR_EDOM"), NULL for none. */
const char *vstatus_name(int st);
/* The status named s ("FR_EDOM", "FR_OK", ...); 1 (no status) if none. */
int vstatus_parse(const char *s);
/* A wrong field of an external implementation's output. */
typedef struct {
    char field[96];        /* the field, with the index of its first wrong value: "w[3]" */
    char got[72], expected[72];   /* that value: got as judged (VCHECK_FAST: the binary64
                                     read, %.17g), expected as written (68 characters at most) */
    char rule[160];        /* what it is judged by: "tol rel R abs A", "certified B bits", ... */
    const char *why;       /* as vverdict.why, or ", a shape mismatch", ", not a boolean" ... */
    size_t nwrong, nvalues;   /* wrong values of the field, values */
} vwrong;
/* Judge out[] (an external implementation's outputs for valid case c of
 * f, read by vfields_read_json) field by field, every value of every
 * field: impl VCHECK_FAST reads each number as the nearest binary64 and
 * judges it as fedref's fast (the case's tol), VCHECK_REF reads it at
 * max(certified_bits, 130) + 96 bits and judges it as fedref's ref (the
 * certified bits); both with vvalue_judge.  Each wrong field fills one
 * wrong[] (at most max); returns the number of wrong fields. */
size_t vcase_judge_output(const vfile *f, const vcase *c, const vtensor *out, int impl,
                          vwrong *wrong, size_t max);

/* ---- index and schemas (vschema.c; docs/VECTORS.md "Index and schemas") ---- */
#define VEC_INDEX_FILE "index.json"
/* 1 if path names the index (basename VEC_INDEX_FILE), not a vector file. */
int vindex_file_p(const char *path);
/* The JSON Schema (draft 2020-12) of fn's files, from its tables. */
struct json_t *vschema_build(const vfunc *fn);
/* The index of every vector file of dir (read with the reader, by file
 * name); NULL and "what (where)" in err if a file is rejected. */
struct json_t *vindex_build(const char *dir, char *err, size_t errlen);
/* Write out/schema/<function>.schema.json for every function and
 * out/index.json, the index of dir's files; 0, or -1 with err. */
int vectors_schema_write(const char *dir, const char *out, char *err, size_t errlen);

/* ---- generator (vgen.c) ---- */
/* Write the certified golden file of fn to path (temporary name + rename).
 * Every expected value is certified: see vgen.c.  Returns 0, or -1 with a
 * message in err. */
int vectors_generate(const vfunc *fn, const char *path, char *err, size_t errlen);
/* The same with the cases and the evaluation of ref given by the caller
 * (fedref certify, cli/certify.c); a zeroed vgen_opts is vectors_generate.
 *   golden, golden_arg  the cases (vg_* builder), instead of fn->golden;
 *   eval, eval_arg      ref's outputs for valid case id at each of the n
 *                       precisions prec[j]: out[j] allocated as fn->ref
 *                       does, status[j] its status; 0, or -1 if the
 *                       outputs could not be obtained (an I/O or transport
 *                       error: eval_error(eval_arg) says which); NULL:
 *                       fn->ref at each precision in turn.  The generator
 *                       asks each precision of a case once (p, 2p and,
 *                       for a run, 4p at first; then the next doubling);
 *   no_write            1: certify everything, write nothing (the ranks
 *                       of a distributed run but the first). */
typedef struct {
    void (*golden)(struct vgen *g, void *arg);
    void *golden_arg;
    int (*eval)(void *arg, const vfunc *fn, long id, rtensor *par, rtensor *in, const mpfr_prec_t *prec,
                size_t n, rtensor (*out)[VEC_MAX_FIELDS], int *status);
    const char *(*eval_error)(void *arg);
    void *eval_arg;
    int no_write;
    /* dry: the valid cases get no expected values (nothing is certified;
     * with no_write and root: the cases' params and inputs alone, e.g. a
     * template for fedref certify); root: on success, the file's JSON
     * (the caller owns it, json_decref). */
    int dry;
    struct json_t **root;
} vgen_opts;
int vectors_generate_opts(const vfunc *fn, const char *path, const vgen_opts *opts, char *err, size_t errlen);

/* Builder used by vfunc.golden.  Inputs are binary64 values, written as
 * exact decimals.  Case ids are assigned in order from 1 and never reused:
 * append new cases at the end of a function's list.  flags is a
 * comma-separated list of names from the table in vgen.c (or ""). */
typedef struct vgen vgen;
void vg_group(vgen *g, const char *comment, const double *params);
/* The same with params of any kind: params[k] is rows x cols values (a
 * VK_CHOICE: 1 x 1, the index of the choice; an optional field absent: 0 x
 * 0).  vg_group(g, c, p) is vg_group_fields with 1 x 1 fields p[k]. */
void vg_group_fields(vgen *g, const char *comment, const ftensor *params);
void vg_case(vgen *g, const char *comment, const char *flags, int invalid, const ftensor *inputs);
/* Shorthands for one vector input (1 x n) or one matrix input (m x n). */
void vg_vec(vgen *g, const char *comment, const char *flags, int invalid, size_t n, const double *x);
void vg_mat(vgen *g, const char *comment, const char *flags, int invalid,
            size_t m, size_t n, const double *W);
/* The generator's own deterministic stream (frng, seed 2024, stream 0). */
frng_t *vg_rng(vgen *g);
/* A random binary64 k 2^-e with |k| < 2^bits, e in [0, 10]: short exact decimals. */
double vg_dyadic(vgen *g, unsigned bits);

#endif
