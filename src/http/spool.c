/* spool.c - the spool folder of `flierd serve --spool DIR`. Every scan
 * (at start, then each cfg.spool_ms) ingests the regular files of DIR in
 * name order and moves each to DIR/done/ (stored, or identical to a
 * stored game), or to DIR/failed/ with NAME.error beside it saying why.
 * A failure that passes (the database busy or full, memory short)
 * leaves the file, and those after it, for the next scan. Names starting
 * with '.' or ending in .tmp or .part are skipped, so a writer can copy
 * a file under such a name and rename it when complete. A name already
 * taken in done/ or failed/ gets a suffix (.1, .2, ...). A game of an
 * expansion this engine cannot audit yet is stored (unsupported) and goes
 * to done/ like any other. Each file leaves one line on the log:
 * "spool: NAME -> done (game 12, stored)".
 *
 * Several daemons may share DIR (on one machine, or on shared storage
 * whose rename is atomic): each file is claimed before it is read, by
 * renaming it into DIR/.claimed/HOST.PID/, and rename gives it to one
 * daemon only; the others find it gone and pass on. A file kept for the
 * next scan goes back to DIR (or, if a new file took its name meanwhile,
 * waits in the claim folder, which each scan looks at first). A daemon
 * that starts gives the files of dead daemons of its own host back to
 * DIR; those of another host's daemons wait for that host. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "http/http_int.h"
#include "ingest/ingest.h"
#include "util/xalloc.h"

static bool skipped_name(const char *n)
{
    size_t len = strlen(n);
    return n[0] == '.' || (len > 4 && strcmp(n + len - 4, ".tmp") == 0) ||
           (len > 5 && strcmp(n + len - 5, ".part") == 0);
}

static enum status make_dir(const char *dir, const char *sub, struct err *e)
{
    struct buf p = BUF_INIT;
    enum status st = ST_OK;
    buf_printf(&p, "%s/%s", dir, sub);
    if (mkdir(p.p, 0755) != 0 && errno != EEXIST)
        st = err_set(e, ST_IO, "--spool: cannot create %s: %s", p.p,
                     strerror(errno));
    buf_release(&p);
    return st;
}

/* Reads dir/name, at most cap bytes. */
static enum status read_spooled(const char *path, size_t cap, struct buf *b,
                                struct err *e)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;
    enum status st = ST_OK;
    if (!f)
        return err_set(e, ST_IO, "cannot open: %s", strerror(errno));
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b->len + n > cap) {
            st = err_set(e, ST_LIMIT, "larger than the cap of %zu bytes",
                         cap);
            break;
        }
        if (!buf_try_append(b, chunk, n)) {
            st = err_set(e, ST_NOMEM, "out of memory reading it");
            break;
        }
    }
    if (st == ST_OK && ferror(f))
        st = err_set(e, ST_IO, "read error: %s", strerror(errno));
    fclose(f);
    return st;
}

/* Moves the file at from to dir/sub/name (or name.N when taken: link
 * refuses a name that exists, so two daemons never take the same one);
 * the final path is left in dest. sub "" is dir itself. */
static bool move_to(const char *from, const char *dir, const char *name,
                    const char *sub, struct buf *dest)
{
    for (int i = 0; i < 10000; i++) {
        dest->len = 0;
        buf_printf(dest, "%s%s%s/%s", dir, sub[0] ? "/" : "", sub, name);
        if (i > 0)
            buf_printf(dest, ".%d", i);
        if (link(from, dest->p) == 0)
            return unlink(from) == 0 || errno == ENOENT;
        if (errno != EEXIST)
            return false;
    }
    errno = EEXIST;
    return false;
}

static void write_error_file(const char *moved, const struct err *e)
{
    struct buf p = BUF_INIT;
    buf_printf(&p, "%s.error", moved);
    FILE *f = fopen(p.p, "w");
    if (f) {
        fprintf(f, "%s: %s\n", status_name(e->code), e->msg);
        fclose(f);
    }
    buf_release(&p);
}

/* Failures that pass: the file waits for the next scan. */
static bool passing(enum status st)
{
    return st == ST_BUSY || st == ST_FULL || st == ST_NOMEM;
}

/* Ingests the file at path (DIR/NAME claimed into the claim folder),
 * then moves it to done/ or failed/, or back to DIR for the next scan. */
static enum status spool_one(struct server *s, const char *dir,
                             const char *path, const char *name)
{
    struct buf data = BUF_INIT, dest = BUF_INIT;
    struct ingest_result res;
    struct err e;
    FILE *log = s->cfg.log;

    err_clear(&e);
    memset(&res, 0, sizeof res);
    enum status st = read_spooled(path, s->cfg.max_body, &data, &e);
    if (st == ST_OK) {
        struct store *w = server_writer(s);
        st = ingest_bytes(w, data.p ? data.p : "", data.len, "spool", name,
                          (int64_t)time(NULL), &res, &e);
        server_writer_put(s);
        metrics_ingest(&s->m, st, &res);
    }
    if (passing(st)) {
        /* back in DIR under its own name, for any daemon's next scan;
         * a new file of that name meanwhile: it waits in the claims */
        buf_printf(&dest, "%s/%s", dir, name);
        if (link(path, dest.p) == 0)
            (void)unlink(path);
        if (log)
            fprintf(log, "spool: %s: kept for the next scan (%s)\n", name,
                    e.msg);
        goto out;
    }
    if (!move_to(path, dir, name, st == ST_OK ? "done" : "failed", &dest)) {
        if (log)
            fprintf(log, "flierd: spool: %s: cannot move: %s\n", name,
                    strerror(errno));
        goto out;
    }
    if (st != ST_OK)
        write_error_file(dest.p, &e);
    if (!log)
        goto out;
    if (st == ST_OK && res.unsupported)
        fprintf(log, "spool: %s -> done (game %" PRId64 ", %s, not audited: "
                "%s)\n", name, res.id,
                res.duplicate ? "duplicate" : "stored", res.reason);
    else if (st == ST_OK)
        fprintf(log, "spool: %s -> done (game %" PRId64 ", %s%s)\n", name,
                res.id, res.duplicate ? "duplicate" : "stored",
                res.valid ? "" : ", invalid");
    else
        fprintf(log, "spool: %s -> failed (%s)\n", name, e.msg);
out:
    buf_release(&data);
    buf_release(&dest);
    return st;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool stopping(struct server *s)
{
    pthread_mutex_lock(&s->slock);
    bool stop = s->stopping;
    pthread_mutex_unlock(&s->slock);
    return stop;
}

/* The regular files of dir that the spool takes, in name order. */
static size_t list_files(const char *dir, char ***out)
{
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    DIR *d = opendir(dir);
    *out = NULL;
    if (!d)
        return 0;
    while ((de = readdir(d)) != NULL) {
        struct stat sb;
        struct buf p = BUF_INIT;
        if (skipped_name(de->d_name))
            continue;
        buf_printf(&p, "%s/%s", dir, de->d_name);
        bool regular = stat(p.p, &sb) == 0 && S_ISREG(sb.st_mode);
        buf_release(&p);
        if (!regular)
            continue;
        xgrow((void **)&names, &cap, n + 1, sizeof *names);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    return n;
}

static void spool_scan(struct server *s)
{
    const char *dir = s->cfg.spool_dir;
    bool wait = false; /* rather than hammer a full disk */
    /* pass 0: what this daemon kept claimed; pass 1: new files */
    for (int pass = 0; pass < 2; pass++) {
        char **names;
        size_t n = list_files(pass ? dir : s->spool_claims, &names);
        for (size_t i = 0; i < n; i++) {
            struct buf from = BUF_INIT, claimed = BUF_INIT;
            buf_printf(&claimed, "%s/%s", s->spool_claims, names[i]);
            buf_printf(&from, "%s/%s", dir, names[i]);
            /* claimed before it is read; ENOENT: another daemon was first */
            bool go = !wait && !stopping(s);
            bool mine = go && (!pass || rename(from.p, claimed.p) == 0);
            if (go && !mine && errno != ENOENT && s->cfg.log)
                fprintf(s->cfg.log, "flierd: spool: %s: cannot claim: %s\n",
                        names[i], strerror(errno));
            if (mine)
                wait = passing(spool_one(s, dir, claimed.p, names[i]));
            buf_release(&from);
            buf_release(&claimed);
            free(names[i]);
        }
        free(names);
    }
}

/* "HOST.PID" of a claim folder: is it a process of this host that is
 * gone? */
static bool dead_here(const char *claim, const char *host)
{
    size_t h = strlen(host);
    char *end;
    if (strncmp(claim, host, h) != 0 || claim[h] != '.')
        return false;
    long pid = strtol(claim + h + 1, &end, 10);
    return *end == '\0' && pid > 0 && pid != (long)getpid() &&
           kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Gives the files claimed by dead daemons of this host back to DIR. */
static void recover_claims(struct server *s, const char *root,
                           const char *host)
{
    DIR *d = opendir(root);
    struct dirent *de;
    if (!d)
        return;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !dead_here(de->d_name, host))
            continue;
        struct buf folder = BUF_INIT;
        char **names;
        buf_printf(&folder, "%s/%s", root, de->d_name);
        size_t n = list_files(folder.p, &names);
        for (size_t i = 0; i < n; i++) {
            struct buf from = BUF_INIT, dest = BUF_INIT;
            buf_printf(&from, "%s/%s", folder.p, names[i]);
            if (move_to(from.p, s->cfg.spool_dir, names[i], "", &dest) &&
                s->cfg.log)
                fprintf(s->cfg.log, "spool: %s: given back from %s, a "
                        "daemon that is gone\n", names[i], de->d_name);
            buf_release(&from);
            buf_release(&dest);
            free(names[i]);
        }
        free(names);
        (void)rmdir(folder.p);
        buf_release(&folder);
    }
    closedir(d);
}

static void *spool_main(void *arg)
{
    struct server *s = arg;
    http_lower_priority(); /* background writes, like the uploads' */
    for (;;) {
        spool_scan(s);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += s->cfg.spool_ms / 1000;
        until.tv_nsec += (long)(s->cfg.spool_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_mutex_lock(&s->slock);
        while (!s->stopping &&
               pthread_cond_timedwait(&s->swake, &s->slock, &until) == 0)
            ;
        bool stop = s->stopping;
        pthread_mutex_unlock(&s->slock);
        if (stop)
            return NULL;
    }
}

enum status spool_start(struct server *s, struct err *e)
{
    const char *dir = s->cfg.spool_dir;
    struct stat sb;
    enum status st;
    char host[256];
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return err_set(e, ST_IO, "--spool %s: not a folder", dir);
    st = make_dir(dir, "done", e);
    if (st == ST_OK)
        st = make_dir(dir, "failed", e);
    if (st == ST_OK)
        st = make_dir(dir, ".claimed", e);
    if (st != ST_OK)
        return st;
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "localhost");
    host[sizeof host - 1] = '\0';
    for (char *c = host; *c; c++) /* a name of one path component */
        if (*c == '/')
            *c = '_';
    struct buf claims = BUF_INIT, root = BUF_INIT;
    buf_printf(&root, "%s/.claimed", dir);
    buf_printf(&claims, "%s/%s.%ld", root.p, host, (long)getpid());
    if (mkdir(claims.p, 0755) != 0 && errno != EEXIST) {
        st = err_set(e, ST_IO, "--spool: cannot create %s: %s", claims.p,
                     strerror(errno));
        buf_release(&claims);
        buf_release(&root);
        return st;
    }
    recover_claims(s, root.p, host);
    buf_release(&root);
    s->spool_claims = claims.p; /* owned: freed by spool_stop() */
    if (s->cfg.spool_ms == 0)
        s->cfg.spool_ms = 1000;
    if (pthread_create(&s->spool_thread, NULL, spool_main, s) != 0)
        return err_set(e, ST_IO, "--spool: cannot start a thread");
    s->spooling = true;
    return ST_OK;
}

void spool_stop(struct server *s)
{
    if (s->spooling) {
        pthread_mutex_lock(&s->slock);
        s->stopping = true;
        pthread_cond_broadcast(&s->swake);
        pthread_mutex_unlock(&s->slock);
        pthread_join(s->spool_thread, NULL);
        s->spooling = false;
    }
    if (s->spool_claims) /* empty unless a file waits there */
        (void)rmdir(s->spool_claims);
    free(s->spool_claims);
    s->spool_claims = NULL;
}
