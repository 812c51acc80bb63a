/* SPDX-License-Identifier: Apache-2.0 */
/* progress.c -- the steps of a long command on stderr (cli.h): each step
 * with the time elapsed and, after the first step of its phase, the time
 * the phase has left at the mean rate of its steps so far; while one step
 * runs longer than CLI_HEARTBEAT seconds, a line says so every
 * CLI_HEARTBEAT seconds (a thread that only prints). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli.h"

#define CLI_HEARTBEAT 30

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_t beat;
static int running, stopping;
static char cmd[32], what[400];
static double t_start, t_step, t_phase;
static char phase[64];
static size_t phase_done;

static void *heartbeat(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += CLI_HEARTBEAT;
        if (pthread_cond_timedwait(&cv, &mu, &ts) != 0 && !stopping && what[0]) {
            double now = cli_now();
            if (now - t_step >= CLI_HEARTBEAT - 1)
                fprintf(stderr, "fedref: %s: still at %s (%.0f s into it; %.0f s elapsed)\n", cmd, what,
                        now - t_step, now - t_start);
        }
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

void cli_steps_begin(const char *command)
{
    pthread_mutex_lock(&mu);
    snprintf(cmd, sizeof cmd, "%s", command);
    what[0] = phase[0] = '\0';
    t_start = t_step = cli_now();
    stopping = 0;
    pthread_mutex_unlock(&mu);
    running = pthread_create(&beat, NULL, heartbeat, NULL) == 0;   /* none: no heartbeat */
}

void cli_step(const char *phase_name, size_t i, size_t n, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&mu);
    double now = cli_now();
    if (strcmp(phase, phase_name) != 0) {
        snprintf(phase, sizeof phase, "%s", phase_name);
        t_phase = now;
        phase_done = 0;
    }
    phase_done = i - 1;                    /* steps of the phase done before this one */
    char left[96] = "";
    if (phase_done > 0 && n >= i)
        snprintf(left, sizeof left, "; this phase about %.0f s more",
                 (now - t_phase) / (double)phase_done * (double)(n - i + 1));
    fprintf(stderr, "fedref: %s: %s %zu/%zu %s (%.0f s elapsed%s)\n", cmd, phase, i, n, buf, now - t_start,
            left);
    snprintf(what, sizeof what, "%s %zu/%zu %s", phase, i, n, buf);
    t_step = now;
    pthread_mutex_unlock(&mu);
}

void cli_step_note(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&mu);
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    t_step = cli_now();
    pthread_mutex_unlock(&mu);
}

double cli_steps_end(void)
{
    pthread_mutex_lock(&mu);
    stopping = 1;
    what[0] = '\0';
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    if (running) pthread_join(beat, NULL);
    running = 0;
    return cli_now() - t_start;
}
