/* pg_check.c - `flierd check` and `flierd export` on PostgreSQL: both
 * read one snapshot (a repeatable-read, read-only transaction), so they
 * may run beside daemons that write.
 *
 * The check holds the invariants sqlite_check.c holds, in the same
 * words, so a report means the same on both backends: rows that belong
 * to no game, games without the rows no game is without, unsupported
 * games with an audit's rows, points rows that name no seat, uploads
 * against their digests, aggregates against their sums. Where SQLite
 * runs its integrity_check and foreign_key_check, PostgreSQL enforces its
 * foreign keys itself and checks its pages as it reads them (every table
 * is read here); what it can be left with is an index that a failed
 * build marked invalid, and that is checked instead. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "util/sha256.h"

#define CHECK_MAX_LINES 20
#define FETCH_ROWS "100"

static const struct {
    const char *table, *key;
    bool audited_only;
} required[] = {
    { "game_raw", "game_id", false },
    { "game_report", "game_id", true },
    { "game_expansions", "game_id", true },
    { "game_entry", "game_id", false },
    { "game_search", "game_id", false },
};

static const char *const audit_only[] = {
    "game_report", "game_players", "game_player_points", "game_expansions",
    "flights", "violations",
};

/* As sqlite_check.c's, in PostgreSQL's words (booleans counted as
 * integers). */
static const struct {
    const char *table, *detail, *recomputed, *stored;
} aggregates[] = {
    { "game_totals", "games",
      "SELECT 'status ' || status || ', edition ' || coalesce(edition, '')"
      " || ', valid ' || coalesce(valid, -1) || ', finished '"
      " || coalesce(finished, -1) || ', live ' || live AS k, status,"
      " coalesce(edition, '') AS ed, coalesce(valid, -1) AS v,"
      " coalesce(finished, -1) AS f, live, count(*) AS n FROM games"
      " GROUP BY 2, 3, 4, 5, 6",
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
      " sum(flier_points), sum(rolls1), sum(rolls2), sum(rolls3)"
      " FROM game_players GROUP BY player_id",
      "SELECT 'player_id ' || player_id AS k, player_id, games,"
      " finished_games, wins, score_sum, flights, landed, returned, forced,"
      " flier_points, rolls1, rolls2, rolls3 FROM player_totals"
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
      " FROM game_players WHERE finished = 1 GROUP BY score / 10",
      "SELECT 'bucket ' || bucket AS k, bucket, n FROM score_hist"
      " WHERE n <> 0" },
    { "flight_totals", "flights",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, count(*),"
      " sum((outcome = 'landed')::int), sum((outcome = 'returned')::int),"
      " sum((outcome = 'pending')::int),"
      " sum((n_options = 0 AND bad_roll = 0)::int)"
      " FROM flights GROUP BY roll, diagonal, figure",
      "SELECT 'roll ' || roll || ', diagonal ' || diagonal || ', figure '"
      " || figure AS k, roll, diagonal, figure, flights, landed, returned,"
      " pending, forced FROM flight_totals"
      " WHERE flights <> 0 OR landed <> 0 OR returned <> 0 OR pending <> 0"
      " OR forced <> 0" },
    { "player_figures", "flights",
      "SELECT 'player_id ' || gp.player_id || ', figure ' || f.figure AS k,"
      " gp.player_id, f.figure, count(*),"
      " sum((f.outcome = 'landed')::int), sum((f.outcome = 'returned')::int),"
      " sum((f.outcome = 'pending')::int),"
      " sum((f.n_options = 0 AND f.bad_roll = 0)::int) FROM flights f"
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
    struct pg_store *s;
    struct buf *report;
    int problems;
    int lines;
    int n_agg;
    struct buf skipped;
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

/* Runs sql; columns 0 and 1 of its first row as integers. */
static enum status two_ints(struct check *c, const char *sql, int64_t *a,
                            int64_t *b, struct err *e)
{
    PGresult *r = NULL;
    *a = *b = 0;
    enum status st = pg_query(c->s, sql, false, NULL, false, &r, sql, e);
    if (st == ST_OK && PQntuples(r) > 0) {
        *a = pg_int(r, 0, 0);
        *b = pg_int(r, 0, 1);
    }
    PQclear(r);
    return st;
}

static enum status table_exists(struct check *c, const char *name, bool *out,
                                struct err *e)
{
    struct buf sql = BUF_INIT;
    int64_t n = 0, unused;
    buf_printf(&sql, "SELECT (to_regclass('%s') IS NOT NULL)::int, 0", name);
    enum status st = two_ints(c, sql.p, &n, &unused, e);
    buf_release(&sql);
    *out = n > 0;
    return st;
}

/* 1: what PostgreSQL may be left with after a failed index build. */
static enum status check_indexes(struct check *c, struct err *e)
{
    PGresult *r = NULL;
    c->lines = 0;
    enum status st = pg_query(c->s,
                              "SELECT i.indexrelid::regclass::text FROM "
                              "pg_index i JOIN pg_class t ON t.oid = "
                              "i.indrelid WHERE NOT i.indisvalid AND "
                              "t.relnamespace = current_schema()::regnamespace",
                              false, NULL, false, &r, "list indexes", e);
    for (int i = 0; st == ST_OK && i < PQntuples(r); i++)
        problem(c, "index %s is invalid (a build that failed): rebuild it",
                PQgetvalue(r, i, 0));
    PQclear(r);
    return st;
}

static enum status orphans_of(struct check *c, const char *table,
                              const char *key, struct err *e)
{
    int64_t n, first;
    struct buf sql = BUF_INIT;
    buf_printf(&sql, "SELECT count(*), min(t.\"%s\") FROM \"%s\" t WHERE NOT "
               "EXISTS (SELECT 1 FROM games g WHERE g.id = t.\"%s\")", key,
               table, key);
    enum status st = two_ints(c, sql.p, &n, &first, e);
    buf_release(&sql);
    if (st == ST_OK && n > 0)
        problem(c, "table %s: %lld rows belong to no game (the first: game "
                "%lld)", table, (long long)n, (long long)first);
    return st;
}

/* 2: every table that references games, as the catalog says today. */
static enum status check_orphans(struct check *c, int *out_tables,
                                 struct err *e)
{
    PGresult *r = NULL;
    *out_tables = 0;
    enum status st = pg_query(
        c->s,
        "SELECT c.conrelid::regclass::text, a.attname FROM pg_constraint c "
        "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = "
        "c.conkey[1] WHERE c.contype = 'f' AND c.confrelid = "
        "'games'::regclass ORDER BY c.conrelid::regclass::text COLLATE \"C\"",
        false, NULL, false, &r, "list tables", e);
    c->lines = 0;
    for (int i = 0; st == ST_OK && i < PQntuples(r); i++) {
        st = orphans_of(c, PQgetvalue(r, i, 0), PQgetvalue(r, i, 1), e);
        ++*out_tables;
    }
    PQclear(r);
    return st;
}

/* 3: the rows no game is without. */
static enum status check_required(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    int64_t n, first;
    c->lines = 0;
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        bool have = false;
        struct buf sql = BUF_INIT;
        st = table_exists(c, required[i].table, &have, e);
        if (st != ST_OK)
            return st;
        if (!have) {
            problem(c, "table %s is missing", required[i].table);
            continue;
        }
        buf_printf(&sql, "SELECT count(*), min(g.id) FROM games g WHERE %s "
                   "NOT EXISTS (SELECT 1 FROM \"%s\" t WHERE t.\"%s\" = g.id)",
                   required[i].audited_only ? "g.status = 'audited' AND" : "",
                   required[i].table, required[i].key);
        st = two_ints(c, sql.p, &n, &first, e);
        buf_release(&sql);
        if (st != ST_OK)
            return st;
        if (n > 0)
            problem(c, "%lld %sgames have no row in %s (the first: game "
                    "%lld)", (long long)n,
                    required[i].audited_only ? "audited " : "",
                    required[i].table, (long long)first);
    }
    st = two_ints(c,
                  "SELECT count(*), min(g.id) FROM games g WHERE "
                  "g.status = 'audited' AND n_players <> (SELECT count(*) "
                  "FROM game_players p WHERE p.game_id = g.id)",
                  &n, &first, e);
    if (st == ST_OK && n > 0)
        problem(c, "%lld games have not one game_players row per seat (the "
                "first: game %lld)", (long long)n, (long long)first);
    return st;
}

static enum status check_points_seats(struct check *c, struct err *e)
{
    int64_t n = 0, first = 0;
    c->lines = 0;
    enum status st = two_ints(
        c,
        "SELECT count(*), min(p.game_id) FROM game_player_points p WHERE "
        "NOT EXISTS (SELECT 1 FROM game_players gp WHERE gp.game_id = "
        "p.game_id AND gp.seat = p.seat AND gp.player_id = p.player_id)",
        &n, &first, e);
    if (st == ST_OK && n > 0)
        problem(c, "table game_player_points: %lld rows name no seat of "
                "their game, or another player than the seat's (the first: "
                "game %lld)", (long long)n, (long long)first);
    return st;
}

static enum status check_unsupported(struct check *c, struct err *e)
{
    enum status st = ST_OK;
    c->lines = 0;
    for (size_t i = 0; i < sizeof audit_only / sizeof *audit_only; i++) {
        int64_t n, first;
        struct buf sql = BUF_INIT;
        buf_printf(&sql, "SELECT count(DISTINCT g.id), min(g.id) FROM games "
                   "g JOIN \"%s\" t ON t.game_id = g.id WHERE g.status = "
                   "'unsupported'", audit_only[i]);
        st = two_ints(c, sql.p, &n, &first, e);
        buf_release(&sql);
        if (st != ST_OK)
            return st;
        if (n > 0)
            problem(c, "%lld unsupported games have rows in %s (the first: "
                    "game %lld)", (long long)n, audit_only[i],
                    (long long)first);
    }
    return st;
}

/* 4: the uploads against their digests, a hundred rows at a time. */
static enum status check_raw(struct check *c, int64_t *out_games,
                             struct err *e)
{
    char hex[SHA256_HEX_LEN];
    *out_games = 0;
    c->lines = 0;
    enum status st = pg_exec(c->s,
                             "DECLARE uploads NO SCROLL CURSOR FOR SELECT "
                             "g.id::text, g.sha256, g.raw_size::text, r.raw "
                             "FROM games g JOIN game_raw r ON r.game_id = "
                             "g.id ORDER BY g.id",
                             false, NULL, "read uploads", e);
    while (st == ST_OK) {
        PGresult *r = NULL;
        st = pg_query(c->s, "FETCH " FETCH_ROWS " FROM uploads", false, NULL,
                      true, &r, "read uploads", e);
        int n = st == ST_OK ? PQntuples(r) : 0;
        for (int i = 0; i < n; i++) {
            char id[24], want[SHA256_HEX_LEN], size[24];
            int len = PQgetlength(r, i, 3);
            snprintf(id, sizeof id, "%.*s", PQgetlength(r, i, 0),
                     PQgetvalue(r, i, 0));
            snprintf(want, sizeof want, "%.*s", PQgetlength(r, i, 1),
                     PQgetvalue(r, i, 1));
            snprintf(size, sizeof size, "%.*s", PQgetlength(r, i, 2),
                     PQgetvalue(r, i, 2));
            sha256_hex(PQgetvalue(r, i, 3), (size_t)len, hex);
            if (strcmp(hex, want) != 0)
                problem(c, "game %s: the stored upload (%d bytes) hashes to "
                        "%.16s..., games.sha256 says %.16s...", id, len, hex,
                        want);
            else if (strtoll(size, NULL, 10) != len)
                problem(c, "game %s: the stored upload has %d bytes, "
                        "games.raw_size says %s", id, len, size);
            ++*out_games;
        }
        PQclear(r);
        if (n == 0)
            break;
    }
    if (st == ST_OK)
        st = pg_exec(c->s, "CLOSE uploads", false, NULL, "read uploads", e);
    return st;
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
    struct buf sql = BUF_INIT;
    PGresult *r = NULL;
    buf_printf(&sql, "WITH a AS (%s), b AS (%s) SELECT k FROM "
               "((SELECT * FROM a EXCEPT SELECT * FROM b) UNION ALL "
               "(SELECT * FROM b EXCEPT SELECT * FROM a)) AS d GROUP BY k "
               "ORDER BY k COLLATE \"C\"", aggregates[i].recomputed,
               aggregates[i].stored);
    st = pg_query(c->s, sql.p, false, NULL, false, &r, aggregates[i].table,
                  e);
    buf_release(&sql);
    c->lines = 0;
    for (int j = 0; st == ST_OK && j < PQntuples(r); j++)
        problem(c, "table %s, %s: differs from the sums over %s",
                aggregates[i].table, PQgetvalue(r, j, 0),
                aggregates[i].detail);
    PQclear(r);
    c->n_agg++;
    return st;
}

enum status pg_check(struct store *base, struct buf *report, int *out_problems,
                     struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct check c = { s, report, 0, 0, 0, BUF_INIT };
    int64_t games = 0, hashed = 0, unused;
    int tables = 0;

    *out_problems = 0;
    enum status st = pg_begin(s, true, e);
    if (st != ST_OK)
        return st;
    st = check_indexes(&c, e);
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
    for (size_t i = 0; i < sizeof aggregates / sizeof *aggregates; i++)
        if (st == ST_OK)
            st = check_aggregate(&c, i, e);
    st = pg_end(s, st, e);
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
    struct check c = { s, NULL, 0, 0, 0, BUF_INIT };
    bool stop = false;
    memset(&u, 0, sizeof u);
    enum status st = pg_begin(s, true, e);
    if (st != ST_OK)
        return st;
    st = two_ints(&c, "SELECT count(*), 0 FROM games", &n, &unused, e);
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
