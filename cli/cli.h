/* cli.h -- the fedref command: subcommands (main.c dispatches). */
#ifndef FEDREF_CLI_H
#define FEDREF_CLI_H

#include <stdint.h>

/* Print "fedref: error: <what> (<where>)" to stderr. */
void cli_error(const char *what, const char *where);

int cmd_vectors_gen(int argc, char **argv);
int cmd_vectors_check(int argc, char **argv);
int cmd_audit(int argc, char **argv);
/* Each module may add a section to `fedref audit` after the table: a
 * function `int audit_MODULE(uint64_t seed)` in cli/MODULE/ (found by the
 * build, ci/gen-registry.sh) that prints it and returns the number of its
 * failures. */

#endif
