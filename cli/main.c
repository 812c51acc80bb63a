/* main.c -- the fedref command line.
 *   fedref vectors gen [DIR]             write certified vectors (default vectors/)
 *   fedref vectors check [--impl ref|fast|both] FILE...
 *   fedref audit                         ref vs fast audit (make run)
 *   fedref version | help
 * Exit status: 0 success, 1 a check failed, 2 a usage or input error. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "fedref_common.h"

void cli_error(const char *what, const char *where)
{
    if (where && *where) fprintf(stderr, "fedref: error: %s (%s)\n", what, where);
    else fprintf(stderr, "fedref: error: %s\n", what);
}

static void usage(FILE *f)
{
    fputs("usage: fedref vectors gen [DIR]\n"
          "       fedref vectors check [--impl ref|fast|both] FILE...\n"
          "       fedref audit\n"
          "       fedref version\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    if (strcmp(argv[1], "version") == 0) { printf("fedref %s\n", FEDREF_VERSION); return 0; }
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0) { usage(stdout); return 0; }
    if (strcmp(argv[1], "audit") == 0) return cmd_audit(argc - 2, argv + 2);
    if (strcmp(argv[1], "vectors") == 0 && argc >= 3) {
        if (strcmp(argv[2], "gen") == 0) return cmd_vectors_gen(argc - 3, argv + 3);
        if (strcmp(argv[2], "check") == 0) return cmd_vectors_check(argc - 3, argv + 3);
    }
    cli_error("unknown command", argv[1]);
    usage(stderr);
    return 2;
}
