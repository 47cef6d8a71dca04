/* russian_promos.h - what the simulator and the tests ask the Russian
 * promos' unit (russian_promos.c). Pure. */
#ifndef CORE_EXP_RUSSIAN_PROMOS_H
#define CORE_EXP_RUSSIAN_PROMOS_H
#include <stddef.h>

#include "core/game.h"

/* May player take meeple m out of the trap segment seg (-1: wherever it
 * is caught) as the turn's action? RULE_OK, or RULE_TRAP_RETURN (not its
 * own, not caught there) or RULE_MEEPLE_SECOND_DEPLOY with why. */
enum rule game_check_trap_return(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len);

/* Meeple m leaves its trap for its owner's supply: the turn's action. */
void game_trap_return(struct game *g, int m);

#endif
