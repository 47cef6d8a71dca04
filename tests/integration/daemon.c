/* daemon.c - see daemon.h. */
#include "daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void *read_stderr(void *arg)
{
    struct daemon *d = arg;
    char chunk[4096];
    for (;;) {
        ssize_t k = read(d->err_fd, chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        pthread_mutex_lock(&d->lock);
        if (k > 0)
            buf_append(&d->err_text, chunk, (size_t)k);
        else
            d->err_eof = true;
        pthread_cond_broadcast(&d->grew);
        pthread_mutex_unlock(&d->lock);
        if (k <= 0)
            return NULL;
    }
}

/* Reads stdout until the listening line; returns its port or 0. */
static unsigned wait_ready(int fd, int timeout_ms)
{
    char line[256];
    size_t n = 0;
    while (n < sizeof line - 1) {
        struct pollfd p = { fd, POLLIN, 0 };
        if (poll(&p, 1, timeout_ms) <= 0)
            return 0;
        ssize_t k = read(fd, line + n, 1);
        if (k <= 0)
            return 0;
        if (line[n] == '\n') {
            unsigned port = 0;
            line[n] = '\0';
            if (sscanf(line, "listening on http://127.0.0.1:%u", &port) == 1)
                return port;
            n = 0; /* another line: keep reading */
            continue;
        }
        n++;
    }
    return 0;
}

bool daemon_start(struct daemon *d, const char *db, const char *const *extra)
{
    return daemon_start_in(d, NULL, db, extra);
}

bool daemon_start_in(struct daemon *d, const char *cwd, const char *db,
                     const char *const *extra)
{
    int out[2], err[2];
    const char *argv[32] = { FLIERD_BIN, "serve", "--listen", "127.0.0.1:0",
                             "--db", db };
    int argc = 6;
    for (int i = 0; extra && extra[i] && argc < 31; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;

    memset(d, 0, sizeof *d);
    if (pipe(out) != 0 || pipe(err) != 0)
        return false;
    d->pid = fork();
    if (d->pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(out[0]);
        close(err[0]);
        close(out[1]);
        close(err[1]);
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        execv(FLIERD_BIN, (char *const *)argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    d->out_fd = out[0];
    d->err_fd = err[0];
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->grew, NULL);
    pthread_create(&d->reader, NULL, read_stderr, d);
    d->port = wait_ready(d->out_fd, 30000);
    if (d->port == 0) {
        daemon_stop(d);
        return false;
    }
    return true;
}

bool daemon_wait_log(struct daemon *d, const char *needle, int timeout_ms)
{
    struct timespec until;
    bool found;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&d->lock);
    for (;;) {
        found = d->err_text.p && strstr(d->err_text.p, needle);
        if (found || d->err_eof ||
            pthread_cond_timedwait(&d->grew, &d->lock, &until) != 0)
            break;
    }
    found = d->err_text.p && strstr(d->err_text.p, needle);
    pthread_mutex_unlock(&d->lock);
    return found;
}

int daemon_stop(struct daemon *d)
{
    int status = 0;
    if (d->pid <= 0)
        return -1;
    kill(d->pid, SIGTERM);
    while (waitpid(d->pid, &status, 0) < 0 && errno == EINTR)
        ;
    d->pid = 0;
    pthread_join(d->reader, NULL);
    close(d->out_fd);
    close(d->err_fd);
    if (d->err_text.len)
        fprintf(stderr, "---- flierd stderr ----\n%s----\n", d->err_text.p);
    buf_release(&d->err_text);
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->grew);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}
