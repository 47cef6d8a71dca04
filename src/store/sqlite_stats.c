/* sqlite_stats.c - GET /api/players, /api/players/{name}, /api/stats.
 *
 * Everything here reads the aggregate tables the store keeps at every
 * commit (player_totals, player_points, player_figures, game_totals,
 * expansion_totals, flight_totals, rule_totals, score_hist; see
 * schema/005 and 006), so the cost does not grow with the number of
 * games; only a player's recent games touch game_players, through its
 * (player_id, game_id) index. Points by feature and flights by
 * figure are rows, rendered as objects keyed by whatever names the rows
 * hold: an expansion's new feature or figure needs no change here.
 *
 * Rates are landed / (landed + returned): pending flights (the log ends
 * before the landing) have no outcome yet. The die test counts rolls 1..3
 * of every flight (an out-of-range roll is a violation, not a roll):
 * chi-square against 1/3 each, p = exp(-x/2) for 2 degrees of freedom,
 * both null when there are no rolls. */
#include <string.h>

#include "store/sqlite_int.h"

#define RATE(l, r)                                                             \
    "iif((" l ") + (" r ") > 0, 1.0 * (" l ") / ((" l ") + (" r ")), NULL)"

/* Runs sql (with ?1 bound to text when text is non-NULL) and appends the
 * first column of every row to out, comma-separated. *out_rows counts
 * them. */
static enum status append_rows(struct sq_store *s, const char *sql,
                               const char *text, struct buf *out, int *out_rows,
                               struct err *e)
{
    sqlite3_stmt *st = NULL;
    int rows = 0;
    enum status res = sq_prepare(s, sql, &st, e);
    if (res == ST_OK && text)
        sq_bind_text(st, 1, text);
    while (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "read statistics", e);
            break;
        }
        buf_puts(out, rows++ ? "," : "");
        if (sqlite3_column_type(st, 0) == SQLITE_NULL)
            buf_puts(out, "null");
        else
            sq_append_col(out, st, 0);
    }
    sqlite3_finalize(st);
    if (out_rows)
        *out_rows = rows;
    return res;
}

/* ---- players ---------------------------------------------------------- */

#define PLAYER_FIELDS                                                          \
    "'name', p.name, 'games', t.games, 'finished_games', t.finished_games, "   \
    "'wins', t.wins, 'average', iif(t.finished_games > 0, "                    \
    "1.0 * t.score_sum / t.finished_games, NULL), "                            \
    "'best', t.best, "                                                         \
    "'flights', t.flights, 'landed', t.landed, "                               \
    "'landing_rate', " RATE("t.landed", "t.returned") ", "                    \
    "'rating', (SELECT h.shown FROM rating_history h WHERE h.player_id = "    \
    "t.player_id ORDER BY h.played_at DESC, h.game_id DESC LIMIT 1)"

enum status sq_players_json(struct store *base, struct buf *out, struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct buf rows = BUF_INIT;
    enum status res = append_rows(
        s,
        "SELECT json_object(" PLAYER_FIELDS ") FROM player_totals t "
        "JOIN players p ON p.id = t.player_id ORDER BY p.name",
        NULL, &rows, NULL, e);
    if (res == ST_OK)
        buf_printf(out, "{\"players\":[%s]}", rows.p ? rows.p : "");
    buf_release(&rows);
    return res;
}

#define DIE_FIELDS(r1, r2, r3)                                                 \
    "'rolls', json_array(" r1 ", " r2 ", " r3 "), "                            \
    "'n', " r1 " + " r2 " + " r3 ", "                                          \
    "'chi_square', die_chi2(" r1 ", " r2 ", " r3 "), "                         \
    "'p_value', die_p(die_chi2(" r1 ", " r2 ", " r3 "))"

/* A player's flights of one figure (player_figures f). */
#define FIGURE_FIELDS                                                          \
    "'flights', f.flights, 'landed', f.landed, 'returned', f.returned, "       \
    "'forced_returns', f.forced, "                                             \
    "'landing_rate', " RATE("f.landed", "f.returned")

static const char SQL_PLAYER[] =
    "SELECT json_object(" PLAYER_FIELDS ", "
    "'points', (SELECT json_group_object(pp.feature, pp.points) FROM "
    "player_points pp WHERE pp.player_id = t.player_id AND pp.n > 0), "
    "'by_figure', (SELECT json_group_object(pf.figure, json(pf.x)) FROM "
    "(SELECT f.figure, json_object(" FIGURE_FIELDS ") AS x "
    "FROM player_figures f WHERE f.player_id = t.player_id "
    "AND f.flights > 0) AS pf), "
    "'returned', t.returned, 'forced_returns', t.forced, "
    "'flier_points', t.flier_points, "
    "'die', json_object(" DIE_FIELDS(
        "t.rolls1", "t.rolls2",
        "t.rolls3") "))"
                    " FROM players p JOIN player_totals t ON t.player_id = "
                    "p.id "
                    "WHERE p.name = ?1";

static const char SQL_RECENT[] =
    "SELECT json_object('id', g.id, 'name', g.name, "
    "'uploaded_at', g.uploaded_at, 'edition', g.edition, "
    "'valid', json(iif(g.valid, 'true', 'false')), "
    "'finished', json(iif(g.finished, 'true', 'false')), "
    "'seat', gp.seat, 'score', gp.score, 'rank', gp.rank, "
    "'claimed', gp.claimed, 'winner', json(iif(gp.winner, 'true', 'false')),"
    " 'flights', gp.flights, 'landed', gp.landed) "
    "FROM players p JOIN game_players gp ON gp.player_id = p.id "
    "JOIN games g ON g.id = gp.game_id WHERE p.name = ?1 "
    "ORDER BY gp.game_id DESC LIMIT 20";

enum status sq_player_json(struct store *base, const char *name,
                              struct buf *out, struct err *e)
{
    struct sq_store *s = sq_of(base);
    struct buf obj = BUF_INIT, recent = BUF_INIT, more = BUF_INIT;
    int rows = 0;
    enum status res = sq_begin_read(s, e); /* one snapshot */
    if (res == ST_OK)
        res = append_rows(s, SQL_PLAYER, name, &obj, &rows, e);
    if (res == ST_OK && rows == 0)
        res = err_set(e, ST_NOT_FOUND, "no player '%s'", name);
    if (res == ST_OK)
        res = append_rows(s, SQL_RECENT, name, &recent, NULL, e);
    if (res == ST_OK)
        res = sq_player_rating_json(s, name, &more, e);
    res = sq_end(s, res, e);
    if (res == ST_OK) {
        buf_append(out, obj.p, obj.len - 1); /* drop the '}' */
        buf_append(out, more.p, more.len);
        buf_printf(out, ",\"recent\":[%s]}", recent.p ? recent.p : "");
    }
    buf_release(&more);
    buf_release(&obj);
    buf_release(&recent);
    return res;
}

/* ---- stats ----------------------------------------------------------- */

/* An unsupported game's edition, valid and finished are '' and -1 in
 * game_totals: it counts in total and unsupported only. */
static const char SQL_GAMES[] =
    "SELECT json_object("
    "'total', (SELECT coalesce(sum(n), 0) FROM game_totals), "
    "'valid', (SELECT coalesce(sum(n), 0) FROM game_totals "
    "WHERE valid = 1), "
    "'invalid', (SELECT coalesce(sum(n), 0) FROM game_totals "
    "WHERE valid = 0), "
    "'finished', (SELECT coalesce(sum(n), 0) FROM game_totals "
    "WHERE finished = 1), "
    "'live', (SELECT coalesce(sum(n), 0) FROM game_totals WHERE live), "
    "'unsupported', (SELECT coalesce(sum(n), 0) FROM game_totals "
    "WHERE status = 'unsupported'), "
    "'by_edition', (SELECT json_group_object(edition, k) FROM (SELECT "
    "edition, sum(n) AS k FROM game_totals WHERE edition <> '' "
    "GROUP BY edition HAVING k > 0)), "
    "'by_expansion', (SELECT json_group_object(expansion, n) FROM (SELECT "
    "expansion, n FROM expansion_totals WHERE n > 0 ORDER BY expansion)))";

static const char SQL_VIOLATIONS[] =
    "SELECT json_object("
    "'total', (SELECT coalesce(sum(n), 0) FROM rule_totals), "
    "'by_rule', (SELECT json_group_object(rule, n) FROM (SELECT rule, n "
    "FROM rule_totals WHERE n > 0 ORDER BY rule)))";

/* Final scores of every player of every finished game, by tens. */
static const char SQL_SCORES[] =
    "SELECT json_object('bucket', 10, "
    "'count', (SELECT coalesce(sum(n), 0) FROM score_hist), "
    "'histogram', (SELECT json_group_array(json(x)) FROM (SELECT "
    "json_object('from', bucket * 10, 'to', bucket * 10 + 9, 'count', n) "
    "AS x FROM score_hist WHERE n > 0 ORDER BY bucket)))";

#define FLIGHT_FIELDS                                                          \
    "'flights', coalesce(sum(f.flights), 0), "                                 \
    "'landed', coalesce(sum(f.landed), 0), "                                   \
    "'returned', coalesce(sum(f.returned), 0), "                               \
    "'forced_returns', coalesce(sum(f.forced), 0), "                           \
    "'landing_rate', " RATE("sum(f.landed)", "sum(f.returned)")

/* The luck's sums over the rows of f whose roll is a die's (a bad roll
 * has no odds): landed, thirds, ninths (schema/011). */
#define DIE_SUM(col) "sum(iif(f.roll BETWEEN 1 AND 3, f." col ", 0))"
#define LUCK_ARGS DIE_SUM("landed") ", " DIE_SUM("thirds") ", " DIE_SUM("ninths")
#define LUCK_FIELDS                                                            \
    "'expected', json(luck_figure(0, " LUCK_ARGS ")), "                        \
    "'luck', json(luck_figure(1, " LUCK_ARGS ")), "                            \
    "'spread', json(luck_figure(2, " LUCK_ARGS ")), "                          \
    "'points', coalesce(sum(f.points), 0)"

/* By roll, the luck would say nothing: once the die shows a roll, its
 * target decides the landing. What a roll's flights had before the
 * roll (expected) says whether that distance reaches land more often
 * than the odds of the three. */
static const char SQL_FLIER[] =
    "SELECT json_object(" FLIGHT_FIELDS ", "
    "'pending', coalesce(sum(f.pending), 0), " LUCK_FIELDS ", "
    "'by_roll', (SELECT json_group_array(json(x)) FROM (SELECT "
    "json_object('roll', r.roll, " FLIGHT_FIELDS ", 'expected', "
    "json(luck_figure(0, 0, sum(f.thirds), 0)), 'points', "
    "coalesce(sum(f.points), 0)) AS x FROM (SELECT 1 AS roll "
    "UNION ALL SELECT 2 UNION ALL SELECT 3) AS r LEFT JOIN flight_totals f ON "
    "f.roll = r.roll "
    "GROUP BY r.roll ORDER BY r.roll)), "
    "'by_direction', (SELECT json_group_object(d.name, json(x)) FROM (SELECT "
    "d.name, json_object(" FLIGHT_FIELDS ", " LUCK_FIELDS ") AS x FROM "
    "(SELECT 0 AS diag, 'orthogonal' AS name UNION ALL SELECT 1, "
    "'diagonal') AS d LEFT JOIN "
    "flight_totals f ON f.diagonal = d.diag GROUP BY d.diag ORDER BY "
    "d.diag) AS d), "
    "'by_figure', (SELECT json_group_object(g.figure, json(x)) FROM (SELECT "
    "f.figure, json_object(" FLIGHT_FIELDS ", 'pending', "
    "coalesce(sum(f.pending), 0)) AS x FROM flight_totals f "
    "GROUP BY f.figure HAVING sum(f.flights) > 0 ORDER BY f.figure) AS g)) "
    "FROM flight_totals f";

#define ROLLS(k)                                                               \
    "(SELECT coalesce(sum(flights), 0) FROM flight_totals "                    \
    "WHERE roll = " #k ")"

static const char SQL_DIE[] =
    "SELECT json_object(" DIE_FIELDS(ROLLS(1), ROLLS(2), ROLLS(3)) ")";

static const char SQL_DIE_PLAYERS[] =
    "SELECT json_group_array(json(x)) FROM (SELECT json_object('name', "
    "p.name, " DIE_FIELDS(
        "t.rolls1", "t.rolls2",
        "t.rolls3") ") AS x "
                    "FROM player_totals t JOIN players p ON p.id = t.player_id "
                    "WHERE t.rolls1 + t.rolls2 + t.rolls3 > 0 ORDER BY p.name)";

enum status sq_counts(struct store *base, struct store_counts *out,
                      struct err *e)
{
    struct sq_store *s = sq_of(base);
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(
        s,
        "SELECT coalesce(sum(n), 0), "
        "coalesce(sum(CASE WHEN valid = 1 THEN n END), 0), "
        "coalesce(sum(CASE WHEN valid = 0 THEN n END), 0), "
        "coalesce(sum(CASE WHEN status = 'unsupported' THEN n END), 0), "
        "coalesce(sum(CASE WHEN live THEN n END), 0) FROM game_totals",
        &st, e);
    if (res != ST_OK)
        return res;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        out->total = sqlite3_column_int64(st, 0);
        out->valid = sqlite3_column_int64(st, 1);
        out->invalid = sqlite3_column_int64(st, 2);
        out->unsupported = sqlite3_column_int64(st, 3);
        out->live = sqlite3_column_int64(st, 4);
    } else {
        res = sq_fail(s, rc, "count games", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_stats_json(struct store *base, struct buf *out, struct err *e)
{
    struct sq_store *s = sq_of(base);
    static const struct {
        const char *key, *sql;
    } parts[] = {
        {"games", SQL_GAMES},   {"violations", SQL_VIOLATIONS},
        {"scores", SQL_SCORES}, {"flier", SQL_FLIER},
        {"die", SQL_DIE},       {"die_by_player", SQL_DIE_PLAYERS},
    };
    struct buf body = BUF_INIT;
    enum status res = sq_begin_read(s, e); /* one snapshot */
    buf_puts(&body, "{");
    for (size_t i = 0; i < sizeof parts / sizeof *parts && res == ST_OK; i++) {
        buf_printf(&body, "%s\"%s\":", i ? "," : "", parts[i].key);
        res = append_rows(s, parts[i].sql, NULL, &body, NULL, e);
    }
    buf_puts(&body, "}");
    res = sq_end(s, res, e);
    if (res == ST_OK)
        buf_append(out, body.p, body.len);
    buf_release(&body);
    return res;
}
