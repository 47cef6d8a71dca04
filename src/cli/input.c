/* input.c - the logs a command line names (files, and folders' *.jcz
 * and *.flierlog files), and reading one (or stdin) with the size cap. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mlog/mlog.h"
#include "util/xalloc.h"

/* A file is read straight into b, sized by fstat (stdin and pipes grow
 * as they come): fopen's buffer and a copy per chunk were a few percent
 * of auditing many small files. */
enum status cli_read_input(const char *path, struct buf *b, struct err *e)
{
    bool in = strcmp(path, "-") == 0;
    int fd = in ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    size_t want = 65536;
    enum status st = ST_OK;
    if (fd < 0)
        return err_set(e, ST_IO, "cannot open: %s", strerror(errno));
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size >= 0 &&
        (uint64_t)sb.st_size <= MLOG_MAX_BYTES)
        want = (size_t)sb.st_size + 1; /* +1: see the end without a read */
    for (;;) {
        char *at = buf_space(b, want);
        ssize_t n = read(fd, at, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            st = err_set(e, ST_IO, "read error: %s", strerror(errno));
            break;
        }
        if (n == 0)
            break;
        b->len += (size_t)n;
        b->p[b->len] = '\0';
        if (b->len > MLOG_MAX_BYTES) {
            st = err_set(e, ST_LIMIT, "larger than the %u bytes a game log "
                         "may have", MLOG_MAX_BYTES);
            break;
        }
        want = 65536;
    }
    if (!in)
        close(fd);
    return st;
}

const char *cli_display_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

static void add_path(struct cli_paths *l, const char *p)
{
    xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = xstrdup(p);
}

static bool log_name(const char *n)
{
    size_t len = strlen(n);
    return (len > 4 && strcmp(n + len - 4, ".jcz") == 0) ||
           (len > 9 && strcmp(n + len - 9, ".flierlog") == 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends the log files under dir (recursively, sorted) to l. */
static void collect_dir(const char *dir, struct cli_paths *l, int depth)
{
    struct cli_paths names = { NULL, 0, 0 };
    struct dirent *de;
    DIR *d = opendir(dir);
    if (!d || depth > 16) {
        if (d)
            closedir(d);
        return;
    }
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            add_path(&names, de->d_name);
    closedir(d);
    if (names.n > 1)
        qsort(names.v, names.n, sizeof *names.v, cmp_str);
    for (size_t i = 0; i < names.n; i++) {
        struct buf p = BUF_INIT;
        struct stat sb;
        buf_printf(&p, "%s/%s", dir, names.v[i]);
        if (stat(p.p, &sb) == 0 && S_ISDIR(sb.st_mode))
            collect_dir(p.p, l, depth + 1);
        else if (stat(p.p, &sb) == 0 && S_ISREG(sb.st_mode) &&
                 log_name(names.v[i]))
            add_path(l, p.p);
        buf_release(&p);
        free(names.v[i]);
    }
    free(names.v);
}

/* The index of `flierd export` (export_cmd.c), no game: skipped also
 * when named, as a shell's EXPORT/<star> names it. */
static bool export_index(const char *path)
{
    const char *base = strrchr(path, '/');
    return strcmp(base ? base + 1 : path, "index.ndjson") == 0;
}

void cli_collect_logs(const char *const *paths, int n, struct cli_paths *l)
{
    for (int i = 0; i < n; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) == 0 && S_ISDIR(sb.st_mode))
            collect_dir(paths[i], l, 0);
        else if (!export_index(paths[i]))
            add_path(l, paths[i]); /* a missing file fails when read */
    }
}

void cli_paths_release(struct cli_paths *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}
