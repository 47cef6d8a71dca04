/* bigtop.h - Under the Big Top's calls for the simulator and the tests
 * (the unit: exp/bigtop.c). Pure. */
#ifndef CORE_EXP_BIGTOP_H
#define CORE_EXP_BIGTOP_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* May the turn's action score the pyramid on the acrobat space seg (3
 * figures there, the turn's action free)? RULE_OK or the rule with why. */
enum rule game_check_score_acrobats(const struct game *g, int seg, char *why,
                                    size_t why_len);
/* Scores it (5 a figure to each owner) and sends its figures home; counts
 * the turn's action. */
void game_score_acrobats(struct game *g, int seg);
/* The turn's random number (JCloisterZone's COMMIT random; -1: unknown),
 * which the big top's animal token is drawn with: set before the turn's
 * scoring. */
void game_bigtop_random(struct game *g, double r);
/* Where the big top stands; false while it is off the board. */
bool game_bigtop_at(const struct game *g, struct pos *at);

#endif
