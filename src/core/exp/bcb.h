/* bcb.h - Bridges, Castles & Bazaars' calls for the simulator and the
 * tests (exp/bcb.c). */
#ifndef CORE_EXP_BCB_H
#define CORE_EXP_BCB_H
#include <stddef.h>

#include "core/game.h"

/* Castles player still holds. */
int bcb_castles_left(const struct game *g, int player);
/* May the city of seg become player's castle now (after the turn's
 * action, before its COMMIT)? RULE_OK, or RULE_CASTLE_PLACEMENT with
 * why. */
enum rule bcb_check_castle(const struct game *g, int player, int seg,
                           char *why, size_t why_len);
/* Makes it so (its follower stays, as the castle's). */
void bcb_castle(struct game *g, int player, int seg);

#endif
