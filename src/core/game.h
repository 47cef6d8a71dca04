/* game.h - the generic engine: board, features, figures, the turn and
 * the scoring driver, with the legality checks the auditor and the
 * simulator share. What an expansion changes it asks the expansion's
 * unit (expansion.h) and the feature and figure classes (feature.h).
 *
 * Pure: no I/O, no clock, no randomness, no globals. Die rolls arrive as
 * data. A struct game is one replay; it never shares state with another.
 *
 * Turn model (JCloisterZone's, which our own format follows too):
 *   game_start()            the start tile (turn 0)
 *   game_place()            the tile of the turn
 *   actions: game_deploy() | a flight (game_fly() and, when the target
 *            offers a landing, game_land()) | game_recall(); one a turn,
 *            more where a unit allows it (the phantom)
 *   game_end_turn()         scores what the tile completed, returns figures
 *   ...
 *   game_final_scoring()    after the last turn
 * The game_check_*() functions say whether a step is legal without
 * changing anything; the mutators assume the caller checked (the auditor
 * applies some illegal steps on purpose, "as logged"), and keep the state
 * consistent. Read struct game freely; change it through these functions
 * only. */
#ifndef CORE_GAME_H
#define CORE_GAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/expansion.h"
#include "core/feature.h"
#include "core/tiles.h"
#include "tiles_gen.h"

#define BOARD_BITS 8
#define BOARD_SPAN (1 << BOARD_BITS) /* coordinates in [-128, 127] */
#define GAME_MAX_TILES 256
#define GAME_MAX_SEGS (GAME_MAX_TILES * TILE_MAX_SEGS)
#define GAME_MAX_PLAYERS 6
#define GAME_MAX_FOLLOWERS 16       /* small followers per player */
#define GAME_MAX_SEAT_FIGURES 24    /* every figure of one player */
#define GAME_MAX_MEEPLES (GAME_MAX_PLAYERS * GAME_MAX_SEAT_FIGURES)
#define GAME_GRID_MIN 32 /* side of the board window a game starts with */
#define GAME_MAX_SET_COPIES 3
#define GAME_MAX_ITEMS 5 /* terms of one score event (an abbot's: its
                            tile and four rows) */
#define GAME_MAX_EV_FLIGHTS 8 /* flights one score event credits; in a
                                 feature where more flown followers
                                 count, the later ones' flights go
                                 without (the seat's fliers bit not) */
#define GAME_MAX_DONE 32 /* features one turn may complete */
#define UNIT_STATE_WORDS 48 /* what a unit keeps in a game, 8 bytes each
                               (The Tower: a height per tile) */

struct pos {
    int x, y;
};

/* What a game is played with; filled by a log reader. The expansions in
 * play follow from it (game_rules_units()). */
struct rules {
    uint8_t set_copies[TILE_SETS]; /* copies of each tile set */
    int n_players;                 /* 1..GAME_MAX_PLAYERS */
    uint8_t figures[FIG__COUNT];   /* figures of each kind per player */
    uint8_t counts[COUNT__COUNT];  /* other things per player (abbeys) */
    uint32_t flags;                /* enum rule_flag */
    int opt[OPT__COUNT];           /* rule variants, by enum game_option */
};

/* Rules with nothing in play: no sets, no figures, no flags, every
 * option at its default. */
void rules_init(struct rules *r);
/* Bit per enum expansion_id whose unit the rules put in play: the base
 * game always; a unit when one of its sets or elements is used. */
uint64_t game_rules_units(const struct rules *r);
/* The option's default value and its key; the option with this key (or
 * -1); a value a save writes ("C1", "2") as the option's value (or -1),
 * and back (NULL: none). */
int option_default(int opt);
/* The value a flierlog (a game recorded at a table) means when it names
 * none: the rule pages' while the option's unit is in play under r. */
int option_log_default(const struct rules *r, int opt);
const char *option_key(int opt);
int option_find(const char *key);
int option_parse(int opt, const char *name);
const char *option_value_name(int opt, int value);
/* The rule flag's key ("farmers"), by bit index. */
const char *rule_flag_key(int bit);

/* Stable rule ids (docs/architecture.md says what each means), X(ID):
 * the generic ones; each unit adds its own (RULE lines in its ID.def). */
#define RULES(X)                                                           \
    X(OK)                                                                  \
    X(TILE_UNKNOWN)                                                        \
    X(TILE_NOT_IN_PACK)                                                    \
    X(TILE_NOT_DRAWN)                                                      \
    X(TILE_OCCUPIED)                                                       \
    X(TILE_NOT_ADJACENT)                                                   \
    X(TILE_EDGE_MISMATCH)                                                  \
    X(TILE_DISCARD_FITS)                                                   \
    X(MEEPLE_NONE_LEFT)                                                    \
    X(MEEPLE_NOT_ON_PLACED_TILE)                                           \
    X(MEEPLE_FEATURE_OCCUPIED)                                             \
    X(MEEPLE_WRONG_TYPE)                                                   \
    X(MEEPLE_SECOND_DEPLOY)                                                \
    X(FLIER_NO_MACHINE)                                                    \
    X(FLIER_USED)                                                          \
    X(FLIER_BAD_ROLL)                                                      \
    X(FLIER_WRONG_TARGET)                                                  \
    X(FLIER_NO_TILE)                                                       \
    X(FLIER_FIELD)                                                         \
    X(FLIER_COMPLETED)                                                     \
    X(FLIER_BAD_FEATURE)                                                   \
    X(FLIER_MUST_LAND)                                                     \
    X(ABBOT_RECALL)                                                        \
    X(TURN_ORDER)                                                          \
    X(TURN_SEQUENCE)                                                       \
    X(SCORE_MISMATCH)

enum rule {
#define X(id) RULE_##id,
    RULES(X)
#undef X
#define RULE(id) RULE_##id,
#include "core/exp/units.def"
#undef RULE
    RULE__COUNT
};

const char *rule_id(enum rule r);
/* The rule with this id ("FLIER_FIELD"), or -1. */
int rule_find(const char *id);

/* One connected piece of a feature on one placed tile. */
struct seg {
    uint8_t kind;     /* enum feat */
    uint8_t mask;     /* board frame: edges or half-edges */
    uint8_t pennants;
    uint8_t cities;   /* field: board-frame edges of touched city segments */
    uint8_t adjoin;   /* groups of neighbours in the tile (seg_def.adjoin) */
    uint8_t meeples;  /* root only: figures standing on the feature */
    uint16_t attrs;   /* enum seg_attr (here, so that the segment keeps
                         its 20 bytes) */
    uint16_t tile;    /* index into game.tiles */
    uint16_t parent;  /* the feature's root segment (a flat union-find) */
    uint16_t next;    /* the feature's segments as a circular list */
    uint16_t open;    /* root only: unmatched edges (road, city) */
    uint16_t size;    /* root only: segments in the feature */
    uint16_t min;     /* root only: its lowest segment, the feature's id */
};

struct placed {
    int16_t def;      /* tile_get() index */
    uint8_t rot;
    int8_t flier_dir; /* board frame, or NO_FLIER */
    int16_t x, y;
    uint16_t seg0;    /* first segment; the tile's segments are contiguous */
    uint8_t n_seg;
    uint16_t turn;
    uint16_t edges;   /* board frame: edge kinds, 4 bits a side */
    /* nibble i of side_slots: 1 + the offset from seg0 of the road or city
     * segment on board side i (0: none); of half_slots: the same for the
     * field on board half-edge i */
    uint16_t side_slots;
    uint32_t half_slots;
};

/* A meeple's strength when it is its city's pennants (the mayor). */
#define STRENGTH_PENNANTS 0xFF

/* Move figures with game_deploy(), game_land() and game_recall() only:
 * the features count who stands on them. */
struct meeple {
    int8_t owner;
    uint8_t kind;     /* enum figure */
    uint8_t n;        /* 1-based id within owner and kind */
    uint8_t strength; /* its weight in majorities, 0: no follower,
                         STRENGTH_PENNANTS: its city's pennants */
    int16_t seg;      /* segment it stands on, MEEPLE_SUPPLY in supply,
                         MEEPLE_HELD neither (a prisoner of The Tower) */
    bool flew;        /* it arrived where it stands by flight */
    uint16_t flight;  /* that flight: 1 + its index in the audit's
                         report, 0 when the mover was no audit (a
                         simulation) or it did not fly */
};
#define MEEPLE_SUPPLY (-1)
#define MEEPLE_HELD (-2)

/* Is the figure in its owner's supply (not on the board, not held)? */
static inline bool meeple_in_supply(const struct meeple *m)
{
    return m->seg == MEEPLE_SUPPLY;
}

/* A piece of a score receipt: a tile of the scored road or city, the
 * monastery/garden tile, or (for a field) a completed city it touches
 * (its lowest tile and size). */
struct feature_ref {
    int16_t x, y;
    uint8_t kind;     /* enum feat of the segment there */
    uint8_t mask;     /* its board-frame location */
    uint16_t size;    /* field refs: tiles of that city; else 1 */
};

/* The terms a score is the sum of (JCloisterZone's "items"):
 * X(ID, name). */
#define SCORE_ITEMS(X)                                                     \
    X(TILES, "tiles")                                                      \
    X(PENNANTS, "pennants")                                                \
    X(CITIES, "cities")

enum score_item_kind {
#define X(id, name) SI_##id,
    SCORE_ITEMS(X)
#undef X
#define SCORE_TERM(id, name, receipt) SI_##id,
#include "core/exp/units.def"
#undef SCORE_TERM
    SI__COUNT
};

struct score_item {
    uint8_t kind;     /* enum score_item_kind */
    int16_t count;    /* how many, or -1 when the term has no count (an
                         inn doubles the road: its points only) */
    int16_t points;
};

/* How a feature was scored: X(ID, suffix of the expression name, what a
 * receipt says of it besides "completed" or "incomplete"). */
#define SCORE_EXPRS(X)                                                     \
    X(DONE, "", NULL)                                                      \
    X(INCOMPLETE, ".incomplete", NULL)                                     \
    X(EMPTY, ".empty", "no one there has strength")

enum score_expr {
#define X(id, suffix, note) EXPR_##id,
    SCORE_EXPRS(X)
#undef X
#define SCORE_EXPR(id, suffix, note) EXPR_##id,
#include "core/exp/units.def"
#undef SCORE_EXPR
    EXPR__COUNT
};

/* "city.incomplete": the feature's name and the expression's suffix;
 * fields are "field" at any time. */
const char *score_item_name(int kind);
void score_expr_format(int feature, int expr, char *out, size_t len);
/* What a receipt says of the expression ("joined to a barn"), or NULL. */
const char *score_expr_note(int expr);

/* A score event with what a receipt needs. */
struct score_event {
    int turn;         /* -1: final scoring */
    uint8_t feature;  /* enum feat */
    uint8_t players;  /* bit per seat that received the points */
    bool completed;
    bool recall;      /* abbot taken back */
    uint8_t expr;     /* enum score_expr */
    int points;       /* per listed player */
    uint16_t seg;     /* a segment of the feature (for display) */
    uint16_t tiles;   /* tiles covered (road, city) or tiles in the 3x3 */
    uint16_t pennants;
    uint16_t cities;  /* field: completed cities it touches */
    uint8_t attrs[SA__COUNT]; /* segments with each attribute (inns...) */
    uint8_t city_attrs[SA__COUNT]; /* field: the completed cities it
                                      touches with each attribute (a
                                      besieged city) */
    uint8_t meeples[GAME_MAX_PLAYERS];  /* followers per seat on it */
    uint8_t strength[GAME_MAX_PLAYERS]; /* their weight in the majority
                                           (trade goods: those held) */
    /* the figures of each kind per seat on it, followers or not (a
     * builder, a pig, a barn), for the receipt to name them */
    uint8_t figures[GAME_MAX_PLAYERS][FIG__COUNT];
    /* points moved between players (The Tower's ransom): the other
     * party's seat + 1 (0: none) and the figure freed (owner seat, enum
     * figure, number) */
    struct {
        uint8_t with, owner, kind, n;
    } xfer;
    bool tiny;        /* scored by the tiny-city variant */
    uint8_t fliers;   /* seats that scored with a meeple that flew there */
    /* the flights (meeple.flight) of the followers in the majority's
     * count that flew there, each once; the report credits an event's
     * points to those whose owner received them */
    uint8_t n_flights;
    uint16_t flights[GAME_MAX_EV_FLIGHTS];
    uint8_t n_items;
    struct score_item items[GAME_MAX_ITEMS];
    uint32_t ref0;    /* its refs: game.refs[ref0 .. ref0 + n_refs) */
    uint16_t n_refs;
};

/* Appends a term to ev (dropped beyond GAME_MAX_ITEMS). */
static inline void score_add_item(struct score_event *ev, int kind,
                                  int count, int points)
{
    if (ev->n_items < GAME_MAX_ITEMS)
        ev->items[ev->n_items++] = (struct score_item){
            (uint8_t)kind, (int16_t)count, (int16_t)points
        };
}

/* What the current turn has done. */
struct turn_state {
    int16_t tile;     /* the tile placed this turn, -1 between turns */
    uint8_t actions;  /* deploys, flights and recalls so far */
    bool flier_used;  /* the turn's flying machine was used */
};

struct game {
    struct rules rules;
    int seat;                 /* the player on turn (now, or next) */
    int part;                 /* 1, or 2 in the extra turn part a unit
                                 gave the seat (a builder's second tile) */
    uint64_t units;           /* game_rules_units(&rules) */
    /* the units in play, in registry order, and of them those that judge
     * placements (most games: none) */
    const struct expansion *unit[EXP__COUNT];
    uint8_t n_units;
    uint32_t hooked;          /* bit per enum unit_hook some unit has */
    /* bit per enum feat: kinds whose segments are on the board under the
     * rules, of them those complete with their 3x3 block and those
     * complete when their edges close, and for each figure kind those it
     * may stand on under the rules */
    uint32_t kinds_on_board, kinds_block, kinds_edged;
    uint32_t stands[FIG__COUNT];
    int turn;                 /* number of the current/last turn */
    int n_tiles;
    int n_segs;
    int n_events;
    int cap_events;
    struct turn_state now;
    bool held;                /* the turn's COMMIT came, but a unit holds
                                 its scoring for moves before it (the
                                 City's followers going out) */
    /* the tiles whose 3x3 block the last placement filled (a monastery or
     * garden there is complete now), row by row */
    int16_t filled[9];
    int n_filled;
    /* the features the turn completed (their roots), as game_end_turn()
     * scores them, for the units that act on them */
    int16_t done[GAME_MAX_DONE];
    int n_done;
    /* what each unit keeps (builder states, trade goods, abbeys...): its
     * own struct, read through UNIT_STATE() in game_int.h */
    uint64_t unit_state[EXP__COUNT][UNIT_STATE_WORDS];
    int score[GAME_MAX_PLAYERS];
    int16_t pack[TILE_KINDS]; /* copies left of each tile kind */
    uint16_t kind_edges[TILE_KINDS]; /* unturned edge kinds; 0 for kinds
                                        not in the pack */
    int pack_left;            /* their sum */
    /* Which tile group may be drawn now (a bit per enum tile_group: the
     * non-empty group of lowest rank), the copies left in each group, and
     * how many of them the open group holds. */
    uint32_t groups;
    uint32_t groups_held; /* groups a unit holds closed (the dragon's) */
    int16_t group_left[TG__COUNT];
    int draw_left;
    /* The kinds the pack holds, by group then id, and each kind's place among
     * them (-1: none); the drawable copies (pack[] of those kinds in the
     * open group) as a Fenwick tree over those places (entry i sums them
     * over [i - (i & -i), i)), tree_width a power of two, so that a draw
     * finds its slot in log time */
    int16_t pack_kind[TILE_KINDS];
    int16_t pack_local[TILE_KINDS];
    int n_pack_kinds, tree_width;
    int16_t pack_tree[TILE_KINDS_POW2 + 1];
    struct meeple meeples[GAME_MAX_MEEPLES];
    int n_meeples;
    /* first meeple index of each figure kind within a seat, and the
     * figures a seat has */
    uint8_t fig0[FIG__COUNT];
    uint8_t per_seat;
    struct score_event *events;
    struct feature_ref *refs;
    int n_refs, cap_refs;
    /* position -> cell (the tile there + 1, 0 for none; the tiles in its
     * 3x3 block; whether that tile has a monastery or garden: CELL_* in
     * game.c) over a square window that holds every placed tile, so a
     * lookup is an index, not a probe. The window starts GAME_GRID_MIN
     * wide around the origin; game_place moves it, or widens it onto the
     * heap (grid_big), when a tile falls outside. */
    int grid_x0, grid_y0;   /* board position of cell 0 */
    int grid_shift;         /* the side is 1 << grid_shift */
    uint16_t *grid_big;     /* the cells once wider than grid_min, or NULL */
    uint16_t grid_min[GAME_GRID_MIN * GAME_GRID_MIN];
    /* Last, and left uninitialised by game_new (most of a game's bytes):
     * only tiles[0, n_tiles) and segs[0, n_segs) are ever read. */
    struct placed tiles[GAME_MAX_TILES];
    struct seg segs[GAME_MAX_SEGS];
};

/* Allocates a game with an empty board and full supplies. The caller owns
 * it; free with game_free(). Never fails (aborts on OOM). */
struct game *game_new(const struct rules *r);
void game_free(struct game *g);
/* Is unit `exp` (enum expansion_id) in play? (inline: asked per move) */
static inline bool game_in_play(const struct game *g, int exp)
{
    return exp >= 0 && exp < EXP__COUNT && (g->units >> exp & 1);
}

/* JCloisterZone's draw: its pack is sorted by tile id (our table order)
 * and it draws the tile at floor(r x tiles left), r in [0,1), among the
 * tiles of the groups open now. Returns the tile kind, or -1 when none is
 * left. */
int game_pack_draw(const struct game *g, double r);
/* A number r with game_pack_draw(g, r) == def (the middle of def's first
 * slot, so that rounding cannot move it), or -1 when none is drawable. */
double game_pack_random(const struct game *g, int def);
/* The number JCloisterZone draws again with when the tile drawn with r
 * fits nowhere (its generator's next: a 48-bit LCG over r's low bits). */
double game_redraw_random(double r);
/* May def be drawn now (a copy left, in the open group)? */
bool game_drawable(const struct game *g, int def);

/* Size of the pack the rules declare (start tile included). */
int game_pack_size(const struct rules *r);
/* Copies of kind def the rules' pack holds. */
int game_pack_copies(const struct rules *r, int def);
/* Tiles still in the pack. */
static inline int game_pack_left(const struct game *g)
{
    return g->pack_left;
}
/* The part of the seat's turn now (or next): 1, or 2 for the extra part
 * a unit gave it (a builder's second tile). */
int game_turn_part(const struct game *g);

/* Index of the tile at p, or -1. */
int game_tile_at(const struct game *g, struct pos p);
struct pos game_tile_pos(const struct game *g, int tile);
/* The board position one step from p across side 0..3 (N E S W). */
struct pos pos_step(struct pos p, int side);

/* --- tile placement -------------------------------------------------- */

/* RULE_OK when tile def may go to p turned rot; else the first broken rule
 * (unknown, not in pack, occupied, not adjacent, edge mismatch, what a
 * unit forbids) with a sentence in why. Does not check turn order or the
 * draw. */
enum rule game_check_place(const struct game *g, int def, struct pos p,
                           int rot, char *why, size_t why_len);
/* Does def fit at p turned rot (empty, adjacent, matching edges, and
 * what the units ask)? */
bool game_fits(const struct game *g, int def, struct pos p, int rot);
/* Does def fit anywhere on the board? */
bool game_fits_anywhere(const struct game *g, int def);
/* Is the last tile placed: the pack used up, or nothing left in it fits
 * (JCloisterZone puts such tiles aside as it draws them, and the game is
 * over when none is left)? */
bool game_pack_done(const struct game *g);

/* Places the start tile def at p turned rot (turn 0, no one's turn). */
bool game_start(struct game *g, int def, struct pos p, int rot);
/* The same for a start of several tiles (the City of Carcassonne's
 * twelve), placed in this order without the placement rules. */
struct start_place {
    int16_t tile;     /* tile_find() index */
    uint8_t rot;
    struct pos at;
};
bool game_start_tiles(struct game *g, const struct start_place *s, int n);
/* The start tiles the rules call for when a unit brings its own start
 * (expansion.start_layout: the City of Carcassonne): how many (at most
 * max) into out; 0 when the game starts from one start tile. */
int game_start_layout(const struct rules *r, struct start_place *out,
                      int max);
/* Places def at p turned rot and starts turn `turn`. Merges features
 * across matching edges. Takes the tile from the pack when a copy is
 * left. Returns false only when p is taken or off the board, leaving g
 * unchanged. */
bool game_place(struct game *g, int def, struct pos p, int rot, int turn);
/* Removes one copy of def from the pack: the discard of an unplaceable
 * tile. */
void game_discard(struct game *g, int def);
/* Puts one copy of def back (an inferred discard proved wrong). */
void game_undiscard(struct game *g, int def);
/* Holds tile group `group` out of the draw (held) or lets it in. */
void game_hold_group(struct game *g, int group, bool held);

/* Fills out[] with every legal placement of def; returns how many were
 * found (at most max are stored). */
struct placement {
    struct pos at;
    int rot;
};
int game_list_placements(const struct game *g, int def,
                         struct placement *out, int max);

/* --- figures -------------------------------------------------------- */

/* Index into g->meeples of player's figure (kind, n), or -1 if no such
 * figure exists. n == 0 picks any one in supply (or -1). */
int game_meeple(const struct game *g, int player, int kind, int n);

/* The segment of tile `tile` with this kind and exactly this board-frame
 * mask (any mask for inner features), or -1. */
int game_find_seg(const struct game *g, int tile, int kind, uint8_t mask);

/* The feature seg belongs to, as its lowest segment index (stable: it
 * does not depend on how the union-find was built). */
int game_feature(const struct game *g, int seg);
bool game_feature_complete(const struct game *g, int seg);
/* Number of figures of any player on the feature of seg, and per seat
 * into per_player[] (may be NULL). */
int game_feature_meeples(const struct game *g, int seg, int per_player[]);

/* May a figure of this kind stand on a segment of feature kind feat,
 * under the game's rules (a field needs farmers, a garden gardens)? */
bool game_kind_allowed(const struct game *g, int figure, int feat);

/* Normal deployment of meeple m on seg. Checks in precedence order:
 * supply, placed tile, occupied, type, second action. The reason goes to
 * why (why may be NULL with why_len 0 when only the rule matters). */
enum rule game_check_deploy(const struct game *g, int player, int m,
                            int seg, char *why, size_t why_len);
/* May figure fig take an action now (the turn's first, or one a unit
 * allows after it)? RULE_OK or RULE_MEEPLE_SECOND_DEPLOY. */
enum rule game_check_action(const struct game *g, int fig, char *why,
                            size_t why_len);
/* Every deployment open to player on this turn's tile (and, for a figure
 * that may stand beside it, the barn, on the tiles around): one entry per
 * (segment, figure kind) with a figure of that kind in supply. A segment
 * of kind FEAT_FLIER is a flight. Returns the count (stores up to max). */
struct deploy_option {
    int16_t seg;
    uint8_t figure; /* enum figure */
};
int game_list_deploys(const struct game *g, int player,
                      struct deploy_option *out, int max);

/* Valid landings of a flight from tile for each roll 1..3: targets and
 * landing segments per roll, for a figure of kind fig. */
struct flight_options {
    struct pos target[3];
    int n[3];
    int seg[3][TILE_MAX_SEGS];
};
void game_flight_options(const struct game *g, int tile, int fig,
                         struct flight_options *out);

/* Puts meeple m on seg and counts the turn's action. */
void game_deploy(struct game *g, int m, int seg);
/* The same for a flier landing on seg (remembered for statistics); the
 * flight itself was counted by game_fly(). */
void game_land(struct game *g, int m, int seg);
/* Counts an action that put no figure on the board (a flight, a refused
 * deployment the log made). */
void game_act(struct game *g, int fig);

/* --- the flier --------------------------------------------------------- */

/* Board-frame direction of the flying machine on tile, or NO_FLIER. */
int game_flier_dir(const struct game *g, int tile);
struct pos game_flight_target(struct pos from, int dir, int roll);
/* May figure fig use this turn's flying machine: RULE_OK, or the rule
 * against it (no machine, a second action, the machine already used) with
 * why. */
enum rule game_check_flight(const struct game *g, int fig, char *why,
                            size_t why_len);
/* The flight of figure fig from this turn's tile: counts the action and
 * marks the machine used. */
void game_fly(struct game *g, int fig);

/* Valid landings for a figure of kind fig on the tile at target:
 * incomplete features a flier may land on and the figure may occupy.
 * Returns the count; stores up to max segment indexes. */
int game_landings(const struct game *g, struct pos target, int fig,
                  int *out, int max);

/* Landing check for a figure of kind fig on seg (or at an empty `at` when
 * seg is -1), given the flight's target. */
enum rule game_check_landing(const struct game *g, int fig, struct pos at,
                             int seg, struct pos target, char *why,
                             size_t why_len);

/* --- scoring ---------------------------------------------------------- */

/* Ends the current turn (part): scores every feature the turn's tile
 * completed (majority, ties all score), returns the figures on them, lets
 * the units act (trade goods, wagons) and moves the turn to the next
 * seat (or, with a builder's right, gives the seat another part). */
void game_end_turn(struct game *g);
/* Ends a turn (part) whose tile was never placed: the turn moves on. */
void game_skip_turn(struct game *g);
/* A round between turns asks the seats in turn round the table, from
 * `first` to `last`, both included (first one seat after last: the whole
 * table): the first seat from `first` for which asks() holds, or -1 when
 * none is left up to `last`. The units' rounds walk the table with it
 * (the City's followers before a scoring, the last round of abbeys). */
int game_seat_walk(const struct game *g, int first, int last,
                   bool (*asks)(const struct game *g, int seat));
/* Scores incomplete features with figures and fields (game end). */
void game_final_scoring(struct game *g);

/* 64-bit hash of the whole visible state (board, meeples, scores); equal
 * replays give equal hashes. */
uint64_t game_hash(const struct game *g);

/* Our segment notation: "city:NE", "road:WE", "field:NL.NR", "monastery",
 * "garden", "flier". Writes at most len bytes. */
void seg_format(int kind, uint8_t mask, char *out, size_t len);
/* Parses a location ("NE", "_W", "NWSE", "NL.NR", "I") for a feature
 * kind into a board-frame mask; false when malformed. */
bool loc_parse(int kind, const char *s, uint8_t *mask);


#endif
