/* test_faults.c - fault injection on every ingest path (docs/security.md,
 * "Fault injection").
 *
 * SQLite errors: this test links with -Wl,--wrap= for the SQLite calls of
 * the store that can fail (sqlite3_step, sqlite3_prepare_v2/_v3,
 * sqlite3_exec and the text and blob binds), so each passes inject()
 * below. A path runs once clean to count its calls (never hard-coded: the
 * statements per game change with the schema); then, for every call k in
 * turn, SQLITE_FULL, SQLITE_BUSY, SQLITE_IOERR and SQLITE_NOMEM are
 * injected at call k. Where the rollback differs (an upload: a
 * transaction; a live move: a replace; `flierd ingest`: savepoints in a
 * batch) also SQLITE_FULL at every call from k on (a full disk stays
 * full: the rollback fails too), and SQLITE_IOERR at k and at the
 * rollback that follows, once. After each: the reply (503 with
 * Retry-After for BUSY, FULL, NOMEM; 500 for I/O errors; a JSON message
 * naming the request and what failed), the daemon still serving, the
 * database whole (check_db), and the same input again accepted.
 *
 * Allocation failures: util/fault.h's counter, which the upload body,
 * cJSON's parse tree and SQLite's allocator (hooked in main() through
 * sqlite3_config) all pass: an upload runs once to count them, then the
 * Nth fails, for every N.
 *
 * Paths: POST /api/games (a game, and one of an expansion not audited
 * yet, stored unaudited: 202), the spool folder, POST /api/live (the
 * start, a move, the finish) on the real server started in process (port 0, a
 * temporary database, rate limits off), and `flierd ingest`, `flierd
 * reaudit` and `flierd copy` through their entry points.
 * FLIERD_FAULTS_ONLY=PATTERN runs the tests whose names match alone. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "cli/cli.h"
#include "http/http.h"
#include "http_client.h"
#include "test_files.h"
#include "store/store.h"
#include "util/fault.h"

/* ---- the wrapped SQLite calls ------------------------------------------ */

static atomic_bool inj_counting; /* count calls (and maybe fail one) */
static atomic_long inj_calls;    /* calls counted since arm() */
static atomic_long inj_at;       /* the call to fail, 1-based; 0 none */
static atomic_int inj_mode;      /* which calls after it fail too */
static atomic_bool inj_rolled;   /* AND_ROLLBACK: the rollback failed */
static atomic_int inj_rc;

enum mode {
    ONCE,        /* the call at inj_at alone */
    FROM_ON,     /* and every one after it: a disk that stays full */
    AND_ROLLBACK /* and the first ROLLBACK after it, once */
};
static const char *const MODE_NAME[] = { "", " and after",
                                         " and its rollback" };
static char inj_what[200]; /* the call that failed first, for messages */

/* Counts a call (fn on sql); true, with the code, when it is to fail. */
static bool inject(int *rc, const char *fn, const char *sql)
{
    if (!atomic_load(&inj_counting))
        return false;
    long k = atomic_fetch_add(&inj_calls, 1) + 1;
    long at = atomic_load(&inj_at);
    int mode = atomic_load(&inj_mode);
    if (at == 0 || k < at || (k > at && mode == ONCE))
        return false;
    if (k > at && mode == AND_ROLLBACK &&
        (strncmp(sql ? sql : "", "ROLLBACK", 8) != 0 ||
         atomic_exchange(&inj_rolled, true)))
        return false;
    if (k == at)
        snprintf(inj_what, sizeof inj_what, "%s(%.150s)", fn,
                 sql ? sql : "");
    *rc = atomic_load(&inj_rc);
    return true;
}

static void arm(long at, int rc, enum mode mode)
{
    atomic_store(&inj_counting, false);
    atomic_store(&inj_calls, 0);
    atomic_store(&inj_at, at);
    atomic_store(&inj_rc, rc);
    atomic_store(&inj_mode, (int)mode);
    atomic_store(&inj_rolled, false);
    atomic_store(&inj_counting, true);
}

/* Stops counting; returns the calls counted. */
static long disarm(void)
{
    atomic_store(&inj_counting, false);
    return atomic_load(&inj_calls);
}

typedef int (*exec_cb)(void *, int, char **, char **);
typedef void (*destructor)(void *);
int __real_sqlite3_step(sqlite3_stmt *st);
int __real_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n,
                              sqlite3_stmt **out, const char **tail);
int __real_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n,
                              unsigned flags, sqlite3_stmt **out,
                              const char **tail);
int __real_sqlite3_exec(sqlite3 *db, const char *sql, exec_cb cb, void *arg,
                        char **msg);
int __real_sqlite3_bind_text(sqlite3_stmt *st, int i, const char *s, int n,
                             destructor d);
int __real_sqlite3_bind_text64(sqlite3_stmt *st, int i, const char *s,
                               sqlite3_uint64 n, destructor d,
                               unsigned char enc);
int __real_sqlite3_bind_blob64(sqlite3_stmt *st, int i, const void *p,
                               sqlite3_uint64 n, destructor d);
int __wrap_sqlite3_step(sqlite3_stmt *st);
int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n,
                              sqlite3_stmt **out, const char **tail);
int __wrap_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n,
                              unsigned flags, sqlite3_stmt **out,
                              const char **tail);
int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, exec_cb cb, void *arg,
                        char **msg);
int __wrap_sqlite3_bind_text(sqlite3_stmt *st, int i, const char *s, int n,
                             destructor d);
int __wrap_sqlite3_bind_text64(sqlite3_stmt *st, int i, const char *s,
                               sqlite3_uint64 n, destructor d,
                               unsigned char enc);
int __wrap_sqlite3_bind_blob64(sqlite3_stmt *st, int i, const void *p,
                               sqlite3_uint64 n, destructor d);

int __wrap_sqlite3_step(sqlite3_stmt *st)
{
    int rc;
    if (inject(&rc, "sqlite3_step", sqlite3_sql(st)))
        return rc;
    return __real_sqlite3_step(st);
}

int __wrap_sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n,
                              sqlite3_stmt **out, const char **tail)
{
    int rc;
    if (!inject(&rc, "sqlite3_prepare_v2", sql))
        return __real_sqlite3_prepare_v2(db, sql, n, out, tail);
    *out = NULL;
    return rc;
}

int __wrap_sqlite3_prepare_v3(sqlite3 *db, const char *sql, int n,
                              unsigned flags, sqlite3_stmt **out,
                              const char **tail)
{
    int rc;
    if (!inject(&rc, "sqlite3_prepare_v3", sql))
        return __real_sqlite3_prepare_v3(db, sql, n, flags, out, tail);
    *out = NULL;
    return rc;
}

int __wrap_sqlite3_exec(sqlite3 *db, const char *sql, exec_cb cb, void *arg,
                        char **msg)
{
    int rc;
    if (!inject(&rc, "sqlite3_exec", sql))
        return __real_sqlite3_exec(db, sql, cb, arg, msg);
    if (msg)
        *msg = NULL;
    return rc;
}

/* A bind that fails leaves its parameter NULL, as SQLite's do. */
int __wrap_sqlite3_bind_text(sqlite3_stmt *st, int i, const char *s, int n,
                             destructor d)
{
    int rc;
    if (!inject(&rc, "sqlite3_bind_text", sqlite3_sql(st)))
        return __real_sqlite3_bind_text(st, i, s, n, d);
    sqlite3_bind_null(st, i);
    return rc;
}

int __wrap_sqlite3_bind_text64(sqlite3_stmt *st, int i, const char *s,
                               sqlite3_uint64 n, destructor d,
                               unsigned char enc)
{
    int rc;
    if (!inject(&rc, "sqlite3_bind_text64", sqlite3_sql(st)))
        return __real_sqlite3_bind_text64(st, i, s, n, d, enc);
    sqlite3_bind_null(st, i);
    return rc;
}

int __wrap_sqlite3_bind_blob64(sqlite3_stmt *st, int i, const void *p,
                               sqlite3_uint64 n, destructor d)
{
    int rc;
    if (!inject(&rc, "sqlite3_bind_blob64", sqlite3_sql(st)))
        return __real_sqlite3_bind_blob64(st, i, p, n, d);
    sqlite3_bind_null(st, i);
    return rc;
}

static const int CODES[] = { SQLITE_FULL, SQLITE_BUSY, SQLITE_IOERR,
                             SQLITE_NOMEM };
#define N_CODES (sizeof CODES / sizeof CODES[0])

/* FLIERD_FAULTS_SPREAD (set for the sanitized build's run, where every
 * run is three times slower): call k fails with one code of the four in
 * turn, and each of the other modes at every fourth call, rather than
 * every code at every call. Every call still fails once; the plain
 * build's run does them all. */
static bool spread;

static bool sweeps(long k, int rc, enum mode mode)
{
    size_t c = 0;
    while (c < N_CODES && CODES[c] != rc)
        c++;
    return !spread || (size_t)(k + (long)c + (long)mode) % N_CODES == 0;
}

/* ---- SQLite's allocator through fault_hit() ---------------------------- */

static sqlite3_mem_methods sqlite_mem; /* SQLite's own */

static void *mem_malloc(int n)
{
    return fault_hit() ? NULL : sqlite_mem.xMalloc(n);
}

static void *mem_realloc(void *p, int n)
{
    return fault_hit() ? NULL : sqlite_mem.xRealloc(p, n);
}

/* Before SQLite is first used (sqlite3_config's rule). */
static int hook_sqlite_alloc(void)
{
    sqlite3_mem_methods m;
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sqlite_mem) != SQLITE_OK)
        return -1;
    m = sqlite_mem;
    m.xMalloc = mem_malloc;
    m.xRealloc = mem_realloc;
    return sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK ? 0 : -1;
}

/* ---- the inputs -------------------------------------------------------- */

/* samples/rules/example-1.flierlog with Yellow claiming 3 at the end: a
 * small game that still fills every table (3 seats, 2 flights, score
 * events and shares, one SCORE_MISMATCH violation). */
static const char GAME[] =
    "{\"format\": \"flierlog/1\", \"edition\": \"C2\",\n"
    " \"players\": [{\"name\": \"Blue\", \"color\": \"blue\"}, {\"name\": "
    "\"Red\", \"color\": \"red\"}, {\"name\": \"Yellow\", \"color\": "
    "\"yellow\"}],\n"
    " \"turns\": [\n"
    "  {\"turn\": 1, \"player\": \"Blue\", \"tile\": \"BA/LR\", \"at\": [0, "
    "1], \"rot\": 0, \"deploy\": \"monastery\"},\n"
    "  {\"turn\": 2, \"player\": \"Red\", \"tile\": \"BA/RRR\", \"at\": [0, "
    "2], \"rot\": 180},\n"
    "  {\"turn\": 3, \"player\": \"Yellow\", \"tile\": \"BA/CccR\", \"at\": "
    "[1, 2], \"rot\": 90, \"deploy\": \"city:_W\"},\n"
    "  {\"turn\": 4, \"player\": \"Blue\", \"tile\": \"BA/C\", \"at\": [2, "
    "2], \"rot\": 270},\n"
    "  {\"turn\": 5, \"player\": \"Red\", \"tile\": \"FL/F.d\", \"at\": [2, "
    "3], \"rot\": 0, \"fly\": {\"roll\": 2, \"land\": \"monastery\"}},\n"
    "  {\"turn\": 6, \"player\": \"Yellow\", \"tile\": \"BA/RFr\", \"at\": "
    "[-1, 0], \"rot\": 0},\n"
    "  {\"turn\": 7, \"player\": \"Blue\", \"tile\": \"BA/RFr\", \"at\": "
    "[-2, 0], \"rot\": 0},\n"
    "  {\"turn\": 8, \"player\": \"Red\", \"tile\": \"FL/RFr.d\", \"at\": "
    "[1, 0], \"rot\": 0, \"fly\": {\"roll\": 3, \"land\": \"returned\"}}\n"
    " ],\n"
    " \"final\": {\"totals\": {\"Blue\": 6, \"Red\": 6, \"Yellow\": 3}}}\n";

/* The same game, its bytes (and so its sha256) made unique by k as
 * trailing white space, so that it is never taken for a duplicate. */
static void game_bytes(long k, struct buf *out)
{
    out->len = 0;
    buf_puts(out, GAME);
    for (; k > 0; k /= 2)
        buf_puts(out, k % 2 ? "\t" : " ");
    buf_puts(out, "\n");
}

/* A game of The Catapult, which flierd does not audit yet: stored all the
 * same (202), made unique by k as game_bytes() does. */
static void mage_bytes(long k, struct buf *out)
{
    out->len = 0;
    buf_puts(out, "{\"appVersion\": \"5.12.1\", \"setup\": {\"sets\": "
                  "{\"basic:1\": 1, \"catapult:1\": 1}, \"elements\": "
                  "{\"small-follower\": 7, \"catapult\": true}, \"rules\": "
                  "{}, \"start\": [{\"tile\": \"BA/RCr\", \"x\": 0, "
                  "\"y\": 0, \"rotation\": 0}]}, \"players\": "
                  "[{\"name\": \"Blue\", \"slot\": 0}, {\"name\": "
                  "\"Red\", \"slot\": 1}], \"replay\": []}");
    for (; k > 0; k /= 2)
        buf_puts(out, k % 2 ? "\t" : " ");
    buf_puts(out, "\n");
}

/* A live game: its setup line and its first turn. */
static const char LIVE_HEADER[] =
    "{\"format\": \"flierlog/1\", \"edition\": \"C2\", \"players\": "
    "[{\"name\": \"Blue\"}, {\"name\": \"Red\"}]}";
static const char LIVE_TURN[] =
    "{\"turn\": 1, \"player\": \"Blue\", \"tile\": \"BA/LR\", \"at\": [0, 1], "
    "\"rot\": 0, \"deploy\": \"monastery\"}";

/* ---- the daemon's log, to wait for the spool's lines ------------------- */

struct logcap {
    int fd[2];
    FILE *w;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t grew;
    struct buf text;
    bool eof;
};

static void *log_reader(void *arg)
{
    struct logcap *l = arg;
    char chunk[4096];
    for (;;) {
        ssize_t k = read(l->fd[0], chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        pthread_mutex_lock(&l->mu);
        if (k > 0)
            buf_append(&l->text, chunk, (size_t)k);
        else
            l->eof = true;
        pthread_cond_broadcast(&l->grew);
        pthread_mutex_unlock(&l->mu);
        if (k <= 0)
            return NULL;
    }
}

static void log_open(struct logcap *l)
{
    memset(l, 0, sizeof *l);
    assert_int_equal(pipe(l->fd), 0);
    l->w = fdopen(l->fd[1], "w");
    assert_non_null(l->w);
    setvbuf(l->w, NULL, _IOLBF, 0);
    pthread_mutex_init(&l->mu, NULL);
    pthread_cond_init(&l->grew, NULL);
    assert_int_equal(pthread_create(&l->th, NULL, log_reader, l), 0);
}

static void log_close(struct logcap *l)
{
    fclose(l->w);
    pthread_join(l->th, NULL);
    close(l->fd[0]);
    buf_release(&l->text);
    pthread_mutex_destroy(&l->mu);
    pthread_cond_destroy(&l->grew);
}

/* Waits up to 20 s for needle in the log; returns whether it came. */
static bool log_wait(struct logcap *l, const char *needle)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 20;
    pthread_mutex_lock(&l->mu);
    bool found = l->text.p && strstr(l->text.p, needle);
    while (!found && !l->eof &&
           pthread_cond_timedwait(&l->grew, &l->mu, &until) == 0)
        found = l->text.p && strstr(l->text.p, needle);
    pthread_mutex_unlock(&l->mu);
    return found;
}

/* ---- the fixture: a temp folder, a database, maybe the server ---------- */

#define MAX_SIGS 4

struct fx {
    char dir[64];
    char db[128];
    char spool[128];
    struct server *srv;
    unsigned port;
    struct logcap log;
    bool logging;
    char sigs[MAX_SIGS][256]; /* what a whole game looks like */
    int n_sigs;
    sqlite3 *cdb;             /* the checks' connections, kept open */
    struct store *cst;
};

static void db_close(struct fx *f);

static void remove_db(const char *db)
{
    static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
    char p[160];
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        snprintf(p, sizeof p, "%s%s", db, ext[i]);
        unlink(p);
    }
}

/* The fixture's folder and server, for cleanup() when a check fails
 * (cmocka leaves the test by longjmp, the fixture with it). */
static char fx_dir[64];
static struct server *fx_srv;

static void fx_init(struct fx *f)
{
    memset(f, 0, sizeof *f);
    /* in memory where there is a tmpfs: every run commits, and a commit
     * is an fsync (synchronous=FULL) that would be most of the time */
    snprintf(f->dir, sizeof f->dir, "%s/flierd-faults-XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    assert_non_null(mkdtemp(f->dir));
    snprintf(fx_dir, sizeof fx_dir, "%s", f->dir);
    snprintf(f->db, sizeof f->db, "%s/flierd.db", f->dir);
    snprintf(f->spool, sizeof f->spool, "%s/spool", f->dir);
}

static void server_up(struct fx *f, bool spool)
{
    struct http_config c;
    struct err e;
    http_config_init(&c);
    c.db_path = f->db;
    c.port = 0;
    c.threads = 2;
    c.rate = c.write_rate = 0; /* hundreds of writes a second */
    c.log = NULL;
    if (spool) {
        assert_int_equal(mkdir(f->spool, 0755), 0);
        log_open(&f->log);
        f->logging = true;
        c.log = f->log.w;
        c.spool_dir = f->spool;
        c.spool_ms = 2;
    }
    if (server_start(&c, &f->srv, &e) != ST_OK)
        fail_msg("server_start: %s", e.msg);
    fx_srv = f->srv;
    f->port = server_port(f->srv);
}

static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Stops the server and removes everything the fixture made. */
static void fx_done(struct fx *f)
{
    server_stop(f->srv, 1000);
    f->srv = fx_srv = NULL;
    db_close(f);
    if (f->logging)
        log_close(&f->log);
    f->logging = false;
    remove_dir(f->dir);
    fx_dir[0] = '\0';
}

/* After each test: what a failed one left behind. */
static int cleanup(void **state)
{
    (void)state;
    disarm();
    fault_stop();
    server_stop(fx_srv, 0);
    fx_srv = NULL;
    if (fx_dir[0])
        remove_dir(fx_dir);
    fx_dir[0] = '\0';
    return 0;
}

/* ---- is the database whole? -------------------------------------------- */

/* The checks' read-only connection to the database. */
static sqlite3 *db_of(struct fx *f)
{
    if (f->cdb)
        return f->cdb;
    if (sqlite3_open_v2(f->db, &f->cdb, SQLITE_OPEN_READONLY, NULL) !=
        SQLITE_OK)
        fail_msg("%s: %s", f->db, sqlite3_errmsg(f->cdb));
    sqlite3_busy_timeout(f->cdb, 5000);
    return f->cdb;
}

/* Before the database file is replaced, and at the end. */
static void db_close(struct fx *f)
{
    sqlite3_close(f->cdb);
    store_close(f->cst);
    f->cdb = NULL;
    f->cst = NULL;
}

/* Runs sql (one row, one column) into out. */
static void db_text(sqlite3 *db, const char *sql, int64_t id, char *out,
                    size_t len)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    if (sqlite3_bind_parameter_count(st) > 0)
        sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_ROW)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
}

/* The tables that hold a game's rows, found in the schema (migrations add
 * and drop them): those with a game_id column, and game_search (FTS5,
 * rowid = games.id). Appends, for each, expr with its name and key. */
static void each_child(sqlite3 *db, const char *expr, const char *sep,
                       struct buf *out)
{
    sqlite3_stmt *st = NULL;
    int n = 0;
    assert_int_equal(sqlite3_prepare_v2(db,
        "SELECT m.name, 'game_id' FROM sqlite_master m, "
        "pragma_table_info(m.name) p WHERE m.type = 'table' AND "
        "p.name = 'game_id' UNION ALL SELECT name, 'rowid' FROM "
        "sqlite_master WHERE name = 'game_search' ORDER BY 1", -1, &st,
        NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        const char *key = (const char *)sqlite3_column_text(st, 1);
        buf_puts(out, n++ ? sep : "");
        buf_printf(out, expr, t, key);
    }
    sqlite3_finalize(st);
    assert_true(n >= 3);
}

/* A query of (what a game is made of: its verdict and its rows in each
 * table, id) for every game, or for game ?1 when one is true. */
static void sig_query(sqlite3 *db, bool one, struct buf *sql)
{
    buf_puts(sql, "SELECT status || ', live ' || live || ', finished ' "
                  "|| coalesce(finished, '-') || ', valid ' || "
                  "coalesce(valid, '-') || ': ' || ");
    each_child(db, "'%1$s ' || (SELECT count(*) FROM \"%1$s\" WHERE "
                   "%2$s = g.id)", " || ', ' || ", sql);
    buf_puts(sql, one ? ", g.id FROM games g WHERE g.id = ?1"
                      : ", g.id FROM games g");
}

static void game_sig(sqlite3 *db, int64_t id, char *out, size_t len)
{
    struct buf sql = BUF_INIT;
    sig_query(db, true, &sql);
    db_text(db, sql.p, id, out, len);
    buf_release(&sql);
}

/* Rows of a game table whose games row is missing. */
static void check_orphans(sqlite3 *db)
{
    struct buf sql = BUF_INIT;
    char n[32];
    buf_puts(&sql, "SELECT 0");
    each_child(db, " + (SELECT count(*) FROM \"%1$s\" WHERE %2$s NOT IN "
                   "(SELECT id FROM games))", "", &sql);
    db_text(db, sql.p, 0, n, sizeof n);
    if (strcmp(n, "0") != 0)
        fail_msg("%s rows belong to no game (%s)", n, sql.p);
    buf_release(&sql);
}

/* Every game looks like one that was stored whole (f->sigs). */
static void check_games(struct fx *f, sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    struct buf sql = BUF_INIT;
    sig_query(db, false, &sql);
    assert_int_equal(sqlite3_prepare_v2(db, sql.p, -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *sig = (const char *)sqlite3_column_text(st, 0);
        bool known = false;
        for (int i = 0; i < f->n_sigs && !known; i++)
            known = strcmp(sig, f->sigs[i]) == 0;
        if (!known)
            fail_msg("game %lld is not whole: %s (whole: %s)",
                     sqlite3_column_int64(st, 1), sig,
                     f->n_sigs ? f->sigs[0] : "none yet");
    }
    sqlite3_finalize(st);
    buf_release(&sql);
}

/* The store's own check: aggregates against the detail tables too. */
static void check_store(struct fx *f)
{
    struct buf report = BUF_INIT;
    struct err e;
    int problems = -1;
    if (!f->cst && store_open(f->db, true, &f->cst, &e) != ST_OK)
        fail_msg("%s: %s", f->db, e.msg);
    if (store_check(f->cst, &report, &problems, &e) != ST_OK)
        fail_msg("store_check: %s", e.msg);
    if (problems != 0)
        fail_msg("store_check: %d problems:\n%s", problems, report.p);
    buf_release(&report);
}

/* The database holds whole games only; returns how many. Without full,
 * the aggregates are left to the next full check. */
static int64_t check_db(struct fx *f, bool full)
{
    char ok[64], n[32];
    sqlite3 *db = db_of(f);
    db_text(db, "PRAGMA integrity_check", 0, ok, sizeof ok);
    assert_string_equal(ok, "ok");
    check_orphans(db);
    check_games(f, db);
    db_text(db, "SELECT count(*) FROM games", 0, n, sizeof n);
    if (full)
        check_store(f);
    return strtoll(n, NULL, 10);
}

/* Takes game id, stored cleanly, as what a whole game looks like. */
static void learn_game(struct fx *f, int64_t id)
{
    char sig[256];
    game_sig(db_of(f), id, sig, sizeof sig);
    for (int i = 0; i < f->n_sigs; i++)
        if (strcmp(sig, f->sigs[i]) == 0)
            return;
    assert_true(f->n_sigs < MAX_SIGS);
    snprintf(f->sigs[f->n_sigs++], sizeof f->sigs[0], "%s", sig);
}

static int64_t db_number(struct fx *f, const char *sql)
{
    char n[32];
    db_text(db_of(f), sql, 0, n, sizeof n);
    return strtoll(n, NULL, 10);
}

static int64_t count_games(struct fx *f)
{
    return db_number(f, "SELECT count(*) FROM games");
}

/* ---- requests and what a refusal must look like ------------------------ */

/* What is being injected, for the failure messages. */
static char context[400] = "a clean run";

static int request(const struct fx *f, const char *method, const char *path,
                   const char *body, size_t len, struct http_resp *r)
{
    memset(r, 0, sizeof *r);
    return http_do(f->port, method, path, NULL, body, len, false, r);
}

/* The "id" of a 201's (or a 202's) JSON body. */
static int64_t created_id(const struct http_resp *r)
{
    cJSON *j = cJSON_ParseWithLength(r->body.p, r->body.len);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    assert_true(cJSON_IsNumber(id));
    int64_t v = (int64_t)id->valuedouble;
    cJSON_Delete(j);
    return v;
}

/* A POST that must succeed with want; returns the id it names. */
static int64_t post_ok(const struct fx *f, const char *path, const char *body,
                       size_t len, int want)
{
    struct http_resp r;
    int st = request(f, "POST", path, body, len, &r);
    if (st != want)
        fail_msg("%s: POST %s: %d, not %d: %s", context, path, st, want,
                 r.body.p ? r.body.p : "");
    int64_t id = want == 201 || want == 202 ? created_id(&r) : 0;
    http_resp_release(&r);
    return id;
}

static bool passing(int rc)
{
    int base = rc & 0xff;
    return base == SQLITE_BUSY || base == SQLITE_FULL || base == SQLITE_NOMEM;
}

/* 503 with Retry-After (seconds) for the failures that pass, else 500;
 * a JSON message that starts with the request, names the failure (why)
 * and says that nothing was stored. */
static void expect_refusal(const struct http_resp *r, bool pass,
                           const char *request_line, const char *why)
{
    char retry[16];
    if (r->status != (pass ? 503 : 500))
        fail_msg("%s: %s: status %d, not %d: %s", context, request_line,
                 r->status, pass ? 503 : 500, r->body.p ? r->body.p : "");
    assert_int_equal(http_header(r, "Retry-After", retry, sizeof retry),
                     pass);
    if (pass)
        assert_true(strtol(retry, NULL, 10) >= 1);
    cJSON *j = cJSON_ParseWithLength(r->body.p, r->body.len);
    const char *msg =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "error"));
    if (!msg || strncmp(msg, request_line, strlen(request_line)) != 0 ||
        !strstr(msg, why) || !strstr(msg, "nothing was stored"))
        fail_msg("%s: %s: the message should name the request and '%s': "
                 "%s", context, request_line, why, r->body.p ? r->body.p : "");
    cJSON_Delete(j);
}

/* The daemon still answers, reads included. */
static void expect_serving(const struct fx *f)
{
    struct http_resp r;
    assert_int_equal(request(f, "GET", "/healthz", NULL, 0, &r), 200);
    http_resp_release(&r);
    assert_int_equal(request(f, "GET", "/api/games?limit=1", NULL, 0, &r),
                     200);
    http_resp_release(&r);
}

/* ---- HTTP paths: POST /api/games, POST /api/live ----------------------- */

/* One request of a path, and the state it runs on. */
struct job {
    char path[64];
    struct buf body;
    int64_t id;          /* the live game it changes, or 0 */
    struct buf raw;      /* that game's bytes before */
    char sig[256];       /* and its rows */
};

struct op {
    const char *name;
    /* Makes the state the kth request runs on (cleanly, not counted) and
     * fills j's path and body. */
    void (*setup)(struct fx *f, long k, struct job *j);
    int want; /* the status of success */
};

static void setup_upload(struct fx *f, long k, struct job *j)
{
    (void)f;
    snprintf(j->path, sizeof j->path, "/api/games");
    game_bytes(k, &j->body);
    j->id = 0;
}

static void setup_unsupported(struct fx *f, long k, struct job *j)
{
    (void)f;
    snprintf(j->path, sizeof j->path, "/api/games");
    mage_bytes(k, &j->body);
    j->id = 0;
}

static void setup_live_start(struct fx *f, long k, struct job *j)
{
    (void)f;
    (void)k;
    snprintf(j->path, sizeof j->path, "/api/live");
    j->body.len = 0;
    buf_puts(&j->body, LIVE_HEADER);
    j->id = 0;
}

/* A live game started cleanly, as the kth request's target. */
static int64_t live_game(struct fx *f)
{
    int64_t id = post_ok(f, "/api/live", LIVE_HEADER, strlen(LIVE_HEADER),
                         201);
    learn_game(f, id);
    return id;
}

static void setup_live_move(struct fx *f, long k, struct job *j)
{
    (void)k;
    j->id = live_game(f);
    snprintf(j->path, sizeof j->path, "/api/live/%" PRId64 "/moves", j->id);
    j->body.len = 0;
    buf_puts(&j->body, LIVE_TURN);
}

static void setup_live_finish(struct fx *f, long k, struct job *j)
{
    char path[64];
    (void)k;
    j->id = live_game(f);
    snprintf(path, sizeof path, "/api/live/%" PRId64 "/moves", j->id);
    post_ok(f, path, LIVE_TURN, strlen(LIVE_TURN), 200);
    learn_game(f, j->id);
    snprintf(j->path, sizeof j->path, "/api/live/%" PRId64 "/finish", j->id);
    j->body.len = 0;
}

static const struct op OP_UPLOAD = { "upload", setup_upload, 201 };
static const struct op OP_UNSUPPORTED = { "unsupported upload",
                                          setup_unsupported, 202 };
static const struct op OP_LIVE_START = { "live start", setup_live_start,
                                         201 };
static const struct op OP_LIVE_MOVE = { "live move", setup_live_move, 200 };
static const struct op OP_LIVE_FINISH = { "live finish", setup_live_finish,
                                          200 };

/* The stored bytes and rows of game id. */
static void game_state(struct fx *f, int64_t id, struct buf *raw,
                       char *sig, size_t len)
{
    char path[64];
    struct http_resp r;
    snprintf(path, sizeof path, "/api/games/%" PRId64 "/raw", id);
    assert_int_equal(request(f, "GET", path, NULL, 0, &r), 200);
    raw->len = 0;
    buf_append(raw, r.body.p ? r.body.p : "", r.body.len);
    http_resp_release(&r);
    game_sig(db_of(f), id, sig, len);
}

/* Runs op's request cleanly (k picks the state and input); counted, it
 * returns the SQLite calls it made. Learns the game it leaves. */
static long run_clean(struct fx *f, const struct op *op, long k, bool count,
                      struct job *j)
{
    op->setup(f, k, j);
    if (count)
        arm(0, SQLITE_OK, ONCE);
    int64_t id = post_ok(f, j->path, j->body.p, j->body.len, op->want);
    long n = count ? disarm() : 0;
    learn_game(f, id ? id : j->id);
    return n;
}

/* op's request with rc injected at call k (and after, by mode). */
static void inject_at(struct fx *f, const struct op *op, long k, int rc,
                      enum mode mode, struct job *j)
{
    struct http_resp r;
    char line[96], sig[256];
    struct buf raw = BUF_INIT;

    op->setup(f, k + 1, j);
    snprintf(context, sizeof context, "%s, %s at call %ld%s", op->name,
             sqlite3_errstr(rc), k, MODE_NAME[mode]);
    int64_t games = count_games(f);
    if (j->id)
        game_state(f, j->id, &j->raw, j->sig, sizeof j->sig);
    arm(k, rc, mode);
    request(f, "POST", j->path, j->body.p, j->body.len, &r);
    if (disarm() < k)
        fail_msg("%s: call %ld was not made", op->name, k);
    snprintf(context, sizeof context, "%s, %s at call %ld%s: %s", op->name,
             sqlite3_errstr(rc), k, MODE_NAME[mode], inj_what);
    snprintf(line, sizeof line, "POST %s: ", j->path);
    expect_refusal(&r, passing(rc), line, sqlite3_errstr(rc));
    http_resp_release(&r);
    expect_serving(f);
    assert_int_equal(check_db(f, true), games);
    if (j->id) { /* the live game is as it was */
        game_state(f, j->id, &raw, sig, sizeof sig);
        assert_int_equal(raw.len, j->raw.len);
        assert_memory_equal(raw.p, j->raw.p, raw.len);
        assert_string_equal(sig, j->sig);
    }
    buf_release(&raw);
    post_ok(f, j->path, j->body.p, j->body.len, op->want); /* again */
}

/* rc injected at every SQLite call of op's request in turn, on a fresh
 * database; a clean run before counts the calls. */
static void sweep(const struct op *op, int rc, enum mode mode)
{
    struct fx f;
    struct job j = { "", BUF_INIT, 0, BUF_INIT, "" };
    fx_init(&f);
    server_up(&f, false);
    run_clean(&f, op, 0, false, &j); /* warms the statement cache */
    long n = run_clean(&f, op, 1, true, &j);
    assert_true(n > 0);
    print_message("%s, %s%s: %ld SQLite calls\n", op->name,
                  sqlite3_errstr(rc), MODE_NAME[mode], n);
    for (long k = 1; k <= n; k++)
        if (sweeps(k, rc, mode))
            inject_at(&f, op, k, rc, mode, &j);
    check_db(&f, true);
    fx_done(&f);
    buf_release(&j.body);
    buf_release(&j.raw);
}

/* Every code at every call; with more, also a full disk from every call
 * on, and a failure whose rollback fails too (for an insert, a
 * replace). */
static void sweep_codes(const struct op *op, bool more)
{
    for (size_t i = 0; i < N_CODES; i++)
        sweep(op, CODES[i], ONCE);
    if (more) {
        sweep(op, SQLITE_FULL, FROM_ON);
        sweep(op, SQLITE_IOERR, AND_ROLLBACK);
    }
}

static void test_upload_sqlite_errors(void **state)
{
    (void)state;
    sweep_codes(&OP_UPLOAD, true);
}

/* Stored without an audit: its own rows (no seats, a status and a
 * reason), the same transaction. */
static void test_unsupported_sqlite_errors(void **state)
{
    (void)state;
    sweep_codes(&OP_UNSUPPORTED, true);
}

static void test_live_start_sqlite_errors(void **state)
{
    (void)state;
    sweep_codes(&OP_LIVE_START, false);
}

static void test_live_move_sqlite_errors(void **state)
{
    (void)state;
    sweep_codes(&OP_LIVE_MOVE, true);
}

static void test_live_finish_sqlite_errors(void **state)
{
    (void)state;
    sweep_codes(&OP_LIVE_FINISH, false);
}

/* ---- the spool folder --------------------------------------------------- */

/* Writes b as spool/name the way a writer should: under a skipped name
 * first, renamed when complete. */
static void spool_drop(const struct fx *f, const char *name,
                       const struct buf *b)
{
    char part[256], path[256];
    snprintf(part, sizeof part, "%s/%s.part", f->spool, name);
    snprintf(path, sizeof path, "%s/%s", f->spool, name);
    FILE *o = fopen(part, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(b->p, 1, b->len, o), b->len);
    assert_int_equal(fclose(o), 0);
    assert_int_equal(rename(part, path), 0);
}

/* The log line that starts with prefix, into out ("" if none). */
static void log_line(struct logcap *l, const char *prefix, char *out,
                     size_t len)
{
    pthread_mutex_lock(&l->mu);
    const char *p = l->text.p ? strstr(l->text.p, prefix) : NULL;
    size_t n = p ? strcspn(p, "\n") : 0;
    snprintf(out, len, "%.*s", (int)n, p ? p : "");
    pthread_mutex_unlock(&l->mu);
}

static void spool_wait(struct fx *f, const char *needle)
{
    if (!log_wait(&f->log, needle))
        fail_msg("the spool never logged '%s'", needle);
}

/* A file the spool failed (rc not passing): it is in failed/ with the
 * reason beside it, and stored once moved back. */
static void spool_failed(struct fx *f, const char *name, int rc)
{
    char path[256], back[256], line[512], prefix[128];
    snprintf(prefix, sizeof prefix, "spool: %s -> failed (", name);
    log_line(&f->log, prefix, line, sizeof line);
    assert_non_null(strstr(line, sqlite3_errstr(rc)));
    snprintf(path, sizeof path, "%s/failed/%s.error", f->spool, name);
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    assert_non_null(fgets(line, sizeof line, in));
    fclose(in);
    assert_non_null(strstr(line, sqlite3_errstr(rc)));
    snprintf(path, sizeof path, "%s/failed/%s", f->spool, name);
    snprintf(back, sizeof back, "%s/%s", f->spool, name);
    assert_int_equal(rename(path, back), 0);
    snprintf(prefix, sizeof prefix, "spool: %s -> done (game ", name);
    spool_wait(f, prefix);
}

static void spool_inject_at(struct fx *f, long k, int rc, struct buf *b)
{
    char name[64], prefix[128], line[512];
    snprintf(name, sizeof name, "k%ld.flierlog", k);
    game_bytes(k + 1, b);
    int64_t games = count_games(f);
    snprintf(context, sizeof context, "spool, %s at call %ld",
             sqlite3_errstr(rc), k);
    arm(k, rc, ONCE);
    spool_drop(f, name, b);
    snprintf(prefix, sizeof prefix, "spool: %s -> ", name);
    spool_wait(f, prefix);
    if (disarm() < k)
        fail_msg("spool: call %ld was not made", k);
    snprintf(context, sizeof context, "spool, %s at call %ld: %s",
             sqlite3_errstr(rc), k, inj_what);
    if (passing(rc)) { /* kept, then stored at the next scan */
        snprintf(prefix, sizeof prefix, "spool: %s: kept for the next "
                 "scan (", name);
        log_line(&f->log, prefix, line, sizeof line);
        assert_non_null(strstr(line, sqlite3_errstr(rc)));
        snprintf(prefix, sizeof prefix, "spool: %s -> done (game ", name);
        spool_wait(f, prefix);
    } else {
        assert_int_equal(check_db(f, true), games);
        spool_failed(f, name, rc);
    }
    expect_serving(f);
    assert_int_equal(check_db(f, true), games + 1);
}

static void spool_sweep(int rc)
{
    struct fx f;
    struct buf b = BUF_INIT;
    fx_init(&f);
    server_up(&f, true);
    game_bytes(0, &b);
    spool_drop(&f, "warm.flierlog", &b);
    spool_wait(&f, "spool: warm.flierlog -> done (game ");
    learn_game(&f, db_number(&f, "SELECT max(id) FROM games"));
    game_bytes(1, &b);
    arm(0, SQLITE_OK, ONCE);
    spool_drop(&f, "count.flierlog", &b);
    spool_wait(&f, "spool: count.flierlog -> done (game ");
    long n = disarm();
    assert_true(n > 0);
    print_message("spool, %s: %ld SQLite calls\n", sqlite3_errstr(rc), n);
    for (long k = 1; k <= n; k++)
        if (sweeps(k, rc, ONCE))
            spool_inject_at(&f, k, rc, &b);
    fx_done(&f);
    buf_release(&b);
}

static void test_spool_sqlite_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; i++)
        spool_sweep(CODES[i]);
}

/* ---- flierd ingest and flierd reaudit ----------------------------------- */

typedef int (*cli_fn)(int argc, char **argv, FILE *out, FILE *errs);

/* Arguments are char *, not string literals. */
static char OPT_DB[] = "--db", OPT_QUIET[] = "--quiet";

/* Runs a subcommand; its output and errors go to text. */
static int run_cli(cli_fn fn, int argc, char **argv, struct buf *text)
{
    char *p = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&p, &len);
    assert_non_null(o);
    int code = fn(argc, argv, o, o);
    fclose(o);
    text->len = 0;
    buf_append(text, p ? p : "", len);
    free(p);
    return code;
}

static void copy_file(const char *from, const char *to)
{
    char chunk[65536];
    size_t n;
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    while ((n = fread(chunk, 1, sizeof chunk, in)) > 0)
        assert_int_equal(fwrite(chunk, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

struct cli_case {
    const char *name;
    cli_fn fn;
    char *argv[8];
    int argc;
    char tmpl[160]; /* the database each run starts from */
    /* a game that failed halfway is written again, with the games of its
     * batch before it (ingest_pipeline): a failure that does not last
     * is got by */
    bool rewrites;
};

/* The injected call was the checkpointer's connection's first read
 * (sqlite_checkpoint.c): its thread does not start and the writer
 * checkpoints itself, in every command alike. */
static bool checkpointer_read(void)
{
    return strstr(inj_what, "FROM sqlite_schema LIMIT 1") != NULL;
}

/* The kth run of c with rc injected: a non-zero exit naming the failure,
 * or (a batch that could not begin, a game written again) a zero exit
 * with everything stored; whole games only; then the same run again
 * succeeds. Returns whether it failed. */
static bool cli_inject_at(struct fx *f, struct cli_case *c, long k, int rc,
                          enum mode mode, int64_t games)
{
    struct buf text = BUF_INIT;
    db_close(f);
    remove_db(f->db);
    copy_file(c->tmpl, f->db);
    snprintf(context, sizeof context, "%s, %s at call %ld%s", c->name,
             sqlite3_errstr(rc), k, MODE_NAME[mode]);
    arm(k, rc, mode);
    int code = run_cli(c->fn, c->argc, c->argv, &text);
    if (disarm() < k)
        fail_msg("%s: call %ld was not made", c->name, k);
    snprintf(context, sizeof context, "%s, %s at call %ld%s: %s", c->name,
             sqlite3_errstr(rc), k, MODE_NAME[mode], inj_what);
    /* the failures a command gets by without: the batch of `flierd
     * ingest` could not begin, so each game commits alone; a game's
     * write failed once, and it was written again; the checkpointer's
     * thread did not start */
    if (code == 0 && !strstr(inj_what, "BEGIN") && !checkpointer_read() &&
        !(c->rewrites && mode != FROM_ON))
        fail_msg("%s: exit 0:\n%s", context, text.p);
    if (code != 0 && !strstr(text.p ? text.p : "", sqlite3_errstr(rc)))
        fail_msg("%s: exit %d, but the output does not say '%s':\n%s",
                 c->name, code, sqlite3_errstr(rc), text.p);
    int64_t stored = check_db(f, true);
    if (code == 0)
        assert_int_equal(stored, games);
    int again = run_cli(c->fn, c->argc, c->argv, &text);
    if (again != 0)
        fail_msg("%s: again: exit %d:\n%s", c->name, again, text.p);
    assert_int_equal(check_db(f, false), games);
    buf_release(&text);
    return code != 0;
}

/* c from its template, counted, then rc at every call in turn. Returns
 * the injections the command recovered from (but the checkpointer's). */
static long cli_sweep(struct fx *f, struct cli_case *c, int rc, enum mode mode)
{
    struct buf text = BUF_INIT;
    long recovered = 0;
    db_close(f);
    remove_db(f->db);
    copy_file(c->tmpl, f->db);
    arm(0, SQLITE_OK, ONCE);
    int code = run_cli(c->fn, c->argc, c->argv, &text);
    long n = disarm();
    if (code != 0)
        fail_msg("%s: exit %d:\n%s", c->name, code, text.p);
    int64_t games = count_games(f);
    learn_game(f, db_number(f, "SELECT min(id) FROM games"));
    learn_game(f, db_number(f, "SELECT max(id) FROM games"));
    assert_true(n > 0);
    print_message("%s, %s%s: %ld SQLite calls\n", c->name,
                  sqlite3_errstr(rc), MODE_NAME[mode], n);
    for (long k = 1; k <= n; k++)
        if (sweeps(k, rc, mode))
            recovered += !cli_inject_at(f, c, k, rc, mode, games) &&
                         !checkpointer_read();
    buf_release(&text);
    return recovered;
}

/* Two games to ingest, and an empty database to start from: an audited
 * one and one of an expansion not audited yet (stored all the same). */
static void cli_setup(struct fx *f, char (*files)[160], char *tmpl)
{
    struct buf g = BUF_INIT;
    struct store *s = NULL;
    struct err e;
    snprintf(files[0], 160, "%s/a.flierlog", f->dir);
    game_bytes(1, &g);
    tf_write(files[0], g.p, g.len);
    snprintf(files[1], 160, "%s/b.jcz", f->dir);
    mage_bytes(2, &g);
    tf_write(files[1], g.p, g.len);
    buf_release(&g);
    snprintf(tmpl, 160, "%s/empty.db", f->dir);
    if (store_open(tmpl, false, &s, &e) != ST_OK)
        fail_msg("%s: %s", tmpl, e.msg);
    store_close(s);
}

static void cli_ingest_sweep(int rc, enum mode mode)
{
    struct fx f;
    char files[2][160];
    fx_init(&f);
    struct cli_case c = { "flierd ingest", cli_ingest,
                          { OPT_DB, f.db, OPT_QUIET, files[0], files[1] },
                          5, "", true };
    cli_setup(&f, files, c.tmpl);
    long recovered = cli_sweep(&f, &c, rc, mode);
    print_message("flierd ingest, %s%s: %ld got by\n", sqlite3_errstr(rc),
                  MODE_NAME[mode], recovered);
    /* the batch that could not begin; and, unless the disk stays full,
     * the failures inside a game's write, which the rewrite gets by */
    if (mode == FROM_ON)
        assert_true(recovered <= 1);
    else
        assert_true(recovered > 1);
    fx_done(&f);
}

static void test_cli_ingest_sqlite_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; i++)
        cli_ingest_sweep(CODES[i], ONCE);
    cli_ingest_sweep(SQLITE_FULL, FROM_ON);
    cli_ingest_sweep(SQLITE_IOERR, AND_ROLLBACK);
}

static void cli_reaudit_sweep(int rc)
{
    struct fx f;
    struct buf text = BUF_INIT;
    char files[2][160], empty[160];
    fx_init(&f);
    cli_setup(&f, files, empty);
    struct cli_case in = { "flierd ingest", cli_ingest,
                           { OPT_DB, f.db, OPT_QUIET, files[0], files[1] },
                           5, "", true };
    struct cli_case c = { "flierd reaudit", cli_reaudit, { OPT_DB, f.db },
                          2, "", false };
    copy_file(empty, f.db);
    assert_int_equal(run_cli(in.fn, in.argc, in.argv, &text), 0);
    snprintf(c.tmpl, sizeof c.tmpl, "%s/two.db", f.dir);
    copy_file(f.db, c.tmpl); /* closed: the WAL is in the file */
    assert_int_equal(cli_sweep(&f, &c, rc, false), 0);
    buf_release(&text);
    fx_done(&f);
}

static void test_cli_reaudit_sqlite_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; i++) /* replaces, as a live move */
        cli_reaudit_sweep(CODES[i]);
}

/* flierd copy into an empty database: a failure reading FROM or writing
 * TO leaves whole games in TO, and the copy run again completes it (the
 * games already there are skipped as duplicates). */
static void cli_copy_sweep(int rc, enum mode mode)
{
    static char opt_from[] = "--from", opt_to[] = "--to";
    struct fx f;
    struct buf text = BUF_INIT;
    char files[2][160], from[160];
    fx_init(&f);
    struct cli_case in = { "flierd ingest", cli_ingest,
                           { OPT_DB, from, OPT_QUIET, files[0], files[1] },
                           5, "", true };
    struct cli_case c = { "flierd copy", cli_copy,
                          { opt_from, from, opt_to, f.db, OPT_QUIET }, 5,
                          "", false };
    cli_setup(&f, files, c.tmpl);
    snprintf(from, sizeof from, "%s/from.db", f.dir);
    copy_file(c.tmpl, from);
    assert_int_equal(run_cli(in.fn, in.argc, in.argv, &text), 0);
    assert_true(cli_sweep(&f, &c, rc, mode) <= 1);
    buf_release(&text);
    fx_done(&f);
}

static void test_cli_copy_sqlite_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_CODES; i++)
        cli_copy_sweep(CODES[i], ONCE);
    cli_copy_sweep(SQLITE_FULL, FROM_ON);
    cli_copy_sweep(SQLITE_IOERR, AND_ROLLBACK);
}

/* ---- allocation failures ------------------------------------------------ */

/* Whose allocation failed, told by the refusal's message. */
enum { BY_NONE, BY_BODY, BY_PARSE, BY_SQLITE, BY_N };

/* The upload with its kth fallible allocation failing (the body, cJSON's
 * parse tree, SQLite's). Either it is refused, or the failure was one
 * SQLite gets by without (a cache that does not grow; or the allocation
 * was not made this time) and the game is stored whole. Returns whose
 * allocation it was, BY_NONE when the upload was stored. */
static int alloc_fail_at(struct fx *f, long k, struct buf *b)
{
    struct http_resp r;
    int by = BY_NONE;
    game_bytes(k + 1, b);
    int64_t games = count_games(f);
    snprintf(context, sizeof context, "allocation %ld failing", k);
    fault_start(k);
    request(f, "POST", "/api/games", b->p, b->len, &r);
    fault_stop();
    if (r.status != 201) {
        expect_refusal(&r, true, "POST /api/games: ", "out of memory");
        by = strstr(r.body.p, "holding the body") ? BY_BODY
             : strstr(r.body.p, "parsing")        ? BY_PARSE
                                                  : BY_SQLITE;
    }
    http_resp_release(&r);
    expect_serving(f);
    assert_int_equal(check_db(f, true), games + (by == BY_NONE));
    if (by != BY_NONE)
        post_ok(f, "/api/games", b->p, b->len, 201);
    return by;
}

static void test_upload_alloc_failures(void **state)
{
    struct fx f;
    struct buf b = BUF_INIT;
    (void)state;
    fx_init(&f);
    server_up(&f, false);
    game_bytes(0, &b);
    learn_game(&f, post_ok(&f, "/api/games", b.p, b.len, 201));
    game_bytes(1, &b);
    fault_start(0);
    post_ok(&f, "/api/games", b.p, b.len, 201);
    long n = fault_stop(), by[BY_N] = { 0 };
    assert_true(n > 0);
    for (long k = 1; k <= n; k++)
        by[alloc_fail_at(&f, k, &b)]++;
    print_message("upload: %ld allocations; failing each gave 503 for the "
                  "body %ld, the parse %ld, SQLite %ld times, and %ld times "
                  "SQLite got by\n", n, by[BY_BODY], by[BY_PARSE],
                  by[BY_SQLITE], by[BY_NONE]);
    assert_true(by[BY_BODY] > 0 && by[BY_PARSE] > 0 && by[BY_SQLITE] > 0);
    check_db(&f, true);
    fx_done(&f);
    buf_release(&b);
}

int main(void)
{
    /* SQLite's allocations pass fault_hit() too; before its first use */
    if (hook_sqlite_alloc() != 0) {
        fprintf(stderr, "test_faults: cannot hook SQLite's allocator\n");
        return 1;
    }
    /* e.g. FLIERD_FAULTS_ONLY='test_live*' runs those alone */
    if (getenv("FLIERD_FAULTS_ONLY"))
        cmocka_set_test_filter(getenv("FLIERD_FAULTS_ONLY"));
    spread = getenv("FLIERD_FAULTS_SPREAD") != NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_upload_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_unsupported_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_spool_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_live_start_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_live_move_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_live_finish_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_cli_ingest_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_cli_reaudit_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_cli_copy_sqlite_errors, cleanup),
        cmocka_unit_test_teardown(test_upload_alloc_failures, cleanup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
