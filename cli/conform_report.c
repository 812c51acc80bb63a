/* SPDX-License-Identifier: Apache-2.0 */
/* conform_report.c -- the reports of `fedref conform` (docs/CONFORM.md)
 * and of `fedref vectors check` (docs/VECTORS.md): text, one JSON object,
 * TAP version 13, JUnit XML.  Files and cases are counted apart; a file
 * the reader rejected is a failure of its own (TAP, JUnit: an error). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "conform.h"

static const char *const status_word[] = {"pass", "fail", "skip"};

int cresult_msg(cresult *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *m = len >= 0 ? malloc((size_t)len + 1) : NULL;
    char **msgs = m ? realloc(r->msgs, (r->nmsgs + 1) * sizeof *msgs) : NULL;
    if (msgs == NULL) { free(m); return -1; }
    va_start(ap, fmt);
    vsnprintf(m, (size_t)len + 1, fmt, ap);
    va_end(ap);
    r->msgs = msgs;
    r->msgs[r->nmsgs++] = m;
    return 0;
}

int creport_reject(creport *rep, const char *file, const char *msg)
{
    creject *r = realloc(rep->rej, (rep->nrej + 1) * sizeof *r);
    if (r == NULL) return -1;
    rep->rej = r;
    r[rep->nrej].file = strdup(file);
    r[rep->nrej].msg = strdup(msg);
    if (r[rep->nrej].file == NULL || r[rep->nrej].msg == NULL) {
        free(r[rep->nrej].file); free(r[rep->nrej].msg);
        return -1;
    }
    rep->nrej++;
    return 0;
}

void creport_free(creport *rep)
{
    for (size_t i = 0; i < rep->nrej; i++) { free(rep->rej[i].file); free(rep->rej[i].msg); }
    free(rep->rej);
    for (size_t i = 0; i < rep->n; i++) {
        for (size_t k = 0; k < rep->r[i].nmsgs; k++) free(rep->r[i].msgs[k]);
        free(rep->r[i].msgs);
    }
    free(rep->r);
    memset(rep, 0, sizeof *rep);
}

/* The cases of one file are consecutive: [i, *end). */
static size_t file_end(const creport *rep, size_t i)
{
    size_t j = i;
    while (j < rep->n && strcmp(rep->r[j].file, rep->r[i].file) == 0) j++;
    return j;
}

static enum cstatus file_status(const creport *rep, size_t i, size_t end, size_t cnt[3])
{
    cnt[0] = cnt[1] = cnt[2] = 0;
    for (size_t j = i; j < end; j++) cnt[rep->r[j].status]++;
    return cnt[CS_FAIL] ? CS_FAIL : cnt[CS_PASS] ? CS_PASS : CS_SKIP;
}

void creport_counts(const creport *rep, ccounts *k)
{
    memset(k, 0, sizeof *k);
    for (size_t i = 0, end; i < rep->n; i = end) {
        size_t cnt[3];
        end = file_end(rep, i);
        k->files[file_status(rep, i, end, cnt)]++;
        for (int s = 0; s < 3; s++) k->cases[s] += cnt[s];
    }
}

static void summary_line(const ccounts *k, FILE *out)
{
    fprintf(out, "files: %zu passed, %zu failed, %zu skipped; cases: %zu passed, %zu failed, %zu skipped\n",
            k->files[CS_PASS], k->files[CS_FAIL], k->files[CS_SKIP],
            k->cases[CS_PASS], k->cases[CS_FAIL], k->cases[CS_SKIP]);
}

/* text: a line per case (a file whose cases are all skipped: one line),
 * each failure's messages indented below it, then the counts. */
static void print_text(const creport *rep, FILE *out)
{
    ccounts k;
    for (size_t i = 0, end; i < rep->n; i = end) {
        size_t cnt[3];
        end = file_end(rep, i);
        if (file_status(rep, i, end, cnt) == CS_SKIP && cnt[CS_SKIP] > 1
            && rep->r[i].nmsgs && strcmp(rep->r[i].msgs[0], "unsupported") == 0) {
            fprintf(out, "%s: %zu cases skip (unsupported)\n", rep->r[i].file, cnt[CS_SKIP]);
            continue;
        }
        for (size_t j = i; j < end; j++) {
            const cresult *r = &rep->r[j];
            fprintf(out, "%s id %ld: %s", r->file, r->id, r->status == CS_FAIL ? "FAIL" : status_word[r->status]);
            if (r->status == CS_SKIP && r->nmsgs) fprintf(out, " (%s)", r->msgs[0]);
            fputc('\n', out);
            for (size_t m = 0; r->status == CS_FAIL && m < r->nmsgs; m++) fprintf(out, "  %s\n", r->msgs[m]);
        }
    }
    creport_counts(rep, &k);
    summary_line(&k, out);
}

static void json_str(const char *s, FILE *out)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void json_counts(const char *name, const size_t c[3], const size_t *rejected, FILE *out)
{
    size_t r = rejected ? *rejected : 0;
    fprintf(out, "\"%s\": {\"total\": %zu, \"passed\": %zu, \"failed\": %zu, \"skipped\": %zu", name,
            c[0] + c[1] + c[2] + r, c[CS_PASS], c[CS_FAIL], c[CS_SKIP]);
    if (rejected) fprintf(out, ", \"rejected\": %zu", r);
    fputc('}', out);
}

static const char *protocol(const creport *rep) { return rep->protocol ? rep->protocol : CONFORM_PROTOCOL; }
static const char *title(const creport *rep) { return rep->title ? rep->title : "fedref conform"; }

static void print_json(const creport *rep, FILE *out)
{
    ccounts k;
    creport_counts(rep, &k);
    fprintf(out, "{\"protocol\": \"%s\", \"rule\": \"%s\", \"source\": ", protocol(rep), rep->rule);
    json_str(rep->source, out);
    fputs(",\n ", out);
    json_counts("files", k.files, &rep->nrej, out);
    fputs(",\n ", out);
    json_counts("cases", k.cases, NULL, out);
    fputs(",\n \"rejected\": [", out);
    for (size_t i = 0; i < rep->nrej; i++) {
        fputs(i ? ", {\"file\": " : "{\"file\": ", out);
        json_str(rep->rej[i].file, out);
        fputs(", \"message\": ", out);
        json_str(rep->rej[i].msg, out);
        fputc('}', out);
    }
    fputc(']', out);
    fputs(",\n \"results\": [", out);
    for (size_t i = 0; i < rep->n; i++) {
        const cresult *r = &rep->r[i];
        fprintf(out, "%s\n  {\"file\": ", i ? "," : "");
        json_str(r->file, out);
        fputs(", \"function\": ", out);
        json_str(r->function, out);
        fprintf(out, ", \"id\": %ld, \"result\": \"%s\", \"flags\": [", r->id, status_word[r->status]);
        for (size_t f = 0; f < r->nflags; f++) { if (f) fputs(", ", out); json_str(r->flags[f], out); }
        fprintf(out, "], \"seconds\": %.6f, \"messages\": [", r->seconds);
        for (size_t m = 0; m < r->nmsgs; m++) { if (m) fputs(", ", out); json_str(r->msgs[m], out); }
        fputs("]}", out);
    }
    fputs("\n ]}\n", out);
}

/* TAP version 13: one test point per case, a YAML block with the
 * messages of a failure (a literal block scalar, a line each), "# SKIP" for a skipped case; the plan first. */
static void tap_text(const char *s, FILE *out)      /* no '#' or newline in a description */
{
    for (; *s; s++) fputc(*s == '#' || *s == '\n' ? ' ' : *s, out);
}

static void yaml_line(const char *s, FILE *out)      /* a line of a literal block scalar */
{
    fputs("    ", out);
    for (; *s; s++) fputc(*s == '\n' ? ' ' : *s, out);
    fputc('\n', out);
}

static void print_tap(const creport *rep, FILE *out)
{
    ccounts k;
    creport_counts(rep, &k);
    fprintf(out, "TAP version 13\n1..%zu\n", rep->n + rep->nrej);
    for (size_t i = 0; i < rep->nrej; i++) {         /* a rejected file: a failed point */
        fprintf(out, "not ok %zu - ", i + 1);
        tap_text(rep->rej[i].file, out);
        fputs(" rejected\n  ---\n  message: |\n", out);
        yaml_line(rep->rej[i].msg, out);
        fputs("  ...\n", out);
    }
    for (size_t i = 0; i < rep->n; i++) {
        const cresult *r = &rep->r[i];
        fprintf(out, "%s %zu - %s id %ld", r->status == CS_FAIL ? "not ok" : "ok", rep->nrej + i + 1, r->file, r->id);
        if (r->status == CS_SKIP) {
            fputs(" # SKIP ", out);
            tap_text(r->nmsgs ? r->msgs[0] : "skipped", out);
        }
        fputc('\n', out);
        if (r->status == CS_FAIL) {
            fprintf(out, "  ---\n  function: %s\n  message: |\n", r->function);
            for (size_t m = 0; m < r->nmsgs; m++) yaml_line(r->msgs[m], out);
            fputs("  ...\n", out);
        }
    }
    fputs("# ", out);
    summary_line(&k, out);
    if (rep->nrej) fprintf(out, "# files rejected: %zu\n", rep->nrej);
}

static void xml_str(const char *s, FILE *out)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\n': fputs("&#10;", out); break;
        default:
            if (*p < 0x20 && *p != '\t') fputc('?', out);   /* not allowed in XML 1.0 */
            else fputc(*p, out);
        }
    }
}

/* JUnit XML: a testsuite per file, a testcase per case (classname the
 * function, name "id N"), <failure> with the messages, <skipped>. */
static void print_junit(const creport *rep, FILE *out)
{
    ccounts k;
    double total = 0;
    creport_counts(rep, &k);
    for (size_t i = 0; i < rep->n; i++) total += rep->r[i].seconds;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"%s\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\">\n",
            title(rep), rep->n + rep->nrej, k.cases[CS_FAIL], rep->nrej, k.cases[CS_SKIP], total);
    for (size_t i = 0; i < rep->nrej; i++) {         /* a rejected file: a suite with one error */
        fputs("  <testsuite name=\"", out);
        xml_str(rep->rej[i].file, out);
        fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
              "    <testcase classname=\"", out);
        xml_str(rep->rej[i].file, out);
        fputs("\" name=\"read\" time=\"0\">\n      <error message=\"", out);
        xml_str(rep->rej[i].msg, out);
        fputs("\"/>\n    </testcase>\n  </testsuite>\n", out);
    }
    for (size_t i = 0, end; i < rep->n; i = end) {
        size_t cnt[3];
        double t = 0;
        end = file_end(rep, i);
        file_status(rep, i, end, cnt);
        for (size_t j = i; j < end; j++) t += rep->r[j].seconds;
        fputs("  <testsuite name=\"", out);
        xml_str(rep->r[i].file, out);
        fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.6f\">\n",
                end - i, cnt[CS_FAIL], cnt[CS_SKIP], t);
        for (size_t j = i; j < end; j++) {
            const cresult *r = &rep->r[j];
            fputs("    <testcase classname=\"", out);
            xml_str(r->function, out);
            fprintf(out, "\" name=\"id %ld\" time=\"%.6f\"", r->id, r->seconds);
            if (r->status == CS_PASS) { fputs("/>\n", out); continue; }
            fputs(">\n", out);
            if (r->status == CS_SKIP) {
                fputs("      <skipped message=\"", out);
                xml_str(r->nmsgs ? r->msgs[0] : "skipped", out);
                fputs("\"/>\n", out);
            } else {
                fputs("      <failure message=\"", out);
                xml_str(r->nmsgs ? r->msgs[0] : "failed", out);
                fputs("\">", out);
                for (size_t m = 0; m < r->nmsgs; m++) { xml_str(r->msgs[m], out); fputc('\n', out); }
                fputs("</failure>\n", out);
            }
            fputs("    </testcase>\n", out);
        }
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
}

void creport_print(const creport *rep, const char *format, FILE *out)
{
    if (strcmp(format, "json") == 0) print_json(rep, out);
    else if (strcmp(format, "tap") == 0) print_tap(rep, out);
    else if (strcmp(format, "junit") == 0) print_junit(rep, out);
    else print_text(rep, out);
}
