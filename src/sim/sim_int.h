/* sim_int.h - what the simulator lends its units (src/sim/exp/), and the
 * hooks through which it asks them to play what they add.
 *
 * The generic simulator (sim.c) plays tiles, deployments, flights and the
 * actions a unit allows after the first; every other move is a unit's,
 * played from a hook the simulator calls at a fixed point of the turn. A
 * unit's forgeries (forge.c) are rows it lists here too. A unit that adds
 * nothing to simulate has no entry (NULL). Hooks run in the order of the
 * core's units (src/core/exp/units.def); a NULL hook means "nothing here".
 *
 * Adding a unit: its file in src/sim/exp/ and one line in
 * src/sim/exp/units.c. Pure like sim.h. */
#ifndef SIM_SIM_INT_H
#define SIM_SIM_INT_H
#include "sim/sim.h"

/* Empty cells next to the board times four rotations. */
#define SIM_MAX_PLACEMENTS (4 * GAME_MAX_TILES * 4)

struct sim {
    struct game *g;
    struct game_log *log;
    const struct sim_policy *p;
    struct sim_result *res;
    uint64_t rng;
    uint32_t src; /* index of the next message of a .jcz replay */
    bool drew;    /* this turn's draw has taken its random number */
    double redraw;/* after a discard: the number the next tile is drawn
                     with (game_redraw_random()), else -1 */
    double handed;/* the number the COMMIT handed on when a unit used it
                     up (the big top's animal token): the next draw's
                     random as the log keeps it, while the tile comes
                     from redraw, the generator's next; else -1 */
    int n_pack;
    int16_t pack[GAME_MAX_TILES];
    struct placement place[SIM_MAX_PLACEMENTS];
    int targets[GAME_MAX_SEGS]; /* scratch for a unit's choices */
};

/* A chance the policy gives, and its default: { "tower", 0.3 }. Set as
 * sim_policy_rate(p, name); a unit reads it with sim_rate(). */
struct sim_rate {
    const char *name;
    double def;
};

struct forger; /* forge_int.h */

struct sim_unit {
    const struct sim_rate *rates;  /* its chances, up to a NULL name */
    const char *const *counts;     /* its tallies in struct sim_result,
                                      sim_result_count()'s names, up to
                                      NULL */
    /* The edition's game (2: C2, 3: C3) before expansions are added: what
     * it brings of the unit (sim_rules()). */
    void (*edition)(struct rules *r, int edition);

    /* A turn part's moves, in the order the simulator calls them:
     * before the action phase (a ransom); */
    void (*part_start)(struct sim *s, int seat);
    /* the turn's first action, tried after a flight and before a
     * deployment (first_act) or after a deployment (act); true when the
     * seat acted; */
    bool (*first_act)(struct sim *s, int seat);
    bool (*act)(struct sim *s, int seat);
    /* a deployment of figure fig was made on segment seg (tallies); */
    void (*deployed)(struct sim *s, int fig, int seg);
    /* after the actions, before the COMMIT (the dragon's steps); */
    void (*acted)(struct sim *s);
    /* after game_end_turn(), while the scoring may wait for moves; */
    void (*ended)(struct sim *s);
    /* after the turn part's scoring (wagons, the City's offer). */
    void (*after)(struct sim *s);
    /* Before a draw: a turn part without one (a held tile placed, via
     * sim_play_part()) returns true. */
    bool (*before_draw)(struct sim *s);
    /* When the pack is used up, before the final scoring. */
    void (*end)(struct sim *s);

    /* Its forgeries (forge.c), up to a row whose fn is NULL; a unit's rows
     * for a rule are tried before the generic ones, in registry order. */
    const struct forger *forgers;
    /* A figure of the unit that stands on few feature kinds (the
     * abbot): a forged wrong-type deployment tries it first; 0: none
     * (the common follower, FIG_SMALL, is never one). */
    int wrong_type_figure;
};

/* The registry (src/sim/exp/units.c), indexed by enum expansion_id. */
extern const struct sim_unit *const sim_units[EXP__COUNT];

/* ---- what units call ---------------------------------------------------- */

/* chance(rate); uniform in 0..n-1 (n >= 1); uniform in [0, 1). */
bool sim_chance(struct sim *s, double rate);
int sim_below(struct sim *s, int n);
double sim_random(struct sim *s);

/* Unit u's k-th rate of the policy, and its k-th tally (++). */
double sim_rate(const struct sim *s, int u, int k);
void sim_tally(struct sim *s, int u, int k);

/* Appends a move (the next .jcz message); one of tile def; one of meeple
 * mi onto (feature, mask) of the tile at `at`. */
struct move *sim_emit(struct sim *s, enum move_kind kind);
struct move *sim_emit_tile(struct sim *s, enum move_kind kind, int def);
struct move *sim_emit_meeple(struct sim *s, enum move_kind kind, int mi,
                             struct pos at, int feature, uint8_t mask);
/* Meeple mi onto segment seg: sim_emit_meeple() with seg's place. */
struct move *sim_emit_on(struct sim *s, enum move_kind kind, int mi,
                         int seg);

/* The turn part on the tile just placed: actions, COMMIT, scoring and
 * the moves after it. */
void sim_play_part(struct sim *s, int seat);

#endif
