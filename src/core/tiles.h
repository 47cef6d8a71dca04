/* tiles.h - tile geometry and tile sets (pure data).
 *
 * The tiles are data: one line per tile kind in our own notation, in
 * src/core/exp/<expansion>.tiles, compiled into C tables at build time by
 * src/tools/tilegen.c (tiles_gen.c, tiles_gen.h in the build folder). The
 * kinds are sorted by id (byte order), which is JCloisterZone's pack
 * order, and ids and set ids are JCloisterZone's, so saves map one to one.
 *
 * Encoding (all in the tile's own, unturned frame):
 *  - edges are bits clockwise from north: N=1 E=2 S=4 W=8;
 *  - field half-edges are bits clockwise from the west half of the north
 *    edge: NL NR EL ER SL SR WL WR (L is the left half seen from the tile
 *    centre looking out, so NL is north-west, EL north-east, ...);
 *  - flier directions are 0..7 clockwise from north: N NE E SE S SW W NW;
 *  - a tile's edge kinds: 4 bits per side (N in bits 0-3, E, S, W), each
 *    the enum feat of what meets the neighbour there (road, city, river,
 *    else field).
 * Turning a tile clockwise by r quarter turns moves edge bit i to (i+r)%4,
 * half-edge bit i to (i+2r)%8, direction d to (d+2r)%8 and the edge-kind
 * nibble of side i to side (i+r)%4. */
#ifndef CORE_TILES_H
#define CORE_TILES_H
#include <stdbool.h>
#include <stdint.h>

#include "core/feature.h"

enum { EDGE_N = 1, EDGE_E = 2, EDGE_S = 4, EDGE_W = 8 };
enum {
    HE_NL = 1 << 0, HE_NR = 1 << 1, HE_EL = 1 << 2, HE_ER = 1 << 3,
    HE_SL = 1 << 4, HE_SR = 1 << 5, HE_WL = 1 << 6, HE_WR = 1 << 7
};
enum dir8 { DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW };

#define TILE_MAX_SEGS 12
#define NO_FLIER (-1)

/* When a tile is drawn (JCloisterZone's tile groups): the draw takes
 * only tiles of the open group, the non-empty group of lowest rank, so
 * the river's tiles come first (The River II's fork, its other tiles, the
 * lake), then the rest of the pack. Rank 0: never drawn (start tiles: the
 * spring, the City of Carcassonne's twelve); rank -1: never in the pack,
 * the players hold them (the abbey). Groups of one rank open together,
 * drawn in the order of this list (JCloisterZone's: by group name,
 * "default" before "dragon"); a unit may hold a group closed (the
 * dragon's until a volcano is placed).
 * The generic group, X(ID, name in the notation, rank); the units add
 * theirs (GROUP lines). */
#define TILE_GROUPS(X) X(NONE, "", 4)

enum tile_group {
#define X(id, name, rank) TG_##id,
    TILE_GROUPS(X)
#undef X
#define GROUP(id, name, rank) TG_##id,
#include "core/exp/units.def"
#undef GROUP
    TG__COUNT
};

/* Marks of a whole tile, a bit each: the units' MARK(ID, name in the
 * notation) lines. */
enum tile_mark {
#define MARK(id, name) TM_BIT_##id,
#include "core/exp/units.def"
#undef MARK
    TM__COUNT
};
_Static_assert(TM__COUNT <= 32, "tile marks are masked in 32 bits");
#define TILE_MARK(id) (1u << TM_BIT_##id)

/* Attributes of a segment, a bit each: the units' ATTR(ID, name in the
 * notation, feature, receipt) lines. */
enum seg_attr_bit {
#define ATTR(id, name, feature, receipt) SA_BIT_##id,
#include "core/exp/units.def"
#undef ATTR
    SA__COUNT
};
_Static_assert(SA__COUNT <= 16, "a segment keeps its attributes in 16 bits");
enum seg_attr {
#define ATTR(id, name, feature, receipt) SA_##id = 1 << SA_BIT_##id,
#include "core/exp/units.def"
#undef ATTR
};

struct seg_def {
    uint8_t kind;     /* enum feat */
    uint8_t mask;     /* edges (road, city, river) or half-edges (field);
                         0 for inner features and a field touching no edge */
    uint8_t pennants; /* city only */
    uint8_t cities;   /* field only: edges of the city segments it touches */
    uint16_t attrs;   /* enum seg_attr bits */
    uint8_t n_edges;  /* edges it covers (road, city, river) */
    uint8_t adjoin;   /* JCloisterZone's wagon-move groups a, b, c, d as
                         bits 0..3: features of a tile sharing one are
                         next to each other for a wagon (rule C1) */
};

/* Spots inside a tile told apart by name (SHAPE_SPOTS), a mask bit each:
 * the units' SPOT(ID, name in the notation, JCloisterZone's location)
 * lines. */
enum tile_spot {
#define SPOT(id, name, jcz) SPOT_##id,
#include "core/exp/units.def"
#undef SPOT
    SPOT__COUNT
};

/* A spot's name ("castle") and JCloisterZone's ("QUARTER_CASTLE"), by
 * index; the spot with either name, or -1. */
const char *tile_spot_name(int spot);
const char *tile_spot_jcz(int spot);
int tile_spot_find(const char *name);

/* A second field inside a tile's cities ("II"; the first, "I", has
 * mask 0): a mask no field of the edges can have, the same turned. */
#define FIELD_INNER2 0x55

/* A tile turned r quarter turns, worked out at build time so that a
 * placement copies instead of computing: the edge kinds, the segments'
 * masks, and which segment lies on each side and half-edge (nibble i:
 * 1 + the segment's index, 0 none, as struct placed keeps them). */
struct tile_turn {
    uint16_t edges;
    uint16_t side_slots;
    uint32_t half_slots;
    uint8_t mask[TILE_MAX_SEGS];
    uint8_t cities[TILE_MAX_SEGS];
};

struct tile_def {
    const char *id;
    int8_t flier_dir; /* enum dir8 before rotation, or NO_FLIER */
    uint8_t group;    /* enum tile_group */
    uint16_t edges;   /* edge kinds of the unturned tile (see above); 0
                         for a closed tile (the abbey): it meets any edge
                         and ends the features it meets */
    uint32_t kinds;   /* bit (1 << enum feat) per kind of its segments */
    uint8_t expansion;/* the unit whose .tiles defines it */
    uint8_t n_seg;
    struct seg_def seg[TILE_MAX_SEGS];
    struct tile_turn turn[4];
    uint32_t marks;   /* TILE_MARK() bits: volcano, dragon, portal, the
                         crop circles, the wind roses */
};

struct set_ref {
    int16_t kind;     /* index of the tile kind */
    uint8_t count;
};

struct tile_set_def {
    const char *id;        /* "basic:1", "river/2:1", ... */
    uint8_t expansion;     /* the unit it belongs to: enum expansion_id */
    uint8_t n_refs;
    const struct set_ref *refs;
    /* kinds that leave the pack when this set is played together with a
     * set holding them (The River II takes The River's lake out) */
    uint8_t n_removes;
    const int16_t *removes;
    /* 1 + the rule variant (enum game_option) the removes wait for: they
     * apply only while it is non-zero (the monasteries replace the base
     * game's under keep-monasteries: replace); 0: always */
    uint8_t removes_if;
};

/* Number of distinct tile kinds; indexes are stable within a build. */
int tile_count(void);
const struct tile_def *tile_get(int idx);
/* Index of the tile with this id, or -1. */
int tile_find(const char *id);
/* The hash tile_find() and tilegen's table of ids share (FNV-1a). */
static inline uint32_t tile_id_hash(const char *id)
{
    uint32_t h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 16777619u;
    return h;
}

int tile_set_count(void);
const struct tile_set_def *tile_set_get(int idx);
/* Index of the set with this id ("basic:1", "flier:2", ...), or -1. */
int tile_set_find(const char *id);

/* Edge kind (enum feat: road, city, river or field) of side 0..3 (N E S
 * W) of tile t turned rot quarter turns clockwise. */
enum feat tile_edge(const struct tile_def *t, int rot, int side);

/* Mask rotation helpers. */
uint8_t rot_edges(uint8_t mask, int rot);
uint8_t rot_halves(uint8_t mask, int rot);
/* Edge-kind words (4 bits a side) turned rot quarter turns. */
uint16_t rot_edge_kinds(uint16_t kinds, int rot);

/* Direction name "N", "NE", ... for 0..7, and back (-1: none). */
const char *dir_name(int d);
int dir_find(const char *name);
/* Group name ("river-lake"), and back (-1: none); its rank. */
const char *tile_group_name(int group);
int tile_group_find(const char *name);
/* Inline: the pack and each placement ask it. */
static inline int tile_group_rank(int group)
{
    static const signed char ranks[TG__COUNT] = {
#define X(id, name, rank) rank,
        TILE_GROUPS(X)
#undef X
#define GROUP(id, name, rank) rank,
#include "core/exp/units.def"
#undef GROUP
    };
    return group >= 0 && group < TG__COUNT ? ranks[group] : 0;
}

#endif
