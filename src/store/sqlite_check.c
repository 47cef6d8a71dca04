/* sqlite_check.c - is the database whole? (`flierd check`, the crash
 * tests). Read-only, in one read transaction, so it may run beside a
 * daemon that is writing and sees one consistent snapshot.
 *
 * What "whole" means follows the invariants of schema/001_init.sql and
 * schema/003_expansions.sql:
 *  1. SQLite's own PRAGMA integrity_check is "ok", and
 *     PRAGMA foreign_key_check finds no dangling reference.
 *  2. Every row of a table that belongs to a game has its games row. The
 *     tables are found in the schema (those that reference games), so a
 *     migration that adds or drops one needs no change here.
 *  3. Every games row has the rows a game is never without: the
 *     required[] list below, the one place to update when that changes
 *     (some rows only an audited game has), and one game_players row per
 *     seat; an unsupported game has none of an audit's rows.
 *  4. Every stored upload hashes to its games.sha256 and has its
 *     raw_size, and no two uploads (source not 'live') share a digest:
 *     since schema/008 no UNIQUE index says so, the writer's lookup
 *     does.
 *  5. The aggregate tables, kept by triggers, equal the sums recomputed
 *     from the detail tables (aggregates[] below). A check whose tables
 *     a migration dropped is skipped and named in the summary. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "store/sqlite_int.h"
#include "util/sha256.h"

/* Problem lines kept per check: a corrupt table can break every row. */
#define CHECK_MAX_LINES 20

/* The rows every game has (audited only: every audited game): table and
 * the column holding the game id. */
static const struct {
    const char *table, *key;
    bool audited_only;
} required[] = {
    { "game_raw", "game_id", false },
    { "game_report", "game_id", true },
    { "game_expansions", "game_id", true },
    { "game_entry", "game_id", false },
    { "game_search", "rowid", false }, /* FTS5: no foreign key */
};

/* Tables whose rows only an audited game has: an unsupported game (its
 * log could not be read) holding one is a problem. */
static const char *const audit_only[] = {
    "game_report", "game_players", "game_player_points", "game_expansions",
    "flights", "violations",
};

/* An aggregate table against the sums over its detail table. Both
 * queries return (key, values...) rows; key names the row for people.
 * stored leaves out rows whose counts are all 0: the triggers decrement
 * and never delete those. */
static const struct {
    const char *table, *detail, *recomputed, *stored;
} aggregates[] = {
    { "game_totals", "games",
      "SELECT 'status ' || status || ', edition ' || coalesce(edition, '')"
      " || ', valid ' || coalesce(valid, -1) || ', finished '"
      " || coalesce(finished, -1) || ', live ' || live AS k, status,"
      " coalesce(edition, ''), coalesce(valid, -1), coalesce(finished, -1),"
      " live, count(*) FROM games GROUP BY 2, 3, 4, 5, 6",
      "SELECT 'status ' || status || ', edition ' || edition || ', valid '"
      " || valid || ', finished ' || finished || ', live ' || live AS k,"
      " status, edition, valid, finished, live, n FROM game_totals"
      " WHERE n <> 0" },
    { "expansion_totals", "game_expansions",
      "SELECT 'expansion ' || expansion AS k, expansion, count(*)"
      " FROM game_expansions GROUP BY expansion",
      "SELECT 'expansion ' || expansion AS k, expansion, n"
      " FROM expansion_totals WHERE n <> 0" },
    { "player_totals", "game_players",
      "SELECT 'player_id ' || player_id AS k, player_id, count(*),"
      " sum(finished), sum(winner), sum(finished * score),"
      " sum(flights), sum(landed), sum(returned), sum(forced),"
      " sum(flier_points), sum(rolls1), sum(rolls2), sum(rolls3),"
      " max(iif(finished, score, NULL))"
      " FROM game_players GROUP BY player_id",
      "SELECT 'player_id ' || player_id AS k, player_id, games,"
      " finished_games, wins, score_sum, flights, landed, returned, forced,"
      " flier_points, rolls1, rolls2, rolls3, best FROM player_totals"
      " WHERE games <> 0" },
    { "player_points", "game_player_points",
      "SELECT 'player_id ' || player_id || ', feature ' || feature AS k,"
      " player_id, feature, sum(points), count(*) FROM game_player_points"
      " GROUP BY player_id, feature",
      "SELECT 'player_id ' || player_id || ', feature ' || feature AS k,"
      " player_id, feature, points, n FROM player_points"
      " WHERE n <> 0 OR points <> 0" },
    { "score_hist", "game_players",
      "SELECT 'bucket ' || (score / 10) AS k, score / 10, count(*)"
      " FROM game_players WHERE finished GROUP BY score / 10",
      "SELECT 'bucket ' || bucket AS k, bucket, n FROM score_hist"
      " WHERE n <> 0" },
    { "flight_totals", "flights",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, count(*),"
      " sum(outcome = 'landed'), sum(outcome = 'returned'),"
      " sum(outcome = 'pending'), sum(n_options = 0 AND NOT bad_roll)"
      " FROM flights GROUP BY roll, diagonal, figure",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, flights, landed, returned,"
      " pending, forced FROM flight_totals"
      " WHERE flights <> 0 OR landed <> 0 OR returned <> 0 OR pending <> 0"
      " OR forced <> 0" },
    { "player_figures", "flights",
      "SELECT 'player_id ' || gp.player_id || ', figure ' || f.figure AS k,"
      " gp.player_id, f.figure, count(*), sum(f.outcome = 'landed'),"
      " sum(f.outcome = 'returned'), sum(f.outcome = 'pending'),"
      " sum(f.n_options = 0 AND NOT f.bad_roll) FROM flights f"
      " JOIN game_players gp ON gp.game_id = f.game_id AND gp.seat = f.seat"
      " GROUP BY gp.player_id, f.figure",
      "SELECT 'player_id ' || player_id || ', figure ' || figure AS k,"
      " player_id, figure, flights, landed, returned, pending, forced"
      " FROM player_figures WHERE flights <> 0 OR landed <> 0"
      " OR returned <> 0 OR pending <> 0 OR forced <> 0" },
    { "rule_totals", "violations",
      "SELECT 'rule ' || rule AS k, rule, count(*) FROM violations"
      " GROUP BY rule",
      "SELECT 'rule ' || rule AS k, rule, n FROM rule_totals WHERE n <> 0" },
};

struct check {
    struct sq_store *s;
    struct buf *report;
    int problems;
    int lines;           /* of the current check */
    int n_agg;           /* aggregate tables checked */
    struct buf skipped;  /* checks whose tables are gone */
};

static void problem(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void problem(struct check *c, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    c->problems++;
    if (c->lines++ == CHECK_MAX_LINES)
        buf_puts(c->report, "  ... (more of the same left out)\n");
    if (c->lines > CHECK_MAX_LINES)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    buf_printf(c->report, "%s\n", line);
}

/* Runs sql; on its first row stores columns 0 and 1 as integers. */
static enum status two_ints(struct check *c, const char *sql, int64_t *a,
                            int64_t *b, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(c->s, sql, &st, e);
    *a = *b = 0;
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            *a = sqlite3_column_int64(st, 0);
            *b = sqlite3_column_int64(st, 1);
        } else if (rc != SQLITE_DONE) {
            res = sq_fail(c->s, rc, sql, e);
        }
    }
    sqlite3_finalize(st);
    return res;
}

static enum status table_exists(struct check *c, const char *name,
                                bool *out, struct err *e)
{
    int64_t n = 0, unused;
    char *sql = sqlite3_mprintf("SELECT count(*), 0 FROM sqlite_master "
                                "WHERE name = %Q AND type = 'table'", name);
    enum status st = two_ints(c, sql, &n, &unused, e);
    sqlite3_free(sql);
    *out = n > 0;
    return st;
}

/* 1: SQLite's page-level check and the declared foreign keys. Rows that
 * point to no game are left to check_orphans, which names the game. */
static enum status check_sqlite(struct check *c, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(c->s, "PRAGMA integrity_check(100)", &st,
                                    e);
    int rc = SQLITE_DONE;
    c->lines = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *msg = (const char *)sqlite3_column_text(st, 0);
        if (!msg || strcmp(msg, "ok") != 0)
            problem(c, "integrity_check: %s", msg ? msg : "(null)");
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "integrity_check", e);
    sqlite3_finalize(st);
    st = NULL;
    if (res == ST_OK)
        res = sq_prepare(c->s,
                            "SELECT \"table\", parent, count(*) FROM "
                            "pragma_foreign_key_check WHERE parent <> 'games' "
                            "GROUP BY \"table\", parent",
                            &st, e);
    c->lines = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        problem(c, "table %s: %lld rows point to no row of %s",
                (const char *)sqlite3_column_text(st, 0),
                (long long)sqlite3_column_int64(st, 2),
                (const char *)sqlite3_column_text(st, 1));
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "foreign_key_check", e);
    sqlite3_finalize(st);
    return res;
}

/* Rows of table whose key column names no games row. */
static enum status orphans_of(struct check *c, const char *table,
                              const char *key, struct err *e)
{
    int64_t n, first;
    char *sql = sqlite3_mprintf("SELECT count(*), min(t.\"%w\") FROM \"%w\" t "
                                "WHERE NOT EXISTS (SELECT 1 FROM games g "
                                "WHERE g.id = t.\"%w\")",
                                key, table, key);
    enum status st = two_ints(c, sql, &n, &first, e);
    sqlite3_free(sql);
    if (st == ST_OK && n > 0)
        problem(c, "table %s: %lld rows belong to no game (the first: game "
                "%lld)", table, (long long)n, (long long)first);
    return st;
}

/* 2: every table that references games, as the schema says today. */
static enum status check_orphans(struct check *c, int *out_tables,
                                 struct err *e)
{
    sqlite3_stmt *st = NULL;
    struct buf names = BUF_INIT; /* "table\tcolumn\n" lines */
    enum status res = sq_prepare(
        c->s,
        "SELECT m.name, f.\"from\" FROM sqlite_master m, "
        "pragma_foreign_key_list(m.name) f WHERE m.type = 'table' "
        "AND f.\"table\" = 'games' ORDER BY m.name",
        &st, e);
    int rc = SQLITE_DONE;
    *out_tables = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        buf_printf(&names, "%s\t%s\n", sqlite3_column_text(st, 0),
                   sqlite3_column_text(st, 1));
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "list tables", e);
    sqlite3_finalize(st);
    c->lines = 0;
    /* statements are done: no cursor stays open while others run */
    for (char *p = names.p; res == ST_OK && p && *p;) {
        char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        *tab = *nl = '\0';
        res = orphans_of(c, p, tab + 1, e);
        ++*out_tables;
        p = nl + 1;
    }
    buf_release(&names);
    return res;
}

/* 3: the rows no game is without. */
static enum status check_required(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    int64_t n, first;
    c->lines = 0;
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        bool have = false;
        st = table_exists(c, required[i].table, &have, e);
        if (st != ST_OK)
            return st;
        if (!have) {
            problem(c, "table %s is missing", required[i].table);
            continue;
        }
        char *sql = sqlite3_mprintf(
            "SELECT count(*), min(g.id) FROM games g WHERE %s NOT EXISTS "
            "(SELECT 1 FROM \"%w\" t WHERE t.\"%w\" = g.id)",
            required[i].audited_only ? "g.status = 'audited' AND" : "",
            required[i].table, required[i].key);
        st = two_ints(c, sql, &n, &first, e);
        sqlite3_free(sql);
        if (st == ST_OK && n > 0)
            problem(c, "%lld %sgames have no row in %s (the first: game "
                    "%lld)", (long long)n,
                    required[i].audited_only ? "audited " : "",
                    required[i].table, (long long)first);
        /* game_search has no foreign key for check_orphans to find */
        if (st == ST_OK && strcmp(required[i].key, "rowid") == 0)
            st = orphans_of(c, required[i].table, "rowid", e);
        if (st != ST_OK)
            return st;
    }
    st = two_ints(c,
                  "SELECT count(*), min(g.id) FROM games g WHERE "
                  "g.status = 'audited' AND n_players "
                  "<> (SELECT count(*) FROM game_players p "
                  "WHERE p.game_id = g.id)",
                  &n, &first, e);
    if (st == ST_OK && n > 0)
        problem(c, "%lld games have not one game_players row per seat (the "
                "first: game %lld)", (long long)n, (long long)first);
    /* the list shows the entry as written: it must be its row's */
    bool entries = false;
    if (st == ST_OK)
        st = table_exists(c, "game_entry", &entries, e);
    if (st == ST_OK && entries)
        st = two_ints(c,
                      "SELECT count(*), min(g.id) FROM games g JOIN "
                      "game_entry e ON e.game_id = g.id WHERE e.entry IS NOT "
                      "json_object(" SQ_ENTRY_FIELDS ") AND e.entry IS NOT "
                      "NULL",
                      &n, &first, e);
    if (st == ST_OK && entries && n > 0)
        problem(c, "%lld games have a list entry other than their rows "
                "render (the first: game %lld)", (long long)n,
                (long long)first);
    return st;
}

/* A points row names its seat's player (a copy, for the aggregate's
 * trigger): the seat must be there, with that player. */
static enum status check_points_seats(struct check *c, struct err *e)
{
    bool have = false;
    int64_t n = 0, first = 0;
    enum status st = table_exists(c, "game_player_points", &have, e);
    if (st != ST_OK || !have)
        return st;
    c->lines = 0;
    st = two_ints(c,
                  "SELECT count(*), min(p.game_id) FROM game_player_points p "
                  "WHERE NOT EXISTS (SELECT 1 FROM game_players gp WHERE "
                  "gp.game_id = p.game_id AND gp.seat = p.seat AND "
                  "gp.player_id = p.player_id)",
                  &n, &first, e);
    if (st == ST_OK && n > 0)
        problem(c, "table game_player_points: %lld rows name no seat of "
                "their game, or another player than the seat's (the first: "
                "game %lld)", (long long)n, (long long)first);
    return st;
}

/* An unsupported game was never read: no audit, seat, point, expansion,
 * flight or violation may belong to it. */
static enum status check_unsupported(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    c->lines = 0;
    for (size_t i = 0; i < sizeof audit_only / sizeof *audit_only; i++) {
        bool have = false;
        int64_t n, first;
        st = table_exists(c, audit_only[i], &have, e);
        if (st != ST_OK)
            return st;
        if (!have)
            continue; /* check_required names the missing ones */
        char *sql = sqlite3_mprintf(
            "SELECT count(DISTINCT g.id), min(g.id) FROM games g JOIN "
            "\"%w\" t ON t.game_id = g.id WHERE g.status = 'unsupported'",
            audit_only[i]);
        st = two_ints(c, sql, &n, &first, e);
        sqlite3_free(sql);
        if (st != ST_OK)
            return st;
        if (n > 0)
            problem(c, "%lld unsupported games have rows in %s (the first: "
                    "game %lld)", (long long)n, audit_only[i],
                    (long long)first);
    }
    return st;
}

/* 4: the uploads against their digests, one row at a time. */
static enum status check_raw(struct check *c, int64_t *out_games,
                             struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(
        c->s,
        "SELECT g.id, g.sha256, g.raw_size, r.raw, r.codec FROM games g "
        "JOIN game_raw r ON r.game_id = g.id ORDER BY g.id",
        &st, e);
    int rc = SQLITE_DONE;
    char hex[SHA256_HEX_LEN];
    struct buf raw = BUF_INIT;
    *out_games = 0;
    c->lines = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(st, 0);
        const char *want = (const char *)sqlite3_column_text(st, 1);
        int64_t size = sqlite3_column_int64(st, 2);
        int stored = sqlite3_column_bytes(st, 3);
        const char *why =
            sq_unpack(sqlite3_column_blob(st, 3), (size_t)stored,
                      (const char *)sqlite3_column_text(st, 4), &raw);
        int len = (int)raw.len;
        if (!why)
            sha256_hex(raw.p ? raw.p : "", raw.len, hex);
        if (why)
            problem(c, "game %lld: the stored upload (%d bytes) cannot be "
                    "read: %s", id, stored, why);
        else if (!want || strcmp(hex, want) != 0)
            problem(c, "game %lld: the stored upload (%d bytes) hashes to "
                    "%.16s..., games.sha256 says %.16s...", id, len, hex,
                    want ? want : "(null)");
        else if (size != len)
            problem(c, "game %lld: the stored upload has %d bytes, "
                    "games.raw_size says %lld", id, len, (long long)size);
        ++*out_games;
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "read uploads", e);
    sqlite3_finalize(st);
    buf_release(&raw);
    return res;
}

/* 4a: two uploads of the same bytes (the writer dedupes, no index). */
static enum status check_duplicates(struct check *c, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(
        c->s,
        "SELECT sha256, min(id), max(id), count(*) FROM games "
        "WHERE source <> 'live' GROUP BY sha256 HAVING count(*) > 1",
        &st, e);
    int rc = SQLITE_DONE;
    c->lines = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
        problem(c, "games %lld and %lld: one upload (sha256 %.16s...) "
                "stored %lld times",
                (long long)sqlite3_column_int64(st, 1),
                (long long)sqlite3_column_int64(st, 2),
                (const char *)sqlite3_column_text(st, 0),
                (long long)sqlite3_column_int64(st, 3));
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "find duplicate uploads", e);
    sqlite3_finalize(st);
    return res;
}

/* 4b: every stored audit decodes (a frame that does not would fail the
 * game's page rather than show a wrong audit; its upload is whole, so
 * `flierd reaudit` writes it again). */
static enum status check_reports(struct check *c, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(
        c->s,
        "SELECT game_id, json, codec FROM game_report "
        "WHERE codec IS NOT NULL ORDER BY game_id",
        &st, e);
    int rc = SQLITE_DONE;
    struct buf json = BUF_INIT;
    c->lines = 0;
    while (res == ST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        int stored = sqlite3_column_bytes(st, 1);
        const char *why =
            sq_unpack(sqlite3_column_blob(st, 1), (size_t)stored,
                      (const char *)sqlite3_column_text(st, 2), &json);
        if (why)
            problem(c, "game %lld: the stored audit (%d bytes) cannot be "
                    "read: %s", (long long)sqlite3_column_int64(st, 0),
                    stored, why);
    }
    if (res == ST_OK && rc != SQLITE_DONE)
        res = sq_fail(c->s, rc, "read audits", e);
    sqlite3_finalize(st);
    buf_release(&json);
    return res;
}

/* 5: one aggregate table against its recomputed sums. */
static enum status check_aggregate(struct check *c, size_t i, struct err *e)
{
    bool agg = false, detail = false;
    enum status st = table_exists(c, aggregates[i].table, &agg, e);
    if (st == ST_OK)
        st = table_exists(c, aggregates[i].detail, &detail, e);
    if (st != ST_OK || !agg || !detail) {
        if (st == ST_OK)
            buf_printf(&c->skipped, ", %s (no table %s)", aggregates[i].table,
                       agg ? aggregates[i].detail : aggregates[i].table);
        return st;
    }
    /* each row on one side only is a difference (a row in both with
     * other counts shows on both sides: name it once) */
    sqlite3_stmt *q = NULL;
    char *sql = sqlite3_mprintf(
        "WITH a AS (%s), b AS (%s) "
        "SELECT DISTINCT k FROM (SELECT * FROM (SELECT * FROM a EXCEPT "
        "SELECT * FROM b) UNION ALL SELECT * FROM (SELECT * FROM b EXCEPT "
        "SELECT * FROM a)) ORDER BY k",
        aggregates[i].recomputed, aggregates[i].stored);
    st = sq_prepare(c->s, sql, &q, e);
    sqlite3_free(sql);
    c->lines = 0;
    int rc = SQLITE_DONE;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
        problem(c, "table %s, %s: differs from the sums over %s",
                aggregates[i].table, (const char *)sqlite3_column_text(q, 0),
                aggregates[i].detail);
    if (st == ST_OK && rc != SQLITE_DONE)
        st = sq_fail(c->s, rc, aggregates[i].table, e);
    sqlite3_finalize(q);
    c->n_agg++;
    return st;
}

enum status sq_check(struct store *base, struct buf *report,
                        int *out_problems, struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct check c = { s, report, 0, 0, 0, BUF_INIT };
    int64_t games = 0, hashed = 0, unused;
    int tables = 0;

    *out_problems = 0;
    enum status st = sq_begin_read(s, e);
    if (st != ST_OK)
        return st;
    st = check_sqlite(&c, e);
    if (st == ST_OK)
        st = two_ints(&c, "SELECT count(*), 0 FROM games", &games, &unused,
                      e);
    if (st == ST_OK)
        st = check_orphans(&c, &tables, e);
    if (st == ST_OK)
        st = check_required(&c, e);
    if (st == ST_OK)
        st = check_unsupported(&c, e);
    if (st == ST_OK)
        st = check_points_seats(&c, e);
    if (st == ST_OK)
        st = check_raw(&c, &hashed, e);
    if (st == ST_OK)
        st = check_duplicates(&c, e);
    if (st == ST_OK)
        st = check_reports(&c, e);
    for (size_t i = 0; i < sizeof aggregates / sizeof *aggregates; i++)
        if (st == ST_OK)
            st = check_aggregate(&c, i, e);
    st = sq_end(s, st, e);
    if (st == ST_OK) {
        buf_printf(report, "%lld games, %lld uploads hashed, %d tables of "
                   "games, %d aggregate tables%s%s: %d problem%s\n",
                   (long long)games, (long long)hashed, tables, c.n_agg,
                   c.skipped.len ? "; skipped" : "",
                   c.skipped.len ? c.skipped.p + 1 : "", c.problems,
                   c.problems == 1 ? "" : "s");
        *out_problems = c.problems;
    }
    buf_release(&c.skipped);
    return st;
}
