/* SPDX-License-Identifier: Apache-2.0 */
/* replay.c -- run the fuzz target (fuzz_vectors.c) once on each file given,
 * without libFuzzer: the corpus replay of `make fuzz-replay` where clang's
 * libFuzzer is missing (built with the sanitizers of `make sanitize`).
 * With -t first, each input's time is printed ("N ms FILE"): the work
 * bound of one execution, measured without process startup. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int timed = argc > 1 && strcmp(argv[1], "-t") == 0;
    for (int i = 1 + timed; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (f == NULL) { perror(argv[i]); return 2; }
        size_t cap = 1 << 16, len = 0;
        unsigned char *buf = malloc(cap + 1);
        size_t r;
        while (buf != NULL && (r = fread(buf + len, 1, cap + 1 - len, f)) > 0) {
            len += r;
            if (len == cap + 1) {
                unsigned char *nb = realloc(buf, 2 * cap + 1);
                if (nb == NULL) { free(buf); buf = NULL; break; }
                buf = nb;
                cap *= 2;
            }
        }
        fclose(f);
        if (buf == NULL) { fprintf(stderr, "%s: out of memory\n", argv[i]); return 2; }
        double t0 = now_ms();
        LLVMFuzzerTestOneInput(buf, len);
        if (timed) printf("%.0f ms %s\n", now_ms() - t0, argv[i]);
        free(buf);
    }
    printf("replayed %d inputs\n", argc - 1 - timed);
    return 0;
}
