/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- the fedref command line: dispatch, help and version.
 *   fedref vectors gen DIR
 *   fedref vectors check [--format F] [--impl ref|fast|both] [--] FILE...
 *   fedref conform [OPTIONS] (-- PROGRAM [ARG...] | --results FILE | --emit-cases)
 *   fedref audit [--quick] [--vectors DIR] [--sweep N] [--pc-cases N] [--seed N] [--function NAME]... [--format F]
 *   fedref bench [--quick] [--reps N] [--seed N] [--section NAME] [--write-inputs DIR]
 *   fedref table1 [--quick] [--trials N] [--seed N] [--q Q]
 *   fedref experiments [--quick] [--data DIR] [--out DIR] [--seed N] [--only NAME]... [--list]
 *   fedref data info [--classes K] [--features D] [--] FILE...
 *   fedref dp eps|sigma|laplace OPTIONS   (cmd_dp.c)
 *   fedref certify FUNCTION CASE -o OUT [OPTIONS] | --template FUNCTION | --list   (certify.c)
 *   fedref version | --version ;  fedref help | -h | --help [COMMAND]
 * Long options also take their value attached: --seed=1 (split_long_options).
 * Exit status: 0 success, 1 a check failed, 2 a usage or input error.
 * The manual is docs/fedref.1 (installed as man page fedref(1)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "fedref_common.h"

static char last_error[1024];

void cli_error(const char *what, const char *where)
{
    if (where && *where) snprintf(last_error, sizeof last_error, "%s (%s)", what, where);
    else snprintf(last_error, sizeof last_error, "%s", what);
    fprintf(stderr, "fedref: error: %s\n", last_error);
}

const char *cli_last_error(void)
{
    return last_error;
}

void cli_error_clear(void)
{
    last_error[0] = '\0';
}

int cli_is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

static const char usage_text[] =
    "usage: fedref COMMAND [OPTIONS]\n"
    "\n"
    "Golden vectors and the ref-vs-fast audit of fedref " FEDREF_VERSION ".\n"
    "\n"
    "commands:\n"
    "  vectors check [--impl ref|fast|both] FILE...\n"
    "                     check golden-vector files against ref (to the certified\n"
    "                     bits) and fast (to each case's tolerance)\n"
    "  vectors gen DIR    write the certified golden vectors of every function to DIR\n"
    "  conform [OPTIONS] -- PROGRAM [ARG...]\n"
    "                     check an external implementation (any language) against\n"
    "                     the golden vectors, one JSON line per case (docs/CONFORM.md)\n"
    "  audit [OPTIONS]    ref vs fast on the committed vectors, a random sweep, the\n"
    "                     proof checks and the algorithms' trajectories (make run)\n"
    "  bench [OPTIONS]    timings: ref/fast on the closed forms, a FedEPM round\n"
    "                     against its BLAS floor (make bench adds fast vs numpy)\n"
    "  table1 [OPTIONS]   004's Table 1 (problem (25)) reproduced in fast beside the\n"
    "                     paper's figures, with the true KKT residuals (make table1)\n"
    "  data info FILE...  load data files strictly (IDX, sklearn CSV; make data)\n"
    "                     and print their shapes and checksums\n"
    "  experiments [OPTIONS]  each paper's headline experiment on real data (make\n"
    "                     data): CSV, plots and a report with verdicts (make experiments)\n"
    "  dp eps|sigma|laplace  certified privacy accounting: the eps of T Gaussian\n"
    "                     rounds (K of N), the least sigma, 002's Laplace uploads\n"
    "  certify FUNCTION CASE -o OUT  golden vectors for your own case (and data) of\n"
    "                     any function, certified by ref; resumable; MPI: fedref-mpi\n"
    "  version            print the version\n"
    "  help [COMMAND]     this text, or a command's\n"
    "\n"
    "Every command takes -h/--help.  Exit status: 0 success, 1 a check failed,\n"
    "2 a usage or input error.  Errors: 'fedref: error: WHAT (WHERE)'.  See fedref(1).\n";

static void version_usage(FILE *f);

static int help(const char *topic)
{
    if (topic == NULL || cli_is_help(topic) || strcmp(topic, "help") == 0) { fputs(usage_text, stdout); return 0; }
    if (strcmp(topic, "version") == 0) { version_usage(stdout); return 0; }
    if (strcmp(topic, "vectors") == 0) { cli_vectors_usage(stdout); return 0; }
    if (strcmp(topic, "audit") == 0) { cli_audit_usage(stdout); return 0; }
    if (strcmp(topic, "conform") == 0) { cli_conform_usage(stdout); return 0; }
    if (strcmp(topic, "bench") == 0) { cli_bench_usage(stdout); return 0; }
    if (strcmp(topic, "table1") == 0) { cli_table1_usage(stdout); return 0; }
    if (strcmp(topic, "experiments") == 0) { cli_experiments_usage(stdout); return 0; }
    if (strcmp(topic, "data") == 0) { cli_data_usage(stdout); return 0; }
    if (strcmp(topic, "dp") == 0) { cli_dp_usage(stdout); return 0; }
    if (strcmp(topic, "certify") == 0) { cli_certify_usage(stdout); return 0; }
    cli_error("no help for this topic", topic);
    return 2;
}

static const char version_text[] =
    "fedref " FEDREF_VERSION "\n"
    "Licensed under the Apache License, Version 2.0, the code and the golden\n"
    "vectors alike (the file LICENSE, in the source and in share/doc/fedref).\n"
    "There is NO WARRANTY, to the extent permitted by law.\n";

static void version_usage(FILE *f)
{
    fputs("usage: fedref version | fedref --version\n"
          "\n"
          "Print the version and the licence (Apache-2.0, the code and the vectors).\n", f);
}

/* GNU long options with the value attached, --name=value, are split into
 * --name value before any command parses them; nothing after "--" is
 * touched (file names).  argv is copied into split (room for 2 argc + 1). */
static int split_long_options(int argc, char **argv, char **split, char *buf)
{
    int n = 0, ended = 0;
    for (int i = 0; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (strcmp(argv[i], "--") == 0) ended = 1;
        if (!ended && i > 0 && strncmp(argv[i], "--", 2) == 0 && eq != NULL && eq > argv[i] + 2) {
            size_t len = (size_t)(eq - argv[i]);
            memcpy(buf, argv[i], len);
            buf[len] = '\0';
            split[n++] = buf;
            buf += len + 1;
            split[n++] = eq + 1;
        } else {
            split[n++] = argv[i];
        }
    }
    split[n] = NULL;
    return n;
}

static int dispatch(int argc, char **argv);

int main(int argc, char **argv)
{
    size_t room = 1;
    for (int i = 0; i < argc; i++) room += strlen(argv[i]) + 1;
    char **split = malloc((2 * (size_t)argc + 1) * sizeof *split), *buf = malloc(room);
    int rc = 2;
    if (split == NULL || buf == NULL) cli_error("out of memory", NULL);
    else rc = dispatch(split_long_options(argc, argv, split, buf), split);
    free(split);
    free(buf);
    return rc;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) { fputs(usage_text, stderr); return 2; }
    const char *cmd = argv[1];
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        if (argc > 2 && cli_is_help(argv[2])) { version_usage(stdout); return 0; }
        if (argc > 2) { cli_error("version takes no argument", argv[2]); return 2; }
        fputs(version_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "help") == 0 || cli_is_help(cmd)) return help(argc > 2 ? argv[2] : NULL);
    if (strcmp(cmd, "audit") == 0) return cmd_audit(argc - 2, argv + 2);
    if (strcmp(cmd, "conform") == 0) return cmd_conform(argc - 2, argv + 2);
    if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "table1") == 0) return cmd_table1(argc - 2, argv + 2);
    if (strcmp(cmd, "experiments") == 0) return cmd_experiments(argc - 2, argv + 2);
    if (strcmp(cmd, "data") == 0) return cmd_data(argc - 2, argv + 2);
    if (strcmp(cmd, "dp") == 0) return cmd_dp(argc - 2, argv + 2);
    if (strcmp(cmd, "certify") == 0) return cmd_certify(argc - 2, argv + 2);
    if (strcmp(cmd, "vectors") == 0) {
        if (argc < 3) {
            cli_error("missing subcommand: gen, check, schema or list", "vectors");
            cli_vectors_usage(stderr);
            return 2;
        }
        if (cli_is_help(argv[2])) { cli_vectors_usage(stdout); return 0; }
        if (strcmp(argv[2], "gen") == 0) return cmd_vectors_gen(argc - 3, argv + 3);
        if (strcmp(argv[2], "check") == 0) return cmd_vectors_check(argc - 3, argv + 3);
        if (strcmp(argv[2], "schema") == 0) return cmd_vectors_schema(argc - 3, argv + 3);
        if (strcmp(argv[2], "list") == 0) return cmd_vectors_list(argc - 3, argv + 3);
        cli_error("unknown subcommand of vectors (gen, check, schema or list)", argv[2]);
        cli_vectors_usage(stderr);
        return 2;
    }
    cli_error("unknown command", cmd);
    fputs(usage_text, stderr);
    return 2;
}
