/* sqlite.c - the SQLite backend: opening the database, migrations, and
 * the helpers the other sqlite*.c files share; the simple reads (raw,
 * live, each game); the backend's table of functions.
 *
 * Connection settings: WAL (readers never block the writer),
 * synchronous=FULL (a 201 means the game survives a power loss),
 * foreign_keys=ON, busy_timeout 5 s (concurrent writers wait for each
 * other instead of failing at once), reads memory-mapped. Migrations are
 * schema/NNN_*.sql, embedded by embed_schema.cmake; each runs in its own
 * transaction that also sets PRAGMA user_version to its number. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "store/store_rating.h"
#include "util/xalloc.h"

#define STORE_BUSY_MS 5000
/* Reads go through the OS page cache, shared by all connections (a list
 * filter touches thousands of games rows; a pread each is too slow), plus
 * a private cache of 16 MiB per connection. The map asks for 64 GiB:
 * SQLite cuts it to its build's limit (2 GiB in Debian's); past the
 * mapped part an ingest ran a fifth slower (1 GiB, the old size, was
 * reached at ~30,000 games). */
#define STORE_MMAP "PRAGMA mmap_size = 68719476736"
#define STORE_CACHE "PRAGMA cache_size = -16384"
/* The writer's: every game puts a key at a random place of the sha256
 * index (and of a few sort indexes), so past some 50,000 games nearly
 * every game dirties pages of its own. A 64 MiB cache keeps those
 * indexes' inner pages and hot leaves; checkpoints every 8,192 frames
 * (32 MiB of 4 KiB pages then, 64 MiB of today's 8 KiB) instead of
 * every 1,000 write a page dirtied by many batches once, and fsync the
 * file a tenth as often (the fsyncs of a 300,000-game file took three
 * times those of a new one). Ingest at 290,000 stored games went from
 * 0.74-0.79 of the rate at 10,000 to 0.91 (bench --curve); 256 MiB
 * did no better at 1,000,000. The checkpoints themselves run on a
 * thread of their own (sqlite_checkpoint.c); the setting is the bound
 * past which the writer checkpoints itself, and what applies if that
 * thread could not start. */
#define STORE_WRITER_CACHE "PRAGMA cache_size = -65536"
#define STORE_WRITER_CHECKPOINT "PRAGMA wal_autocheckpoint = 8192"

/* A text or blob bind that fails (SQLite could not copy the value: out
 * of memory) leaves its parameter NULL, and the statement would store
 * that NULL. The first such failure since the transaction began is kept
 * here, per thread as a connection is used by one thread at a time, and
 * fails the next step and the commit instead. */
static _Thread_local int bind_failed;

static void note_bind(int rc)
{
    if (rc != SQLITE_OK && bind_failed == SQLITE_OK)
        bind_failed = rc;
}

/* What the clients can do about rc: wait (a lock, memory, space), or
 * nothing (I/O errors, corruption, a bug). */
static enum status status_of(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return ST_BUSY;
    case SQLITE_FULL: return ST_FULL;
    case SQLITE_NOMEM: return ST_NOMEM;
    default: return rc == SQLITE_IOERR_NOMEM ? ST_NOMEM : ST_DB;
    }
}

enum status sq_fail(struct sq_store *s, int rc, const char *what, struct err *e)
{
    if (bind_failed != SQLITE_OK) { /* the cause of what follows */
        rc = bind_failed;
        bind_failed = SQLITE_OK;
        return err_set(e, status_of(rc), "%s: binding a value: %s", what,
                       sqlite3_errstr(rc));
    }
    /* errmsg describes the last call on the connection; use it only when
     * that call is the one that failed */
    const char *msg = s && s->db && sqlite3_errcode(s->db) == rc
                          ? sqlite3_errmsg(s->db)
                          : sqlite3_errstr(rc);
    return err_set(e, status_of(rc), "%s: %s", what, msg);
}

enum status sq_prepare(struct sq_store *s, const char *sql, sqlite3_stmt **out,
                          struct err *e)
{
    int rc = sqlite3_prepare_v2(s->db, sql, -1, out, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "prepare", e);
    return ST_OK;
}

enum status sq_cached(struct sq_store *s, const char *sql, sqlite3_stmt **out,
                         struct err *e)
{
    for (int i = 0; i < s->n_cache; i++)
        if (s->cache[i].sql == sql) {
            *out = s->cache[i].st;
            return ST_OK;
        }
    int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                out, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "prepare", e);
    if (s->n_cache < STORE_STMT_CACHE)
        s->cache[s->n_cache++] = (struct sq_cached_stmt){ sql, *out };
    return ST_OK;
}

/* SQLite counts its memory under one process-wide mutex on every
 * allocation: with the daemon's readers busy, that lock was a quarter of
 * serving a list page. The counts are unused here. Must precede the
 * library's initialisation; a no-op (SQLITE_MISUSE) if a test came
 * first. */
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void configure_sqlite(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

enum status sq_cached_text(struct sq_store *s, const char *sql,
                              sqlite3_stmt **out, struct err *e)
{
    struct sq_text_stmt *c = s->text_cache, *victim = c;
    for (int i = 0; i < STORE_TEXT_CACHE; i++) {
        if (c[i].sql && strcmp(c[i].sql, sql) == 0) {
            c[i].used = ++s->tick;
            *out = c[i].st;
            return ST_OK;
        }
        if (!c[i].sql || (victim->sql && c[i].used < victim->used))
            victim = &c[i];
    }
    int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                out, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "prepare", e);
    sqlite3_finalize(victim->st); /* NULL-safe */
    free(victim->sql);
    *victim = (struct sq_text_stmt){ xstrdup(sql), *out, ++s->tick };
    return ST_OK;
}

void sq_release(struct sq_store *s, sqlite3_stmt *st)
{
    if (!st)
        return;
    bool cached = false;
    for (int i = 0; i < s->n_cache && !cached; i++)
        cached = s->cache[i].st == st;
    for (int i = 0; i < STORE_TEXT_CACHE && !cached; i++)
        cached = s->text_cache[i].st == st;
    if (cached) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        return;
    }
    sqlite3_finalize(st);
}

enum status sq_step_done(struct sq_store *s, sqlite3_stmt *st, const char *what,
                            struct err *e)
{
    int rc = bind_failed != SQLITE_OK ? bind_failed : sqlite3_step(st);
    enum status res = ST_OK;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        res = sq_fail(s, rc, what, e);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return res;
}

void sq_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        note_bind(sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT));
    else
        note_bind(sqlite3_bind_null(st, i));
}

void sq_bind_text_len(sqlite3_stmt *st, int i, const char *s, size_t len)
{
    note_bind(sqlite3_bind_text64(st, i, s ? s : "", s ? len : 0,
                                  SQLITE_TRANSIENT, SQLITE_UTF8));
}

void sq_bind_blob(sqlite3_stmt *st, int i, const void *p, size_t len)
{
    note_bind(sqlite3_bind_blob64(st, i, p ? p : "", p ? len : 0,
                                  SQLITE_TRANSIENT));
}

void sq_append_col(struct buf *out, sqlite3_stmt *st, int col)
{
    const char *p = (const char *)sqlite3_column_text(st, col);
    int n = sqlite3_column_bytes(st, col);
    buf_append(out, p && n > 0 ? p : "", p && n > 0 ? (size_t)n : 0);
}

void sq_append_blob(struct buf *out, sqlite3_stmt *st, int col)
{
    const char *p = sqlite3_column_blob(st, col);
    int n = sqlite3_column_bytes(st, col);
    buf_append(out, p && n > 0 ? p : "", p && n > 0 ? (size_t)n : 0);
}

/* A ROLLBACK that failed (the disk still full, memory short) left the
 * last transaction open; without this no write would get through on the
 * connection again, and its reads would see the half-written game. So
 * sq_begin(), sq_begin_read() and the reads the writer makes
 * outside a transaction (raw, live, each game) call this first. Inside a
 * batch the outer transaction is meant to be open. */
static void drop_leftover(struct sq_store *s)
{
    bind_failed = SQLITE_OK;
    if (!s->batch && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* A game in a whole batch begins with no SQL: only the change count,
 * which tells at its end whether it wrote anything (end_whole). */
static bool begin_whole(struct sq_store *s)
{
    if (!s->batch || !s->batch_whole)
        return false;
    s->game_changes = sqlite3_total_changes64(s->db);
    return true;
}

enum status sq_begin(struct sq_store *s, struct err *e)
{
    if (s->batch && s->batch_lost)
        return err_set(e, ST_DB, "the batch this game belongs to was rolled "
                       "back after an earlier failure");
    drop_leftover(s);
    if (begin_whole(s))
        return ST_OK;
    int rc = sqlite3_exec(s->db, s->batch ? "SAVEPOINT game" : "BEGIN IMMEDIATE",
                          NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "begin", e);
    return ST_OK;
}

enum status sq_begin_read(struct sq_store *s, struct err *e)
{
    drop_leftover(s);
    if (begin_whole(s))
        return ST_OK;
    int rc = sqlite3_exec(s->db, s->batch ? "SAVEPOINT game" : "BEGIN", NULL,
                          NULL, NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "begin", e);
    return ST_OK;
}

/* The end of a game in a whole batch: a failed one that wrote rows
 * (a failed statement leaves none of its own) takes the batch with it. */
static enum status end_whole(struct sq_store *s, enum status st,
                             struct err *e)
{
    if (st == ST_OK && bind_failed != SQLITE_OK)
        st = sq_fail(s, bind_failed, "write the game", e);
    if (st == ST_OK || sqlite3_total_changes64(s->db) == s->game_changes)
        return st;
    s->batch_lost = true;
    if (!sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

/* Inside a batch: release the game's savepoint, or roll back to it. */
static enum status end_savepoint(struct sq_store *s, enum status st,
                                 struct err *e)
{
    if (s->batch_whole)
        return end_whole(s, st, e);
    if (st == ST_OK && bind_failed != SQLITE_OK)
        st = sq_fail(s, bind_failed, "release savepoint", e);
    if (st == ST_OK) {
        int rc = sqlite3_exec(s->db, "RELEASE game", NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            return ST_OK;
        st = sq_fail(s, rc, "release savepoint", e);
    }
    int rc = sqlite3_exec(s->db, "ROLLBACK TO game", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(s->db, "RELEASE game", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        /* The game could not be undone alone: give up the whole batch
         * rather than ever commit part of a game. */
        s->batch_lost = true;
        if (!sqlite3_get_autocommit(s->db))
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    }
    return st;
}

enum status sq_end(struct sq_store *s, enum status st, struct err *e)
{
    if (s->batch)
        return end_savepoint(s, st, e);
    if (st == ST_OK && (s->pending || s->rmark.dirty))
        st = sq_flush_pending(s, e);
    if (st == ST_OK && bind_failed != SQLITE_OK)
        st = sq_fail(s, bind_failed, "commit", e);
    if (st == ST_OK) {
        int rc = sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            st = sq_fail(s, rc, "commit", e);
    }
    /* a failed COMMIT leaves the transaction open: roll back too */
    if (st != ST_OK && !sqlite3_get_autocommit(s->db))
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

enum status sq_batch_begin(struct store *base, enum store_batch kind,
                           struct err *e)
{
    struct sq_store *s = sq_of(base);
    if (s->batch)
        return err_set(e, ST_DB, "a batch is already open");
    if (s->read_only)
        return err_set(e, ST_DB, "read-only");
    enum status st = sq_begin(s, e);
    s->batch = st == ST_OK;
    s->batch_whole = kind == STORE_BATCH_WHOLE;
    s->batch_lost = false;
    return st;
}

bool sq_batch_lost(const struct store *base)
{
    const struct sq_store *s = (const struct sq_store *)base;
    return s->batch && s->batch_lost;
}

enum status sq_batch_end(struct store *base, bool commit, struct err *e)
{
    struct sq_store *s = sq_of(base);
    if (!s->batch)
        return ST_OK;
    s->batch = false;
    if (!commit || s->batch_lost) {
        if (!sqlite3_get_autocommit(s->db))
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        if (commit)
            return err_set(e, ST_DB, "the batch was rolled back: a failed "
                           "game could not be undone alone, so the games "
                           "before it in the batch were not kept");
        return ST_OK;
    }
    return sq_end(s, ST_OK, e);
}

/* ---- SQL functions for the die-fairness test ------------------------- */

/* die_chi2(r1, r2, r3): chi-square of the counts against 1/3 each, NULL
 * when there are no rolls. */
static void fn_chi2(sqlite3_context *c, int argc, sqlite3_value **argv)
{
    double r[3], n = 0;
    for (int i = 0; i < 3 && i < argc; i++) {
        r[i] = sqlite3_value_double(argv[i]);
        n += r[i];
    }
    if (argc != 3 || n <= 0) {
        sqlite3_result_null(c);
        return;
    }
    double want = n / 3.0, x = 0;
    for (int i = 0; i < 3; i++)
        x += (r[i] - want) * (r[i] - want) / want;
    sqlite3_result_double(c, x);
}

/* die_p(x): p-value of a chi-square with 2 degrees of freedom. */
static void fn_p(sqlite3_context *c, int argc, sqlite3_value **argv)
{
    if (argc != 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_null(c);
        return;
    }
    sqlite3_result_double(c, exp(-sqlite3_value_double(argv[0]) / 2.0));
}

/* luck_figure(what, landed, thirds, ninths): store_rating.h's figure
 * (what: 0 expected, 1 luck, 2 spread) as the text "%.2f", for json():
 * the bytes PostgreSQL's statistics print. NULL sums count as 0. */
static void fn_luck(sqlite3_context *c, int argc, sqlite3_value **argv)
{
    char text[32];
    if (argc != 4) {
        sqlite3_result_null(c);
        return;
    }
    int what = sqlite3_value_int(argv[0]);
    snprintf(text, sizeof text, "%.2f",
             luck_figure(what == 0 ? LUCK_EXPECTED
                         : what == 1 ? LUCK_LUCK
                                     : LUCK_SPREAD,
                         sqlite3_value_int64(argv[1]),
                         sqlite3_value_int64(argv[2]),
                         sqlite3_value_int64(argv[3])));
    sqlite3_result_text(c, text, -1, SQLITE_TRANSIENT);
}

int sq_register_functions(sqlite3 *db)
{
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    int rc = sqlite3_create_function(db, "die_chi2", 3, flags, NULL, fn_chi2,
                                     NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "die_p", 1, flags, NULL, fn_p, NULL,
                                     NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "luck_figure", 4, flags, NULL,
                                     fn_luck, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sq_register_unpack(db);
    return rc;
}

/* ---- opening and migrating ------------------------------------------- */

static enum status user_version(struct sq_store *s, int *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, "PRAGMA user_version", &st, e);
    *out = 0;
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *out = sqlite3_column_int(st, 0);
        else
            res = sq_fail(s, rc, "read user_version", e);
    }
    sqlite3_finalize(st);
    return res;
}

/* A migration that rebuilt a table (copy, drop, rename: SQLite's way to
 * change a CHECK) ran with foreign keys off: every reference must still
 * hold before it commits. */
static enum status keys_hold(struct sq_store *s, const char *name,
                             struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, "PRAGMA foreign_key_check", &st, e);
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            res = err_set(e, ST_DB, "migration %s: table %s has a row that "
                          "points to no row of %s", name,
                          (const char *)sqlite3_column_text(st, 0),
                          (const char *)sqlite3_column_text(st, 2));
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "foreign_key_check", e);
    }
    sqlite3_finalize(st);
    return res;
}

/* Applies migration v (0-based) unless another process did meanwhile. */
static enum status migrate_one(struct sq_store *s, int v, struct err *e)
{
    char *msg = NULL, sql[64];
    int now = 0;
    enum status st = sq_begin(s, e);
    if (st != ST_OK)
        return st;
    st = user_version(s, &now, e);
    if (st != ST_OK || now > v)
        goto out;
    int rc = sqlite3_exec(s->db, sq_migrations[v].sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) {
        st = err_set(e, status_of(rc),
                     "migration %s: %s", sq_migrations[v].name,
                     msg ? msg : sqlite3_errstr(rc));
        goto out;
    }
    st = keys_hold(s, sq_migrations[v].name, e);
    if (st != ST_OK)
        goto out;
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
    rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        st = sq_fail(s, rc, "set user_version", e);
out:
    sqlite3_free(msg);
    return sq_end(s, st, e);
}

/* Foreign keys are off while migrations run (PRAGMA foreign_keys cannot
 * change inside a transaction, and dropping a table that others
 * reference would otherwise fail); keys_hold() checks them instead. */
static enum status migrate(struct sq_store *s, struct err *e)
{
    int v = 0;
    enum status st = user_version(s, &v, e);
    if (st != ST_OK)
        return st;
    if (v > sq_n_migrations)
        return err_set(e, ST_DB,
                       "database schema version %d is newer than "
                       "this flierd's (%d)",
                       v, sq_n_migrations);
    if (v < sq_n_migrations && s->read_only)
        return err_set(e, ST_DB,
                       "database schema version %d, this flierd "
                       "needs %d: open it read-write once to migrate",
                       v, sq_n_migrations);
    if (v == sq_n_migrations)
        return ST_OK;
    int rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = OFF", NULL, NULL,
                          NULL);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "PRAGMA foreign_keys = OFF", e);
    for (; v < sq_n_migrations && st == ST_OK; v++)
        st = migrate_one(s, v, e);
    rc = sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    if (rc != SQLITE_OK && st == ST_OK)
        st = sq_fail(s, rc, "PRAGMA foreign_keys = ON", e);
    return st;
}

static enum status configure(struct sq_store *s, struct err *e)
{
    static const char *const rw[] = {
        /* A new file only (an existing one keeps its size). A game's
         * upload and audit are zstd frames of about 2 KB and 1.5 KB: a
         * 4 KiB page held one frame and wasted the rest (8.7 KB a game);
         * 8 KiB pages hold three or four (6.6 KB), and a million games
         * ingest at 0.85 of the rate at 10,000 instead of 0.76. */
        "PRAGMA page_size = 8192",
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = FULL",
        "PRAGMA foreign_keys = ON",
        /* A game in a batch is a savepoint, whose journal holds the
         * first image of every page the game touches (80 or so): in a
         * temporary file that was a pwrite per page, in memory it is a
         * copy. Sorts of this connection (the writer's) stay small. */
        "PRAGMA temp_store = MEMORY",
        /* what a write transaction's games add to the aggregates and
         * the search index (their texts), until its commit
         * (sq_flush_pending) */
        "CREATE TEMP TABLE IF NOT EXISTS pending_games ("
        "id INTEGER PRIMARY KEY, search TEXT NOT NULL)",
        /* duplicates that came to count in the transaction (schema/009) */
        "CREATE TEMP TABLE IF NOT EXISTS pending_promoted ("
        "id INTEGER PRIMARY KEY)",
        STORE_MMAP,
        STORE_WRITER_CACHE,
        STORE_WRITER_CHECKPOINT,
    };
    static const char *const ro[] = {
        "PRAGMA query_only = ON",
        "PRAGMA foreign_keys = ON",
        STORE_MMAP,
        STORE_CACHE,
    };
    const char *const *list = s->read_only ? ro : rw;
    size_t n = s->read_only ? sizeof ro / sizeof *ro : sizeof rw / sizeof *rw;
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
    int rc = sq_register_functions(s->db);
    if (rc != SQLITE_OK)
        return sq_fail(s, rc, "register functions", e);
    for (size_t i = 0; i < n; i++) {
        rc = sqlite3_exec(s->db, list[i], NULL, NULL, NULL);
        if (rc != SQLITE_OK)
            return sq_fail(s, rc, list[i], e);
    }
    return ST_OK;
}

/* A database migrated to ratings (schema/010) has its games rated by
 * the first writer that opens it. */
static enum status rate_stale(struct sq_store *s, struct err *e)
{
    enum status st = sq_begin(s, e);
    if (st == ST_OK)
        st = sq_rating_stale(s, e);
    return sq_end(s, st, e);
}

enum status sq_open(const char *path, bool read_only, struct store **out,
                    struct err *e)
{
    enum status st = ST_OK;
    struct sq_store *s = xcalloc(1, sizeof *s);
    /* NOMUTEX: a connection is only ever used by one thread at a time
     * (its statement cache could not be shared either: the daemon hands
     * connections out under its own locks), so SQLite's lock around every
     * call only cost time: 1.5% of ingest's CPU. */
    int flags = (read_only ? SQLITE_OPEN_READONLY
                           : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
                SQLITE_OPEN_NOMUTEX;

    *out = NULL;
    s->base.be = &store_sqlite_backend;
    s->read_only = read_only;
    pthread_once(&config_once, configure_sqlite);
    int rc = sqlite3_open_v2(path, &s->db, flags, NULL);
    if (rc != SQLITE_OK) {
        st = err_set(e, ST_DB, "%s: %s", path,
                     s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        goto out;
    }
    st = configure(s, e);
    if (st == ST_OK)
        st = migrate(s, e);
    if (st == ST_OK && !read_only)
        st = rate_stale(s, e);
    if (st == ST_OK && !read_only)
        s->ckpt = sq_checkpointer_start(s->db, path);
out:
    if (st != ST_OK)
        sq_close(&s->base);
    else
        *out = &s->base;
    return st;
}

void sq_close(struct store *base)
{
    struct sq_store *s = sq_of(base);
    if (!s)
        return;
    sq_checkpointer_stop(s->ckpt, s->db);
    for (int i = 0; i < s->n_cache; i++)
        sqlite3_finalize(s->cache[i].st);
    for (int i = 0; i < STORE_TEXT_CACHE; i++) {
        sqlite3_finalize(s->text_cache[i].st);
        free(s->text_cache[i].sql);
    }
    sqlite3_close_v2(s->db); /* NULL-safe */
    free(s);
}

/* ---- simple reads ---------------------------------------------------- */

enum status sq_game_raw(struct store *base, int64_t id, struct buf *out,
                        const char **out_format, char *sha_out,
                        struct err *e)
{
    struct sq_store *s = sq_of(base);
    sqlite3_stmt *st = NULL;
    enum status res;

    *out_format = NULL;
    drop_leftover(s);
    res = sq_cached(s,
                        "SELECT g.format, unpack(r.raw, r.codec), g.sha256 "
                        "FROM games g "
                        "JOIN game_raw r ON r.game_id = g.id "
                        "WHERE g.id = ?1",
                        &st, e);
    if (res != ST_OK)
        goto out;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        res = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    } else if (rc != SQLITE_ROW) {
        res = sq_fail(s, rc, "read raw", e);
    } else {
        const char *fmt = (const char *)sqlite3_column_text(st, 0);
        *out_format = fmt && strcmp(fmt, "jcz") == 0 ? "jcz" : "flierlog";
        sq_append_blob(out, st, 1);
        if (sha_out) {
            const unsigned char *sha = sqlite3_column_text(st, 2);
            snprintf(sha_out, 65, "%s", sha ? (const char *)sha : "");
        }
    }
out:
    sq_release(s, st);
    return res;
}

/* Appends the one text column of the row with this id (sql has ?1; a
 * string literal, kept prepared). */
static enum status read_one_text(struct sq_store *s, const char *sql, int64_t id,
                                 struct buf *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    drop_leftover(s);
    enum status res = sq_cached(s, sql, &st, e);
    if (res != ST_OK)
        goto out;
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        sq_append_col(out, st, 0);
    else if (rc == SQLITE_DONE)
        res = err_set(e, ST_NOT_FOUND, "no game %lld", (long long)id);
    else
        res = sq_fail(s, rc, "read game", e);
out:
    sq_release(s, st);
    return res;
}

enum status sq_game_sha(struct store *base, int64_t id, char out[65],
                           struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct buf b = BUF_INIT;
    enum status st = read_one_text(
        s, "SELECT sha256 FROM games WHERE id = ?1", id, &b, e);
    snprintf(out, 65, "%s", st == ST_OK && b.p ? b.p : "");
    buf_release(&b);
    return st;
}

enum status sq_game_is_live(struct store *base, int64_t id, bool *out_live,
                               struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct buf b = BUF_INIT;
    *out_live = false;
    enum status st =
        read_one_text(s, "SELECT live FROM games WHERE id = ?1", id, &b, e);
    if (st == ST_OK)
        *out_live = b.p && b.p[0] == '1';
    buf_release(&b);
    return st;
}

/* One game at a time (id > last), with no statement left open during the
 * callback: fn may write to the store (a re-audit replaces the game). */
enum status sq_each_game(struct store *base, store_game_fn fn, void *ctx,
                            struct err *e)
{
    struct sq_store *s = sq_of(base);
    sqlite3_stmt *st = NULL;
    struct buf raw = BUF_INIT;
    char source[16];
    int64_t last = 0;
    drop_leftover(s);
    enum status res =
        sq_prepare(s,
                      "SELECT g.id, unpack(r.raw, r.codec), g.source, "
                      "g.uploaded_at, "
                      "coalesce(g.valid, -1) "
                      "FROM games g JOIN game_raw r ON r.game_id = g.id "
                      "WHERE g.id > ?1 ORDER BY g.id LIMIT 1",
                      &st, e);
    while (res == ST_OK) {
        sqlite3_bind_int64(st, 1, last);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "read games", e);
            break;
        }
        last = sqlite3_column_int64(st, 0);
        raw.len = 0;
        sq_append_blob(&raw, st, 1);
        snprintf(source, sizeof source, "%s",
                 (const char *)sqlite3_column_text(st, 2));
        int64_t at = sqlite3_column_int64(st, 3);
        int verdict = sqlite3_column_int(st, 4); /* enum game_verdict */
        sqlite3_reset(st);
        if (fn(ctx, last, raw.p, raw.len, source, at, verdict) != 0)
            break;
    }
    sqlite3_finalize(st);
    buf_release(&raw);
    return res;
}

const struct store_backend store_sqlite_backend = {
    .name = "sqlite",
    .open = sq_open,
    .close = sq_close,
    .insert_game = sq_insert_game,
    .batch_begin = sq_batch_begin,
    .batch_end = sq_batch_end,
    .batch_lost = sq_batch_lost,
    .replace_game = sq_replace_game,
    .delete_game = sq_delete,
    .rename_game = sq_rename,
    .ratings_rebuild = sq_ratings_rebuild,
    .list_games = sq_list_games,
    .game_json = sq_game_json,
    .game_raw = sq_game_raw,
    .pack = sq_pack,
    .game_sha = sq_game_sha,
    .game_is_live = sq_game_is_live,
    .players_json = sq_players_json,
    .player_json = sq_player_json,
    .stats_json = sq_stats_json,
    .counts = sq_counts,
    .each_game = sq_each_game,
    .each_upload = sq_each_upload,
    .backup = sq_backup,
    .check = sq_check,
};
