/* cli.h -- the fedref command: subcommands (main.c dispatches). */
#ifndef FEDREF_CLI_H
#define FEDREF_CLI_H

#include <stdint.h>

/* Print "fedref: error: <what> (<where>)" to stderr. */
void cli_error(const char *what, const char *where);

int cmd_vectors_gen(int argc, char **argv);
int cmd_vectors_check(int argc, char **argv);
int cmd_audit(int argc, char **argv);
/* The ref-vs-fast trajectory comparison of the 002 algorithms
 * (audit_runs.c); returns the number of algorithms that failed. */
int audit_trajectories(uint64_t seed);

#endif
