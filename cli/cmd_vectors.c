/* cmd_vectors.c -- `fedref vectors gen` and `fedref vectors check`. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../vectors/vectors.h"

int cmd_vectors_gen(int argc, char **argv)
{
    const char *dir = argc >= 1 ? argv[0] : "vectors";
    char path[4096], err[1024];
    for (const vfunc *const *fn = vfunc_all(); *fn; fn++) {
        snprintf(path, sizeof path, "%s/%s.json", dir, (*fn)->name);
        if (vectors_generate(*fn, path, err, sizeof err) != 0) {
            cli_error(err, path);
            return 2;
        }
        printf("wrote %s\n", path);
    }
    return 0;
}

int cmd_vectors_check(int argc, char **argv)
{
    int impls = VCHECK_REF | VCHECK_FAST, nfiles = 0;
    unsigned long rejected = 0;
    vcheck_stats st = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--impl") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            impls = strcmp(v, "ref") == 0 ? VCHECK_REF : strcmp(v, "fast") == 0 ? VCHECK_FAST
                  : strcmp(v, "both") == 0 ? VCHECK_REF | VCHECK_FAST : 0;
            if (!impls) { cli_error("--impl takes ref, fast or both", v); return 2; }
            continue;
        }
        vfile f;
        char err[1024];
        nfiles++;
        if (vfile_read(&f, argv[i], err, sizeof err) != 0) {
            cli_error(err, NULL);
            vfile_free(&f);
            rejected++;          /* counted as a failure: never read as a pass */
            continue;
        }
        vfile_check(&f, impls, stdout, &st);
        vfile_free(&f);
    }
    if (nfiles == 0) { cli_error("no vector file given", "vectors check"); return 2; }
    if (rejected)
        printf("%lu passed, %lu failed (%lu file%s rejected)\n", st.passed, st.failed + rejected,
               rejected, rejected == 1 ? "" : "s");
    else
        printf("%lu passed, %lu failed\n", st.passed, st.failed);
    return rejected ? 2 : st.failed ? 1 : 0;
}
