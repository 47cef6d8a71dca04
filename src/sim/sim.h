/* sim.h - random legal games played through the engine's own API, for
 * tests and for the sample saves.
 *
 * Pure like core: no I/O, no clock, no rand(), no globals. All randomness
 * comes from a private splitmix64 generator seeded by the caller, so one
 * (rules, names, seed, policy) always gives the same game.
 *
 * A turn is what a JCloisterZone save holds: MV_PLACE, then one of
 *   MV_DEPLOY                       a normal deployment
 *   MV_DEPLOY on FEAT_FLIER (roll)  a flight [+ MV_DEPLOY, the landing]
 *   MV_RECALL                       C3: the player's abbot taken back
 *   MV_PASS
 * then MV_COMMIT. A drawn tile that fits nowhere is an MV_DISCARD and the
 * same player draws again (a .jcz writer drops it). Moves name no player
 * (player -1), like the saves of the development corpus; meeple ids do.
 *
 * move.draw follows JCloisterZone's draw (pack sorted by tile id, tile at
 * floor(random x tiles left)): the first tile drawn in a turn carries the
 * random number that draws it, an MV_DISCARD included; a tile drawn again
 * after a discard carries -1 (unknown), as a save cannot tell it. */
#ifndef SIM_SIM_H
#define SIM_SIM_H
#include <stdint.h>

#include "core/game.h"
#include "core/log.h"

/* Probabilities in [0, 1]; they steer choices, never legality. */
struct sim_policy {
    double flier_rate;  /* fly when the tile has a flying machine and some
                         * roll (1..3) would give a landing */
    double deploy_rate; /* otherwise deploy, when a deployment is legal */
    double recall_rate; /* otherwise recall the abbot, when it is out */
};

/* flier 0.7, deploy 0.6, recall 0.15. */
struct sim_policy sim_policy_default(void);

/* What the simulator saw, for tests and sample selection. */
struct sim_result {
    int score[GAME_MAX_PLAYERS]; /* after final scoring */
    uint64_t state_hash;         /* game_hash() of the final state */
    int turns;                   /* tiles placed, start tile excluded */
    int discards;
    int deploys;                 /* normal deployments (any meeple) */
    int abbot_deploys;           /* of which abbots */
    int garden_deploys;          /* of which on a garden */
    int recalls;
    int flights;
    int landed;
};

/* Plays one complete game: the start tile BA/RCr at (0,0), then the rest
 * of the pack the rules declare, shuffled, until it is empty; then final
 * scoring. r->n_players names are read from names[]. out is initialised
 * here (any previous content is dropped without being freed: pass a
 * released or never-used log) and owned by the caller, who releases it
 * with game_log_release(). Its rules are *r, except that a tiny_city
 * other than 2 is stored as 4. Never fails (aborts on OOM). */
void sim_play(const struct rules *r, const char *const names[], uint64_t seed,
              const struct sim_policy *p, struct game_log *out);

/* sim_play() that also fills *out_res (cleared on entry). */
void sim_play_result(const struct rules *r, const char *const names[],
                     uint64_t seed, const struct sim_policy *p,
                     struct game_log *out, struct sim_result *out_res);

#endif
