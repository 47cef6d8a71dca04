/* store_rating.h - the ratings the store keeps (docs/schema.md,
 * "Ratings"), shared by both backends: which games are rated, in which
 * order, and the pass that rates them from a point of that order. Each
 * backend reads the games and the players' last ratings in its own SQL,
 * feeds them through a rating_run, and writes the rows it made.
 *
 * Rated: an audited, valid, finished game that counts (not a later
 * upload of a stored content), not live, of two players or more. Its
 * place in the play order is its upload time, then its id: logs carry
 * no date of play. A write marks the earliest place it touched; before
 * the transaction commits, the ratings are computed again from there
 * (a game arriving in order rates that game alone). */
#ifndef STORE_STORE_RATING_H
#define STORE_STORE_RATING_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/rating.h"
#include "store/store.h"
#include "util/buf.h"

/* The SQL test of a rated game, on games row alias g (both dialects). */
#define RATED_GAME(g)                                                    \
    g ".status = 'audited' AND " g ".valid = 1 AND " g ".finished = 1 "  \
    "AND " g ".live = 0 AND " g ".dup_of IS NULL AND " g ".n_players >= 2"

/* The earliest place in the play order whose ratings a transaction
 * changed, or none (dirty false). */
struct rating_mark {
    bool dirty;
    int64_t at, id;
};
void rating_mark_at(struct rating_mark *m, int64_t at, int64_t id);

/* Could this record be rated (dup_of aside, which the write decides)? */
bool rating_record_rated(const struct game_record *g);

/* One row of rating_history: a player's belief after a game. */
struct rating_row {
    int64_t game_id, player_id, at;
    double mu, sigma, shown;
};

/* A pass over rated games in play order. Seed it with each player's
 * last rating before the pass's start (a player not seeded starts new),
 * then hand it the seats of each game in order. */
struct rating_run {
    int64_t *ids; /* open addressing on player id; 0 is empty */
    struct rating *r;
    size_t cap, n;
    struct rating_row *rows;
    size_t n_rows, cap_rows;
    int64_t game, at; /* the game being gathered (0: none) */
    int n_seats;
    int64_t players[GAME_MAX_PLAYERS];
    int ranks[GAME_MAX_PLAYERS];
};
void rating_run_init(struct rating_run *run);
void rating_run_release(struct rating_run *run);
void rating_run_seed(struct rating_run *run, int64_t player, double mu,
                     double sigma);
/* A seat of game (seats of a game come together, games in play order). */
void rating_run_seat(struct rating_run *run, int64_t game, int64_t at,
                     int64_t player, int rank);
/* Rates the last game handed in; rows are complete after it. */
void rating_run_finish(struct rating_run *run);

/* The rating as the API shows it, rounded to hundredths. */
double rating_round(double x);


/* What GET /api/players/{name} adds, rendered here for both backends
 * (numbers to two decimals, so the bytes agree):
 * "rating": {"rating", "mu", "sigma", "games", "history": [{"game_id",
 * "played_at", "rating"}]} (null when the player has no rated game),
 * opened by rating_json_open (n_games 0: null, and nothing to close)
 * and closed by rating_json_close after the history's items. */
void rating_json_open(struct buf *out, double mu, double sigma,
                      int64_t n_games);
void rating_json_item(struct buf *out, size_t i, int64_t game_id,
                      int64_t played_at, double shown);
void rating_json_close(struct buf *out, int64_t n_games);
/* "luck": {"flights", "landed", "expected", "luck", "spread", "points"}
 * from the flights with an outcome and a die's roll: landed of them,
 * thirds = sum of k (the rolls of 3 that offered a landing), ninths =
 * sum of k (3 - k); points: what the player's flights won (each scoring
 * once, player_totals.flier_points). */
void luck_json(struct buf *out, int64_t flights, int64_t landed,
               int64_t thirds, int64_t ninths, int64_t points);
/* "expected":x,"luck":y,"spread":z (no braces, no comma), the figures
 * luck_figure() gives, for /api/stats' luck by direction. */
void luck_fields_json(struct buf *out, int64_t landed, int64_t thirds,
                      int64_t ninths);
/* One of those figures rounded to hundredths (never -0), so that both
 * backends print the same bytes: SQLite's statistics take it through a
 * SQL function (luck_figure(what, landed, thirds, ninths)). */
enum luck_what { LUCK_EXPECTED, LUCK_LUCK, LUCK_SPREAD };
double luck_figure(enum luck_what what, int64_t landed, int64_t thirds,
                   int64_t ninths);
/* The history a player page shows: the latest so many rated games. */
#define RATING_HISTORY_MAX 500

#endif
