/* sqlite_check.c - `flierd check` on SQLite: the invariants are
 * store_check.c's; this file answers its queries, in one read
 * transaction (it may run beside a daemon that is writing and sees one
 * consistent snapshot), and adds what only SQLite keeps: its
 * integrity_check and foreign_key_check, uploads and audits as zstd
 * frames that must decode, the list entry each game wrote, and the best
 * score player_totals keeps. */
#include <stdio.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "store/store_check.h"

#define MAX_COLS 8

static enum status two_ints(void *db, const char *sql, int64_t *a,
                            int64_t *b, struct err *e)
{
    struct sq_store *s = db;
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, sql, &st, e);
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *a = sqlite3_column_int64(st, 0);
            *b = sqlite3_column_int64(st, 1);
        } else if (rc != SQLITE_DONE) {
            res = sq_fail(s, rc, sql, e);
        }
    }
    sqlite3_finalize(st);
    return res;
}

static enum status each_row(void *db, const char *sql,
                            void (*fn)(void *arg, const char *const *col),
                            void *arg, struct err *e)
{
    struct sq_store *s = db;
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, sql, &st, e);
    int rc = SQLITE_DONE;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *col[MAX_COLS] = { NULL };
        int n = sqlite3_column_count(st);
        for (int i = 0; i < n && i < MAX_COLS; i++)
            col[i] = (const char *)sqlite3_column_text(st, i);
        fn(arg, col);
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(s, rc, sql, e);
    sqlite3_finalize(st);
    return res;
}

static void integrity(void *arg, const char *const *col)
{
    if (!col[0] || strcmp(col[0], "ok") != 0)
        check_problem(arg, "integrity_check: %s", col[0] ? col[0] : "(null)");
}

static void dangling(void *arg, const char *const *col)
{
    check_problem(arg, "table %s: %s rows point to no row of %s", col[0],
                  col[2], col[1]);
}

/* SQLite's page-level check and the declared foreign keys. Rows that
 * point to no game are left to the shared check, which names the game. */
static enum status native(void *db, struct check *c, struct err *e)
{
    enum status st = each_row(db, "PRAGMA integrity_check(100)", integrity,
                              c, e);
    check_section(c);
    if (st == ST_OK)
        st = each_row(db,
                      "SELECT \"table\", parent, count(*) FROM "
                      "pragma_foreign_key_check WHERE parent <> 'games' "
                      "GROUP BY \"table\", parent",
                      dangling, c, e);
    return st;
}

/* The uploads, decoded, one row at a time. */
static enum status each_upload(void *db, struct check *c, struct err *e)
{
    struct sq_store *s = db;
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(
        s,
        "SELECT g.id, g.sha256, g.raw_size, r.raw, r.codec FROM games g "
        "JOIN game_raw r ON r.game_id = g.id ORDER BY g.id",
        &st, e);
    int rc = SQLITE_DONE;
    struct buf raw = BUF_INIT;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct check_upload u = {
            sqlite3_column_int64(st, 0),
            (const char *)sqlite3_column_text(st, 1),
            sqlite3_column_int64(st, 2), NULL, 0,
            (size_t)sqlite3_column_bytes(st, 3), NULL
        };
        u.why = sq_unpack(sqlite3_column_blob(st, 3), u.stored,
                          (const char *)sqlite3_column_text(st, 4), &raw);
        u.bytes = raw.p;
        u.len = raw.len;
        check_upload(c, &u);
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(s, rc, "read uploads", e);
    sqlite3_finalize(st);
    buf_release(&raw);
    return res;
}

/* Every stored audit decodes (a frame that does not would fail the
 * game's page rather than show a wrong audit; its upload is whole, so
 * `flierd reaudit` writes it again). */
static enum status check_reports(struct sq_store *s, struct check *c,
                                 struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(
        s,
        "SELECT game_id, json, codec FROM game_report "
        "WHERE codec IS NOT NULL ORDER BY game_id",
        &st, e);
    int rc = SQLITE_DONE;
    struct buf json = BUF_INIT;
    check_section(c);
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int stored = sqlite3_column_bytes(st, 1);
        const char *why =
            sq_unpack(sqlite3_column_blob(st, 1), (size_t)stored,
                      (const char *)sqlite3_column_text(st, 2), &json);
        if (why)
            check_problem(c, "game %lld: the stored audit (%d bytes) cannot "
                          "be read: %s",
                          (long long)sqlite3_column_int64(st, 0), stored,
                          why);
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(s, rc, "read audits", e);
    sqlite3_finalize(st);
    buf_release(&json);
    return res;
}

/* The list shows the entry as written: it must be what its rows render. */
static enum status check_entries(struct check *c, struct err *e)
{
    bool have = false;
    enum status st = check_table_exists(c, "game_entry", &have, e);
    if (st != ST_OK || !have)
        return st; /* the shared check names it missing */
    check_section(c);
    return check_count(c,
                       "SELECT count(*), min(g.id) FROM games g JOIN "
                       "game_entry e ON e.game_id = g.id WHERE e.entry IS "
                       "NOT json_object(" SQ_ENTRY_FIELDS ") AND e.entry IS "
                       "NOT NULL",
                       "", "games have a list entry other than their rows "
                       "render", "game", e);
}

/* player_totals.best (schema/006), which PostgreSQL does not keep: a
 * player's best finished score. */
static enum status check_best(struct check *c, struct err *e)
{
    bool totals = false, seats = false;
    enum status st = check_table_exists(c, "player_totals", &totals, e);
    if (st == ST_OK)
        st = check_table_exists(c, "game_players", &seats, e);
    if (st != ST_OK || !totals || !seats)
        return st; /* the aggregates' check names it skipped */
    check_section(c);
    return check_count(c,
                       "SELECT count(*), min(t.player_id) FROM player_totals "
                       "t WHERE t.games <> 0 AND t.best IS NOT (SELECT "
                       "max(gp.score) FROM game_players gp WHERE "
                       "gp.player_id = t.player_id AND gp.finished)",
                       "table player_totals: ",
                       "players' best differs from their best finished "
                       "score in game_players",
                       "player_id", e);
}

static enum status extra(void *db, struct check *c, struct err *e)
{
    enum status st = check_entries(c, e);
    if (st == ST_OK)
        st = check_reports(db, c, e);
    if (st == ST_OK)
        st = check_best(c, e);
    return st;
}

static const struct check_ops sq_check_ops = {
    two_ints,
    each_row,
    each_upload,
    native,
    extra,
    "SELECT count(*), 0 FROM sqlite_master WHERE name = %s AND "
    "type = 'table'",
    "SELECT m.name, f.\"from\" FROM sqlite_master m, "
    "pragma_foreign_key_list(m.name) f WHERE m.type = 'table' "
    "AND f.\"table\" = 'games' ORDER BY m.name",
    "rowid", /* FTS5: no foreign key */
    "",      /* SQLite's BINARY collation is byte order */
};

enum status sq_check(struct store *base, struct buf *report,
                     int *out_problems, struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct check c;
    *out_problems = 0;
    enum status st = sq_begin_read(s, e);
    if (st != ST_OK)
        return st;
    check_begin(&c, &sq_check_ops, s, report);
    st = sq_end(s, check_run(&c, e), e);
    return check_end(&c, st, out_problems);
}
