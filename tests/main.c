/* SPDX-License-Identifier: Apache-2.0 */
/* main.c -- runs every Check suite found in the tests directory (the build generates
 * suite_registry.h from functions of the form `Suite *suite_NAME(void)`).
 * CK_FORK=no gives clean valgrind output; FEDREF_SEED replays random tests.
 * The last line is Check's summary. */
#include <stdlib.h>
#include <check.h>
#include "suite_registry.h"

int main(void)
{
    Suite *(*const suites[])(void) = {SUITE_REGISTRY};
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; suites[i]; i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
