/* sqlite_rating.c - the ratings on SQLite (store_rating.h): the games a
 * transaction touched mark their place in the play order, and before it
 * commits the ratings are computed again from the earliest one. */
#include "store/sqlite_int.h"

/* Ratings from (?1, ?2) on are computed again: the rows go first. */
static const char SQL_DROP_FROM[] =
    "DELETE FROM rating_history WHERE (played_at, game_id) >= (?1, ?2)";

/* The rated games from (?1, ?2) on, in play order, seat by seat. */
static const char SQL_GAMES_FROM[] =
    "SELECT g.id, g.uploaded_at, gp.player_id, gp.rank FROM games g "
    "JOIN game_players gp ON gp.game_id = g.id WHERE " RATED_GAME("g")
    " AND (g.uploaded_at, g.id) >= (?1, ?2) "
    "ORDER BY g.uploaded_at, g.id, gp.seat";

/* The last rating before (?1, ?2) of each player of those games (their
 * later rows are gone by now). */
static const char SQL_SEEDS[] =
    "SELECT p.player_id, h.mu, h.sigma FROM (SELECT DISTINCT gp.player_id "
    "FROM games g JOIN game_players gp ON gp.game_id = g.id WHERE "
    RATED_GAME("g") " AND (g.uploaded_at, g.id) >= (?1, ?2)) p "
    "JOIN rating_history h ON h.player_id = p.player_id AND h.game_id = "
    "(SELECT x.game_id FROM rating_history x WHERE x.player_id = "
    "p.player_id ORDER BY x.played_at DESC, x.game_id DESC LIMIT 1)";

static const char SQL_INSERT[] =
    "INSERT INTO rating_history (game_id, player_id, played_at, mu, sigma, "
    "shown) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

static enum status read_from(struct sq_store *s, const char *sql,
                             struct rating_run *run, bool seeds,
                             struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_prepare(s, sql, &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, s->rmark.at);
        sqlite3_bind_int64(st, 2, s->rmark.id);
    }
    while (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "read the rated games", e);
            break;
        }
        if (seeds)
            rating_run_seed(run, sqlite3_column_int64(st, 0),
                            sqlite3_column_double(st, 1),
                            sqlite3_column_double(st, 2));
        else
            rating_run_seat(run, sqlite3_column_int64(st, 0),
                            sqlite3_column_int64(st, 1),
                            sqlite3_column_int64(st, 2),
                            sqlite3_column_int(st, 3));
    }
    sqlite3_finalize(st);
    return res;
}

static enum status write_rows(struct sq_store *s, const struct rating_run *run,
                              struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(s, SQL_INSERT, &st, e);
    for (size_t i = 0; i < run->n_rows && res == ST_OK; i++) {
        const struct rating_row *r = &run->rows[i];
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, r->game_id);
        sqlite3_bind_int64(st, 2, r->player_id);
        sqlite3_bind_int64(st, 3, r->at);
        sqlite3_bind_double(st, 4, r->mu);
        sqlite3_bind_double(st, 5, r->sigma);
        sqlite3_bind_double(st, 6, r->shown);
        res = sq_step_done(s, st, "write a rating", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_rating_refresh(struct sq_store *s, struct err *e)
{
    struct rating_run run;
    sqlite3_stmt *st = NULL;
    if (!s->rmark.dirty || s->base.ratings_deferred)
        return ST_OK;
    rating_run_init(&run);
    enum status res = sq_cached(s, SQL_DROP_FROM, &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, s->rmark.at);
        sqlite3_bind_int64(st, 2, s->rmark.id);
        res = sq_step_done(s, st, "drop ratings", e);
    }
    sq_release(s, st);
    if (res == ST_OK)
        res = read_from(s, SQL_SEEDS, &run, true, e);
    if (res == ST_OK)
        res = read_from(s, SQL_GAMES_FROM, &run, false, e);
    rating_run_finish(&run);
    if (res == ST_OK)
        res = write_rows(s, &run, e);
    if (res == ST_OK) {
        res = sq_cached(s, "DELETE FROM rating_stale", &st, e);
        if (res == ST_OK)
            res = sq_step_done(s, st, "clear rating_stale", e);
        sq_release(s, st);
    }
    if (res == ST_OK)
        s->rmark.dirty = false;
    rating_run_release(&run);
    return res;
}

enum status sq_rating_mark_stored(struct sq_store *s, int64_t id,
                                  struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(
        s, "SELECT g.uploaded_at FROM games g WHERE g.id = ?1 AND "
        RATED_GAME("g"), &st, e);
    if (res == ST_OK) {
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            rating_mark_at(&s->rmark, sqlite3_column_int64(st, 0), id);
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "find a rated game", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_rating_stale(struct sq_store *s, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = sq_cached(
        s, "SELECT played_at, game_id FROM rating_stale", &st, e);
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            rating_mark_at(&s->rmark, sqlite3_column_int64(st, 0),
                           sqlite3_column_int64(st, 1));
        else if (rc != SQLITE_DONE)
            res = sq_fail(s, rc, "read rating_stale", e);
    }
    sq_release(s, st);
    return res;
}

enum status sq_ratings_rebuild(struct store *base, struct err *e)
{
    struct sq_store *s = sq_of(base);
    if (s->read_only)
        return err_set(e, ST_DB, "the store is open read-only");
    enum status st = sq_begin(s, e);
    if (st == ST_OK)
        rating_mark_at(&s->rmark, INT64_MIN, INT64_MIN);
    return sq_end(s, st, e);
}

/* ---- a player's rating and luck (GET /api/players/{name}) ------------ */

static const char SQL_PLAYER_RATING[] =
    "SELECT h.mu, h.sigma, (SELECT count(*) FROM rating_history c WHERE "
    "c.player_id = p.id) FROM players p JOIN rating_history h ON "
    "h.player_id = p.id WHERE p.name = ?1 "
    "ORDER BY h.played_at DESC, h.game_id DESC LIMIT 1";

static const char SQL_PLAYER_HISTORY[] =
    "SELECT game_id, played_at, shown FROM (SELECT h.game_id, h.played_at, "
    "h.shown FROM players p JOIN rating_history h ON h.player_id = p.id "
    "WHERE p.name = ?1 ORDER BY h.played_at DESC, h.game_id DESC LIMIT ?2) "
    "ORDER BY played_at, game_id";

/* The player's flights with an outcome and a die's roll, in the games
 * that count: k is how many of the three rolls offered a landing; and
 * the points their flights won. */
static const char SQL_PLAYER_LUCK[] =
    "SELECT count(*), coalesce(sum(outcome = 'landed'), 0), "
    "coalesce(sum(k), 0), coalesce(sum(k * (3 - k)), 0), "
    "coalesce((SELECT t.flier_points FROM players q JOIN player_totals t "
    "ON t.player_id = q.id WHERE q.name = ?1), 0) FROM (SELECT "
    "f.outcome, (f.n_roll1 > 0) + (f.n_roll2 > 0) + (f.n_roll3 > 0) AS k "
    "FROM players p JOIN game_players gp ON gp.player_id = p.id "
    "JOIN games g ON g.id = gp.game_id JOIN flights f ON f.game_id = "
    "gp.game_id AND f.seat = gp.seat WHERE p.name = ?1 AND g.dup_of IS NULL "
    "AND f.outcome IN ('landed', 'returned') AND NOT f.bad_roll)";

static enum status player_query(struct sq_store *s, const char *sql,
                                const char *name, sqlite3_stmt **out,
                                struct err *e)
{
    enum status res = sq_prepare(s, sql, out, e);
    if (res == ST_OK) {
        sq_bind_text(*out, 1, name);
        sqlite3_bind_int(*out, 2, RATING_HISTORY_MAX);
    }
    return res;
}

static enum status player_rating(struct sq_store *s, const char *name,
                                 struct buf *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    double mu = 0, sigma = 0;
    int64_t n = 0;
    enum status res = player_query(s, SQL_PLAYER_RATING, name, &st, e);
    int rc = res == ST_OK ? sqlite3_step(st) : SQLITE_DONE;
    if (rc == SQLITE_ROW) {
        mu = sqlite3_column_double(st, 0);
        sigma = sqlite3_column_double(st, 1);
        n = sqlite3_column_int64(st, 2);
    } else if (rc != SQLITE_DONE) {
        res = sq_fail(s, rc, "read the rating", e);
    }
    sqlite3_finalize(st);
    st = NULL;
    if (res != ST_OK)
        return res;
    rating_json_open(out, mu, sigma, n);
    if (n == 0)
        return ST_OK;
    res = player_query(s, SQL_PLAYER_HISTORY, name, &st, e);
    for (size_t i = 0; res == ST_OK; i++) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            res = sq_fail(s, rc, "read the rating history", e);
            break;
        }
        rating_json_item(out, i, sqlite3_column_int64(st, 0),
                         sqlite3_column_int64(st, 1),
                         sqlite3_column_double(st, 2));
    }
    sqlite3_finalize(st);
    rating_json_close(out, n);
    return res;
}

enum status sq_player_rating_json(struct sq_store *s, const char *name,
                                  struct buf *out, struct err *e)
{
    sqlite3_stmt *st = NULL;
    enum status res = player_rating(s, name, out, e);
    if (res == ST_OK)
        res = player_query(s, SQL_PLAYER_LUCK, name, &st, e);
    if (res == ST_OK) {
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            luck_json(out, sqlite3_column_int64(st, 0),
                      sqlite3_column_int64(st, 1),
                      sqlite3_column_int64(st, 2),
                      sqlite3_column_int64(st, 3),
                      sqlite3_column_int64(st, 4));
        else
            res = sq_fail(s, rc, "read the flier's luck", e);
    }
    sqlite3_finalize(st);
    return res;
}
