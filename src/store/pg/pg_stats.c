/* pg_stats.c - GET /api/players, /api/players/{name}, /api/stats on
 * PostgreSQL: the aggregate tables count_games() keeps (as sqlite_stats.c
 * reads them), rendered by pg_json.c. Objects keyed by data (features,
 * figures, rules, editions, expansions) list their keys in byte order,
 * COLLATE "C", as SQLite's BINARY collation orders them. Rates and the
 * die test are computed here with the SQLite backend's arithmetic. */
#include <stdlib.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "store/store_rating.h"

#define STR_(x) #x
#define STR(x) STR_(x)

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
 * returned, forced, flier_points, rolls1..3, player_id, rating */
#define PLAYER_COLS                                                            \
    "p.name, t.games, t.finished_games, t.wins, t.score_sum, "                \
    "(SELECT max(gp.score) FROM game_players gp WHERE gp.player_id = "        \
    "t.player_id AND gp.finished = 1), t.flights, t.landed, t.returned, "     \
    "t.forced, t.flier_points, t.rolls1, t.rolls2, t.rolls3, t.player_id, " \
    "(SELECT h.shown FROM rating_history h WHERE h.player_id = t.player_id " \
    "ORDER BY h.played_at DESC, h.game_id DESC LIMIT 1)"

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
    pj_key(b, k, "rating");
    if (pg_cell(r, i, 15))
        pj_real(b, strtod(pg_cell(r, i, 15), NULL));
    else
        buf_puts(b, "null");
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

/* "points": {...}, "by_figure": {...} from the player's rows. */
static void player_rows(struct buf *b, int *k, const PGresult *pts,
                        const PGresult *fig)
{
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

/* As sqlite_rating.c reads them: the player's last rating, the latest
 * RATING_HISTORY_MAX of their history, their flights' luck. */
static const char SQL_PLAYER_RATING[] =
    "SELECT h.mu, h.sigma, (SELECT count(*) FROM rating_history c WHERE "
    "c.player_id = p.id) FROM players p JOIN rating_history h ON "
    "h.player_id = p.id WHERE p.name = $1 "
    "ORDER BY h.played_at DESC, h.game_id DESC LIMIT 1";
static const char SQL_PLAYER_HISTORY[] =
    "SELECT game_id, played_at, shown FROM (SELECT h.game_id, h.played_at, "
    "h.shown FROM players p JOIN rating_history h ON h.player_id = p.id "
    "WHERE p.name = $1 ORDER BY h.played_at DESC, h.game_id DESC LIMIT "
    STR(RATING_HISTORY_MAX) ") x ORDER BY played_at, game_id";
static const char SQL_PLAYER_LUCK[] =
    "SELECT count(*), count(*) FILTER (WHERE outcome = 'landed'), "
    "coalesce(sum(k), 0), coalesce(sum(k * (3 - k)), 0), "
    "coalesce((SELECT t.flier_points FROM players q JOIN player_totals t "
    "ON t.player_id = q.id WHERE q.name = $1), 0) FROM (SELECT "
    "f.outcome, (f.n_roll1 > 0)::int + (f.n_roll2 > 0)::int + "
    "(f.n_roll3 > 0)::int AS k FROM players p JOIN game_players gp ON "
    "gp.player_id = p.id JOIN games g ON g.id = gp.game_id JOIN flights f "
    "ON f.game_id = gp.game_id AND f.seat = gp.seat WHERE p.name = $1 AND "
    "g.dup_of IS NULL AND f.outcome IN ('landed', 'returned') AND "
    "f.bad_roll = 0) x";

/* ,"rating":...,"luck":... from r[0..3): rating, history, luck. */
static void rating_luck(struct buf *out, const struct pg_stmt *r)
{
    int64_t n = PQntuples(r[0].res) ? pg_int(r[0].res, 0, 2) : 0;
    rating_json_open(out, n ? strtod(PQgetvalue(r[0].res, 0, 0), NULL) : 0,
                     n ? strtod(PQgetvalue(r[0].res, 0, 1), NULL) : 0, n);
    for (int i = 0; n && i < PQntuples(r[1].res); i++)
        rating_json_item(out, (size_t)i, pg_int(r[1].res, i, 0),
                         pg_int(r[1].res, i, 1),
                         strtod(PQgetvalue(r[1].res, i, 2), NULL));
    rating_json_close(out, n);
    luck_json(out, pg_int(r[2].res, 0, 0), pg_int(r[2].res, 0, 1),
              pg_int(r[2].res, 0, 2), pg_int(r[2].res, 0, 3),
              pg_int(r[2].res, 0, 4));
}

enum status pg_player_json(struct store *base, const char *name,
                           struct buf *out, struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_params p;
    int k = 0;
    pp_reset(&p);
    pp_text(&p, name);
    /* one snapshot, one round trip */
    struct pg_stmt r[7] = {
        { .sql = "SELECT " PLAYER_COLS " FROM players p JOIN player_totals t "
                 "ON t.player_id = p.id WHERE p.name = $1",
          .p = &p },
        { .sql = "SELECT pp.feature, pp.points FROM players p JOIN "
                 "player_points pp ON pp.player_id = p.id WHERE p.name = $1 "
                 "AND pp.n > 0 ORDER BY pp.feature COLLATE \"C\"",
          .p = &p },
        { .sql = "SELECT f.figure, f.flights, f.landed, f.returned, f.forced "
                 "FROM players p JOIN player_figures f ON f.player_id = p.id "
                 "WHERE p.name = $1 AND f.flights > 0 ORDER BY f.figure "
                 "COLLATE \"C\"",
          .p = &p },
        { .sql = SQL_RECENT, .p = &p },
        { .sql = SQL_PLAYER_RATING, .p = &p },
        { .sql = SQL_PLAYER_HISTORY, .p = &p },
        { .sql = SQL_PLAYER_LUCK, .p = &p },
    };
    enum status st = pg_read_all(s, r, 7, "read statistics", e);
    const PGresult *t = r[0].res;
    if (st == ST_OK && PQntuples(t) == 0)
        st = err_set(e, ST_NOT_FOUND, "no player '%s'", name);
    if (st == ST_OK) {
        buf_puts(out, "{");
        player_fields(out, &k, t, 0);
        player_rows(out, &k, r[1].res, r[2].res);
        pj_key(out, &k, "returned");
        pj_num(out, t, 0, 8);
        pj_key(out, &k, "forced_returns");
        pj_num(out, t, 0, 9);
        pj_key(out, &k, "flier_points");
        pj_num(out, t, 0, 10);
        pj_key(out, &k, "die");
        int m = 0;
        buf_puts(out, "{");
        pj_die(out, &m, pg_int(t, 0, 11), pg_int(t, 0, 12), pg_int(t, 0, 13));
        buf_puts(out, "}");
        rating_luck(out, r + 4);
        buf_puts(out, ",\"recent\":");
        recent_json(out, r[3].res);
        buf_puts(out, "}");
    }
    pg_pipeline_clear(r, 7);
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

/* The statistics' reads, in the order pg_stats_json() renders them. */
enum {
    Q_GAMES, Q_EDITIONS, Q_EXPANSIONS, Q_RULES, Q_RULES_ALL, Q_SCORES,
    Q_FLIGHTS, Q_BY_ROLL, Q_BY_DIR, Q_BY_FIGURE, Q_DIE, Q_DIE_PLAYERS,
    Q__COUNT
};

#define SUMS "sum(f.flights), sum(f.landed), sum(f.returned), sum(f.forced)"
/* The luck's sums over rows whose roll is a die's (schema/pg/004), then
 * the points: SQLite's LUCK_FIELDS. */
#define DIE_SUM(col) "sum(f." col ") FILTER (WHERE f.roll BETWEEN 1 AND 3)"
#define LUCK_SUMS                                                             \
    DIE_SUM("landed") ", " DIE_SUM("thirds") ", " DIE_SUM("ninths")         \
    ", sum(f.points)"

static const char *const stats_sql[Q__COUNT] = {
    [Q_GAMES] = "SELECT coalesce(sum(n), 0), "
                "coalesce(sum(n) FILTER (WHERE valid = 1), 0), "
                "coalesce(sum(n) FILTER (WHERE valid = 0), 0), "
                "coalesce(sum(n) FILTER (WHERE finished = 1), 0), "
                "coalesce(sum(n) FILTER (WHERE live <> 0), 0), "
                "coalesce(sum(n) FILTER (WHERE status = 'unsupported'), 0) "
                "FROM game_totals",
    [Q_EDITIONS] = "SELECT edition, sum(n) FROM game_totals WHERE "
                   "edition <> '' GROUP BY edition HAVING sum(n) > 0 "
                   "ORDER BY edition COLLATE \"C\"",
    [Q_EXPANSIONS] = "SELECT expansion, n FROM expansion_totals WHERE "
                     "n > 0 ORDER BY expansion COLLATE \"C\"",
    [Q_RULES] = "SELECT rule, n FROM rule_totals WHERE n <> 0 "
                "ORDER BY rule COLLATE \"C\"",
    [Q_RULES_ALL] = "SELECT coalesce(sum(n), 0) FROM rule_totals",
    [Q_SCORES] = "SELECT bucket, n FROM score_hist ORDER BY bucket",
    [Q_FLIGHTS] = "SELECT " SUMS ", sum(f.pending), " LUCK_SUMS
                  " FROM flight_totals f",
    [Q_BY_ROLL] = "SELECT r.roll, " SUMS ", sum(f.thirds), sum(f.points) "
                  "FROM (VALUES (1), (2), (3)) "
                  "AS r (roll) LEFT JOIN flight_totals f ON f.roll = "
                  "r.roll GROUP BY r.roll ORDER BY r.roll",
    [Q_BY_DIR] = "SELECT d.diag, " SUMS ", " LUCK_SUMS
                 " FROM (VALUES (0), (1)) AS d "
                 "(diag) LEFT JOIN flight_totals f ON f.diagonal = "
                 "d.diag GROUP BY d.diag ORDER BY d.diag",
    [Q_BY_FIGURE] = "SELECT f.figure, " SUMS ", sum(f.pending) FROM "
                    "flight_totals f GROUP BY f.figure HAVING "
                    "sum(f.flights) > 0 ORDER BY f.figure COLLATE \"C\"",
    [Q_DIE] = "SELECT coalesce(sum(flights) FILTER (WHERE roll = 1), 0), "
              "coalesce(sum(flights) FILTER (WHERE roll = 2), 0), "
              "coalesce(sum(flights) FILTER (WHERE roll = 3), 0) "
              "FROM flight_totals",
    [Q_DIE_PLAYERS] = "SELECT p.name, t.rolls1, t.rolls2, t.rolls3 FROM "
                      "player_totals t JOIN players p ON p.id = t.player_id "
                      "WHERE t.rolls1 + t.rolls2 + t.rolls3 > 0 ORDER BY "
                      "p.name COLLATE \"C\"",
};

static void stats_games(struct buf *b, PGresult *const *r)
{
    static const char *const keys[] = {
        "total", "valid", "invalid", "finished", "live", "unsupported",
    };
    int k = 0;
    buf_puts(b, "{");
    for (int i = 0; i < 6; i++) {
        pj_key(b, &k, keys[i]);
        pj_num(b, r[Q_GAMES], 0, i);
    }
    pj_key(b, &k, "by_edition");
    object_of(b, r[Q_EDITIONS]);
    pj_key(b, &k, "by_expansion");
    object_of(b, r[Q_EXPANSIONS]);
    buf_puts(b, "}");
}

static void stats_violations(struct buf *b, PGresult *const *r)
{
    const PGresult *rules = r[Q_RULES];
    /* by_rule keeps SQLite's "n > 0" (a negative count is a damaged
     * table, for flierd check to find) */
    buf_printf(b, "{\"total\":%lld,\"by_rule\":{",
               (long long)pg_int(r[Q_RULES_ALL], 0, 0));
    for (int i = 0, k = 0; i < PQntuples(rules); i++) {
        if (pg_int(rules, i, 1) <= 0)
            continue;
        pj_key(b, &k, PQgetvalue(rules, i, 0));
        pj_num(b, rules, i, 1);
    }
    buf_puts(b, "}}");
}

static void stats_scores(struct buf *b, PGresult *const *q)
{
    const PGresult *r = q[Q_SCORES];
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

/* ,"expected","luck","spread","points" from columns c .. c + 3 of row i:
 * landed, thirds, ninths (of die rolls), points. */
static void luck_fields(struct buf *b, const PGresult *r, int i, int c)
{
    buf_puts(b, ",");
    luck_fields_json(b, pg_int(r, i, c), pg_int(r, i, c + 1),
                     pg_int(r, i, c + 2));
    buf_printf(b, ",\"points\":%lld", (long long)pg_int(r, i, c + 3));
}

static void stats_flier(struct buf *b, PGresult *const *q)
{
    const PGresult *all = q[Q_FLIGHTS], *roll = q[Q_BY_ROLL],
                   *dir = q[Q_BY_DIR], *fig = q[Q_BY_FIGURE];
    int k = 0, n = 0;
    buf_puts(b, "{");
    flight_fields(b, &k, all, 0, 0);
    pj_key(b, &k, "pending");
    buf_printf(b, "%lld", (long long)pg_int(all, 0, 4));
    luck_fields(b, all, 0, 5);
    pj_key(b, &k, "by_roll");
    buf_puts(b, "[");
    for (int i = 0; i < PQntuples(roll); i++) {
        int m = 0;
        buf_puts(b, i ? ",{" : "{");
        pj_key(b, &m, "roll");
        pj_num(b, roll, i, 0);
        flight_fields(b, &m, roll, i, 1);
        buf_printf(b, ",\"expected\":%.2f,\"points\":%lld",
                   luck_figure(LUCK_EXPECTED, 0, pg_int(roll, i, 5), 0),
                   (long long)pg_int(roll, i, 6));
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
        luck_fields(b, dir, i, 5);
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

static void stats_die(struct buf *b, PGresult *const *q)
{
    const PGresult *r = q[Q_DIE], *pl = q[Q_DIE_PLAYERS];
    int k = 0;
    buf_puts(b, "{");
    pj_die(b, &k, pg_int(r, 0, 0), pg_int(r, 0, 1), pg_int(r, 0, 2));
    buf_puts(b, "},\"die_by_player\":[");
    for (int i = 0; i < PQntuples(pl); i++) {
        int m = 0;
        buf_puts(b, i ? ",{" : "{");
        pj_key(b, &m, "name");
        pj_str(b, pl, i, 0);
        pj_die(b, &m, pg_int(pl, i, 1), pg_int(pl, i, 2), pg_int(pl, i, 3));
        buf_puts(b, "}");
    }
    buf_puts(b, "]");
}

enum status pg_stats_json(struct store *base, struct buf *out, struct err *e)
{
    struct pg_store *s = pg_of(base);
    struct pg_stmt q[Q__COUNT];
    PGresult *r[Q__COUNT];
    for (int i = 0; i < Q__COUNT; i++)
        q[i] = (struct pg_stmt){ .sql = stats_sql[i] };
    /* one snapshot, one round trip */
    enum status st = pg_read_all(s, q, Q__COUNT, "read statistics", e);
    if (st == ST_OK) {
        for (int i = 0; i < Q__COUNT; i++)
            r[i] = q[i].res;
        buf_puts(out, "{\"games\":");
        stats_games(out, r);
        buf_puts(out, ",\"violations\":");
        stats_violations(out, r);
        buf_puts(out, ",\"scores\":");
        stats_scores(out, r);
        buf_puts(out, ",\"flier\":");
        stats_flier(out, r);
        buf_puts(out, ",\"die\":");
        stats_die(out, r);
        buf_puts(out, "}");
    }
    pg_pipeline_clear(q, Q__COUNT);
    return st;
}
