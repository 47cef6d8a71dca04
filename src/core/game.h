/* game.h - Carcassonne (C2/C3) with The Flier: board, features, meeples,
 * scoring, and the legality checks the auditor and the simulator share.
 *
 * Pure: no I/O, no clock, no randomness, no globals. Die rolls arrive as
 * data. A struct game is one replay; it never shares state with another.
 *
 * Turn model (JCloisterZone's, which our own format follows too):
 *   game_place()            the tile of the turn
 *   game_deploy() | game_fly() [+ game_land()] | game_recall() | nothing
 *   game_end_turn()         scores what the tile completed, returns meeples
 *   ...
 *   game_final_scoring()    after the last turn
 * The game_check_*() functions say whether a step is legal without changing
 * anything; the mutators assume the caller checked (the auditor applies some
 * illegal steps on purpose, "as logged"), and keep the state consistent. */
#ifndef CORE_GAME_H
#define CORE_GAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tiles.h"

#define BOARD_BITS 8
#define BOARD_SPAN (1 << BOARD_BITS) /* coordinates in [-128, 127] */
#define GAME_MAX_TILES 256
#define GAME_MAX_SEGS (GAME_MAX_TILES * TILE_MAX_SEGS)
#define GAME_MAX_PLAYERS 6
#define GAME_MAX_FOLLOWERS 16
#define GAME_MAX_MEEPLES (GAME_MAX_PLAYERS * (GAME_MAX_FOLLOWERS + 1))
#define GAME_MAX_TILE_KINDS 64
#define GAME_GRID_MIN 32 /* side of the board window a game starts with */
#define GAME_MAX_SET_COPIES 3

struct pos {
    int x, y;
};

enum meeple_kind { MK_SMALL = 0, MK_ABBOT = 1 };

/* What a game is played with; filled by a log reader. */
struct rules {
    uint8_t set_copies[8]; /* copies of each tile set, by tile_set_get() */
    int n_players;         /* 1..GAME_MAX_PLAYERS */
    int followers;         /* small followers per player */
    int abbots;            /* 0 or 1 abbot per player (C3) */
    bool farmers;          /* meeples may lie in fields; fields score */
    bool gardens;          /* C3 gardens are features */
    int tiny_city;         /* points of a completed 2-tile city: 4 or 2 */
};

/* Stable rule ids; their order is the precedence when one move breaks
 * several. rule_id() gives the string used in reports. */
enum rule {
    RULE_OK = 0,
    RULE_TILE_UNKNOWN,
    RULE_TILE_NOT_IN_PACK,
    RULE_TILE_OCCUPIED,
    RULE_TILE_NOT_ADJACENT,
    RULE_TILE_EDGE_MISMATCH,
    RULE_TILE_DISCARD_FITS,
    RULE_MEEPLE_NONE_LEFT,
    RULE_MEEPLE_NOT_ON_PLACED_TILE,
    RULE_MEEPLE_FEATURE_OCCUPIED,
    RULE_MEEPLE_WRONG_TYPE,
    RULE_MEEPLE_SECOND_DEPLOY,
    RULE_FLIER_NO_MACHINE,
    RULE_FLIER_BAD_ROLL,
    RULE_FLIER_WRONG_TARGET,
    RULE_FLIER_NO_TILE,
    RULE_FLIER_FIELD,
    RULE_FLIER_COMPLETED,
    RULE_FLIER_BAD_FEATURE,
    RULE_FLIER_MUST_LAND,
    RULE_ABBOT_RECALL,
    RULE_TURN_ORDER,
    RULE_TURN_SEQUENCE,
    RULE_SCORE_MISMATCH,
    RULE__COUNT
};

const char *rule_id(enum rule r);

/* One connected piece of a feature on one placed tile. */
struct seg {
    uint8_t kind;     /* enum feat */
    uint8_t mask;     /* board frame: edges or half-edges */
    uint8_t pennants;
    uint8_t cities;   /* field: board-frame edges of touched city segments */
    uint16_t tile;    /* index into game.tiles */
    uint16_t parent;  /* the feature's root segment (a flat union-find) */
    uint16_t next;    /* the feature's segments as a circular list */
    uint16_t open;    /* root only: unmatched edges (road, city) */
    uint16_t size;    /* root only: segments in the feature */
    uint16_t min;     /* root only: its lowest segment, the feature's id */
    uint8_t meeples;  /* root only: meeples standing on the feature */
};

struct placed {
    int16_t def;      /* tile_get() index */
    uint8_t rot;
    int8_t flier_dir; /* board frame, or NO_FLIER */
    int16_t x, y;
    uint16_t seg0;    /* first segment; the tile's segments are contiguous */
    uint8_t n_seg;
    uint16_t turn;
    uint8_t edges;    /* board frame: enum feat of side i in bits 2i, 2i+1 */
    /* nibble i of side_slots: 1 + the offset from seg0 of the road or city
     * segment on board side i (0: none); of half_slots: the same for the
     * field on board half-edge i */
    uint16_t side_slots;
    uint32_t half_slots;
};

/* Move meeples with game_deploy(), game_land() and game_recall() only:
 * the features count who stands on them. */
struct meeple {
    int8_t owner;
    uint8_t kind;     /* enum meeple_kind */
    uint8_t n;        /* 1-based id within owner and kind */
    int16_t seg;      /* segment it stands on, -1 in supply */
    bool flew;        /* it arrived where it stands by flight */
};

/* A piece of a score receipt: a tile of the scored road or city, the
 * monastery/garden tile, or (for a field) a completed city it touches
 * (its lowest tile and size). */
struct feature_ref {
    int16_t x, y;
    uint8_t kind;     /* enum feat of the segment there */
    uint8_t mask;     /* its board-frame location */
    uint16_t size;    /* field refs: tiles of that city; else 1 */
};

/* A score event with what a receipt needs. */
struct score_event {
    int turn;         /* -1: final scoring */
    uint8_t feature;  /* enum feat */
    uint8_t players;  /* bit per seat that received the points */
    bool completed;
    bool recall;      /* abbot taken back */
    int points;       /* per listed player */
    uint16_t seg;     /* a segment of the feature (for display) */
    uint16_t tiles;   /* tiles covered (road, city) or tiles in the 3x3 */
    uint16_t pennants;
    uint16_t cities;  /* field: completed cities it touches */
    uint8_t meeples[GAME_MAX_PLAYERS];
    bool tiny;        /* scored by the tiny-city variant */
    uint8_t fliers;   /* seats that scored with a meeple that flew there */
    uint32_t ref0;    /* its refs: game.refs[ref0 .. ref0 + n_refs) */
    uint16_t n_refs;
};

struct game {
    struct rules rules;
    int turn;                 /* number of the current/last turn */
    int n_tiles;
    int n_segs;
    int n_events;
    int cap_events;
    int last_tile;            /* index of the tile placed this turn, -1 */
    /* the tiles whose 3x3 block the last placement filled (a monastery or
     * garden there is complete now), row by row */
    int16_t filled[9];
    int n_filled;
    bool deployed;            /* a meeple was deployed/flown this turn */
    int score[GAME_MAX_PLAYERS];
    int16_t pack[GAME_MAX_TILE_KINDS]; /* copies left of each tile kind */
    uint8_t kind_edges[GAME_MAX_TILE_KINDS]; /* unturned, as placed.edges;
                                                0 for kinds not in the pack */
    int pack_left;            /* their sum */
    /* pack[] as a Fenwick tree (entry i sums pack[i - (i & -i), i)), so
     * that a draw finds its slot in log time */
    int16_t pack_tree[GAME_MAX_TILE_KINDS + 1];
    struct meeple meeples[GAME_MAX_MEEPLES];
    int n_meeples;
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

/* JCloisterZone's draw: its pack is sorted by tile id (our table order)
 * and it draws the tile at floor(r x tiles left), r in [0,1). Returns the
 * tile kind, or -1 when the pack is empty. */
int game_pack_draw(const struct game *g, double r);
/* A number r with game_pack_draw(g, r) == def (the middle of def's first
 * slot, so that rounding cannot move it), or -1 when none is left. */
double game_pack_random(const struct game *g, int def);

/* Size of the pack the rules declare (start tile included). */
int game_pack_size(const struct rules *r);
/* Tiles still in the pack. */
int game_pack_left(const struct game *g);

/* Index of the tile at p, or -1. */
int game_tile_at(const struct game *g, struct pos p);
struct pos game_tile_pos(const struct game *g, int tile);

/* --- tile placement -------------------------------------------------- */

/* RULE_OK when tile def may go to p turned rot; else the first broken rule
 * (unknown, not in pack, occupied, not adjacent, edge mismatch) with a
 * sentence in why. Does not check turn order. */
enum rule game_check_place(const struct game *g, int def, struct pos p,
                           int rot, char *why, size_t why_len);
/* Does def fit at p turned rot (empty, adjacent, matching edges)? */
bool game_fits(const struct game *g, int def, struct pos p, int rot);
/* Does def fit anywhere on the board? */
bool game_fits_anywhere(const struct game *g, int def);

/* Places def at p turned rot and starts turn `turn` (0 for the start
 * tile). Merges features across matching edges. Takes the tile from the
 * pack when a copy is left. Returns false only when p is taken or off
 * the board, leaving g unchanged. */
bool game_place(struct game *g, int def, struct pos p, int rot, int turn);
/* Removes one copy of def from the pack: the discard of an unplaceable
 * tile. */
void game_discard(struct game *g, int def);
/* Puts one copy of def back (an inferred discard proved wrong). */
void game_undiscard(struct game *g, int def);

/* Fills out[] with every legal placement of def; returns how many were
 * found (at most max are stored). */
struct placement {
    struct pos at;
    int rot;
};
int game_list_placements(const struct game *g, int def,
                         struct placement *out, int max);

/* --- meeples -------------------------------------------------------- */

/* Index into g->meeples of player's meeple (kind, n), or -1 if no such
 * meeple exists. n == 0 picks any one in supply (or -1). */
int game_meeple(const struct game *g, int player, int kind, int n);

/* The segment of tile `tile` with this kind and exactly this board-frame
 * mask (any mask for inner features), or -1. */
int game_find_seg(const struct game *g, int tile, int kind, uint8_t mask);

/* The feature seg belongs to, as its lowest segment index (stable: it
 * does not depend on how the union-find was built). */
int game_feature(const struct game *g, int seg);
bool game_feature_complete(const struct game *g, int seg);
/* Number of meeples of any player on the feature of seg. */
int game_feature_meeples(const struct game *g, int seg, int per_player[]);

/* Can a meeple of this kind stand on a segment of this kind? */
bool game_kind_allowed(const struct game *g, int meeple_kind, int feat);

/* Normal deployment of meeple m on seg. Checks in precedence order:
 * supply, placed tile, occupied, type, second deploy. The reason goes to
 * why (why may be NULL with why_len 0 when only the rule matters). */
enum rule game_check_deploy(const struct game *g, int player, int m,
                            int seg, char *why, size_t why_len);
/* Every deployment open to player on this turn's tile: one entry per
 * (segment, meeple kind) with a meeple of that kind in supply. A segment
 * of kind FEAT_FLIER is the flight. Returns the count (stores up to max);
 * 0 once the turn's meeple is deployed. */
struct deploy_option {
    int16_t seg;
    uint8_t meeple; /* enum meeple_kind */
};
int game_list_deploys(const struct game *g, int player,
                      struct deploy_option *out, int max);

/* Valid landings of a flight from tile for each roll 1..3: targets and
 * landing segments per roll. */
struct flight_options {
    struct pos target[3];
    int n[3];
    int seg[3][TILE_MAX_SEGS];
};
void game_flight_options(const struct game *g, int tile, int meeple_kind,
                         struct flight_options *out);

/* Puts meeple m on seg; marks the turn's deployment as used. */
void game_deploy(struct game *g, int m, int seg);
/* The same for a flier landing on seg (remembered for statistics). */
void game_land(struct game *g, int m, int seg);

/* --- the flier --------------------------------------------------------- */

/* Board-frame direction of the flying machine on tile, or NO_FLIER. */
int game_flier_dir(const struct game *g, int tile);
struct pos game_flight_target(struct pos from, int dir, int roll);

/* Valid landings for a meeple of `kind` on the tile at target: incomplete
 * road, city, monastery (garden for an abbot; abbots only monastery or
 * garden). Returns the count; stores up to max segment indexes. */
int game_landings(const struct game *g, struct pos target, int kind,
                  int *out, int max);

/* Landing check for meeple kind on seg (or at an empty `at` when seg is
 * -1), given the flight's target. */
enum rule game_check_landing(const struct game *g, int kind, struct pos at,
                             int seg, struct pos target, char *why,
                             size_t why_len);

/* --- abbot recall (C3) ---------------------------------------------- */

/* Takes abbot m back and scores its monastery/garden as at game end. */
void game_recall(struct game *g, int m);

/* --- scoring ---------------------------------------------------------- */

/* Ends the current turn: scores every feature the turn's tile completed
 * (majority, ties all score) and returns the meeples on them. */
void game_end_turn(struct game *g);
/* Scores incomplete features with meeples and fields (game end). */
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
