/* tiles.c - lookups over the tile tables that tilegen compiles from
 * src/core/exp/NAME.tiles (tiles_gen.c in the build folder). */
#include "core/tiles.h"

#include <string.h>

#include "tiles_gen.h"

int tile_count(void) { return TILE_KINDS; }

const struct tile_def *tile_get(int idx)
{
    return idx >= 0 && idx < TILE_KINDS ? &tile_defs[idx] : NULL;
}

int tile_find(const char *id)
{
    /* tilegen's table: at most half full, so the probe ends */
    uint32_t mask = TILE_HASH_SLOTS - 1;
    for (uint32_t h = tile_id_hash(id) & mask;; h = (h + 1) & mask) {
        int k = tile_hash[h];
        if (k < 0 || strcmp(tile_defs[k].id, id) == 0)
            return k;
    }
}

int tile_set_count(void) { return TILE_SETS; }

const struct tile_set_def *tile_set_get(int idx)
{
    return idx >= 0 && idx < TILE_SETS ? &tile_set_defs[idx] : NULL;
}

int tile_set_find(const char *id)
{
    for (int i = 0; i < TILE_SETS; i++)
        if (strcmp(tile_set_defs[i].id, id) == 0)
            return i;
    return -1;
}

uint8_t rot_edges(uint8_t mask, int rot)
{
    rot &= 3;
    return (uint8_t)(((mask << rot) | (mask >> (4 - rot))) & 0xF);
}

uint8_t rot_halves(uint8_t mask, int rot)
{
    int s = 2 * (rot & 3);
    return (uint8_t)((mask << s) | (mask >> ((8 - s) & 7)));
}

uint16_t rot_edge_kinds(uint16_t kinds, int rot)
{
    int s = 4 * (rot & 3);
    return (uint16_t)((unsigned)kinds << s | (unsigned)kinds >> ((16 - s) & 15));
}

enum feat tile_edge(const struct tile_def *t, int rot, int side)
{
    return (enum feat)(rot_edge_kinds(t->edges, rot) >> 4 * (side & 3) & 15);
}

static const char *const dir_names[8] = { "N", "NE", "E", "SE",
                                          "S", "SW", "W", "NW" };

const char *dir_name(int d)
{
    return dir_names[d & 7];
}

int dir_find(const char *name)
{
    for (int d = 0; d < 8; d++)
        if (strcmp(dir_names[d], name) == 0)
            return d;
    return -1;
}

static const char *const group_names[TG__COUNT] = {
#define X(id, name, rank) name,
    TILE_GROUPS(X)
#undef X
#define GROUP(id, name, rank) name,
#include "core/exp/units.def"
#undef GROUP
};


static const char *const spot_names[SPOT__COUNT][2] = {
#define SPOT(id, name, jcz) { name, jcz },
#include "core/exp/units.def"
#undef SPOT
};

const char *tile_spot_name(int spot)
{
    return spot >= 0 && spot < SPOT__COUNT ? spot_names[spot][0] : "";
}

const char *tile_spot_jcz(int spot)
{
    return spot >= 0 && spot < SPOT__COUNT ? spot_names[spot][1] : "";
}

int tile_spot_find(const char *name)
{
    for (int s = 0; s < SPOT__COUNT; s++)
        if (strcmp(spot_names[s][0], name) == 0 ||
            strcmp(spot_names[s][1], name) == 0)
            return s;
    return -1;
}

const char *tile_group_name(int group)
{
    return group >= 0 && group < TG__COUNT ? group_names[group] : "";
}

int tile_group_find(const char *name)
{
    for (int g = 0; g < TG__COUNT; g++)
        if (strcmp(group_names[g], name) == 0)
            return g;
    return -1;
}
