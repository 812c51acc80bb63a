/* SPDX-License-Identifier: Apache-2.0 */
/* conform.h -- `fedref conform` (docs/CONFORM.md): the external program
 * (conform_child.c) and the reports (conform_report.c) of conform.c, also
 * those of `fedref vectors check` and `fedref audit`. */
#ifndef FEDREF_CLI_CONFORM_H
#define FEDREF_CLI_CONFORM_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "../vectors/vectors.h"

#define CONFORM_PROTOCOL "fedref-conform/1"

/* ---- the program under test (conform_child.c) ---- */
typedef struct {
    char **argv;               /* PROGRAM ARG... (NULL-terminated) */
    pid_t pid;                 /* 0: not running */
    int to, from;              /* its standard input and output */
    char *buf;                 /* what it wrote and was not yet read as a reply */
    size_t len, cap;
} cchild;

/* Start the program (its own process group; stderr shared with fedref).
 * 0, or -1 with the reason in why (the program cannot be executed). */
int cchild_start(cchild *c, char *why, size_t n);
/* Write the request line req (with its newline) and read one reply line
 * within timeout seconds.  0: *line is the reply without its newline
 * (valid until the next call).  -1: no reply (why says: the program
 * exited, was killed by a signal, closed its output, or the time ran
 * out); the program has been stopped, cchild_ask starts it again. */
int cchild_ask(cchild *c, const char *req, double timeout, char **line, char *why, size_t n);
/* Stop the program: close its input, wait up to grace seconds for it to
 * exit, then kill its process group. */
void cchild_stop(cchild *c, double grace);

/* ---- results and reports (conform_report.c; also fedref vectors check, audit) ---- */
enum cstatus { CS_PASS, CS_FAIL, CS_SKIP };

typedef struct {
    const char *file, *function;   /* the vector file's name (no directory) and function */
    long id;
    char *const *flags; size_t nflags;
    enum cstatus status;
    char **msgs; size_t nmsgs;     /* why it failed (one per wrong field) or was skipped */
    double seconds;                /* the program's time for the case (0 offline) */
    const char *check;             /* NULL: a case of the vector file `file`; else the name of
                                      a check of the audit (a sweep, a proof check, a module
                                      section; id 0) and `file` its group ("sweep", ...) */
} cresult;

typedef struct { char *file, *msg; } creject;   /* a vector file rejected by the reader */

typedef struct {
    cresult *r; size_t n, cap;
    const char *rule;              /* "tol" or "certified" (vectors check: "certified,tol" for both) */
    const char *source;            /* the program, the results file (vectors check: the impls) */
    const char *protocol, *title;  /* NULL: CONFORM_PROTOCOL, "fedref conform" */
    creject *rej; size_t nrej;     /* files rejected, not checked (conform: none) */
} creport;

/* Append r to rep (rep owns its messages from then on, also on failure);
 * 0, or -1 out of memory. */
int creport_add(creport *rep, const cresult *r);
/* Check case c of f with vcase_check (counted in st) into rep: a result
 * whose messages are its failure lines without "PATH: id N: " (file: the
 * base name of f->path).  0, or -1 out of memory. */
int creport_check_case(creport *rep, const vfile *f, const vcase *c, int impls, vcheck_stats *st);
/* Append a message to r (printf-style); 0, or -1 out of memory. */
int cresult_msg(cresult *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record a rejected file (copies both); 0, or -1 out of memory. */
int creport_reject(creport *rep, const char *file, const char *msg);
void creport_free(creport *rep);
/* Print the report in format "text", "json", "tap" or "junit" to out
 * (text: conform's; vectors check prints its own). */
void creport_print(const creport *rep, const char *format, FILE *out);
/* The counts: files and cases, passed / failed / skipped, and the audit's
 * checks.  A file fails with any failed case, is skipped when all its
 * cases are, else passes. */
typedef struct { size_t cases[3], files[3], checks[3]; } ccounts;
void creport_counts(const creport *rep, ccounts *k);

#endif
