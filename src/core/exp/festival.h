/* festival.h - what the simulator and the tests ask The Festival's unit
 * (festival.c). Pure. */
#ifndef CORE_EXP_FESTIVAL_H
#define CORE_EXP_FESTIVAL_H
#include <stddef.h>

#include "core/game.h"

/* May player take meeple m (standing on seg; -1: wherever it stands)
 * back to supply as the turn's action, the turn's tile a festival?
 * RULE_OK, or RULE_FESTIVAL_RETURN / RULE_MEEPLE_SECOND_DEPLOY with why. */
enum rule game_check_festival_return(const struct game *g, int player,
                                     int m, int seg, char *why,
                                     size_t why_len);
/* Takes it back (the turn's action). */
void game_festival_return(struct game *g, int m);

#endif
