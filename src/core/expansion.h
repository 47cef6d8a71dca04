/* expansion.h - an expansion is a unit: its tiles (data, in
 * src/core/exp/ID.tiles), the feature and figure classes it brings
 * (feature.h), the game elements that switch it on, and the hooks through
 * which the generic engine (board, features, turn, scoring driver, audit)
 * asks it what is special. A NULL hook means "nothing special". The base
 * game, the C3 abbot and garden and The Flier are units like the others.
 *
 * Adding an expansion: its files in each layer's exp/ folder and one
 * registry line per layer; docs/architecture.md, "Adding an expansion",
 * lists them. Pure. */
#ifndef CORE_EXPANSION_H
#define CORE_EXPANSION_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct audit_unit;
struct game;
struct move_class;
struct start_place;
struct rules;
struct score_event;
struct score_item;
struct pos;
struct replay_out;

/* The registry is src/core/exp/units.def: each unit's UNIT line (in
 * its ID.def) gives its EXP_ID, object and id; the order is the order
 * hooks run in and the unit's bit in game_rules_units(). */
enum expansion_id {
#define UNIT(id, obj, name) EXP_##id,
#include "core/exp/units.def"
#undef UNIT
    EXP__COUNT
};

/* Switches a save's elements turn on (setup.elements of a .jcz, the
 * "elements" of a flierlog): the units' SWITCH(ID, key) lines. */
enum rule_flag_bit {
#define SWITCH(id, key) RFB_##id,
#include "core/exp/units.def"
#undef SWITCH
    RF__COUNT
};
enum rule_flag {
#define SWITCH(id, key) RF_##id = 1u << RFB_##id,
#include "core/exp/units.def"
#undef SWITCH
};

/* Things a player holds that are no figures (the units' HOLDING(ID, key)
 * lines). */
enum count {
#define HOLDING(id, key) COUNT_##id,
#include "core/exp/units.def"
#undef HOLDING
    COUNT__COUNT
};

/* Rule variants (setup.rules): the units' OPTION(ID, key, default
 * value, the value of the rule pages, the unit it concerns) lines, and
 * their OPTION_VALUE lines the values a save may give. A .jcz save that
 * names none follows JCloisterZone (the default); a flierlog, a
 * recording of a game at a table, the rule pages while the option's
 * unit is in play. */
enum game_option {
#define OPTION(id, key, def, pages, unit) OPT_##id,
#include "core/exp/units.def"
#undef OPTION
    OPT__COUNT
};

/* A game element a save names: a number of figures per player, a
 * switch, or a number of things per player that are no figures. */
enum element_kind { EL_FIGURES, EL_FLAG, EL_COUNT };

struct element {
    const char *key;     /* JCloisterZone's setup.elements key */
    uint8_t kind;        /* enum element_kind */
    uint8_t what;        /* EL_FIGURES: enum figure; EL_FLAG: bit index;
                            EL_COUNT: enum count */
    uint8_t max;         /* EL_FIGURES, EL_COUNT: the most a player may
                            have */
    bool number;         /* JCloisterZone writes it as a number (counts,
                            and the garden switch), else true/false */
};

/* The value of element el under r (a count, or 0 / 1), and setting it. */
int element_get(const struct rules *r, const struct element *el);
void element_set(struct rules *r, const struct element *el, int v);

struct expansion {
    const char *id;      /* as in the .tiles files and reports: "river" */
    const char *name;    /* for people: "The River" */
    const struct element *elements; /* up to a { NULL } entry */
    const struct move_class *moves; /* the moves it adds (core/move.h), up
                                       to a row whose name is NULL */
    const struct audit_unit *audit; /* the rounds between turns it adds
                                       and its say in the auditor's turn
                                       (core/audit_unit.h), or NULL */

    /* Placement: RULE_OK, or a rule the tile breaks at p turned rot
     * (edges already match), with a sentence in why. */
    int (*check_place)(const struct game *g, int def, struct pos p, int rot,
                       char *why, size_t why_len);
    /* Placement: do def's edges at p turned rot, which do not all match
     * the neighbours', fit all the same (a bridge the placement brings
     * with it)? The unit makes it so in its placed hook. */
    bool (*excuse_edges)(const struct game *g, int def, struct pos p,
                         int rot);
    /* The game starts (start tile placed): set up what the unit keeps. */
    void (*start)(struct game *g);
    /* After a tile is placed (turn or start). */
    void (*placed)(struct game *g, int tile);
    /* May figure fig act this turn although the turn has had `actions`
     * already (deploy, flight, recall)? The default answer is no. */
    bool (*extra_action)(const struct game *g, int fig);
    /* May figure fig use the turn's flying machine? (default: yes, while
     * the turn has had no action) */
    int (*check_flight)(const struct game *g, int fig, char *why,
                        size_t why_len);
    /* Adjusts a scored feature's points and items (inns, cathedrals). */
    void (*score)(const struct rules *r, struct score_event *ev);
    /* What seat p, a winner of a scored feature (root), gets besides its
     * points (a pig in a field): the points, with their term in *item. */
    int (*bonus)(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item);
    /* The deployment of meeple m on seg, for figures the unit judges
     * itself (builder, pig, barn): RULE_OK or a rule with why; -1 for the
     * default checks. */
    int (*check_deploy)(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len);
    /* Meeple m goes back to supply from a completed feature, or was just
     * deployed (not landed). */
    void (*returned)(struct game *g, int m);
    void (*deployed)(struct game *g, int m);
    /* The turn's scoring, before the features it completed score
     * (barns) and after (trade goods, wagons); game.done lists them. */
    void (*turn_scoring)(struct game *g);
    void (*turn_done)(struct game *g);
    /* Does the seat on turn play another part (a builder's tile)? */
    bool (*extra_part)(struct game *g);
    /* Scoring at the end of the game, after the features' (trade goods,
     * barns). */
    void (*final_scoring)(struct game *g);
    /* The feature of root has just scored (turn: its event's, -1 at the
     * end; roots: each meeple's feature root then): events of the unit's
     * own for figures on it (the fairy's). */
    void (*scored)(struct game *g, int root, int turn, const int *roots);
    /* May figure fig be put on seg now (deployed or landed), as far as
     * the unit cares (the dragon's tile)? RULE_OK or a rule with why. */
    int (*check_stand)(const struct game *g, int fig, int seg, char *why,
                       size_t why_len);
    /* May a figure be deployed on seg although its feature holds figures
     * already, because none of them stands on the part that seg visibly
     * belongs to (the labyrinth's roads)? Asked only when the feature is
     * occupied; the default answer is no. */
    bool (*excuse_occupied)(const struct game *g, int seg);
    /* Tiles the seat may place instead of the draw (an abbey it holds):
     * their kinds into kinds[] and how many it holds of each into
     * held[]; returns how many kinds. For a recorder's catalogue. */
    int (*held_tiles)(const struct game *g, int seat, int16_t *kinds,
                      int16_t *held, int max);
    /* The turn's COMMIT came and game.done lists what it completed: true
     * holds the scoring for moves before it (followers leaving the City
     * of Carcassonne); the unit calls game_finish_turn() after them. */
    bool (*hold_scoring)(struct game *g);
    /* A feature was re-formed from its segments segs[0, n), joined across
     * tile sides only (game_split_feature(), after a ferry moved): the
     * unit joins again the links of its own among them and counts the
     * open ends it keeps there (a tunnel's). */
    void (*reformed)(struct game *g, const int16_t *segs, int n);
    /* Folds into the state fingerprint h (with game_hash_mix()) what the
     * unit keeps that tiles, meeples and scores do not show (towers'
     * heights, prisoners, the dragon): board state, not bookkeeping. */
    uint64_t (*hash)(const struct game *g, uint64_t h);
    /* Lists for a replay viewer, with replay_put() (core/replay.h), what
     * of the unit's board state the board's tiles and meeples do not
     * show, after a turn: neutral figures, tokens, marks on tiles (a
     * tower's height), counters (prisoners a seat holds). */
    void (*replay)(const struct game *g, struct replay_out *out);
    /* The start tiles the rules r call for when the unit brings its own
     * start (the City of Carcassonne): how many (at most max) into out;
     * 0 when r does not. Asked before a game exists, so not a hook of
     * the game's units (UNIT_HOOKS). */
    int (*start_layout)(const struct rules *r, struct start_place *out,
                        int max);
    /* Of the seats `left` (more than one) tied with the greatest strength
     * on the feature of root (roots: each meeple's feature root), those
     * the tie goes to (followers on hills). */
    unsigned (*break_tie)(const struct game *g, int root, const int *roots,
                          unsigned left);
    /* How many of the tiles left in the pack nobody will draw (those
     * under hills): the pack is used up when no others are left. */
    int (*pack_kept)(const struct game *g);
    /* The feature of root scores on the board, ev holding its points and
     * items from its class and the units' score hooks: adjusts them by
     * what the unit keeps on that feature that its segments do not carry
     * (a neutral figure standing on it). Before any seat's bonus. */
    void (*adjust_points)(const struct game *g, int root,
                          struct score_event *ev);
};

/* The hooks above, for the engine to know which a game's units have:
 * X(field). */
#define UNIT_HOOKS(X)                                                      \
    X(check_place) X(excuse_edges) X(start) X(placed) X(extra_action) X(check_flight)     \
    X(score) X(bonus) X(check_deploy) X(returned) X(deployed)             \
    X(turn_scoring) X(turn_done) X(extra_part) X(final_scoring)           \
    X(scored) X(check_stand) X(excuse_occupied) X(hold_scoring) X(hash)  \
    X(replay) X(reformed) X(break_tie) X(pack_kept) X(adjust_points)

enum unit_hook {
#define X(h) HOOK_##h,
    UNIT_HOOKS(X)
#undef X
    HOOK__COUNT
};

#define UNIT(id, obj, name) extern const struct expansion obj;
#include "core/exp/units.def"
#undef UNIT

extern const struct expansion *const expansion_units[EXP__COUNT];

/* The unit of an enum expansion_id, or NULL. */
static inline const struct expansion *expansion_get(int id)
{
    return (unsigned)id < EXP__COUNT ? expansion_units[id] : (void *)0;
}
/* The unit with this id ("river"), or -1. */
int expansion_find(const char *id);
/* The element with this key in any unit: its unit in *out_exp. NULL if
 * none. */
const struct element *element_find(const char *key, int *out_exp);
/* The name of an expansion JCloisterZone has and flierd does not audit
 * yet, from a tile set id ("tower:1") or an element key ("tower"), for
 * "unsupported: ..." messages; NULL when it knows none. */
const char *expansion_unsupported(const char *set_or_element);

#endif
