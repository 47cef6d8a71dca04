/* pg_stats.c - GET /api/players, /api/players/{name}, /api/stats on
 * PostgreSQL: the aggregate tables the triggers keep (as sqlite_stats.c
 * reads them), rendered by pg_json.c. Objects keyed by data (features,
 * figures, rules, editions, expansions) list their keys in byte order,
 * COLLATE "C", as SQLite's BINARY collation orders them. Rates and the
 * die test are computed here with the SQLite backend's arithmetic. */
#include <string.h>

#include "store/pg/pg_int.h"

/* Runs one read (no parameters, or $1 = text). */
static enum status read_rows(struct pg_store *s, const char *sql,
                             const char *text, PGresult **out, struct err *e)
{
    struct pg_params p;
    pp_reset(&p);
    if (text)
        pp_text(&p, text);
    return pg_query(s, sql, true, &p, false, out, "read statistics", e);
}

/* ---- players ------------------------------------------------------------ */

/* name, games, finished_games, wins, score_sum, best, flights, landed,
 * returned, forced, flier_points, rolls1..3, player_id */
#define PLAYER_COLS                                                            \
    "p.name, t.games, t.finished_games, t.wins, t.score_sum, "                \
    "(SELECT max(gp.score) FROM game_players gp WHERE gp.player_id = "        \
    "t.player_id AND gp.finished = 1), t.flights, t.landed, t.returned, "     \
    "t.forced, t.flier_points, t.rolls1, t.rolls2, t.rolls3, t.player_id"

static void player_fields(struct buf *b, int *k, const PGresult *r, int i)
{
    int64_t fin = pg_int(r, i, 2);
    pj_key(b, k, "name");
    pj_str(b, r, i, 0);
    pj_key(b, k, "games");
    pj_num(b, r, i, 1);
    pj_key(b, k, "finished_games");
    pj_num(b, r, i, 2);
    pj_key(b, k, "wins");
    pj_num(b, r, i, 3);
    pj_key(b, k, "average");
    if (fin > 0)
        pj_real(b, 1.0 * (double)pg_int(r, i, 4) / (double)fin);
    else
        buf_puts(b, "null");
    pj_key(b, k, "best");
    pj_num(b, r, i, 5);
    pj_key(b, k, "flights");
    pj_num(b, r, i, 6);
    pj_key(b, k, "landed");
    pj_num(b, r, i, 7);
    pj_key(b, k, "landing_rate");
    pj_rate(b, pg_int(r, i, 7), pg_int(r, i, 8));
}

enum status pg_players_json(struct store *base, struct buf *out,
                            struct err *e)
{
    struct pg_store *s = pg_of(base);
    PGresult *r = NULL;
    enum status st = pg_ready(s, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT " PLAYER_COLS " FROM player_totals t JOIN "
                       "players p ON p.id = t.player_id ORDER BY p.name "
                       "COLLATE \"C\"",
                       NULL, &r, e);
    if (st == ST_OK) {
        buf_puts(out, "{\"players\":[");
        for (int i = 0; i < PQntuples(r); i++) {
            int k = 0;
            buf_puts(out, i ? ",{" : "{");
            player_fields(out, &k, r, i);
            buf_puts(out, "}");
        }
        buf_puts(out, "]}");
    }
    PQclear(r);
    return st;
}

/* {"points": {...}, "by_figure": {...}} of player pid. */
static enum status player_rows(struct pg_store *s, const char *pid,
                               struct buf *b, int *k, struct err *e)
{
    PGresult *pts = NULL, *fig = NULL;
    enum status st = read_rows(s,
                               "SELECT feature, points FROM player_points "
                               "WHERE player_id = $1 AND n > 0 ORDER BY "
                               "feature COLLATE \"C\"",
                               pid, &pts, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT figure, flights, landed, returned, forced "
                       "FROM player_figures WHERE player_id = $1 AND "
                       "flights > 0 ORDER BY figure COLLATE \"C\"",
                       pid, &fig, e);
    if (st == ST_OK) {
        pj_key(b, k, "points");
        buf_puts(b, "{");
        for (int i = 0, n = 0; i < PQntuples(pts); i++) {
            pj_key(b, &n, PQgetvalue(pts, i, 0));
            pj_num(b, pts, i, 1);
        }
        buf_puts(b, "}");
        pj_key(b, k, "by_figure");
        buf_puts(b, "{");
        for (int i = 0, n = 0; i < PQntuples(fig); i++) {
            int m = 0;
            pj_key(b, &n, PQgetvalue(fig, i, 0));
            buf_puts(b, "{");
            pj_key(b, &m, "flights");
            pj_num(b, fig, i, 1);
            pj_key(b, &m, "landed");
            pj_num(b, fig, i, 2);
            pj_key(b, &m, "returned");
            pj_num(b, fig, i, 3);
            pj_key(b, &m, "forced_returns");
            pj_num(b, fig, i, 4);
            pj_key(b, &m, "landing_rate");
            pj_rate(b, pg_int(fig, i, 2), pg_int(fig, i, 3));
            buf_puts(b, "}");
        }
        buf_puts(b, "}");
    }
    PQclear(pts);
    PQclear(fig);
    return st;
}

static void recent_json(struct buf *b, const PGresult *r)
{
    static const struct {
        const char *key;
        void (*put)(struct buf *, const PGresult *, int, int);
    } cols[] = {
        { "id", pj_num },       { "name", pj_str },   { "uploaded_at", pj_num },
        { "edition", pj_str },  { "valid", pj_bool }, { "finished", pj_bool },
        { "seat", pj_num },     { "score", pj_num },  { "rank", pj_num },
        { "claimed", pj_num },  { "winner", pj_bool }, { "flights", pj_num },
        { "landed", pj_num },
    };
    buf_puts(b, "[");
    for (int i = 0; i < PQntuples(r); i++) {
        int k = 0;
        buf_puts(b, i ? ",{" : "{");
        for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
            pj_key(b, &k, cols[c].key);
            cols[c].put(b, r, i, (int)c);
        }
        buf_puts(b, "}");
    }
    buf_puts(b, "]");
}

/* SQLite's iif(g.valid, 'true', 'false'): a NULL (an unsupported game,
 * which has no seats, so never here) would read false. */
static const char SQL_RECENT[] =
    "SELECT g.id, g.name, g.uploaded_at, g.edition, coalesce(g.valid, 0), "
    "coalesce(g.finished, 0), gp.seat, gp.score, gp.rank, gp.claimed, "
    "gp.winner, gp.flights, gp.landed FROM players p JOIN game_players gp "
    "ON gp.player_id = p.id JOIN games g ON g.id = gp.game_id "
    "WHERE p.name = $1 ORDER BY gp.game_id DESC LIMIT 20";

enum status pg_player_json(struct store *base, const char *name,
                           struct buf *out, struct err *e)
{
    struct pg_store *s = pg_of(base);
    PGresult *t = NULL, *recent = NULL;
    struct buf b = BUF_INIT;
    int k = 0;
    enum status st = pg_begin(s, true, e); /* one snapshot */
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT " PLAYER_COLS " FROM players p JOIN "
                       "player_totals t ON t.player_id = p.id WHERE "
                       "p.name = $1",
                       name, &t, e);
    if (st == ST_OK && PQntuples(t) == 0)
        st = err_set(e, ST_NOT_FOUND, "no player '%s'", name);
    if (st == ST_OK) {
        buf_puts(&b, "{");
        player_fields(&b, &k, t, 0);
        st = player_rows(s, PQgetvalue(t, 0, 14), &b, &k, e);
    }
    if (st == ST_OK) {
        pj_key(&b, &k, "returned");
        pj_num(&b, t, 0, 8);
        pj_key(&b, &k, "forced_returns");
        pj_num(&b, t, 0, 9);
        pj_key(&b, &k, "flier_points");
        pj_num(&b, t, 0, 10);
        pj_key(&b, &k, "die");
        int m = 0;
        buf_puts(&b, "{");
        pj_die(&b, &m, pg_int(t, 0, 11), pg_int(t, 0, 12), pg_int(t, 0, 13));
        buf_puts(&b, "}");
        st = read_rows(s, SQL_RECENT, name, &recent, e);
    }
    st = pg_end(s, st, e);
    if (st == ST_OK) {
        buf_append(out, b.p, b.len);
        buf_puts(out, ",\"recent\":");
        recent_json(out, recent);
        buf_puts(out, "}");
    }
    PQclear(t);
    PQclear(recent);
    buf_release(&b);
    return st;
}

/* ---- stats ---------------------------------------------------------------- */

/* {key: n, ...} from rows of (key, n). */
static void object_of(struct buf *b, const PGresult *r)
{
    buf_puts(b, "{");
    for (int i = 0, k = 0; i < PQntuples(r); i++) {
        pj_key(b, &k, PQgetvalue(r, i, 0));
        pj_num(b, r, i, 1);
    }
    buf_puts(b, "}");
}

enum status pg_counts(struct store *base, struct store_counts *out,
                      struct err *e)
{
    PGresult *r = NULL;
    enum status st = read_rows(
        pg_of(base),
        "SELECT coalesce(sum(n), 0), "
        "coalesce(sum(n) FILTER (WHERE valid = 1), 0), "
        "coalesce(sum(n) FILTER (WHERE valid = 0), 0), "
        "coalesce(sum(n) FILTER (WHERE status = 'unsupported'), 0), "
        "coalesce(sum(n) FILTER (WHERE live <> 0), 0) FROM game_totals",
        NULL, &r, e);
    if (st == ST_OK) {
        out->total = pg_int(r, 0, 0);
        out->valid = pg_int(r, 0, 1);
        out->invalid = pg_int(r, 0, 2);
        out->unsupported = pg_int(r, 0, 3);
        out->live = pg_int(r, 0, 4);
    }
    PQclear(r);
    return st;
}

static enum status stats_games(struct pg_store *s, struct buf *b,
                               struct err *e)
{
    static const char *const keys[] = {
        "total", "valid", "invalid", "finished", "live", "unsupported",
    };
    PGresult *n = NULL, *ed = NULL, *ex = NULL;
    enum status st = read_rows(
        s,
        "SELECT coalesce(sum(n), 0), "
        "coalesce(sum(n) FILTER (WHERE valid = 1), 0), "
        "coalesce(sum(n) FILTER (WHERE valid = 0), 0), "
        "coalesce(sum(n) FILTER (WHERE finished = 1), 0), "
        "coalesce(sum(n) FILTER (WHERE live <> 0), 0), "
        "coalesce(sum(n) FILTER (WHERE status = 'unsupported'), 0) "
        "FROM game_totals",
        NULL, &n, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT edition, sum(n) FROM game_totals WHERE "
                       "edition <> '' GROUP BY edition HAVING sum(n) > 0 "
                       "ORDER BY edition COLLATE \"C\"",
                       NULL, &ed, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT expansion, n FROM expansion_totals WHERE "
                       "n > 0 ORDER BY expansion COLLATE \"C\"",
                       NULL, &ex, e);
    if (st == ST_OK) {
        int k = 0;
        buf_puts(b, "{");
        for (int i = 0; i < 6; i++) {
            pj_key(b, &k, keys[i]);
            pj_num(b, n, 0, i);
        }
        pj_key(b, &k, "by_edition");
        object_of(b, ed);
        pj_key(b, &k, "by_expansion");
        object_of(b, ex);
        buf_puts(b, "}");
    }
    PQclear(n);
    PQclear(ed);
    PQclear(ex);
    return st;
}

static enum status stats_violations(struct pg_store *s, struct buf *b,
                                    struct err *e)
{
    PGresult *r = NULL;
    int64_t total = 0;
    enum status st = read_rows(s,
                               "SELECT rule, n FROM rule_totals WHERE n <> 0 "
                               "ORDER BY rule COLLATE \"C\"",
                               NULL, &r, e);
    if (st == ST_OK) {
        PGresult *all = NULL;
        st = read_rows(s, "SELECT coalesce(sum(n), 0) FROM rule_totals",
                       NULL, &all, e);
        total = st == ST_OK ? pg_int(all, 0, 0) : 0;
        PQclear(all);
    }
    if (st == ST_OK) {
        /* by_rule keeps SQLite's "n > 0" (a negative count is a
         * damaged table, for flierd check to find) */
        buf_printf(b, "{\"total\":%lld,\"by_rule\":{", (long long)total);
        for (int i = 0, k = 0; i < PQntuples(r); i++) {
            if (pg_int(r, i, 1) <= 0)
                continue;
            pj_key(b, &k, PQgetvalue(r, i, 0));
            pj_num(b, r, i, 1);
        }
        buf_puts(b, "}}");
    }
    PQclear(r);
    return st;
}

static enum status stats_scores(struct pg_store *s, struct buf *b,
                                struct err *e)
{
    PGresult *r = NULL;
    enum status st = read_rows(s,
                               "SELECT bucket, n FROM score_hist ORDER BY "
                               "bucket",
                               NULL, &r, e);
    if (st == ST_OK) {
        int64_t count = 0;
        for (int i = 0; i < PQntuples(r); i++)
            count += pg_int(r, i, 1);
        buf_printf(b, "{\"bucket\":10,\"count\":%lld,\"histogram\":[",
                   (long long)count);
        for (int i = 0, k = 0; i < PQntuples(r); i++) {
            int64_t bucket = pg_int(r, i, 0), n = pg_int(r, i, 1);
            if (n <= 0)
                continue;
            buf_printf(b, "%s{\"from\":%lld,\"to\":%lld,\"count\":%lld}",
                       k++ ? "," : "", (long long)(bucket * 10),
                       (long long)(bucket * 10 + 9), (long long)n);
        }
        buf_puts(b, "]}");
    }
    PQclear(r);
    return st;
}

/* flights, landed, returned, forced_returns, landing_rate of a row of
 * sums (NULL sums: no rows, zeros and a null rate). */
static void flight_fields(struct buf *b, int *k, const PGresult *r, int i,
                          int c)
{
    static const char *const keys[] = {
        "flights", "landed", "returned", "forced_returns",
    };
    for (int j = 0; j < 4; j++) {
        pj_key(b, k, keys[j]);
        buf_printf(b, "%lld", (long long)pg_int(r, i, c + j));
    }
    pj_key(b, k, "landing_rate");
    if (pg_cell(r, i, c + 1))
        pj_rate(b, pg_int(r, i, c + 1), pg_int(r, i, c + 2));
    else
        buf_puts(b, "null");
}

#define SUMS "sum(f.flights), sum(f.landed), sum(f.returned), sum(f.forced)"

static enum status stats_flier(struct pg_store *s, struct buf *b,
                               struct err *e)
{
    PGresult *all = NULL, *roll = NULL, *dir = NULL, *fig = NULL;
    enum status st = read_rows(s, "SELECT " SUMS ", sum(f.pending) FROM "
                               "flight_totals f", NULL, &all, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT r.roll, " SUMS " FROM (VALUES (1), (2), (3)) "
                       "AS r (roll) LEFT JOIN flight_totals f ON f.roll = "
                       "r.roll GROUP BY r.roll ORDER BY r.roll",
                       NULL, &roll, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT d.diag, " SUMS " FROM (VALUES (0), (1)) AS d "
                       "(diag) LEFT JOIN flight_totals f ON f.diagonal = "
                       "d.diag GROUP BY d.diag ORDER BY d.diag",
                       NULL, &dir, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT f.figure, " SUMS ", sum(f.pending) FROM "
                       "flight_totals f GROUP BY f.figure HAVING "
                       "sum(f.flights) > 0 ORDER BY f.figure COLLATE \"C\"",
                       NULL, &fig, e);
    if (st == ST_OK) {
        int k = 0, n = 0;
        buf_puts(b, "{");
        flight_fields(b, &k, all, 0, 0);
        pj_key(b, &k, "pending");
        buf_printf(b, "%lld", (long long)pg_int(all, 0, 4));
        pj_key(b, &k, "by_roll");
        buf_puts(b, "[");
        for (int i = 0; i < PQntuples(roll); i++) {
            int m = 0;
            buf_puts(b, i ? ",{" : "{");
            pj_key(b, &m, "roll");
            pj_num(b, roll, i, 0);
            flight_fields(b, &m, roll, i, 1);
            buf_puts(b, "}");
        }
        buf_puts(b, "]");
        pj_key(b, &k, "by_direction");
        buf_puts(b, "{");
        for (int i = 0; i < PQntuples(dir); i++) {
            int m = 0;
            pj_key(b, &n, pg_int(dir, i, 0) ? "diagonal" : "orthogonal");
            buf_puts(b, "{");
            flight_fields(b, &m, dir, i, 1);
            buf_puts(b, "}");
        }
        buf_puts(b, "}");
        pj_key(b, &k, "by_figure");
        buf_puts(b, "{");
        for (int i = 0, f = 0; i < PQntuples(fig); i++) {
            int m = 0;
            pj_key(b, &f, PQgetvalue(fig, i, 0));
            buf_puts(b, "{");
            flight_fields(b, &m, fig, i, 1);
            pj_key(b, &m, "pending");
            pj_num(b, fig, i, 5);
            buf_puts(b, "}");
        }
        buf_puts(b, "}}");
    }
    PQclear(all);
    PQclear(roll);
    PQclear(dir);
    PQclear(fig);
    return st;
}

static enum status stats_die(struct pg_store *s, struct buf *b, struct err *e)
{
    PGresult *r = NULL, *pl = NULL;
    enum status st = read_rows(
        s,
        "SELECT coalesce(sum(flights) FILTER (WHERE roll = 1), 0), "
        "coalesce(sum(flights) FILTER (WHERE roll = 2), 0), "
        "coalesce(sum(flights) FILTER (WHERE roll = 3), 0) "
        "FROM flight_totals",
        NULL, &r, e);
    if (st == ST_OK)
        st = read_rows(s,
                       "SELECT p.name, t.rolls1, t.rolls2, t.rolls3 FROM "
                       "player_totals t JOIN players p ON p.id = t.player_id "
                       "WHERE t.rolls1 + t.rolls2 + t.rolls3 > 0 ORDER BY "
                       "p.name COLLATE \"C\"",
                       NULL, &pl, e);
    if (st == ST_OK) {
        int k = 0;
        buf_puts(b, "{");
        pj_die(b, &k, pg_int(r, 0, 0), pg_int(r, 0, 1), pg_int(r, 0, 2));
        buf_puts(b, "},\"die_by_player\":[");
        for (int i = 0; i < PQntuples(pl); i++) {
            int m = 0;
            buf_puts(b, i ? ",{" : "{");
            pj_key(b, &m, "name");
            pj_str(b, pl, i, 0);
            pj_die(b, &m, pg_int(pl, i, 1), pg_int(pl, i, 2),
                   pg_int(pl, i, 3));
            buf_puts(b, "}");
        }
        buf_puts(b, "]");
    }
    PQclear(r);
    PQclear(pl);
    return st;
}

enum status pg_stats_json(struct store *base, struct buf *out, struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct buf b = BUF_INIT;
    enum status st = pg_begin(s, true, e); /* one snapshot */
    buf_puts(&b, "{\"games\":");
    if (st == ST_OK)
        st = stats_games(s, &b, e);
    buf_puts(&b, ",\"violations\":");
    if (st == ST_OK)
        st = stats_violations(s, &b, e);
    buf_puts(&b, ",\"scores\":");
    if (st == ST_OK)
        st = stats_scores(s, &b, e);
    buf_puts(&b, ",\"flier\":");
    if (st == ST_OK)
        st = stats_flier(s, &b, e);
    buf_puts(&b, ",\"die\":");
    if (st == ST_OK)
        st = stats_die(s, &b, e);
    buf_puts(&b, "}");
    st = pg_end(s, st, e);
    if (st == ST_OK)
        buf_append(out, b.p, b.len);
    buf_release(&b);
    return st;
}
