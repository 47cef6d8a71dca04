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

/* Bridges player still holds. */
int bcb_bridges_left(const struct game *g, int player);
/* May the player on turn put a bridge across axis (an edge mask, N|S or
 * W|E) of the tile at `at` now? RULE_OK, or RULE_BRIDGE_PLACEMENT with
 * why. */
enum rule bcb_check_bridge(const struct game *g, struct pos at,
                           unsigned axis, char *why, size_t why_len);
/* Builds it: a road across the tile, joined to what lies beyond. */
void bcb_bridge(struct game *g, struct pos at, unsigned axis);

/* The seat whose say it is at the bazaar's auction now, or -1 when no
 * auction is on. */
int bcb_bazaar_asked(const struct game *g);

#endif
