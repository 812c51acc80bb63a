/* SPDX-License-Identifier: Apache-2.0 */
/* registry.c -- the functions a vector file may name (docs/VECTORS.md). */
#include <string.h>
#include "vectors.h"
#include "vfunc_registry.h"
#include "vflag_registry.h"

/* Every `const vfunc vfunc_NAME = ...` of vectors/<module>/, in module
 * order (generated: ci/gen-registry.sh). */
static const vfunc *const all[] = {VFUNC_REGISTRY};
static const char *const modules[] = {VFUNC_MODULES};

/* Every flag table `const vflag vflags_MODULE[]`, in module order. */
static const vflag *const flag_tables[] = {VFLAG_REGISTRY};

const vfunc *const *vfunc_all(void) { return all; }

const char *vfunc_module(const vfunc *fn)
{
    for (size_t i = 0; all[i]; i++)
        if (all[i] == fn) return modules[i];
    return NULL;
}

const vfunc *vfunc_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

const char *vflag_note(const char *name)
{
    for (size_t t = 0; flag_tables[t]; t++)
        for (const vflag *f = flag_tables[t]; f->name; f++)
            if (strcmp(f->name, name) == 0) return f->note;
    return NULL;
}

void vflag_each(void (*fn)(const vflag *f, void *arg), void *arg)
{
    for (size_t t = 0; flag_tables[t]; t++)
        for (const vflag *f = flag_tables[t]; f->name; f++)
            fn(f, arg);
}

size_t vspec_count(const vspec *s)
{
    size_t k = 0;
    while (s[k].name) k++;
    return k;
}
