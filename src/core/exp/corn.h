/* corn.h - The Crop Circles: the round a crop circle opens between turns
 * (exp/corn.c). What the auditor, the simulator and the tests ask of the
 * unit and do through it; the generic engine (game.h) never calls these.
 * Pure. */
#ifndef CORE_EXP_CORN_H
#define CORE_EXP_CORN_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"

/* What the player on turn chose for the round: each asked player adds a
 * follower, or takes one back. */
enum corn_mode { CORN_NONE, CORN_DEPLOY, CORN_REMOVE };

/* The feature kind (enum feat) of the crop circle on tile kind def, or
 * 0 when it has none. */
int corn_kind_of(int def);
/* After a crop circle's turn (its scoring done) while some figure stands
 * on the board: the seat that chooses (the player on turn), else -1. */
int game_corn_chooser(const struct game *g);
/* The round's mode, and the kind of feature of its circle. */
enum corn_mode game_corn_mode(const struct game *g);
int game_corn_kind(const struct game *g);
/* The seat asked now (from the one after the player on turn round to
 * that player, skipping those with nothing to do), or -1. */
int game_corn_asked(const struct game *g);
/* The choice: RULE_OK or RULE_CORN_CIRCLE with why. */
enum rule game_check_corn_choice(const struct game *g, int player,
                                 enum corn_mode mode, char *why,
                                 size_t why_len);
void game_corn_choose(struct game *g, enum corn_mode mode);
/* Meeple m of `player` added onto seg (the spot of one of the player's
 * followers of the circle's kind), or taken back from seg: RULE_OK or a
 * rule with why. */
enum rule game_check_corn_deploy(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len);
enum rule game_check_corn_return(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len);
/* The seat asked answers: meeple m put on seg (deploy), taken back (seg
 * -1), or nothing (m -1, a PASS); the round goes on with the next seat. */
void game_corn_answer(struct game *g, int m, int seg);

#endif
