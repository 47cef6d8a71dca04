/* abbey.h - Abbey & Mayor: the abbey's offer, the wagons' moves (exp/abbey.c).
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_ABBEY_H
#define CORE_EXP_ABBEY_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Is the seat on turn offered its abbey (it holds one and the board has
 * a hole, a square with all four neighbours)? When the pack is used up,
 * the game's last round of abbeys: the seat on turn becomes the next
 * holder after the last to draw a tile, false when none is left. */
bool game_abbey_offered(struct game *g);
/* The seat on turn declines: in the last round the turn moves on. */
void game_abbey_declined(struct game *g);
/* The wagon (meeple index) whose owner moves it or passes next, after a
 * turn scored its feature; -1 when none is waiting. */
int game_wagon_next(struct game *g);
/* May waiting wagon m move onto seg: RULE_OK, or RULE_WAGON_MOVE with
 * why. */
enum rule game_check_wagon_move(const struct game *g, int m, int seg,
                                char *why, size_t why_len);
/* Moves waiting wagon m onto seg (-1: its owner passes) and takes it out
 * of the queue; true when a COMMIT now follows (the owner's last move). */
bool game_wagon_move(struct game *g, int m, int seg);

#endif
