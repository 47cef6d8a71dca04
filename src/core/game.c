/* game.c - board, feature graph, meeples and scoring.
 *
 * Features are a union-find over segments. A road or city root counts its
 * unmatched edges ("open"); the feature is complete when none are left.
 * Monasteries and gardens never merge: they are complete when the 3x3
 * block around their tile is full. Fields merge across half-edges. */
#include "core/game.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const int dx4[4] = { 0, 1, 0, -1 }; /* N E S W */
static const int dy4[4] = { -1, 0, 1, 0 };
static const int dx8[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int dy8[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };

static uint8_t def_edges(const struct tile_def *t);

const char *rule_id(enum rule r)
{
    static const char *const ids[RULE__COUNT] = {
        "OK",
        "TILE_UNKNOWN",
        "TILE_NOT_IN_PACK",
        "TILE_OCCUPIED",
        "TILE_NOT_ADJACENT",
        "TILE_EDGE_MISMATCH",
        "TILE_DISCARD_FITS",
        "MEEPLE_NONE_LEFT",
        "MEEPLE_NOT_ON_PLACED_TILE",
        "MEEPLE_FEATURE_OCCUPIED",
        "MEEPLE_WRONG_TYPE",
        "MEEPLE_SECOND_DEPLOY",
        "FLIER_NO_MACHINE",
        "FLIER_BAD_ROLL",
        "FLIER_WRONG_TARGET",
        "FLIER_NO_TILE",
        "FLIER_FIELD",
        "FLIER_COMPLETED",
        "FLIER_BAD_FEATURE",
        "FLIER_MUST_LAND",
        "ABBOT_RECALL",
        "TURN_ORDER",
        "TURN_SEQUENCE",
        "SCORE_MISMATCH",
    };
    return (unsigned)r < RULE__COUNT ? ids[r] : "UNKNOWN";
}

/* ---- board ------------------------------------------------------------ */

static struct pos step(struct pos p, int side)
{
    struct pos q = { p.x + dx4[side], p.y + dy4[side] };
    return q;
}

static bool on_board(struct pos p)
{
    const int lim = BOARD_SPAN / 2;
    return p.x >= -lim && p.x < lim && p.y >= -lim && p.y < lim;
}

struct pos game_tile_pos(const struct game *g, int tile)
{
    struct pos p = { g->tiles[tile].x, g->tiles[tile].y };
    return p;
}

/* A grid cell: the tile there + 1 (0: none), how many tiles its 3x3
 * block holds, and whether that tile has a monastery or garden, whose
 * completion the block count decides. */
#define CELL_TILE 0x1FFu
#define CELL_BLOCK_SHIFT 9
#define CELL_CLOISTER 0x2000u
_Static_assert(GAME_MAX_TILES <= (int)CELL_TILE, "tile + 1 fits the cell");

static const uint16_t *grid_cells(const struct game *g)
{
    return g->grid_big ? g->grid_big : g->grid_min;
}

static uint16_t *grid_cells_mut(struct game *g)
{
    return g->grid_big ? g->grid_big : g->grid_min;
}

/* Offset of p in the window, or -1 when it lies outside. */
static long grid_at(const struct game *g, struct pos p)
{
    /* unsigned: a position before the window wraps to a large offset, so
     * one comparison bounds both sides of both axes */
    unsigned ux = (unsigned)p.x - (unsigned)g->grid_x0;
    unsigned uy = (unsigned)p.y - (unsigned)g->grid_y0;
    if ((ux | uy) >= 1u << g->grid_shift)
        return -1;
    return (long)(uy << g->grid_shift | ux);
}

int game_tile_at(const struct game *g, struct pos p)
{
    long at = grid_at(g, p);
    return at < 0 ? -1 : (int)(grid_cells(g)[at] & CELL_TILE) - 1;
}

/* First cell of a window of `side` that covers [lo, hi] (hi - lo < side)
 * in the middle, kept on the board so that the widest window is the
 * board itself. */
static int grid_origin(int lo, int hi, int side)
{
    const int lim = BOARD_SPAN / 2;
    int o = lo - (side - (hi - lo + 1)) / 2;
    if (o > lim - side)
        o = lim - side;
    return o < -lim ? -lim : o;
}

static bool has_cloister(const struct game *g, int tile)
{
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if (g->segs[i].kind == FEAT_MONASTERY || g->segs[i].kind == FEAT_GARDEN)
            return true;
    return false;
}

/* Counts tile into the blocks of the cells around p (and p's own): nine
 * adds when the block lies inside the window; else those that do (the
 * window holds every tile, so a cell outside has no tile to count for,
 * and grid_fit() counts again when one arrives). */
static void count_block(struct game *g, struct pos p)
{
    uint16_t *cells = grid_cells_mut(g);
    unsigned ux = (unsigned)p.x - (unsigned)g->grid_x0 - 1u;
    unsigned uy = (unsigned)p.y - (unsigned)g->grid_y0 - 1u;
    size_t side = (size_t)1 << g->grid_shift;
    const uint16_t one = 1u << CELL_BLOCK_SHIFT;
    if (ux < side - 2 && uy < side - 2) {
        uint16_t *c = cells + (uy << g->grid_shift | ux);
        for (int row = 0; row < 3; row++, c += side) {
            c[0] = (uint16_t)(c[0] + one);
            c[1] = (uint16_t)(c[1] + one);
            c[2] = (uint16_t)(c[2] + one);
        }
        return;
    }
    for (int i = 0; i < 9; i++) {
        long at = grid_at(g, (struct pos){ p.x + i % 3 - 1, p.y + i / 3 - 1 });
        if (at >= 0)
            cells[at] = (uint16_t)(cells[at] + one);
    }
}

/* Writes tile ti into its cell (empty, in the window). */
static void cell_set(struct game *g, int ti, bool cloister)
{
    struct pos p = { g->tiles[ti].x, g->tiles[ti].y };
    uint16_t *cell = &grid_cells_mut(g)[grid_at(g, p)];
    *cell = (uint16_t)(*cell | (unsigned)(ti + 1) |
                       (cloister ? CELL_CLOISTER : 0));
}

/* Counts one more tile into the block of cell c; true when that fills the
 * block of a monastery or garden there. */
static unsigned bump(uint16_t *c)
{
    *c = (uint16_t)(*c + (1u << CELL_BLOCK_SHIFT));
    return (*c & ~CELL_TILE) == (9u << CELL_BLOCK_SHIFT | CELL_CLOISTER);
}

/* Moves the window so that it holds p and every placed tile, centred on
 * their bounding box; doubles it while the box plus a margin does not fit.
 * Rare: the board has to wander half a window away from where it began.
 * p must be on the board. */
static void grid_fit(struct game *g, struct pos p)
{
    enum { MARGIN = 8 };
    int x0 = p.x, x1 = p.x, y0 = p.y, y1 = p.y;
    for (int i = 0; i < g->n_tiles; i++) {
        const struct placed *t = &g->tiles[i];
        x0 = t->x < x0 ? t->x : x0;
        x1 = t->x > x1 ? t->x : x1;
        y0 = t->y < y0 ? t->y : y0;
        y1 = t->y > y1 ? t->y : y1;
    }
    int extent = (x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0) + 1;
    int shift = g->grid_shift;
    while ((1 << shift) < extent + MARGIN && (1 << shift) < BOARD_SPAN)
        shift++;
    size_t side = (size_t)1 << shift;
    if (shift != g->grid_shift) {
        free(g->grid_big);
        g->grid_big = xcalloc(side * side, sizeof *g->grid_big);
        g->grid_shift = shift;
    } else {
        memset(grid_cells_mut(g), 0, side * side * sizeof *g->grid_big);
    }
    g->grid_x0 = grid_origin(x0, x1, (int)side);
    g->grid_y0 = grid_origin(y0, y1, (int)side);
    for (int i = 0; i < g->n_tiles; i++) {
        cell_set(g, i, has_cloister(g, i));
        count_block(g, game_tile_pos(g, i));
    }
}

/* Puts tile ti, already in g->tiles but not yet in the grid, on its
 * square (on the board and empty), counts it into the blocks around, and
 * lists in g->filled the tiles with a monastery or garden whose block it
 * filled, row by row. */
static void grid_put(struct game *g, int ti, bool cloister)
{
    const unsigned full = 9u << CELL_BLOCK_SHIFT | CELL_CLOISTER;
    struct pos p = game_tile_pos(g, ti);
    bool counted = grid_at(g, p) < 0;
    if (counted)
        grid_fit(g, p); /* counts ti as well */
    else
        cell_set(g, ti, cloister);
    uint16_t *cells = grid_cells_mut(g);
    long side = 1L << g->grid_shift, mid = grid_at(g, p);
    unsigned ux = (unsigned)p.x - (unsigned)g->grid_x0 - 1u;
    unsigned uy = (unsigned)p.y - (unsigned)g->grid_y0 - 1u;
    unsigned hit = 0; /* bit i: the block of cell i (row by row) is full */
    g->n_filled = 0;
    if (!counted && ux < (unsigned)side - 2 && uy < (unsigned)side - 2) {
        /* the usual case: nine cells, no branches */
        uint16_t *c = cells + mid - side - 1, *d = c + side, *e = d + side;
        hit = bump(&c[0]) | bump(&c[1]) << 1 | bump(&c[2]) << 2 |
              bump(&d[0]) << 3 | bump(&d[1]) << 4 | bump(&d[2]) << 5 |
              bump(&e[0]) << 6 | bump(&e[1]) << 7 | bump(&e[2]) << 8;
    } else {
        for (int i = 0; i < 9; i++) {
            long at = grid_at(g, (struct pos){ p.x + i % 3 - 1,
                                               p.y + i / 3 - 1 });
            if (at >= 0 && !counted)
                cells[at] = (uint16_t)(cells[at] + (1u << CELL_BLOCK_SHIFT));
            if (at >= 0 && (cells[at] & ~CELL_TILE) == full)
                hit |= 1u << i;
        }
    }
    for (int i = 0; hit >> i; i++) { /* rare: a monastery completed */
        if (!(hit >> i & 1))
            continue;
        long at = grid_at(g, (struct pos){ p.x + i % 3 - 1, p.y + i / 3 - 1 });
        g->filled[g->n_filled++] = (int16_t)((cells[at] & CELL_TILE) - 1);
    }
}

/* Tiles in the 3x3 block of tile, itself included. */
static int block_count(const struct game *g, int tile)
{
    long at = grid_at(g, game_tile_pos(g, tile));
    return grid_cells(g)[at] >> CELL_BLOCK_SHIFT & 15;
}

/* The tiles across the sides N E S W of p (-1: none); p must be on the
 * board. */
static void cross_of(const struct game *g, struct pos p, int out[4])
{
    unsigned ux = (unsigned)p.x - (unsigned)g->grid_x0 - 1u;
    unsigned uy = (unsigned)p.y - (unsigned)g->grid_y0 - 1u;
    size_t side = (size_t)1 << g->grid_shift;
    if (ux < side - 2 && uy < side - 2) {
        const uint16_t *c = grid_cells(g) + (uy << g->grid_shift | ux);
        out[0] = (int)(c[1] & CELL_TILE) - 1;
        out[1] = (int)(c[side + 2] & CELL_TILE) - 1;
        out[2] = (int)(c[2 * side + 1] & CELL_TILE) - 1;
        out[3] = (int)(c[side] & CELL_TILE) - 1;
        return;
    }
    for (int d = 0; d < 4; d++)
        out[d] = game_tile_at(g, step(p, d));
}

int game_pack_size(const struct rules *r)
{
    int n = 0;
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *d = tile_set_get(s);
        for (int i = 0; i < d->n_refs; i++)
            n += d->refs[i].count * r->set_copies[s];
    }
    return n;
}

int game_pack_left(const struct game *g)
{
    return g->pack_left;
}

/* Adds d copies of tile kind t to the pack (d < 0 takes them). */
static void pack_add(struct game *g, int t, int d)
{
    g->pack[t] = (int16_t)(g->pack[t] + d);
    g->pack_left += d;
    for (int i = t + 1; i <= GAME_MAX_TILE_KINDS; i += i & -i)
        g->pack_tree[i] = (int16_t)(g->pack_tree[i] + d);
}

int game_pack_draw(const struct game *g, double r)
{
    int n = game_pack_left(g);
    if (n <= 0 || !(r >= 0 && r < 1))
        return -1;
    /* the kind whose copies hold slot idx: the most kinds whose copies
     * together stay at or below idx, by halving steps down the tree */
    int idx = (int)(r * n), t = 0;
    if (idx >= n) /* r rounded up to 1 */
        return -1;
    _Static_assert((GAME_MAX_TILE_KINDS & (GAME_MAX_TILE_KINDS - 1)) == 0,
                   "the descent needs a power of two");
    /* idx < n = pack_tree[GAME_MAX_TILE_KINDS]: t stays below it */
    for (int step = GAME_MAX_TILE_KINDS / 2; step > 0; step >>= 1) {
        int below = g->pack_tree[t + step], take = below <= idx;
        t += take * step; /* no branch: which way is a coin toss */
        idx -= take * below;
    }
    return t < tile_count() ? t : -1;
}

double game_pack_random(const struct game *g, int def)
{
    int n = game_pack_left(g), idx = 0;
    if (def < 0 || def >= tile_count() || g->pack[def] <= 0)
        return -1;
    for (int t = 0; t < def; t++)
        idx += g->pack[t];
    return (idx + 0.5) / n;
}

/* The full pack of the rules' tile sets, its tree, and the edges of the
 * kinds in it. */
static void pack_fill(struct game *g, const struct rules *r)
{
    assert(tile_count() <= GAME_MAX_TILE_KINDS);
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *d = tile_set_get(s);
        for (int i = 0; i < d->n_refs && r->set_copies[s] > 0; i++) {
            int t = d->refs[i].kind, n = d->refs[i].count;
            assert(t >= 0 && t == tile_find(d->refs[i].tile));
            g->pack[t] = (int16_t)(g->pack[t] + n * r->set_copies[s]);
            g->pack_left += n * r->set_copies[s];
        }
    }
    for (int t = 0; t < tile_count(); t++)
        if (g->pack[t] > 0)
            g->kind_edges[t] = def_edges(tile_get(t));
    for (int i = 1; i <= GAME_MAX_TILE_KINDS; i++) { /* each entry once */
        int up = i + (i & -i);
        g->pack_tree[i] = (int16_t)(g->pack_tree[i] + g->pack[i - 1]);
        if (up <= GAME_MAX_TILE_KINDS)
            g->pack_tree[up] = (int16_t)(g->pack_tree[up] + g->pack_tree[i]);
    }
}

struct game *game_new(const struct rules *r)
{
    /* the tile and segment arrays are most of the bytes and are written
     * before they are read: clear only what precedes them */
    struct game *g = xmalloc(sizeof *g);
    memset(g, 0, offsetof(struct game, tiles));
    g->rules = *r;
    g->last_tile = -1;
    g->grid_shift = __builtin_ctz(GAME_GRID_MIN); /* around the origin */
    g->grid_x0 = g->grid_y0 = -GAME_GRID_MIN / 2;
    pack_fill(g, r);
    for (int p = 0; p < r->n_players; p++) {
        for (int n = 1; n <= r->followers; n++)
            g->meeples[g->n_meeples++] =
                (struct meeple){ (int8_t)p, MK_SMALL, (uint8_t)n, -1, false };
        for (int n = 1; n <= r->abbots; n++)
            g->meeples[g->n_meeples++] =
                (struct meeple){ (int8_t)p, MK_ABBOT, (uint8_t)n, -1, false };
    }
    return g;
}

void game_free(struct game *g)
{
    if (g) {
        free(g->refs);
        free(g->events);
        free(g->grid_big);
        free(g);
    }
}

/* ---- union-find ---------------------------------------------------- */

/* Every segment points straight at its feature's root (join() relabels),
 * so the question asked most often is one load. */
static int find_root(const struct game *g, int s)
{
    return g->segs[s].parent;
}

/* Joins the features of a and b across one shared edge: the smaller one
 * is relabelled to the larger one's root (by size, so a segment moves
 * O(log n) times in a game); splicing the two circular lists keeps every
 * feature's segments one walk away. */
static void join(struct game *g, int a, int b, bool counts_edges)
{
    int ra = find_root(g, a), rb = find_root(g, b);
    if (ra != rb) {
        if (g->segs[ra].size < g->segs[rb].size) {
            int t = ra;
            ra = rb;
            rb = t;
        }
        struct seg *A = &g->segs[ra], *B = &g->segs[rb];
        int s = rb;
        do {
            g->segs[s].parent = (uint16_t)ra;
            s = g->segs[s].next;
        } while (s != rb);
        A->open = (uint16_t)(A->open + B->open);
        A->size = (uint16_t)(A->size + B->size);
        A->meeples = (uint8_t)(A->meeples + B->meeples);
        if (B->min < A->min)
            A->min = B->min;
        uint16_t t = A->next;
        A->next = B->next;
        B->next = t;
    }
    if (counts_edges)
        g->segs[ra].open = (uint16_t)(g->segs[ra].open - 2);
}

int game_feature(const struct game *g, int seg)
{
    return g->segs[find_root(g, seg)].min;
}

/* ---- placement --------------------------------------------------------- */

/* Half-edge across the border: NL (west half of north) meets SR of the
 * tile to the north, NR meets SL, and so on round the compass. */
static int opposite_half(int h)
{
    return (h & 1) ? (h + 3) & 7 : (h + 5) & 7;
}

/* rot_edges() and rot_halves(), here so that they inline. */
static uint8_t turn_edges(unsigned mask, int rot)
{
    return (uint8_t)(((mask << rot) | (mask >> (4 - rot))) & 0xF);
}

static uint8_t turn_halves(unsigned mask, int rot)
{
    int s = 2 * rot;
    return (uint8_t)((mask << s) | (mask >> ((8 - s) & 7)));
}

/* Edge bits 0..3 moved to bits 0, 2, 4, 6: one per 2-bit side field. */
static unsigned spread_edges(unsigned m)
{
    return (m & 1) | (m & 2) << 1 | (m & 4) << 2 | (m & 8) << 3;
}

/* Edge kinds of t, packed as struct placed.edges. As in tile_edge(), a
 * side with a city is a city edge, else with a road a road edge, else a
 * field edge; the codes are 2, 1 and 3, so start from all fields and
 * clear one bit per city or road side. */
static uint8_t def_edges(const struct tile_def *t)
{
    unsigned road = 0, city = 0;
    for (int i = 0; i < t->n_seg; i++) {
        if (t->seg[i].kind == FEAT_ROAD)
            road |= t->seg[i].mask;
        else if (t->seg[i].kind == FEAT_CITY)
            city |= t->seg[i].mask;
    }
    _Static_assert(FEAT_ROAD == 1 && FEAT_CITY == 2 && FEAT_FIELD == 3,
                   "edge kinds are packed in 2 bits");
    return (uint8_t)(0xFF ^ spread_edges(city) ^
                     spread_edges(road & ~city) << 1);
}

/* Edge kinds of tile kind def (a valid one) turned rot (mod 4): a turn
 * moves side i to i + rot, as a half-edge i moves to i + 2 rot. */
static unsigned kind_edges(const struct game *g, int def, int rot)
{
    unsigned e = g->kind_edges[def]; /* 0: a kind not in the pack */
    return turn_halves(e ? e : def_edges(tile_get(def)), rot & 3);
}

static unsigned edge_of(unsigned edges, int side)
{
    return (edges >> 2 * side) & 3;
}

/* What the tiles around the empty square p ask of a tile there: for each
 * side with a neighbour, the kind of that neighbour's facing edge (in
 * *need) and two set bits (in *care). No neighbour: *care is 0. */
static void edge_demand(const struct game *g, struct pos p, unsigned *need,
                        unsigned *care)
{
    int cross[4];
    cross_of(g, p, cross);
    *need = *care = 0;
    for (int side = 0; side < 4; side++) {
        int nb = cross[side];
        if (nb < 0)
            continue;
        *need |= edge_of(g->tiles[nb].edges, (side + 2) & 3) << 2 * side;
        *care |= 3u << 2 * side;
    }
}

static bool meets_demand(unsigned edges, unsigned need, unsigned care)
{
    return care != 0 && (edges & care) == need;
}

bool game_fits(const struct game *g, int def, struct pos p, int rot)
{
    const struct tile_def *t = tile_get(def);
    unsigned need, care;
    if (!t || !on_board(p) || game_tile_at(g, p) >= 0)
        return false;
    edge_demand(g, p, &need, &care);
    return meets_demand(kind_edges(g, def, rot), need, care);
}

static const char *side_name(int side)
{
    static const char *const n[4] = { "north", "east", "south", "west" };
    return n[side & 3];
}

/* The first side of the empty square p whose edge does not match its
 * neighbour's, explained in why; RULE_OK when all match. */
static enum rule check_edges(const struct game *g, int def, struct pos p,
                             int rot, char *why, size_t why_len)
{
    unsigned edges = kind_edges(g, def, rot);
    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, step(p, side));
        if (nb < 0)
            continue;
        const struct placed *n = &g->tiles[nb];
        unsigned mine = edge_of(edges, side);
        unsigned theirs = edge_of(n->edges, (side + 2) & 3);
        if (mine != theirs) {
            snprintf(why, why_len, "%s edge: %s meets the %s of %s at (%d,%d)",
                     side_name(side), feat_name((enum feat)mine),
                     feat_name((enum feat)theirs), tile_get(n->def)->id,
                     n->x, n->y);
            return RULE_TILE_EDGE_MISMATCH;
        }
    }
    return RULE_OK;
}

enum rule game_check_place(const struct game *g, int def, struct pos p,
                           int rot, char *why, size_t why_len)
{
    const struct tile_def *t = tile_get(def);
    if (!t) {
        snprintf(why, why_len, "no such tile");
        return RULE_TILE_UNKNOWN;
    }
    if (g->pack[def] <= 0) {
        snprintf(why, why_len, "no copy of %s is left in the game's tile sets",
                 t->id);
        return RULE_TILE_NOT_IN_PACK;
    }
    int there = game_tile_at(g, p);
    if (there >= 0) {
        snprintf(why, why_len, "(%d,%d) already holds %s", p.x, p.y,
                 tile_get(g->tiles[there].def)->id);
        return RULE_TILE_OCCUPIED;
    }
    if (!on_board(p)) {
        snprintf(why, why_len, "(%d,%d) is beyond the board's limits", p.x,
                 p.y);
        return RULE_TILE_NOT_ADJACENT;
    }
    unsigned need, care;
    edge_demand(g, p, &need, &care);
    if (care == 0) {
        snprintf(why, why_len, "(%d,%d) has no orthogonal neighbour", p.x,
                 p.y);
        return RULE_TILE_NOT_ADJACENT;
    }
    if (meets_demand(kind_edges(g, def, rot), need, care))
        return RULE_OK;
    return check_edges(g, def, p, rot, why, why_len);
}

/* Bits 0..3 of m moved to bits 0, 4, 8, 12: one per nibble. */
static unsigned nibbles4(unsigned m)
{
    return (m & 1) | (m & 2) << 3 | (m & 4) << 6 | (m & 8) << 9;
}

/* Bits 0..7 of m, one per nibble of the result. */
static uint32_t nibbles8(unsigned m)
{
    return nibbles4(m & 15) | (uint32_t)nibbles4(m >> 4 & 15) << 16;
}

/* The road or city segment on board side `side` of tile, or -1. */
static int side_seg(const struct game *g, int tile, int side)
{
    const struct placed *t = &g->tiles[tile];
    int slot = t->side_slots >> 4 * side & 15;
    return slot ? t->seg0 + slot - 1 : -1;
}

/* The field segment on board half-edge `half` of tile, or -1. */
static int half_seg(const struct game *g, int tile, int half)
{
    const struct placed *t = &g->tiles[tile];
    int slot = (int)(t->half_slots >> 4 * half & 15);
    return slot ? t->seg0 + slot - 1 : -1;
}

/* Appends the segments of t turned rot as tile ti's, in the board frame,
 * and fills the tile's side and half-edge slots (a side holds at most
 * one road or city segment, a half-edge one field: the tile tables are
 * drawn that way, and test_tiles checks it). True when it has a
 * monastery or garden. */
static bool add_segs(struct game *g, int ti, const struct tile_def *t,
                     int rot)
{
    struct placed *pl = &g->tiles[ti];
    unsigned sides = 0;
    uint32_t halves = 0;
    pl->seg0 = (uint16_t)g->n_segs;
    bool cloister = false;
    for (int i = 0; i < t->n_seg; i++) {
        const struct seg_def *d = &t->seg[i];
        if (d->kind == FEAT_GARDEN && !g->rules.gardens)
            continue;
        int si = g->n_segs++;
        struct seg *s = &g->segs[si];
        bool edged = d->kind == FEAT_ROAD || d->kind == FEAT_CITY;
        bool field = d->kind == FEAT_FIELD;
        unsigned slot = (unsigned)(si - pl->seg0 + 1);
        cloister |= d->kind == FEAT_MONASTERY || d->kind == FEAT_GARDEN;
        s->kind = d->kind;
        s->pennants = d->pennants;
        s->tile = (uint16_t)ti;
        s->parent = s->next = s->min = (uint16_t)si;
        s->size = 1;
        s->meeples = 0;
        s->mask = d->kind == FEAT_FIELD ? turn_halves(d->mask, rot)
                                        : turn_edges(d->mask, rot);
        s->cities = d->cities ? turn_edges(d->cities, rot) : 0;
        /* no branches on the mask: which sides a segment covers is
         * anybody's guess */
        unsigned spread = field ? nibbles8(s->mask) : nibbles4(s->mask);
        sides |= edged ? spread * slot : 0;
        halves |= field ? spread * slot : 0;
        s->open = (uint16_t)(edged ? (spread * 0x1111u) >> 12 & 15 : 0);
    }
    pl->side_slots = (uint16_t)sides;
    pl->half_slots = halves;
    pl->n_seg = (uint8_t)(g->n_segs - pl->seg0);
    pl->edges = (uint8_t)kind_edges(g, pl->def, rot);
    return cloister;
}

/* Joins the features of tile ti and its neighbour nb (-1: none) across
 * ti's board side `side`. */
static void join_across(struct game *g, int ti, int nb, int side)
{
    if (nb < 0)
        return;
    int sa = side_seg(g, ti, side), sb = side_seg(g, nb, (side + 2) & 3);
    if (sa >= 0 && sb >= 0 && g->segs[sa].kind == g->segs[sb].kind)
        join(g, sa, sb, true);
    int h = 2 * side;
    int fa = half_seg(g, ti, h), fb = half_seg(g, nb, opposite_half(h));
    if (fa >= 0 && fb >= 0)
        join(g, fa, fb, false);
    /* the other half: often the same two fields, joined already */
    int ga = half_seg(g, ti, h + 1);
    int gb = half_seg(g, nb, opposite_half(h + 1));
    if (ga >= 0 && gb >= 0 && (ga != fa || gb != fb))
        join(g, ga, gb, false);
}

bool game_place(struct game *g, int def, struct pos p, int rot, int turn)
{
    const struct tile_def *t = tile_get(def);
    if (!t || !on_board(p) || game_tile_at(g, p) >= 0 ||
        g->n_tiles >= GAME_MAX_TILES)
        return false;
    rot &= 3;
    int ti = g->n_tiles++;
    struct placed *pl = &g->tiles[ti];
    pl->def = (int16_t)def;
    pl->rot = (uint8_t)rot;
    pl->flier_dir = t->flier_dir == NO_FLIER
                        ? NO_FLIER
                        : (int8_t)((t->flier_dir + 2 * rot) & 7);
    pl->x = (int16_t)p.x;
    pl->y = (int16_t)p.y;
    pl->turn = (uint16_t)turn;
    grid_put(g, ti, add_segs(g, ti, t, rot));
    if (g->pack[def] > 0)
        pack_add(g, def, -1);
    int cross[4];
    cross_of(g, p, cross);
    for (int side = 0; side < 4; side++)
        join_across(g, ti, cross[side], side);
    g->turn = turn;
    g->last_tile = ti;
    g->deployed = false;
    return true;
}

void game_discard(struct game *g, int def)
{
    if (def >= 0 && def < tile_count() && g->pack[def] > 0)
        pack_add(g, def, -1);
}

void game_undiscard(struct game *g, int def)
{
    if (def >= 0 && def < tile_count())
        pack_add(g, def, 1);
}

/* Visits each empty cell next to the board once: from its first placed
 * neighbour in N E S W order. */
static bool first_neighbour(const struct game *g, struct pos q, int tile)
{
    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, step(q, side));
        if (nb >= 0)
            return nb == tile;
    }
    return false;
}

int game_list_placements(const struct game *g, int def,
                         struct placement *out, int max)
{
    const struct tile_def *t = tile_get(def);
    unsigned edges[4], need, care;
    int n = 0;
    if (!t)
        return 0;
    for (int rot = 0; rot < 4; rot++)
        edges[rot] = kind_edges(g, def, rot);
    for (int i = 0; i < g->n_tiles; i++) {
        struct pos p = game_tile_pos(g, i);
        for (int side = 0; side < 4; side++) {
            struct pos q = step(p, side);
            if (!on_board(q) || game_tile_at(g, q) >= 0 ||
                !first_neighbour(g, q, i))
                continue;
            edge_demand(g, q, &need, &care);
            for (int rot = 0; rot < 4; rot++) {
                if (!meets_demand(edges[rot], need, care))
                    continue;
                if (n < max)
                    out[n] = (struct placement){ q, rot };
                n++;
            }
        }
    }
    return n;
}

bool game_fits_anywhere(const struct game *g, int def)
{
    const struct tile_def *t = tile_get(def);
    unsigned edges[4], need, care;
    if (!t)
        return false;
    for (int rot = 0; rot < 4; rot++)
        edges[rot] = kind_edges(g, def, rot);
    for (int i = 0; i < g->n_tiles; i++) {
        struct pos p = game_tile_pos(g, i);
        for (int side = 0; side < 4; side++) {
            struct pos q = step(p, side);
            if (!on_board(q) || game_tile_at(g, q) >= 0)
                continue;
            edge_demand(g, q, &need, &care);
            for (int rot = 0; rot < 4; rot++)
                if (meets_demand(edges[rot], need, care))
                    return true;
        }
    }
    return false;
}

/* ---- features ---------------------------------------------------------- */

int game_find_seg(const struct game *g, int tile, int kind, uint8_t mask)
{
    if (tile < 0)
        return -1;
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        const struct seg *s = &g->segs[i];
        if (s->kind != kind)
            continue;
        if (kind == FEAT_MONASTERY || kind == FEAT_GARDEN ||
            kind == FEAT_FLIER || s->mask == mask)
            return i;
    }
    return -1;
}

bool game_feature_complete(const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    switch (s->kind) {
    case FEAT_ROAD:
    case FEAT_CITY:
        return g->segs[find_root(g, seg)].open == 0;
    case FEAT_MONASTERY:
    case FEAT_GARDEN:
        return block_count(g, s->tile) == 9;
    default:
        return false;
    }
}

int game_feature_meeples(const struct game *g, int seg, int per_player[])
{
    int root = find_root(g, seg), n = 0;
    if (per_player)
        memset(per_player, 0, sizeof(int) * GAME_MAX_PLAYERS);
    if (g->segs[root].meeples == 0 || !per_player)
        return g->segs[root].meeples; /* the walk below is for per_player */
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || find_root(g, m->seg) != root)
            continue;
        n++;
        if (per_player)
            per_player[m->owner]++;
    }
    return n;
}

bool game_kind_allowed(const struct game *g, int meeple_kind, int feat)
{
    if (meeple_kind == MK_ABBOT)
        return feat == FEAT_MONASTERY ||
               (feat == FEAT_GARDEN && g->rules.gardens);
    switch (feat) {
    case FEAT_ROAD:
    case FEAT_CITY:
    case FEAT_MONASTERY:
        return true;
    case FEAT_FIELD:
        return g->rules.farmers;
    default:
        return false;
    }
}

int game_meeple(const struct game *g, int player, int kind, int n)
{
    /* game_new() seats them in order, followers 1..F then abbots 1..A:
     * index them directly when that layout holds (it always should) */
    const struct rules *r = &g->rules;
    int per_seat = r->followers + r->abbots;
    bool small = kind == MK_SMALL;
    if (r->followers >= 0 && r->abbots >= 0 &&
        g->n_meeples == r->n_players * per_seat) {
        if (player < 0 || player >= r->n_players ||
            (kind != MK_SMALL && kind != MK_ABBOT))
            return -1;
        int base = player * per_seat + (small ? 0 : r->followers);
        int count = small ? r->followers : r->abbots;
        if (n != 0)
            return n >= 1 && n <= count ? base + n - 1 : -1;
        for (int i = base; i < base + count; i++)
            if (g->meeples[i].seg < 0)
                return i;
        return -1;
    }
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->owner != player || m->kind != kind)
            continue;
        if (n == 0 ? m->seg < 0 : m->n == n)
            return i;
    }
    return -1;
}

static const char *meeple_word(int kind)
{
    return kind == MK_ABBOT ? "abbot" : "follower";
}

enum rule game_check_deploy(const struct game *g, int player, int m, int seg,
                            char *why, size_t why_len)
{
    if (m < 0 || g->meeples[m].seg >= 0) {
        snprintf(why, why_len, "that %s is not in the player's supply",
                 m < 0 ? "meeple" : meeple_word(g->meeples[m].kind));
        return RULE_MEEPLE_NONE_LEFT;
    }
    (void)player;
    const struct seg *s = &g->segs[seg];
    if (s->tile != g->last_tile) {
        struct pos p = game_tile_pos(g, s->tile);
        snprintf(why, why_len, "(%d,%d) is not the tile placed this turn",
                 p.x, p.y);
        return RULE_MEEPLE_NOT_ON_PLACED_TILE;
    }
    if (game_feature_meeples(g, seg, NULL) > 0) {
        snprintf(why, why_len, "the %s already holds a meeple",
                 feat_name(s->kind));
        return RULE_MEEPLE_FEATURE_OCCUPIED;
    }
    if (!game_kind_allowed(g, g->meeples[m].kind, s->kind)) {
        snprintf(why, why_len, "an %s may not stand on a %s",
                 g->meeples[m].kind == MK_ABBOT ? "abbot" : "ordinary follower",
                 feat_name(s->kind));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (g->deployed) {
        snprintf(why, why_len, "a meeple was already deployed this turn");
        return RULE_MEEPLE_SECOND_DEPLOY;
    }
    return RULE_OK;
}

void game_deploy(struct game *g, int m, int seg)
{
    struct meeple *mp = &g->meeples[m];
    if (mp->seg >= 0)
        g->segs[find_root(g, mp->seg)].meeples--;
    mp->seg = (int16_t)seg;
    if (seg >= 0)
        g->segs[find_root(g, seg)].meeples++;
    mp->flew = false;
    g->deployed = true;
}

void game_land(struct game *g, int m, int seg)
{
    game_deploy(g, m, seg);
    g->meeples[m].flew = true;
}

/* ---- flier --------------------------------------------------------- */

int game_flier_dir(const struct game *g, int tile)
{
    return tile < 0 ? NO_FLIER : g->tiles[tile].flier_dir;
}

struct pos game_flight_target(struct pos from, int dir, int roll)
{
    struct pos t = { from.x + roll * dx8[dir & 7], from.y + roll * dy8[dir & 7] };
    return t;
}

static bool landable(const struct game *g, int kind, int seg)
{
    int f = g->segs[seg].kind;
    if (f != FEAT_ROAD && f != FEAT_CITY && f != FEAT_MONASTERY &&
        f != FEAT_GARDEN)
        return false;
    return game_kind_allowed(g, kind, f) && !game_feature_complete(g, seg);
}

int game_landings(const struct game *g, struct pos target, int kind,
                  int *out, int max)
{
    int tile = game_tile_at(g, target), n = 0;
    if (tile < 0)
        return 0;
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        if (!landable(g, kind, i))
            continue;
        if (n < max)
            out[n] = i;
        n++;
    }
    return n;
}

enum rule game_check_landing(const struct game *g, int kind, struct pos at,
                             int seg, struct pos target, char *why,
                             size_t why_len)
{
    int f = seg >= 0 ? g->segs[seg].kind : FEAT_NONE;
    bool is_feature = f == FEAT_ROAD || f == FEAT_CITY ||
                      f == FEAT_MONASTERY || f == FEAT_GARDEN ||
                      f == FEAT_FIELD;
    if (seg >= 0 && is_feature && !game_kind_allowed(g, kind, f) &&
        !(kind == MK_SMALL && f == FEAT_FIELD)) {
        snprintf(why, why_len, "an %s may not land on a %s",
                 kind == MK_ABBOT ? "abbot" : "ordinary follower",
                 feat_name(f));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (at.x != target.x || at.y != target.y) {
        snprintf(why, why_len, "the landing is at (%d,%d), not on the target",
                 at.x, at.y);
        return RULE_FLIER_WRONG_TARGET;
    }
    if (game_tile_at(g, at) < 0) {
        snprintf(why, why_len, "no tile lies at (%d,%d)", at.x, at.y);
        return RULE_FLIER_NO_TILE;
    }
    if (f == FEAT_FIELD) {
        snprintf(why, why_len, "a flier never lands on a field");
        return RULE_FLIER_FIELD;
    }
    if (!is_feature) {
        snprintf(why, why_len, "%s",
                 f == FEAT_FLIER ? "a flier never lands on a flying machine"
                                 : "the target tile has no such feature");
        return RULE_FLIER_BAD_FEATURE;
    }
    if (game_feature_complete(g, seg)) {
        snprintf(why, why_len, "the %s is already completed", feat_name(f));
        return RULE_FLIER_COMPLETED;
    }
    return RULE_OK;
}

int game_list_deploys(const struct game *g, int player,
                      struct deploy_option *out, int max)
{
    int n = 0;
    if (g->last_tile < 0 || g->deployed)
        return 0;
    const struct placed *t = &g->tiles[g->last_tile];
    for (int kind = MK_SMALL; kind <= MK_ABBOT; kind++) {
        int m = game_meeple(g, player, kind, 0);
        if (m < 0)
            continue;
        for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
            bool ok = g->segs[i].kind == FEAT_FLIER ||
                      game_check_deploy(g, player, m, i, NULL, 0) == RULE_OK;
            if (!ok)
                continue;
            if (n < max)
                out[n] = (struct deploy_option){ (int16_t)i, (uint8_t)kind };
            n++;
        }
    }
    return n;
}

void game_flight_options(const struct game *g, int tile, int meeple_kind,
                         struct flight_options *out)
{
    memset(out, 0, sizeof *out);
    int dir = game_flier_dir(g, tile);
    if (dir == NO_FLIER)
        return;
    struct pos from = game_tile_pos(g, tile);
    for (int roll = 1; roll <= 3; roll++) {
        out->target[roll - 1] = game_flight_target(from, dir, roll);
        out->n[roll - 1] = game_landings(g, out->target[roll - 1], meeple_kind,
                                         out->seg[roll - 1], TILE_MAX_SEGS);
    }
}

/* ---- scoring --------------------------------------------------------- */

static struct score_event *new_event(struct game *g)
{
    if (g->n_events == g->cap_events) {
        /* a game scores some dozens of times: start there, not at 16 */
        size_t cap = (size_t)g->cap_events, need = (size_t)g->n_events + 1;
        xgrow((void **)&g->events, &cap, need < 64 ? 64 : need,
              sizeof *g->events);
        g->cap_events = (int)cap;
    }
    struct score_event *ev = &g->events[g->n_events++];
    memset(ev, 0, sizeof *ev);
    return ev;
}

static void push_ref(struct game *g, struct score_event *ev,
                     const struct seg *s, int size)
{
    if (g->n_refs == g->cap_refs) {
        size_t cap = (size_t)g->cap_refs, need = (size_t)g->n_refs + 1;
        xgrow((void **)&g->refs, &cap, need < 256 ? 256 : need,
              sizeof *g->refs);
        g->cap_refs = (int)cap;
    }
    const struct placed *t = &g->tiles[s->tile];
    g->refs[g->n_refs++] = (struct feature_ref){ t->x, t->y, s->kind, s->mask,
                                                 (uint16_t)size };
    ev->n_refs++;
}

/* Tiles covered by the feature of seg (each tile once). */
static int feature_tiles(const struct game *g, int seg)
{
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    int root = find_root(g, seg), s = root, tiles = 0;
    do {
        unsigned t = g->segs[s].tile;
        uint64_t bit = 1ull << (t & 63);
        tiles += !(seen[t >> 6] & bit);
        seen[t >> 6] |= bit;
        s = g->segs[s].next;
    } while (s != root);
    return tiles;
}

/* A completed city a field touches, with where a scan of the field's
 * segments by index first meets it (segment * 4 + side): the order the
 * receipt lists them in. */
struct touch {
    int city; /* game_feature() of the city */
    int first;
};

/* The completed cities field segment si touches, added to cities[] once
 * (keeping the earliest touch). */
static void touched_cities(const struct game *g, int si, struct touch *cities,
                           int *n_cities)
{
    const struct seg *s = &g->segs[si];
    for (unsigned m = s->cities; m; m &= m - 1) {
        int side = __builtin_ctz(m), c = side_seg(g, s->tile, side);
        if (c < 0 || g->segs[c].kind != FEAT_CITY)
            continue;
        const struct seg *root = &g->segs[find_root(g, c)];
        if (root->open != 0)
            continue; /* not completed */
        int cr = root->min, k, first = 4 * si + side;
        for (k = 0; k < *n_cities && cities[k].city != cr; k++)
            ;
        if (k == *n_cities)
            cities[(*n_cities)++] = (struct touch){ cr, first };
        else if (first < cities[k].first)
            cities[k].first = first;
    }
}

/* The refs of a field's score event: the completed cities it touches,
 * each with its size, in the order of their first touch. */
static void push_cities(struct game *g, struct score_event *ev,
                        struct touch *cities, int n)
{
    for (int i = 1; i < n; i++) { /* insertion sort: a handful */
        struct touch t = cities[i];
        int k = i;
        for (; k > 0 && cities[k - 1].first > t.first; k--)
            cities[k] = cities[k - 1];
        cities[k] = t;
    }
    ev->cities = (uint16_t)n;
    for (int k = 0; k < n; k++)
        push_ref(g, ev, &g->segs[cities[k].city],
                 feature_tiles(g, cities[k].city));
}

/* Size, pennants and touched completed cities of the feature of root,
 * with the receipt's refs: for a road or city its tiles in placement
 * order, each by the feature's lowest segment there; for a field the
 * completed cities. One walk round the feature, in any order: a bitmap of
 * its tiles puts them in order. */
static void measure(struct game *g, int root, struct score_event *ev)
{
    const struct seg *r = &g->segs[root];
    ev->ref0 = (uint32_t)g->n_refs;
    if (r->kind == FEAT_MONASTERY || r->kind == FEAT_GARDEN) {
        ev->tiles = (uint16_t)block_count(g, r->tile);
        push_ref(g, ev, r, 1);
        return;
    }
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    uint16_t lowest[GAME_MAX_TILES]; /* where seen: the segment there */
    struct touch cities[GAME_MAX_SEGS / 4];
    int n_cities = 0, s = root;
    do {
        const struct seg *sp = &g->segs[s];
        unsigned t = sp->tile;
        uint64_t bit = 1ull << (t & 63);
        if (!(seen[t >> 6] & bit) || s < lowest[t])
            lowest[t] = (uint16_t)s;
        ev->tiles = (uint16_t)(ev->tiles + !(seen[t >> 6] & bit));
        seen[t >> 6] |= bit;
        ev->pennants = (uint16_t)(ev->pennants + sp->pennants);
        if (sp->kind == FEAT_FIELD && sp->cities)
            touched_cities(g, s, cities, &n_cities);
        s = sp->next;
    } while (s != root);
    if (r->kind == FEAT_FIELD) {
        push_cities(g, ev, cities, n_cities);
        return;
    }
    for (int w = 0; w < GAME_MAX_TILES / 64; w++)
        for (uint64_t b = seen[w]; b; b &= b - 1)
            push_ref(g, ev, &g->segs[lowest[64 * w + __builtin_ctzll(b)]], 1);
}

static int feature_points(const struct score_event *ev)
{
    switch (ev->feature) {
    case FEAT_ROAD:
        return ev->tiles;
    case FEAT_CITY:
        if (!ev->completed)
            return ev->tiles + ev->pennants;
        if (ev->tiny)
            return ev->tiles + ev->pennants;
        return 2 * (ev->tiles + ev->pennants);
    case FEAT_MONASTERY:
    case FEAT_GARDEN:
        return ev->completed ? 9 : ev->tiles;
    case FEAT_FIELD:
        return 3 * ev->cities;
    }
    return 0;
}

/* The root of the feature each meeple stands on, -1 in supply. */
static void meeple_roots(const struct game *g, int roots[GAME_MAX_MEEPLES])
{
    for (int i = 0; i < g->n_meeples; i++)
        roots[i] = g->meeples[i].seg < 0 ? -1 : find_root(g, g->meeples[i].seg);
}

/* Scores the feature of seg for the majority; returns false (and records
 * nothing) when no meeple stands on it. roots: meeple_roots() of g, or
 * NULL to work them out. */
static bool score_feature(struct game *g, int seg, bool completed, int turn,
                          const int *roots)
{
    int root = find_root(g, seg), mine[GAME_MAX_MEEPLES];
    int counts[GAME_MAX_PLAYERS] = { 0 };
    if (g->segs[root].meeples == 0)
        return false;
    if (!roots) {
        meeple_roots(g, mine);
        roots = mine;
    }
    unsigned flew = 0; /* seats with a meeple that flew onto it */
    for (int i = 0; i < g->n_meeples; i++) {
        if (roots[i] != root)
            continue;
        counts[g->meeples[i].owner]++;
        if (g->meeples[i].flew)
            flew |= 1u << g->meeples[i].owner;
    }
    struct score_event *ev = new_event(g);
    ev->turn = turn;
    ev->feature = g->segs[root].kind;
    ev->completed = completed;
    ev->seg = g->segs[root].min;
    measure(g, root, ev);
    ev->tiny = ev->feature == FEAT_CITY && completed && ev->tiles == 2 &&
               g->rules.tiny_city == 2;
    ev->points = feature_points(ev);
    int best = 0;
    for (int p = 0; p < g->rules.n_players; p++) {
        ev->meeples[p] = (uint8_t)counts[p];
        if (counts[p] > best)
            best = counts[p];
    }
    for (int p = 0; p < g->rules.n_players; p++)
        if (counts[p] == best) {
            ev->players |= (uint8_t)(1u << p);
            g->score[p] += ev->points;
        }
    ev->fliers = (uint8_t)(flew & ev->players);
    return true;
}

static void return_meeples(struct game *g, int seg)
{
    int root = find_root(g, seg);
    for (int i = 0; i < g->n_meeples; i++) {
        struct meeple *m = &g->meeples[i];
        if (m->seg >= 0 && find_root(g, m->seg) == root)
            m->seg = -1;
    }
    g->segs[root].meeples = 0;
}

void game_end_turn(struct game *g)
{
    int ti = g->last_tile;
    if (ti < 0)
        return;
    const struct placed *t = &g->tiles[ti];
    int done[TILE_MAX_SEGS], n_done = 0;
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        int k = g->segs[i].kind;
        if (k != FEAT_ROAD && k != FEAT_CITY)
            continue;
        int root = find_root(g, i), j;
        if (g->segs[root].open != 0)
            continue; /* not complete */
        for (j = 0; j < n_done && done[j] != root; j++)
            ;
        if (j < n_done)
            continue;
        done[n_done++] = root;
        if (score_feature(g, i, true, g->turn, NULL))
            return_meeples(g, i);
    }
    /* monasteries and gardens whose block this tile filled */
    for (int f = 0; f < g->n_filled; f++) {
        const struct placed *n = &g->tiles[g->filled[f]];
        for (int i = n->seg0; i < n->seg0 + n->n_seg; i++) {
            int k = g->segs[i].kind;
            if ((k == FEAT_MONASTERY || k == FEAT_GARDEN) &&
                score_feature(g, i, true, g->turn, NULL))
                return_meeples(g, i);
        }
    }
    g->n_filled = 0;
    g->last_tile = -1;
    g->deployed = false;
}

void game_recall(struct game *g, int m)
{
    struct meeple *mp = &g->meeples[m];
    int seg = mp->seg;
    if (seg < 0)
        return;
    /* the abbot's owner scores alone, as at game end */
    struct score_event *ev = new_event(g);
    ev->turn = g->turn;
    ev->feature = g->segs[seg].kind;
    ev->completed = game_feature_complete(g, seg);
    ev->recall = true;
    ev->seg = (uint16_t)seg;
    measure(g, seg, ev);
    ev->points = feature_points(ev);
    ev->players = (uint8_t)(1u << mp->owner);
    ev->meeples[mp->owner] = 1;
    g->score[mp->owner] += ev->points;
    g->segs[find_root(g, seg)].meeples--;
    mp->seg = -1;
    g->deployed = true;
}

void game_final_scoring(struct game *g)
{
    if (g->last_tile >= 0)
        game_end_turn(g);
    uint64_t seen[GAME_MAX_SEGS / 64] = { 0 }; /* roots scored */
    int roots[GAME_MAX_MEEPLES];
    meeple_roots(g, roots); /* scoring moves no meeple */
    for (int i = 0; i < g->n_meeples; i++) {
        int root = roots[i];
        if (root < 0 || seen[root >> 6] & 1ull << (root & 63))
            continue;
        seen[root >> 6] |= 1ull << (root & 63);
        if (g->segs[root].kind == FEAT_FIELD && !g->rules.farmers)
            continue;
        score_feature(g, root, game_feature_complete(g, root), -1, roots);
    }
    for (int i = 0; i < g->n_events; i++)
        if (g->events[i].turn < 0)
            g->events[i].completed = g->events[i].completed &&
                                     g->events[i].feature != FEAT_FIELD;
}

/* ---- hashing and notation ------------------------------------------ */

/* FNV-1a over the 8 bytes of v, low byte first. Most values are small,
 * and a zero byte only multiplies by the prime: six or seven of them
 * multiply by its sixth or seventh power (the same hash, less work). */
static uint64_t fnv(uint64_t h, int64_t v)
{
    const uint64_t prime = 1099511628211ull;
    const uint64_t prime6 = prime * prime * prime * prime * prime * prime;
    uint64_t u = (uint64_t)v;
    if (u < 256)
        return (h ^ u) * prime * prime6 * prime;
    if (u < 65536)
        return (((h ^ (u & 0xFF)) * prime) ^ (u >> 8)) * prime * prime6;
    for (int i = 0; i < 8; i++) {
        h ^= (uint8_t)(u >> (8 * i));
        h *= prime;
    }
    return h;
}

uint64_t game_hash(const struct game *g)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < g->n_tiles; i++) {
        const struct placed *t = &g->tiles[i];
        h = fnv(h, t->def);
        h = fnv(h, t->rot);
        h = fnv(h, t->x);
        h = fnv(h, t->y);
    }
    for (int i = 0; i < g->n_segs; i++)
        h = fnv(h, g->segs[find_root(g, i)].min);
    for (int i = 0; i < g->n_meeples; i++)
        h = fnv(h, g->meeples[i].seg);
    for (int p = 0; p < g->rules.n_players; p++)
        h = fnv(h, g->score[p]);
    for (int t = 0, kinds = tile_count(); t < kinds; t++)
        h = fnv(h, g->pack[t]);
    h = fnv(h, g->n_events);
    return h;
}

static const char *edge_names(uint8_t m)
{
    static const char *const names[16] = {
        "", "N", "E", "NE", "S", "NS", "SE", "_W",
        "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE",
    };
    return names[m & 15];
}

void seg_format(int kind, uint8_t mask, char *out, size_t len)
{
    static const char *const halves[8] = { "NL", "NR", "EL", "ER",
                                           "SL", "SR", "WL", "WR" };
    if (kind == FEAT_ROAD || kind == FEAT_CITY) {
        snprintf(out, len, "%s:%s", feat_name(kind), edge_names(mask));
    } else if (kind == FEAT_FIELD) {
        char tmp[40] = "";
        size_t n = 0;
        for (int i = 0; i < 8; i++) {
            if (!(mask & (1u << i)))
                continue;
            n += (size_t)snprintf(tmp + n, sizeof tmp - n, "%s%s",
                                  n ? "." : "", halves[i]);
        }
        snprintf(out, len, "field:%s", tmp);
    } else {
        snprintf(out, len, "%s", feat_name(kind));
    }
}

static int edge_bit(char c)
{
    switch (c) {
    case 'N': return EDGE_N;
    case 'E': return EDGE_E;
    case 'S': return EDGE_S;
    case 'W': return EDGE_W;
    }
    return 0;
}

bool loc_parse(int kind, const char *s, uint8_t *mask)
{
    *mask = 0;
    if (kind == FEAT_MONASTERY || kind == FEAT_GARDEN || kind == FEAT_FLIER)
        return strcmp(s, "I") == 0 || s[0] == '\0';
    if (kind == FEAT_FIELD) {
        while (*s) {
            int side = edge_bit(s[0]), half;
            if (!side || (s[1] != 'L' && s[1] != 'R'))
                return false;
            half = 2 * __builtin_ctz((unsigned)side) + (s[1] == 'R');
            if (*mask & (1u << half))
                return false;
            *mask |= (uint8_t)(1u << half);
            s += 2;
            if (*s == '.' && s[1])
                s++;
            else if (*s)
                return false;
        }
        return *mask != 0;
    }
    if (kind != FEAT_ROAD && kind != FEAT_CITY)
        return false;
    if (s[0] == '_') {
        int b = edge_bit(s[1]);
        if (!b || s[2])
            return false;
        *mask = (uint8_t)(15 & ~b);
        return true;
    }
    for (; *s; s++) {
        int b = edge_bit(*s);
        if (!b || (*mask & b))
            return false;
        *mask |= (uint8_t)b;
    }
    return *mask != 0;
}
