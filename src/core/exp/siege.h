/* siege.h - the siege (Cult, Siege & Creativity's Cathars and
 * Besiegers, exp/siege.c): besieged cities and the escape from them.
 * What the auditor, the simulator and the tests ask of the unit and do
 * through it; the generic engine (game.h) never calls these. Pure. */
#ifndef CORE_EXP_SIEGE_H
#define CORE_EXP_SIEGE_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* The escape variant (the option "espace-variant", JCloisterZone's
 * spelling): a cloister on or next to any tile of the besieged city, or
 * only to one of its siege tiles. */
enum escape_variant { ESCAPE_ANY_TILE, ESCAPE_SIEGE_TILE };

/* After a turn's scoring (and the wagons' and the City's moves), the
 * player who just played may take one follower out of a besieged city
 * with a cloister on or next to it: that seat, while it has such a
 * follower and has not answered, else -1. */
int game_escape_seat(const struct game *g);
/* May meeple m escape now, taken out by `player`? RULE_OK, or
 * RULE_SIEGE_ESCAPE with why. */
enum rule game_check_escape(const struct game *g, int player, int m,
                            char *why, size_t why_len);
/* Is meeple m (on the board) in a besieged city it may escape from? */
bool game_escapable(const struct game *g, int m);
/* Applies the answer: meeple m back to its owner's supply (no points),
 * or (m < 0) the escape declined. Either way the offer is over. */
void game_escape(struct game *g, int m);
/* Is the feature of seg a besieged city (under the rules' siege)? */
bool game_besieged(const struct game *g, int seg);

#endif
