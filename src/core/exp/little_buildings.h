/* little_buildings.h - what the simulator and the tests ask the Little
 * Buildings unit (little_buildings.c). Pure. */
#ifndef CORE_EXP_LITTLE_BUILDINGS_H
#define CORE_EXP_LITTLE_BUILDINGS_H
#include <stddef.h>

#include "core/game.h"

/* The kinds of building, in JCloisterZone's order of its tokens. */
enum little_building { LB_SHED, LB_HOUSE, LB_TOWER, LB__KINDS };

/* How many buildings of kind k player still has. */
int game_buildings_left(const struct game *g, int player, int k);
/* May player put a building of kind k on the square at instead of the
 * turn's action? RULE_OK, or RULE_LITTLE_BUILDING / a turn's rule with
 * why. */
enum rule game_check_building(const struct game *g, int player, int k,
                              struct pos at, char *why, size_t why_len);
/* Puts it there (the turn's action). */
void game_build(struct game *g, int player, int k, struct pos at);

#endif
