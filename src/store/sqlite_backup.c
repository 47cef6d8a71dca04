/* sqlite_backup.c - data leaving the database while the daemon serves:
 * a consistent copy of the whole file (flierd backup) and every stored
 * upload from one snapshot (flierd export).
 *
 * The copy uses SQLite's online backup API in one step (all pages at
 * once) rather than VACUUM INTO. Both read within one read transaction,
 * so both copy the database as it was at one commit while the writer
 * goes on (WAL). The backup API copies pages as they are, which is
 * I/O-bound and fast; VACUUM INTO rebuilds every table and index, so it
 * takes longer and holds its snapshot longer (the WAL cannot be
 * checkpointed past it meanwhile), in exchange for a smaller file. The
 * API also takes the destination as a connection, not as a file name in
 * SQL text, and leaves the syncing to us. One step, not many small ones:
 * an incremental backup starts again whenever another connection writes,
 * and under a stream of uploads it might never end. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/sqlite_int.h"
#include "util/xalloc.h"

#define BACKUP_TRIES 50 /* a busy source or copy: 50 x 100 ms */

/* Removes a temporary copy and whatever SQLite left beside it. */
static void remove_copy(const char *tmp)
{
    static const char *const ext[] = { "", "-journal", "-wal", "-shm" };
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        struct buf p = BUF_INIT;
        buf_printf(&p, "%s%s", tmp, ext[i]);
        unlink(p.p);
        buf_release(&p);
    }
}

/* fsync of a file, or of the folder holding path when dir is true. */
static bool sync_path(const char *path, bool dir)
{
    char *copy = xstrdup(path);
    int fd = open(dir ? dirname(copy) : path, O_RDONLY);
    bool ok = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    free(copy);
    return ok;
}

/* Makes the copy one file (a rollback journal: no -wal beside it) and
 * runs SQLite's quick_check on it. */
static enum status check_copy(sqlite3 *db, const char *out, struct err *e)
{
    sqlite3_stmt *q = NULL;
    enum status st = ST_OK;
    int rc = sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL,
                          NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &q, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(q);
    const char *verdict = rc == SQLITE_ROW
                              ? (const char *)sqlite3_column_text(q, 0)
                              : NULL;
    if (rc != SQLITE_ROW)
        st = err_set(e, ST_DB, "%s: checking the copy: %s", out,
                     sqlite3_errmsg(db));
    else if (!verdict || strcmp(verdict, "ok") != 0)
        st = err_set(e, ST_DB, "%s: the copy fails SQLite's quick_check: "
                     "%.120s", out, verdict ? verdict : "no answer");
    sqlite3_finalize(q);
    return st;
}

/* Copies every page of s into the empty database file tmp, then makes
 * it one file and checks it; messages name out. */
static enum status copy_into(struct sq_store *s, const char *tmp,
                             const char *out, struct err *e)
{
    sqlite3 *dst = NULL;
    enum status st = ST_OK;
    int rc = sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE, NULL);
    if (rc != SQLITE_OK) {
        st = err_set(e, ST_IO, "%s: %s", tmp,
                     dst ? sqlite3_errmsg(dst) : sqlite3_errstr(rc));
        sqlite3_close(dst); /* NULL-safe */
        return st;
        goto out;
    }
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", s->db, "main");
    if (!b) {
        st = err_set(e, ST_DB, "%s: %s", out, sqlite3_errmsg(dst));
        goto out;
    }
    for (int i = 0; i < BACKUP_TRIES; i++) {
        rc = sqlite3_backup_step(b, -1);
        if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            break;
        sqlite3_sleep(100);
    }
    int fin = sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE || fin != SQLITE_OK) {
        rc = rc != SQLITE_DONE ? rc : fin;
        st = err_set(e, rc == SQLITE_BUSY || rc == SQLITE_LOCKED ? ST_BUSY
                        : rc == SQLITE_FULL                        ? ST_FULL
                                                                   : ST_DB,
                     "%s: copying the pages: %s", out, sqlite3_errstr(rc));
        goto out;
    }
    st = check_copy(dst, out, e);
out:
    if (sqlite3_close(dst) != SQLITE_OK && st == ST_OK)
        st = err_set(e, ST_IO, "%s: closing the copy failed", out);
    return st;
}

/* Moves the finished copy to out. A rename replaces out; a hard link
 * never does (EEXIST, even for an out that appeared meanwhile), so
 * without overwrite the copy is linked, then its temporary name removed. */
static enum status put_in_place(const char *tmp, const char *out,
                                bool overwrite, struct err *e)
{
    if (!overwrite) {
        if (link(tmp, out) == 0) {
            unlink(tmp);
            return ST_OK;
        }
        if (errno == EEXIST || access(out, F_OK) == 0)
            return err_set(e, ST_CONFLICT, "%s exists", out);
        /* a file system without hard links: out is still free */
    }
    if (rename(tmp, out) != 0)
        return err_set(e, ST_IO, "%s: %s", out, strerror(errno));
    return ST_OK;
}

enum status sq_backup(struct store *base, const char *out, bool overwrite,
                         struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct buf tmp = BUF_INIT;
    enum status st;

    if (!overwrite && access(out, F_OK) == 0)
        return err_set(e, ST_CONFLICT, "%s exists", out);
    /* beside out, so that the last step is a rename on one file system */
    buf_printf(&tmp, "%s.XXXXXX", out);
    int fd = mkstemp(tmp.p);
    if (fd < 0) {
        st = err_set(e, ST_IO, "%s: %s", out, strerror(errno));
        buf_release(&tmp);
        return st;
    }
    close(fd);
    st = copy_into(s, tmp.p, out, e);
    if (st == ST_OK && !sync_path(tmp.p, false))
        st = err_set(e, ST_IO, "%s: syncing the copy: %s", out,
                     strerror(errno));
    if (st == ST_OK)
        st = put_in_place(tmp.p, out, overwrite, e);
    if (st == ST_OK && !sync_path(out, true))
        st = err_set(e, ST_IO, "%s: syncing its folder: %s", out,
                     strerror(errno));
    if (st != ST_OK)
        remove_copy(tmp.p);
    buf_release(&tmp);
    return st;
}

/* ---- export ---------------------------------------------------------- */

static enum status count_games(struct sq_store *s, size_t *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, "SELECT count(*) FROM games", &st, e);
    *out = 0;
    if (res != ST_OK)
        return res;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = (size_t)sqlite3_column_int64(st, 0);
    else
        res = sq_fail(s, rc, "count games", e);
    sqlite3_finalize(st);
    return res;
}

static const char *text_col(sqlite3_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(st, col);
}

/* One read transaction around the count and the rows: one snapshot. The
 * statement stays open across the callbacks, so fn must not use s. */
enum status sq_each_upload(struct store *base, store_upload_fn fn, void *ctx,
                              struct err *e)
{
    struct sq_store *s = sq_of(base);
    sqlite3_stmt *st = NULL;
    struct stored_upload u;
    enum status res = sq_begin_read(s, e);
    if (res != ST_OK)
        return res;
    memset(&u, 0, sizeof u);
    res = count_games(s, &u.n_games, e);
    if (res == ST_OK)
        res = sq_prepare(s,
                            "SELECT g.id, unpack(r.raw, r.codec), g.name, "
                            "g.format, g.sha256, "
                            "g.source, g.uploaded_at, coalesce(g.valid, -1), "
                            "g.live FROM games g JOIN game_raw r "
                            "ON r.game_id = g.id ORDER BY g.id",
                            &st, e);
    while (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "read uploads", e);
            break;
        }
        u.id = sqlite3_column_int64(st, 0);
        u.raw = sqlite3_column_blob(st, 1);
        u.raw_len = (size_t)sqlite3_column_bytes(st, 1);
        u.name = text_col(st, 2);
        u.format = text_col(st, 3);
        u.sha256 = text_col(st, 4);
        u.source = text_col(st, 5);
        u.uploaded_at = sqlite3_column_int64(st, 6);
        u.verdict = sqlite3_column_int(st, 7);
        u.live = sqlite3_column_int(st, 8) != 0;
        if (fn(ctx, &u) != 0)
            break;
        u.index++;
    }
    sqlite3_finalize(st);
    return sq_end(s, res, e);
}
