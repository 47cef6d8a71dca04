/* ferries.h - what the simulator and the tests ask The Ferries' unit
 * (ferries.c). Pure. */
#ifndef CORE_EXP_FERRIES_H
#define CORE_EXP_FERRIES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

/* A ferry's place: the lake tile's position and the two road ends it
 * joins (a board-frame mask of two edges). */
struct ferry_place {
    struct pos at;
    uint8_t mask;
};

/* May a ferry go to the lake at `at`, joining the road ends of mask, now
 * (the turn's lake tile's own, or one the turn's roads reach moved)?
 * RULE_OK, or RULE_FERRY / RULE_TURN_SEQUENCE with why. */
enum rule game_check_ferry(const struct game *g, struct pos at,
                           uint8_t mask, char *why, size_t why_len);
/* Puts it there (the caller checked that the two ends are the lake's). */
void game_ferry(struct game *g, struct pos at, uint8_t mask);
/* Does the turn's lake tile still wait for its ferry? */
bool game_ferry_due(const struct game *g);
/* Every ferry placement legal now: the turn's lake's, or else the moves
 * of the ferries the turn's roads reach. Returns the count (stores up
 * to max). */
int game_ferry_options(const struct game *g, struct ferry_place *out,
                       int max);
/* May the ferry on the lake at `at` move now: a road of the turn's tile
 * reaches it first, and it has not moved this turn? */
bool game_ferry_movable(const struct game *g, struct pos at);
/* The road ends at the lake of the tile at `at` (a board-frame mask),
 * 0 when no lake is there. */
uint8_t game_lake_ends(const struct game *g, struct pos at);
/* The ferry on the lake at `at`: its mask, 0 when none. */
uint8_t game_ferry_at(const struct game *g, struct pos at);

#endif
