/* tiles.h - tile geometry and tile sets (pure data).
 *
 * Encoding (all in the tile's own, unrotated frame):
 *  - edges are bits clockwise from north: N=1 E=2 S=4 W=8;
 *  - field half-edges are bits clockwise from the west half of the north
 *    edge: NL NR EL ER SL SR WL WR (L is the left half seen from the tile
 *    centre looking out, so NL is north-west, EL north-east, ...);
 *  - flier directions are 0..7 clockwise from north: N NE E SE S SW W NW.
 * Turning a tile clockwise by r quarter turns moves edge bit i to (i+r)%4,
 * half-edge bit i to (i+2r)%8 and direction d to (d+2r)%8.
 * Tile and set ids are JCloisterZone's, so saves map one to one. */
#ifndef CORE_TILES_H
#define CORE_TILES_H
#include <stdbool.h>
#include <stdint.h>

enum feat {
    FEAT_NONE = 0,
    FEAT_ROAD,
    FEAT_CITY,
    FEAT_FIELD,
    FEAT_MONASTERY,
    FEAT_GARDEN,
    FEAT_FLIER, /* the flying machine itself: never a landing spot */
    FEAT__COUNT
};

enum { EDGE_N = 1, EDGE_E = 2, EDGE_S = 4, EDGE_W = 8 };
enum {
    HE_NL = 1 << 0, HE_NR = 1 << 1, HE_EL = 1 << 2, HE_ER = 1 << 3,
    HE_SL = 1 << 4, HE_SR = 1 << 5, HE_WL = 1 << 6, HE_WR = 1 << 7
};
enum dir8 { DIR_N, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW };

#define TILE_MAX_SEGS 8
#define NO_FLIER (-1)

struct seg_def {
    uint8_t kind;     /* enum feat */
    uint8_t mask;     /* edges (road, city) or half-edges (field); 0 inner */
    uint8_t pennants; /* city only */
    uint8_t cities;   /* field only: edges of the city segments it touches */
};

struct tile_def {
    const char *id;
    int8_t flier_dir; /* enum dir8 before rotation, or NO_FLIER */
    uint8_t n_seg;
    struct seg_def seg[TILE_MAX_SEGS];
};

struct set_ref {
    const char *tile;
    uint8_t count;
    int8_t kind;      /* tile_find(tile), resolved in the table */
};

struct tile_set_def {
    const char *id;
    uint8_t n_refs;
    const struct set_ref *refs;
};

/* Number of distinct tiles we know; indexes are stable within a build. */
int tile_count(void);
const struct tile_def *tile_get(int idx);
/* Index of the tile with this id, or -1. */
int tile_find(const char *id);

int tile_set_count(void);
const struct tile_set_def *tile_set_get(int idx);
/* Index of the set with this id ("basic:1", "flier:2", ...), or -1. */
int tile_set_find(const char *id);

/* Edge kind (FEAT_ROAD, FEAT_CITY or FEAT_FIELD) of side 0..3 (N E S W)
 * of tile t turned rot quarter turns clockwise. */
enum feat tile_edge(const struct tile_def *t, int rot, int side);

/* Mask rotation helpers. */
uint8_t rot_edges(uint8_t mask, int rot);
uint8_t rot_halves(uint8_t mask, int rot);

/* Lower-case feature name ("road", "city", "field", "monastery",
 * "garden", "flier"). */
const char *feat_name(enum feat f);
/* Direction name "N", "NE", ... for 0..7. */
const char *dir_name(int d);

#endif
