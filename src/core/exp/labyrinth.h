/* labyrinth.h - what the simulator and the tests ask The Labyrinth's
 * unit (labyrinth.c). Pure. */
#ifndef CORE_EXP_LABYRINTH_H
#define CORE_EXP_LABYRINTH_H
#include <stdbool.h>

#include "core/game.h"

/* Is seg a road segment of a road that runs through the labyrinth, other
 * than the labyrinth's own (an arm leading in)? */
bool game_labyrinth_arm(const struct game *g, int seg);

#endif
