/* forge.h - deliberately illegal games, for testing the auditor.
 *
 * sim_forge() takes a legal game (one sim_play() gave) and changes one
 * move of one turn so that it breaks a given rule, then audits the result
 * with the engine and keeps it only when the auditor's first violation is
 * that rule at that turn. Pure like sim.h: the seed picks the turn. */
#ifndef SIM_FORGE_H
#define SIM_FORGE_H
#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/log.h"

#define SIM_FORGE_HOW_MAX 160

struct sim_forgery {
    enum rule rule;
    int turn;                    /* where the auditor must report it */
    int figure;                  /* enum figure of a forged flight, or -1 */
    char how[SIM_FORGE_HOW_MAX]; /* "placed XX/Forged, an unknown id" */
};

/* Every rule sim_forge() can break, in enum order; returns the count and
 * stores up to max. */
int sim_forge_rules(enum rule *out, int max);
/* The same, less the rules whose forgers need a unit r does not put in
 * play (RIVER_ORDER needs The River, FLIER_USED a second figure a turn:
 * the phantom; each unit's rows in src/sim/exp/ say). */
int sim_forge_rules_for(const struct rules *r, enum rule *out, int max);

/* Writes into out (initialised here; the caller releases it with
 * game_log_release() on true, nothing to release on false) a copy of the
 * legal game in with one illegal change breaking rule, at a turn chosen
 * from seed among those where the change is possible. A forged flight is
 * made by a figure the seed picks among those the rules give (so a large
 * follower or a phantom lands on a field too). Returns false when the
 * game offers no such turn. Never fails otherwise (aborts on OOM). */
bool sim_forge(const struct game_log *in, enum rule rule, uint64_t seed,
               struct game_log *out, struct sim_forgery *out_f);

/* sim_forge() with the forged flight made by `figure` (enum figure), for
 * the rules whose forgery is a flight and its landing (FLIER_BAD_ROLL,
 * FLIER_NO_TILE, FLIER_FIELD, FLIER_COMPLETED, FLIER_BAD_FEATURE; with
 * Abbey & Mayor MEEPLE_WRONG_TYPE too: a mayor landing on a road, a
 * wagon on a field); false when no turn allows it (that figure is never
 * in the supply on a tile with a flying machine, ...) or the rule is not
 * one of those. */
bool sim_forge_flight(const struct game_log *in, enum rule rule, int figure,
                      uint64_t seed, struct game_log *out,
                      struct sim_forgery *out_f);

/* Does the audit report r flag f: first violation f->rule at f->turn? */
struct report;
bool sim_forgery_flagged(const struct report *r, const struct sim_forgery *f);

#endif
