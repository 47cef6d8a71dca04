/* store_record.h - what both backends of the store derive alike from a
 * game record (store_record.c): the rows they write hold the same
 * values, whichever database keeps them. */
#ifndef STORE_STORE_RECORD_H
#define STORE_STORE_RECORD_H
#include "store/store.h"

/* What one seat did in one game (the game_players sums, and the points
 * by feature kind or score class for game_player_points: a row for each
 * the seat scored with, even for 0 points). */
struct seat_sum {
    int pts[FEAT__CLASSES];
    bool scored[FEAT__CLASSES];
    int flights, landed, returned, forced, flier_points;
    int rolls[3];
    int rank;
    bool has_claim;
    int claimed;
};

/* Fills sum[0 .. GAME_MAX_PLAYERS) for audited game g: points by
 * feature, flights, rolls, rank and claimed final score per seat. */
void record_summarise(const struct game_record *g, struct seat_sum *sum);
/* "C3" when the sets include basic:2, else "C2". */
const char *record_edition(const struct rules *r);
/* {"basic:1":1,"flier:1":1}: the sets in play, appended to out. */
void record_sets_json(const struct rules *r, struct buf *out);
/* {"small-follower":7,"farmers":true,...}: the elements of the units in
 * play, in the units' order, appended to out. */
void record_elements_json(const struct rules *r, struct buf *out);
/* File and player names, one per line, for the q filter. */
void record_search_text(const struct game_record *g, struct buf *out);
/* s as a JSON string, escaped as SQLite's json_quote() escapes it (no
 * spaces, \uXXXX in lower case); NULL is null. Appended to out. */
void record_json_string(struct buf *out, const char *s);
/* The list entry's players array ([{"name":..,"color":..,"score":..,
 * "rank":..,"claimed":..}]) and winners array (their names), as SQLite's
 * json_object() and json_quote() write them; appended. */
void record_players_json(const struct game_record *g,
                         const struct seat_sum *sum, struct buf *players,
                         struct buf *winners);
/* ["road:E","city:N"]: the flight's landing options; out is cleared. */
void record_options_json(const struct flight *f, struct buf *out);

#endif
