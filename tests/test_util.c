/* SPDX-License-Identifier: Apache-2.0 */
/* test_util.c -- the seed and effort of the Check suites' random cases. */
#include <stdlib.h>
#include "test_util.h"

uint64_t tu_seed(uint64_t dflt)
{
    const char *s = getenv("FEDREF_SEED");
    return s && *s ? strtoull(s, NULL, 0) : dflt;
}

int tu_effort(int n)
{
    const char *s = getenv("FEDREF_TEST_EFFORT");
    int k = s && *s ? atoi(s) : 1;
    return n * (k > 0 ? k : 1);
}
