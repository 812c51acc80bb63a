/* registry.c -- the functions a vector file may name (docs/VECTORS.md). */
#include <string.h>
#include "vectors.h"

extern const vfunc vfunc_soft, vfunc_prox_l1, vfunc_median, vfunc_ens, vfunc_fedepm_step,
    vfunc_laplace_scale, vfunc_logreg, vfunc_fedepm, vfunc_sfedavg, vfunc_sfedprox;

static const vfunc *const all[] = {&vfunc_soft, &vfunc_prox_l1, &vfunc_median, &vfunc_ens,
                                   &vfunc_fedepm_step, &vfunc_laplace_scale, &vfunc_logreg,
                                   &vfunc_fedepm, &vfunc_sfedavg, &vfunc_sfedprox, NULL};

const vfunc *const *vfunc_all(void) { return all; }

const vfunc *vfunc_find(const char *name)
{
    for (size_t i = 0; all[i]; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

size_t vspec_count(const vspec *s)
{
    size_t k = 0;
    while (s[k].name) k++;
    return k;
}
