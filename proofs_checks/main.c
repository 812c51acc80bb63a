/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- the proof-check driver (build/bin/proofs_checks).
 *
 *   proofs_checks [-l] [-v] [NAME...]
 *
 * Runs every check of the generated registry (or only the NAMEs given;
 * -l lists them) and prints one line per check (-v: also the claim and the
 * detail of passing checks, on lines of their own):
 *
 *   PASS|FAIL  name  function  ran N  failed N  [erratum ID]  [detail]
 *
 * The detail is printed on failure, and always for an erratum check (it is
 * the witness).  A failing line ends with the replay command.  The last
 * line is `proof checks: N passed, N failed`; the exit status is 1 if any
 * check failed, 2 on a usage or environment error.
 *
 * Environment:
 *   FEDREF_PC_CASES  random cases per check (default 10000, at least 1)
 *   FEDREF_PC_PREC   working precision in bits (default 256; < 200 refused)
 *   FEDREF_SEED      seed of the generator streams (default PC_SEED_DEFAULT;
 *                    decimal or 0x-hex)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pc.h"
#include "proof_registry.h"

#define PC_SEED_DEFAULT UINT64_C(0x5eedfed2024)
#define PC_CASES_DEFAULT 10000UL
#define PC_PREC_DEFAULT 256
#define PC_PREC_MIN 200

typedef struct {
    const char *name;
    int (*fn)(pc_ctx *);
} pc_entry;

static const pc_entry registry[] = {PC_REGISTRY};

/* Parse an unsigned integer from the environment; 0 on success. */
static int env_u64(const char *var, uint64_t dflt, uint64_t *out)
{
    const char *s = getenv(var);
    char *end;
    if (s == NULL || *s == '\0') {
        *out = dflt;
        return 0;
    }
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0' || s[0] == '-') {
        fprintf(stderr, "proofs_checks: error: %s=%s is not an unsigned integer\n",
                var, s);
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

static int selected(const char *name, int argc, char **argv)
{
    if (argc <= 0)
        return 1;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    uint64_t cases, prec, seed;
    size_t nreg = sizeof registry / sizeof registry[0] - 1;

    const char *prog = argc > 0 ? argv[0] : "proofs_checks";
    int verbose = 0;
    if (argc > 0) {
        argc--;
        argv++;
    }
    for (; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
        if (strcmp(argv[0], "-l") == 0) {
            for (size_t i = 0; i < nreg; i++)
                printf("%s\n", registry[i].name);
            return 0;
        } else if (strcmp(argv[0], "-v") == 0) {
            verbose = 1;
        } else {
            fprintf(stderr, "usage: %s [-l] [-v] [NAME...]\n", prog);
            return 2;
        }
    }
    for (int i = 0; i < argc; i++) {
        size_t k = 0;
        while (k < nreg && strcmp(registry[k].name, argv[i]) != 0)
            k++;
        if (k == nreg) {
            fprintf(stderr, "proofs_checks: error: no check named %s (-l lists them)\n",
                    argv[i]);
            return 2;
        }
    }
    if (env_u64("FEDREF_PC_CASES", PC_CASES_DEFAULT, &cases) ||
        env_u64("FEDREF_PC_PREC", PC_PREC_DEFAULT, &prec) ||
        env_u64("FEDREF_SEED", PC_SEED_DEFAULT, &seed))
        return 2;
    if (cases < 1 || cases > (uint64_t)100000000) {
        fprintf(stderr, "proofs_checks: error: FEDREF_PC_CASES=%" PRIu64
                " outside [1, 1e8]\n", cases);
        return 2;
    }
    if (prec < PC_PREC_MIN || prec > FR_PREC_MAX) {
        fprintf(stderr, "proofs_checks: error: FEDREF_PC_PREC=%" PRIu64
                " outside [%d, %d] (the checks need at least %d bits)\n",
                prec, PC_PREC_MIN, FR_PREC_MAX, PC_PREC_MIN);
        return 2;
    }

    unsigned npass = 0, nfail = 0;
    for (size_t i = 0; i < nreg; i++) {
        if (!selected(registry[i].name, argc, argv))
            continue;
        pc_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.cases = (unsigned long)cases;
        ctx.prec = (mpfr_prec_t)prec;
        ctx.seed = seed;
        int rc = registry[i].fn(&ctx);
        ctx.detail[sizeof ctx.detail - 1] = '\0';
        int ok = rc == 0 && ctx.failed == 0;
        ok ? npass++ : nfail++;
        printf("%s  %-24s %-14s ran %-6lu failed %lu", ok ? "PASS" : "FAIL",
               registry[i].name, ctx.function ? ctx.function : "?", ctx.ran,
               ctx.failed);
        if (ctx.erratum)
            printf("  erratum %s", ctx.erratum);
        if ((!ok || ctx.erratum) && ctx.detail[0])
            printf("  %s", ctx.detail);
        if (!ok)
            printf("  [seed 0x%" PRIx64 "; replay: FEDREF_SEED=0x%" PRIx64
                   " FEDREF_PC_CASES=%" PRIu64 " FEDREF_PC_PREC=%" PRIu64
                   " %s %s]", seed, seed, cases, prec, prog,
                   registry[i].name);
        printf("\n");
        if (verbose) {
            printf("      claim: %s\n", ctx.claim ? ctx.claim : "?");
            if (ok && !ctx.erratum && ctx.detail[0])
                printf("      detail: %s\n", ctx.detail);
        }
        fflush(stdout);
    }
    printf("proof checks: %u passed, %u failed\n", npass, nfail);
    mpfr_free_cache();
    return nfail ? 1 : 0;
}
