/* SPDX-License-Identifier: Apache-2.0 */
/* conform_child.c -- the program under test of `fedref conform`: one
 * request line to its standard input, one reply line from its standard
 * output, a time limit per case; a program that exits, crashes, closes
 * its output or runs out of time is stopped (its process group) and
 * started again for the next case. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "conform.h"

#define REPLY_MAX ((size_t)256 << 20)   /* a longer reply line is not one */

static int cloexec_pipe(int fd[2])
{
    if (pipe(fd) != 0) return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

int cchild_start(cchild *c, char *why, size_t n)
{
    int in[2], out[2], ex[2];
    signal(SIGPIPE, SIG_IGN);               /* a write to a dead program is EPIPE */
    if (cloexec_pipe(in) != 0 || cloexec_pipe(out) != 0 || cloexec_pipe(ex) != 0) {
        snprintf(why, n, "cannot create a pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, n, "cannot fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        execvp(c->argv[0], c->argv);
        int e = errno;                      /* tell the parent why (ex is close-on-exec) */
        if (write(ex[1], &e, sizeof e) < 0) _exit(127);
        _exit(127);
    }
    setpgid(pid, pid);
    close(in[0]); close(out[1]); close(ex[1]);
    int e = 0;
    ssize_t got;
    while ((got = read(ex[0], &e, sizeof e)) < 0 && errno == EINTR) {}
    close(ex[0]);
    if (got == (ssize_t)sizeof e) {
        waitpid(pid, NULL, 0);
        close(in[1]); close(out[0]);
        snprintf(why, n, "cannot execute %s: %s", c->argv[0], strerror(e));
        return -1;
    }
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    c->pid = pid;
    c->to = in[1];
    c->from = out[0];
    c->len = 0;
    return 0;
}

/* How the stopped program ended, for the message. */
static void ended(int status, char *why, size_t n, const char *what)
{
    if (WIFSIGNALED(status))
        snprintf(why, n, "%s: the program was killed by signal %d (%s)", what, WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(why, n, "%s: the program exited with status %d", what, WEXITSTATUS(status));
    else
        snprintf(why, n, "%s", what);
}

/* Wait up to grace seconds for the program to exit, then kill its group;
 * its status into *status (0 if unknown). */
static void reap(cchild *c, double grace, int *status)
{
    double until = cli_now() + grace;
    int st = 0;
    pid_t w;
    while ((w = waitpid(c->pid, &st, WNOHANG)) == 0 && cli_now() < until) {
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (w == 0) {
        kill(-c->pid, SIGKILL);             /* the group this command created */
        waitpid(c->pid, &st, 0);
    } else {
        kill(-c->pid, SIGKILL);             /* what it left behind in its group */
    }
    if (status) *status = st;
    c->pid = 0;
}

void cchild_stop(cchild *c, double grace)
{
    if (c->pid == 0) return;
    close(c->to);
    reap(c, grace, NULL);
    close(c->from);
    c->len = 0;
}

/* Stop after a failed exchange and say why. */
static int fail(cchild *c, const char *what, int timed_out, char *why, size_t n)
{
    int st = 0;
    close(c->to);
    if (timed_out) {
        kill(-c->pid, SIGKILL);
        waitpid(c->pid, &st, 0);
        c->pid = 0;
        snprintf(why, n, "%s", what);
    } else {
        reap(c, 1.0, &st);
        ended(st, why, n, what);
    }
    close(c->from);
    c->len = 0;
    return -1;
}

int cchild_ask(cchild *c, const char *req, double timeout, char **line, char *why, size_t n)
{
    if (c->pid == 0 && cchild_start(c, why, n) != 0) return -1;
    size_t reqlen = strlen(req), sent = 0, scanned = 0;
    double until = cli_now() + timeout;
    for (;;) {
        char *nl = c->len > scanned ? memchr(c->buf + scanned, '\n', c->len - scanned) : NULL;
        if (nl && sent == reqlen + 1) {
            *nl = '\0';
            size_t used = (size_t)(nl - c->buf) + 1;
            static char *reply;                 /* the line, apart from what follows it */
            free(reply);
            reply = strdup(c->buf);
            memmove(c->buf, c->buf + used, c->len - used);
            c->len -= used;
            if (reply == NULL) { snprintf(why, n, "out of memory"); return -1; }
            *line = reply;
            return 0;
        }
        scanned = c->len;
        if (nl && sent < reqlen + 1)
            return fail(c, "the program replied before it was sent the whole request", 0, why, n);
        double left = until - cli_now();
        if (left <= 0) {
            char what[128];
            snprintf(what, sizeof what, "no reply within %g s (timeout)", timeout);
            return fail(c, what, 1, why, n);
        }
        struct pollfd p[2] = {{c->from, POLLIN, 0}, {c->to, POLLOUT, 0}};
        int np = sent < reqlen + 1 ? 2 : 1;
        int ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        if (poll(p, (nfds_t)np, ms) < 0) {
            if (errno == EINTR) continue;
            return fail(c, "poll failed", 0, why, n);
        }
        if (np == 2 && (p[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            const char *src = sent < reqlen ? req + sent : "\n";
            size_t want = sent < reqlen ? reqlen - sent : 1;
            ssize_t w = write(c->to, src, want);
            if (w < 0 && errno != EAGAIN && errno != EINTR)
                return fail(c, "the program does not read its input (it closed it)", 0, why, n);
            if (w > 0) sent += (size_t)w;
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (c->cap - c->len < 65536) {
                if (c->cap >= REPLY_MAX) return fail(c, "the reply line is longer than 256 MiB", 0, why, n);
                size_t cap = c->cap ? 2 * c->cap : 131072;
                char *b = realloc(c->buf, cap + 1);
                if (b == NULL) return fail(c, "out of memory", 0, why, n);
                c->buf = b;
                c->cap = cap;
            }
            ssize_t r = read(c->from, c->buf + c->len, c->cap - c->len);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0)
                return fail(c, c->len ? "the program closed its output in the middle of a line"
                                      : "no reply (end of the program's output)", 0, why, n);
            c->len += (size_t)r;
        }
    }
}
