/* cli.h -- the fedref command: subcommands (main.c dispatches). */
#ifndef FEDREF_CLI_H
#define FEDREF_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Print "fedref: error: <what> (<where>)" to stderr. */
void cli_error(const char *what, const char *where);
/* 1 for -h and --help. */
int cli_is_help(const char *arg);
/* Progress of a long command: "fedref: <what>" on stderr (not stdout,
 * which carries the results). */
void cli_progress(const char *fmt, ...);

/* The directory of the golden vectors: `explicit` if given, else
 * $FEDREF_VECTORS_DIR, else the checkout's vectors/ when the command runs
 * from its build tree (build/<...>/bin/fedref), else the installed
 * FEDREF_DATADIR/vectors.  Writes it to out; 0, or -1 if none exists. */
int cli_vectors_dir(const char *explicit_dir, char *out, size_t outlen);

void cli_vectors_usage(FILE *f);
void cli_audit_usage(FILE *f);
int cmd_vectors_gen(int argc, char **argv);
int cmd_vectors_check(int argc, char **argv);
int cmd_audit(int argc, char **argv);

/* Each module may add a section to `fedref audit` after the table: a
 * function `int audit_MODULE(uint64_t seed)` in cli/MODULE/ (found by the
 * build, ci/gen-registry.sh) that prints it and returns the number of its
 * failures. */

#endif
