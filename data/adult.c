/* SPDX-License-Identifier: Apache-2.0 */
/* adult.c -- UCI Adult (Becker & Kohavi 1996; data/adult/, docs/DATA.md):
 * its schema, as adult.names lists the attributes and their categories,
 * and FedEPM's preprocessing of it (002 Sec. VII-A, steps (i)-(iv)). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "fedref_common.h"
#include "data.h"
#include "internal.h"

#define N(a) (sizeof(a) / sizeof *(a))

static const char *const workclass[] = {"Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov",
                                        "Local-gov", "State-gov", "Without-pay", "Never-worked"};
static const char *const education[] = {"Bachelors", "Some-college", "11th", "HS-grad", "Prof-school",
                                        "Assoc-acdm", "Assoc-voc", "9th", "7th-8th", "12th", "Masters",
                                        "1st-4th", "10th", "Doctorate", "5th-6th", "Preschool"};
static const char *const marital[] = {"Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed",
                                      "Married-spouse-absent", "Married-AF-spouse"};
static const char *const occupation[] = {"Tech-support", "Craft-repair", "Other-service", "Sales",
                                         "Exec-managerial", "Prof-specialty", "Handlers-cleaners",
                                         "Machine-op-inspct", "Adm-clerical", "Farming-fishing",
                                         "Transport-moving", "Priv-house-serv", "Protective-serv", "Armed-Forces"};
static const char *const relationship[] = {"Wife", "Own-child", "Husband", "Not-in-family", "Other-relative",
                                           "Unmarried"};
static const char *const race[] = {"White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"};
static const char *const sex[] = {"Female", "Male"};
static const char *const country[] = {
    "United-States", "Cambodia", "England", "Puerto-Rico", "Canada", "Germany", "Outlying-US(Guam-USVI-etc)",
    "India", "Japan", "Greece", "South", "China", "Cuba", "Iran", "Honduras", "Philippines", "Italy", "Poland",
    "Jamaica", "Vietnam", "Mexico", "Portugal", "Ireland", "France", "Dominican-Republic", "Laos", "Ecuador",
    "Taiwan", "Haiti", "Columbia", "Hungary", "Guatemala", "Nicaragua", "Scotland", "Thailand", "Yugoslavia",
    "El-Salvador", "Trinadad&Tobago", "Peru", "Hong", "Holand-Netherlands"};
static const char *const income[] = {"<=50K", ">50K"};

static const fdata_uci_attr adult_attr[] = {
    {"age", 0, NULL},
    {"workclass", N(workclass), workclass},
    {"fnlwgt", 0, NULL},
    {"education", N(education), education},
    {"education-num", 0, NULL},
    {"marital-status", N(marital), marital},
    {"occupation", N(occupation), occupation},
    {"relationship", N(relationship), relationship},
    {"race", N(race), race},
    {"sex", N(sex), sex},
    {"capital-gain", 0, NULL},
    {"capital-loss", 0, NULL},
    {"hours-per-week", 0, NULL},
    {"native-country", N(country), country},
};

const fdata_uci_schema fdata_adult_schema = {N(adult_attr), adult_attr, N(income), income};

int fdata_adult_002(fdata_table *out, const fdata_uci *const *parts, size_t nparts, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out == NULL || (parts == NULL && nparts > 0))
        return fdi_fail(err, errlen, FR_ENULL, "adult: a required pointer is NULL");
    memset(out, 0, sizeof *out);
    const size_t d = N(adult_attr);
    size_t n = 0;
    for (size_t k = 0; k < nparts; k++) {
        if (parts[k] == NULL) return fdi_fail(err, errlen, FR_ENULL, "adult: a required pointer is NULL");
        if (parts[k]->d != d)
            return fdi_fail(err, errlen, FR_EDOM, "adult: part %zu has %zu attributes, not Adult's 14", k + 1,
                            parts[k]->d);
        n += parts[k]->n - parts[k]->rows_missing;
    }
    if (n == 0) return fdi_fail(err, errlen, FR_ESIZE, "adult: no row without a missing value");
    fdata_table t = {.n = n, .d = d, .nclasses = 2};
    t.x = malloc(n * d * sizeof *t.x);
    t.y = malloc(n * sizeof *t.y);
    t.class_names = calloc(2, sizeof *t.class_names);
    for (size_t c = 0; t.class_names != NULL && c < 2; c++) t.class_names[c] = strdup(income[c]);
    if (t.x == NULL || t.y == NULL || t.class_names == NULL || t.class_names[0] == NULL || t.class_names[1] == NULL) {
        fdata_table_free(&t);
        return fdi_fail(err, errlen, FR_ENOMEM, "adult: out of memory (%zu rows)", n);
    }
    /* (i) rows with a "?" dropped; (ii) a category as 1 + its index in
     * adult.names's list; (iv) b = 1 for ">50K", 0 for "<=50K" */
    size_t r = 0;
    for (size_t k = 0; k < nparts; k++) {
        const fdata_uci *u = parts[k];
        for (size_t i = 0; i < u->n; i++) {
            if (memchr(u->missing + i * d, 1, d) != NULL) continue;
            if (r == n || u->y[i] > 1) {
                fdata_table_free(&t);
                return fdi_fail(err, errlen, FR_EDOM, "adult: part %zu is not as its parser leaves it", k + 1);
            }
            for (size_t j = 0; j < d; j++)
                t.x[r * d + j] = u->x[i * d + j] + (adult_attr[j].ncat > 0 ? 1.0 : 0.0);
            t.y[r++] = u->y[i];
        }
    }
    if (r != n) {
        fdata_table_free(&t);
        return fdi_fail(err, errlen, FR_EDOM, "adult: the parts' counts of rows with a \"?\" are wrong");
    }
    /* (iii) every column divided by its Euclidean norm, computed on the
     * column scaled by its largest magnitude m (no overflow or underflow
     * of the squares): x / ||x|| = (x / m) / sqrt(sum (x / m)^2) */
    for (size_t j = 0; j < d; j++) {
        double m = 0, s = 0, c = 0;
        for (size_t i = 0; i < n; i++) m = fmax(m, fabs(t.x[i * d + j]));
        /* the squares summed with Neumaier's compensation: a plain sum of
         * 45 222 equal terms drifts by about n u = 5e-12 */
        for (size_t i = 0; m > 0 && i < n; i++) {
            double q = (t.x[i * d + j] / m) * (t.x[i * d + j] / m), u = s + q;
            c += fabs(s) >= fabs(q) ? (s - u) + q : (q - u) + s;
            s = u;
        }
        s += c;
        if (!(m > 0) || !isfinite(s)) {
            fdata_table_free(&t);
            return fdi_fail(err, errlen, FR_EDOM, "adult: column %zu (%s) is all zeros: cannot be scaled to unit "
                            "length", j + 1, adult_attr[j].name);
        }
        double rt = sqrt(s);
        for (size_t i = 0; i < n; i++) t.x[i * d + j] = t.x[i * d + j] / m / rt;
    }
    *out = t;
    return FR_OK;
}
