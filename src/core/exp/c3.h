/* c3.h - the third edition's abbot: its recall (exp/c3.c).
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_C3_H
#define CORE_EXP_C3_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* Takes abbot m back and scores its monastery/garden as at game end. */
void game_recall(struct game *g, int m);

#endif
