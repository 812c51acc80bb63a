/* SPDX-License-Identifier: Apache-2.0 */
/* conform_report.c -- the reports of `fedref conform` (docs/CONFORM.md),
 * `fedref vectors check` (docs/VECTORS.md) and `fedref audit`: text, one
 * JSON object, TAP version 13, JUnit XML.  Files, cases and the audit's
 * checks are counted apart; a file the reader rejected is a failure of
 * its own (TAP, JUnit: an error). */
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

int creport_add(creport *rep, const cresult *r)
{
    cresult *a = realloc(rep->r, (rep->n + 1) * sizeof *a);
    if (a == NULL) {
        for (size_t m = 0; m < r->nmsgs; m++) free(r->msgs[m]);
        free(r->msgs);
        return -1;
    }
    rep->r = a;
    rep->r[rep->n++] = *r;
    return 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The failure lines vcase_check wrote for case c (text in buf), each
 * without its "PATH: id N: " prefix, as the messages of r. */
static int take_lines(cresult *r, const vfile *f, const vcase *c, char *buf)
{
    char prefix[4200];
    int np = snprintf(prefix, sizeof prefix, "%s: id %ld: ", f->path, c->id);
    for (char *line = buf, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl) *nl++ = '\0';
        if (np > 0 && strncmp(line, prefix, (size_t)np) == 0) line += np;
        if (cresult_msg(r, "%s", line) != 0) return -1;
    }
    return 0;
}

int creport_check_case(creport *rep, const vfile *f, const vcase *c, int impls, vcheck_stats *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (mem == NULL) return -1;
    int ok = vcase_check(f, c, impls, mem, st);
    int rc = fclose(mem);
    cresult r = {base_name(f->path), f->fn->name, c->id, c->flags, c->nflags, ok ? CS_PASS : CS_FAIL,
                 NULL, 0, 0, NULL};
    if (rc != 0 || take_lines(&r, f, c, buf) != 0) rc = -1;
    free(buf);
    if (rc != 0) {
        for (size_t m = 0; m < r.nmsgs; m++) free(r.msgs[m]);
        free(r.msgs);
        return -1;
    }
    return creport_add(rep, &r);
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
        enum cstatus fs = file_status(rep, i, end, cnt);
        if (rep->r[i].check) {                        /* a group of checks, not a file */
            for (int s = 0; s < 3; s++) k->checks[s] += cnt[s];
            continue;
        }
        k->files[fs]++;
        for (int s = 0; s < 3; s++) k->cases[s] += cnt[s];
    }
}

static void summary_line(const ccounts *k, FILE *out)
{
    fprintf(out, "files: %zu passed, %zu failed, %zu skipped; cases: %zu passed, %zu failed, %zu skipped",
            k->files[CS_PASS], k->files[CS_FAIL], k->files[CS_SKIP],
            k->cases[CS_PASS], k->cases[CS_FAIL], k->cases[CS_SKIP]);
    if (k->checks[0] + k->checks[1] + k->checks[2])
        fprintf(out, "; checks: %zu passed, %zu failed, %zu skipped",
                k->checks[CS_PASS], k->checks[CS_FAIL], k->checks[CS_SKIP]);
    fputc('\n', out);
}

/* A result's name in text and TAP: "FILE id N" or "GROUP NAME". */
static void result_name(const cresult *r, FILE *out)
{
    if (r->check) fprintf(out, "%s %s", r->file, r->check);
    else fprintf(out, "%s id %ld", r->file, r->id);
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
            result_name(r, out);
            fprintf(out, ": %s", r->status == CS_FAIL ? "FAIL" : status_word[r->status]);
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
    size_t nchecks = k.checks[0] + k.checks[1] + k.checks[2];
    if (nchecks) {
        fputs(",\n ", out);
        json_counts("checks", k.checks, NULL, out);
    }
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
    for (size_t i = 0, first = 1; i < rep->n; i++) {
        const cresult *r = &rep->r[i];
        if (r->check) continue;
        fprintf(out, "%s\n  {\"file\": ", first ? "" : ",");
        first = 0;
        json_str(r->file, out);
        fputs(", \"function\": ", out);
        json_str(r->function, out);
        fprintf(out, ", \"id\": %ld, \"result\": \"%s\", \"flags\": [", r->id, status_word[r->status]);
        for (size_t f = 0; f < r->nflags; f++) { if (f) fputs(", ", out); json_str(r->flags[f], out); }
        fprintf(out, "], \"seconds\": %.6f, \"messages\": [", r->seconds);
        for (size_t m = 0; m < r->nmsgs; m++) { if (m) fputs(", ", out); json_str(r->msgs[m], out); }
        fputs("]}", out);
    }
    fputs("\n ]", out);
    if (nchecks) {                                   /* the audit's checks */
        fputs(",\n \"check_results\": [", out);
        for (size_t i = 0, first = 1; i < rep->n; i++) {
            const cresult *r = &rep->r[i];
            if (!r->check) continue;
            fprintf(out, "%s\n  {\"group\": ", first ? "" : ",");
            first = 0;
            json_str(r->file, out);
            fputs(", \"check\": ", out);
            json_str(r->check, out);
            fputs(", \"function\": ", out);
            json_str(r->function, out);
            fprintf(out, ", \"result\": \"%s\", \"seconds\": %.6f, \"messages\": [", status_word[r->status],
                    r->seconds);
            for (size_t m = 0; m < r->nmsgs; m++) { if (m) fputs(", ", out); json_str(r->msgs[m], out); }
            fputs("]}", out);
        }
        fputs("\n ]", out);
    }
    fputs("}\n", out);
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
        fprintf(out, "%s %zu - ", r->status == CS_FAIL ? "not ok" : "ok", rep->nrej + i + 1);
        result_name(r, out);
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
            title(rep), rep->n + rep->nrej, k.cases[CS_FAIL] + k.checks[CS_FAIL], rep->nrej,
            k.cases[CS_SKIP] + k.checks[CS_SKIP], total);
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
            if (r->check) {
                fputs("\" name=\"", out);
                xml_str(r->check, out);
                fprintf(out, "\" time=\"%.6f\"", r->seconds);
            } else {
                fprintf(out, "\" name=\"id %ld\" time=\"%.6f\"", r->id, r->seconds);
            }
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
