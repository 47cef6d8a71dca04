/* mage.h - Mage & Witch's engine calls, for the simulator and the tests
 * (the unit is src/core/exp/mage.c). fig is FIG_MAGE or FIG_WITCH. */
#ifndef CORE_EXP_MAGE_H
#define CORE_EXP_MAGE_H
#include <stddef.h>

#include "core/game.h"

/* What the turn owes: nothing, a move of the mage or the witch, or one of
 * them taken off the board (no unfinished road or city is left). */
enum mage_due { MAGE_DUE_NONE, MAGE_DUE_MOVE, MAGE_DUE_OFF };

enum mage_due mage_due(const struct game *g);
/* The segment fig stands on, and the root of its feature; -1: off the
 * board (or the game has no mage). */
int mage_seg(const struct game *g, int fig);
int mage_root(const struct game *g, int fig);
/* May fig move onto seg now (an unfinished road or city that neither
 * figure stands on)? RULE_OK or RULE_MAGE_TARGET with why. */
enum rule mage_check_target(const struct game *g, int fig, int seg,
                            char *why, size_t why_len);
/* The features fig may move to, each by its lowest segment (up to max
 * into out, which may be NULL); returns how many there are. */
int mage_targets(const struct game *g, int *out, int max);
/* fig onto seg (-1: off the board); the turn owes nothing more. */
void mage_move(struct game *g, int fig, int seg);

#endif
