/* replay.c -- run the fuzz target (fuzz_vectors.c) once on each file given,
 * without libFuzzer: the corpus replay of `make fuzz-replay` where clang's
 * libFuzzer is missing (built with the sanitizers of `make sanitize`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
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
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
    }
    printf("replayed %d inputs\n", argc - 1);
    return 0;
}
