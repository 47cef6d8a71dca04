/* pg_check.c - `flierd check` and `flierd export` on PostgreSQL: both
 * read one snapshot (a repeatable-read, read-only transaction), so they
 * may run beside daemons that write.
 *
 * The check's invariants are store_check.c's; this file answers its
 * queries. Where SQLite runs its integrity_check and foreign_key_check,
 * PostgreSQL enforces its foreign keys itself and checks its pages as it
 * reads them (every table is read here); what it can be left with is an
 * index that a failed build marked invalid, and that is checked
 * instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "store/store_check.h"
#include "util/sha256.h"

#define FETCH_ROWS "100"
#define MAX_COLS 8

static enum status two_ints(void *db, const char *sql, int64_t *a,
                            int64_t *b, struct err *e)
{
    PGresult *r = NULL;
    enum status st = pg_query(db, sql, false, NULL, false, &r, sql, e);
    if (st == ST_OK && PQntuples(r) > 0) {
        *a = pg_int(r, 0, 0);
        *b = pg_int(r, 0, 1);
    }
    PQclear(r);
    return st;
}

static enum status each_row(void *db, const char *sql,
                            void (*fn)(void *arg, const char *const *col),
                            void *arg, struct err *e)
{
    PGresult *r = NULL;
    enum status st = pg_query(db, sql, false, NULL, false, &r, sql, e);
    for (int i = 0; st == ST_OK && i < PQntuples(r); i++) {
        const char *col[MAX_COLS] = { NULL };
        for (int j = 0; j < PQnfields(r) && j < MAX_COLS; j++)
            col[j] = PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j);
        fn(arg, col);
    }
    PQclear(r);
    return st;
}

static void invalid_index(void *arg, const char *const *col)
{
    check_problem(arg, "index %s is invalid (a build that failed): rebuild "
                  "it", col[0]);
}

/* What PostgreSQL may be left with after a failed index build. */
static enum status native(void *db, struct check *c, struct err *e)
{
    return each_row(db,
                    "SELECT i.indexrelid::regclass::text FROM pg_index i "
                    "JOIN pg_class t ON t.oid = i.indrelid WHERE NOT "
                    "i.indisvalid AND t.relnamespace = "
                    "current_schema()::regnamespace",
                    invalid_index, c, e);
}

/* The uploads, a hundred rows at a time (kept as they came). */
static enum status each_upload(void *db, struct check *c, struct err *e)
{
    struct pg_store *s = db;
    enum status st = pg_exec(s,
                             "DECLARE uploads NO SCROLL CURSOR FOR SELECT "
                             "g.id::text, g.sha256, g.raw_size::text, r.raw "
                             "FROM games g JOIN game_raw r ON r.game_id = "
                             "g.id ORDER BY g.id",
                             false, NULL, "read uploads", e);
    while (st == ST_OK) {
        PGresult *r = NULL;
        st = pg_query(s, "FETCH " FETCH_ROWS " FROM uploads", false, NULL,
                      true, &r, "read uploads", e);
        int n = st == ST_OK ? PQntuples(r) : 0;
        for (int i = 0; i < n; i++) {
            char id[24], want[SHA256_HEX_LEN], size[24];
            snprintf(id, sizeof id, "%.*s", PQgetlength(r, i, 0),
                     PQgetvalue(r, i, 0));
            snprintf(want, sizeof want, "%.*s", PQgetlength(r, i, 1),
                     PQgetvalue(r, i, 1));
            snprintf(size, sizeof size, "%.*s", PQgetlength(r, i, 2),
                     PQgetvalue(r, i, 2));
            struct check_upload u = {
                strtoll(id, NULL, 10), want, strtoll(size, NULL, 10),
                PQgetvalue(r, i, 3), (size_t)PQgetlength(r, i, 3),
                (size_t)PQgetlength(r, i, 3), NULL
            };
            check_upload(c, &u);
        }
        PQclear(r);
        if (n == 0)
            break;
    }
    if (st == ST_OK)
        st = pg_exec(s, "CLOSE uploads", false, NULL, "read uploads", e);
    return st;
}

static const struct check_ops pg_check_ops = {
    two_ints,
    each_row,
    each_upload,
    native,
    NULL,
    "SELECT (to_regclass(%s) IS NOT NULL)::int, 0",
    "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c "
    "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = "
    "c.conkey[1] WHERE c.contype = 'f' AND c.confrelid = "
    "'games'::regclass ORDER BY c.conrelid::regclass::text COLLATE \"C\"",
    "game_id",
    " COLLATE \"C\"",
};

enum status pg_check(struct store *base, struct buf *report, int *out_problems,
                     struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct check c;
    *out_problems = 0;
    enum status st = pg_begin(s, true, e);
    if (st != ST_OK)
        return st;
    check_begin(&c, &pg_check_ops, s, report);
    st = pg_end(s, check_run(&c, e), e);
    return check_end(&c, st, out_problems);
}

/* ---- export ---------------------------------------------------------------- */

/* A text column of a binary result: its bytes, which libpq ends with a
 * NUL (text holds none), or NULL. */
static const char *cell(const PGresult *r, int row, int col)
{
    return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

/* Every upload from one snapshot, a hundred at a time through a cursor
 * (a database of many games never sits in memory at once). fn must not
 * use s: the cursor's transaction is open across the callbacks. */
enum status pg_each_upload(struct store *base, store_upload_fn fn, void *ctx,
                           struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct stored_upload u;
    int64_t n = 0, unused;
    bool stop = false;
    memset(&u, 0, sizeof u);
    enum status st = pg_begin(s, true, e);
    if (st != ST_OK)
        return st;
    st = two_ints(s, "SELECT count(*), 0 FROM games", &n, &unused, e);
    u.n_games = (size_t)n;
    if (st == ST_OK)
        st = pg_exec(s,
                     "DECLARE uploads NO SCROLL CURSOR FOR SELECT "
                     "g.id::text, r.raw, g.name, g.format, g.sha256, "
                     "g.source, g.uploaded_at::text, "
                     "coalesce(g.valid, -1)::text, g.live::text FROM games g "
                     "JOIN game_raw r ON r.game_id = g.id ORDER BY g.id",
                     false, NULL, "read uploads", e);
    while (st == ST_OK && !stop) {
        PGresult *r = NULL;
        st = pg_query(s, "FETCH " FETCH_ROWS " FROM uploads", false, NULL,
                      true, &r, "read uploads", e);
        int rows = st == ST_OK ? PQntuples(r) : 0;
        for (int i = 0; i < rows && !stop; i++) {
            u.id = strtoll(cell(r, i, 0), NULL, 10);
            u.raw = PQgetvalue(r, i, 1);
            u.raw_len = (size_t)PQgetlength(r, i, 1);
            u.name = cell(r, i, 2);
            u.format = cell(r, i, 3);
            u.sha256 = cell(r, i, 4);
            u.source = cell(r, i, 5);
            u.uploaded_at = strtoll(cell(r, i, 6), NULL, 10);
            u.verdict = (int)strtol(cell(r, i, 7), NULL, 10);
            u.live = strcmp(cell(r, i, 8), "0") != 0;
            stop = fn(ctx, &u) != 0;
            u.index++;
        }
        PQclear(r);
        if (rows == 0)
            break;
    }
    return pg_end(s, st, e);
}
