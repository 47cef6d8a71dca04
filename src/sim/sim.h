/* sim.h - random legal games played through the engine's own API, for
 * tests and for the sample saves.
 *
 * Pure like core: no I/O, no clock, no rand(), no globals. All randomness
 * comes from a private splitmix64 generator seeded by the caller, so one
 * (rules, names, seed, policy) always gives the same game.
 *
 * A turn is what a JCloisterZone save holds: MV_PLACE, then the action
 * phase, one of
 *   MV_DEPLOY                       a normal deployment
 *   MV_DEPLOY on FEAT_FLIER (roll)  a flight [+ MV_DEPLOY, the landing]
 *   a unit's action instead of a deployment (struct sim_unit.first_act,
 *   tried before one, and .act, after)
 *   MV_PASS
 * then, after the first action, each further action a unit allows (the
 * phantom's phase: a deployment or flight of the phantom, or MV_PASS;
 * nothing at all when the engine offers nothing), then MV_COMMIT. A
 * drawn tile that fits nowhere is an MV_DISCARD and the same player
 * draws again (a .jcz writer drops it). Moves name no player (player
 * -1), like the saves of the development corpus; meeple ids do.
 *
 * The other moves a unit adds, at the start of a turn, before its
 * COMMIT, between turns (where JCloisterZone writes them) or after the
 * last, are played by its file in src/sim/exp/, whose head says which
 * and where, from the hooks of struct sim_unit (sim_int.h) the simulator
 * calls at those points; its chances and tallies are named rows of
 * struct sim_policy and struct sim_result. A tile a seat holds (the
 * abbey) is drawn by no random number; its MV_PLACE carries one anyway
 * (the COMMIT before it has one in a save), which no draw uses.
 *
 * The draw is JCloisterZone's: only the open tile group can be drawn (the
 * river's tiles first), and the tile at floor(random x tiles open) of the
 * pack sorted by tile id is drawn. The simulator shuffles each group and
 * plays them in order, and move.draw carries the random number that draws
 * each tile (game_pack_random()): the first tile drawn in a turn carries
 * it, an MV_DISCARD included; a tile drawn again after a discard carries
 * -1 (unknown), as a save cannot tell it. */
#ifndef SIM_SIM_H
#define SIM_SIM_H
#include <stdint.h>

#include "core/game.h"
#include "core/log.h"
#include "util/err.h"

/* Probabilities in [0, 1]; they steer choices, never legality. */
#define SIM_MAX_RATES 32
struct sim_policy {
    double flier_rate;  /* fly when the tile has a flying machine and some
                         * roll (1..3) would give a landing */
    double deploy_rate; /* otherwise deploy, when a deployment is legal */
    double recall_rate; /* otherwise recall a figure, when one may be */
    double extra_rate;  /* after the turn's first action, act again when a
                         * unit allows it and the engine offers something
                         * (the phantom), else pass */
    double unit_rate[SIM_MAX_RATES]; /* the units' own, by name through
                                      * sim_policy_rate() */
};

/* flier 0.7, deploy 0.6, recall 0.15, extra 0.6, and each unit's rate its
 * default (src/sim/exp/). */
struct sim_policy sim_policy_default(void);
/* Every rate, the units' too, v (policy extremes for tests). */
struct sim_policy sim_policy_uniform(double v);
/* The unit rate called name ("abbey": place the held tile when offered,
 * "wagon", "tower", "capture", "ransom", "city"), to read or set; NULL
 * when no unit has one. */
double *sim_policy_rate(struct sim_policy *p, const char *name);

/* What the simulator saw, for tests and sample selection. */
#define SIM_MAX_COUNTS 48
struct sim_result {
    int score[GAME_MAX_PLAYERS]; /* after final scoring */
    uint64_t state_hash;         /* game_hash() of the final state */
    int turns;                   /* tiles placed, start tile excluded */
    int discards;
    int deploys;                 /* normal deployments (any meeple) */
    int recalls;
    int flights;
    int landed;
    int extra_actions;           /* actions after the turn's first */
    int deploys_by[FIG__COUNT];  /* normal deployments, per figure */
    int flights_by[FIG__COUNT];  /* flights, per figure that flew */
    int landed_by[FIG__COUNT];
    int extra_flights;           /* flights that were a second action */
    int extra_parts;             /* a seat's second turn part (builder) */
    int unit_count[SIM_MAX_COUNTS]; /* the units' own tallies, by name
                                     * through sim_result_count() */
};

/* The unit tally called name, e.g. "held_placed" (tiles a seat held
 * placed), "held_declined", "wagon_moves", "wagon_passes",
 * "abbot_deploys", "garden_deploys", "tower_floors", "tower_tops",
 * "captures", "ransoms", "fairy_moves", "princess_removals",
 * "dragon_steps", "city_deploys", "count_moves", "city_leaves"; 0 when
 * no unit keeps one. */
int sim_result_count(const struct sim_result *r, const char *name);

/* Plays one complete game: the start tile (sim_start_tile()) at (0,0),
 * or the start a unit lays out (game_start_layout(): the City),
 * then the rest of the pack the rules declare, drawn as JCloisterZone
 * draws it, until it is empty; then final scoring. r->n_players names are read from names[]. out is initialised
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

/* The start tile of a game with these rules: the spring of The River when
 * a set holds one (a tile of a group that is never drawn), else the base
 * game's BA/RCr. */
int sim_start_tile(const struct rules *r);

/* What a simulated game is played with, as `flierd simulate` and the
 * sample tool name it. The edition (2: C2, the ":1" sets; 3: C3, the ":2"
 * sets with abbots and gardens) gives the base game and The Flier, seven
 * followers each and farmers. Then, each a comma-separated list (NULL or
 * "" adds nothing):
 *   expansions  units by id ("river,inns,phantom"): each brings its first
 *               tile set of the edition by id (The River: river/1) and
 *               every element it has, figures and held tiles (abbeys) as
 *               many as the element allows, switches on;
 *   sets        tile sets by id, "river/2" (of the edition) or with the
 *               edition spelt out, "river/2:1";
 *   elements    game elements by key, "big-follower" (figures and held
 *               tiles: as many as allowed), "phantom=1", "abbey=1",
 *               "farmers=0" (a switch off). */
struct sim_setup {
    int edition;
    const char *expansions;
    const char *sets;
    const char *elements;
};

/* Fills *out (rules_init() first) for n_players seats. ST_PARSE with the
 * offending word in e->msg for an unknown or malformed name,
 * ST_UNSUPPORTED for an expansion JCloisterZone has and flierd does not
 * audit yet; *out is then unspecified. */
enum status sim_rules(const struct sim_setup *s, int n_players,
                      struct rules *out, struct err *e) WARN_UNUSED;

#endif
