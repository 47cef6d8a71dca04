/* monasteries.h - the special monasteries' abbot place (exp/monasteries.c).
 * What the simulator and the tests ask of the unit; the generic engine
 * never calls it. Pure. */
#ifndef CORE_EXP_MONASTERIES_H
#define CORE_EXP_MONASTERIES_H
#include "core/game.h"

/* The rows of tiles placed one after another from the tile of seg going
 * north, east, south and west (board frame) until the first empty square,
 * into rows[4]; returns 1 + their sum, an abbot's points at the end. */
int monasteries_rows(const struct game *g, int seg, int rows[4]);

#endif
