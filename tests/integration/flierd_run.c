/* flierd_run.c - see flierd_run.h. */
#include "flierd_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int flierd_run(const char *const *args, struct buf *out)
{
    const char *argv[32] = { FLIERD_BIN };
    int argc = 1, fds[2], status = 0;
    for (int i = 0; args[i] && argc < 31; i++)
        argv[argc++] = args[i];
    argv[argc] = NULL;
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        execv(FLIERD_BIN, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    char chunk[4096];
    ssize_t k;
    while ((k = read(fds[0], chunk, sizeof chunk)) != 0) {
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            break;
        if (out)
            buf_append(out, chunk, (size_t)k);
    }
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

static bool read_whole(const char *path, struct buf *b)
{
    FILE *f = fopen(path, "rb");
    char chunk[16384];
    size_t n;
    if (!f)
        return false;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(b, chunk, n);
    fclose(f);
    return b->len > 0;
}

int games_simulate(const char *dir, int n, unsigned seed, struct buf **out)
{
    char games[16], s[16], path[512];
    struct buf log = BUF_INIT;
    snprintf(games, sizeof games, "%d", n);
    snprintf(s, sizeof s, "%u", seed);
    const char *args[] = { "simulate", "--games", games, "--seed", s,
                           "--players", "2", "--out", dir, NULL };
    *out = NULL;
    if (flierd_run(args, &log) != 0) {
        fprintf(stderr, "flierd simulate failed:\n%s\n", log.p ? log.p : "");
        buf_release(&log);
        return -1;
    }
    buf_release(&log);
    struct buf *g = calloc((size_t)n, sizeof *g);
    for (int i = 0; i < n; i++) {
        /* simulate names its files game-000001.jcz, ... */
        snprintf(path, sizeof path, "%s/game-%06d.jcz", dir, i + 1);
        if (!read_whole(path, &g[i])) {
            fprintf(stderr, "%s: missing or empty\n", path);
            games_free(g, n);
            return -1;
        }
    }
    *out = g;
    return n;
}

void games_free(struct buf *games, int n)
{
    for (int i = 0; games && i < n; i++)
        buf_release(&games[i]);
    free(games);
}
