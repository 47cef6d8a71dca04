/* game.c - the generic engine: board, feature graph, figures, the turn
 * and the scoring driver. What differs between features, figures and
 * expansions comes from their classes (feature.h) and units (exp/).
 *
 * Features are a union-find over segments. A road or city root counts its
 * unmatched edges ("open"); the feature is complete when none are left.
 * Monasteries and gardens never merge: they are complete when the 3x3
 * block around their tile is full. Fields merge across half-edges. */
#include "core/text.h"
#include "core/game.h"
#include "core/game_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const int dx4[4] = { 0, 1, 0, -1 }; /* N E S W */
static const int dy4[4] = { -1, 0, 1, 0 };

static const char *const rule_ids[RULE__COUNT] = {
#define X(id) #id,
    RULES(X)
#undef X
#define RULE(id) #id,
#include "core/exp/units.def"
#undef RULE
};

const char *rule_id(enum rule r)
{
    return (unsigned)r < RULE__COUNT ? rule_ids[r] : "UNKNOWN";
}

int rule_find(const char *id)
{
    for (int r = 0; r < RULE__COUNT; r++)
        if (strcmp(rule_ids[r], id) == 0)
            return r;
    return -1;
}

/* ---- rules ------------------------------------------------------------ */

static const struct {
    const char *key;
    int def, pages, unit;
} options[OPT__COUNT] = {
#define OPTION(id, key, def, pages, unit) { key, def, pages, EXP_##unit },
#include "core/exp/units.def"
#undef OPTION
};

/* The values a save may give each option, and what they mean. */
static const struct {
    int opt;
    const char *name;
    int value;
} option_values[] = {
#define OPTION_VALUE(opt, name, value) { OPT_##opt, name, value },
#include "core/exp/units.def"
#undef OPTION_VALUE
};

int option_parse(int opt, const char *name)
{
    for (size_t i = 0; i < sizeof option_values / sizeof *option_values; i++)
        if (option_values[i].opt == opt &&
            strcmp(option_values[i].name, name) == 0)
            return option_values[i].value;
    return -1;
}

const char *option_value_name(int opt, int value)
{
    for (size_t i = 0; i < sizeof option_values / sizeof *option_values; i++)
        if (option_values[i].opt == opt && option_values[i].value == value)
            return option_values[i].name;
    return NULL;
}

int option_find(const char *key)
{
    for (int o = 0; o < OPT__COUNT; o++)
        if (strcmp(options[o].key, key) == 0)
            return o;
    return -1;
}

static const char *const flag_keys[RF__COUNT] = {
#define SWITCH(id, key) key,
#include "core/exp/units.def"
#undef SWITCH
};

int option_default(int opt)
{
    return opt >= 0 && opt < OPT__COUNT ? options[opt].def : 0;
}

int option_log_default(const struct rules *r, int opt)
{
    if (opt < 0 || opt >= OPT__COUNT)
        return 0;
    return game_rules_units(r) >> options[opt].unit & 1 ? options[opt].pages
                                                         : options[opt].def;
}

const char *option_key(int opt)
{
    return opt >= 0 && opt < OPT__COUNT ? options[opt].key : "";
}

const char *rule_flag_key(int bit)
{
    return bit >= 0 && bit < RF__COUNT ? flag_keys[bit] : "";
}

void rules_init(struct rules *r)
{
    memset(r, 0, sizeof *r);
    for (int o = 0; o < OPT__COUNT; o++)
        r->opt[o] = options[o].def;
}

uint64_t game_rules_units(const struct rules *r)
{
    uint64_t units = 1ull << EXP_BASE;
    for (int s = 0; s < TILE_SETS; s++)
        if (r->set_copies[s])
            units |= 1ull << tile_set_defs[s].expansion;
    for (int e = 0; e < EXP__COUNT; e++)
        for (const struct element *el = expansion_get(e)->elements;
             el && el->key; el++)
            if ((el->kind == EL_FIGURES && r->figures[el->what]) ||
                (el->kind == EL_COUNT && r->counts[el->what]) ||
                (el->kind == EL_FLAG && (r->flags >> el->what & 1)))
                units |= 1ull << e;
    return units;
}

/* ---- board ------------------------------------------------------------ */

static struct pos step(struct pos p, int side)
{
    struct pos q = { p.x + dx4[side], p.y + dy4[side] };
    return q;
}

struct pos pos_step(struct pos p, int side)
{
    return step(p, side & 3);
}

int game_seat_walk(const struct game *g, int first, int last,
                   bool (*asks)(const struct game *g, int seat))
{
    int n = g->rules.n_players;
    if (n <= 0 || first < 0 || last < 0)
        return -1;
    for (int p = first % n, i = 0; i < n; p = (p + 1) % n, i++) {
        if (asks(g, p))
            return p;
        if (p == last % n)
            break;
    }
    return -1;
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
        if (feature_class(g->segs[i].kind)->done == DONE_BLOCK)
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

int game_block_count(const struct game *g, int tile)
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

/* Copies of every kind in the rules' pack, into copies[TILE_KINDS]: the
 * sets' counts times their copies, less what a set removes. */
static void pack_counts(const struct rules *r, int16_t *copies)
{
    memset(copies, 0, TILE_KINDS * sizeof *copies);
    for (int s = 0; s < TILE_SETS; s++) {
        const struct tile_set_def *d = &tile_set_defs[s];
        int n = r->set_copies[s];
        for (int i = 0; n && i < d->n_refs; i++) {
            int t = d->refs[i].kind;
            /* the spring (rank 0) starts the game, never drawn */
            if (tile_group_rank(tile_defs[t].group) != 0)
                copies[t] = (int16_t)(copies[t] + d->refs[i].count * n);
        }
    }
    for (int s = 0; s < TILE_SETS; s++) {
        const struct tile_set_def *d = &tile_set_defs[s];
        bool on = r->set_copies[s] &&
                  (!d->removes_if || r->opt[d->removes_if - 1]);
        for (int i = 0; on && i < d->n_removes; i++)
            copies[d->removes[i]] = 0;
    }
}

int game_pack_copies(const struct rules *r, int def)
{
    int16_t copies[TILE_KINDS];
    pack_counts(r, copies);
    return def >= 0 && def < TILE_KINDS ? copies[def] : 0;
}

int game_pack_size(const struct rules *r)
{
    int16_t copies[TILE_KINDS];
    int n = 0;
    pack_counts(r, copies);
    for (int t = 0; t < TILE_KINDS; t++)
        n += copies[t];
    return n;
}

int game_turn_part(const struct game *g)
{
    return g->part;
}

static bool group_open(const struct game *g, int def)
{
    return g->groups >> tile_defs[def].group & 1;
}

/* The tree of the drawable copies, from pack[] and the open groups. It
 * spans the kinds the game's pack holds (pack_kind[], by group, then id), not
 * every kind flierd knows, so its depth is that of the game. */
static void pack_tree_build(struct game *g)
{
    memset(g->pack_tree, 0, sizeof g->pack_tree[0] * (g->tree_width + 1u));
    g->draw_left = 0;
    for (int i = 1; i <= g->tree_width; i++) { /* each entry once */
        int up = i + (i & -i), k = i - 1;
        int t = k < g->n_pack_kinds ? g->pack_kind[k] : -1;
        int n = t >= 0 && group_open(g, t) ? g->pack[t] : 0;
        g->draw_left += n;
        g->pack_tree[i] = (int16_t)(g->pack_tree[i] + n);
        if (up <= g->tree_width)
            g->pack_tree[up] = (int16_t)(g->pack_tree[up] + g->pack_tree[i]);
    }
}

/* Opens the non-empty groups of lowest rank that no unit holds closed
 * (JCloisterZone opens a group's successor as soon as a draw empties
 * it); true when that changed the open groups (and rebuilt the tree). */
static bool groups_update(struct game *g)
{
    int best = -1;
    for (int gr = 0; gr < TG__COUNT; gr++)
        if (g->group_left[gr] > 0 && tile_group_rank(gr) > 0 &&
            !(g->groups_held >> gr & 1) &&
            (best < 0 || tile_group_rank(gr) < best))
            best = tile_group_rank(gr);
    uint32_t open = 0;
    for (int gr = 0; best >= 0 && gr < TG__COUNT; gr++)
        if (g->group_left[gr] > 0 && tile_group_rank(gr) == best &&
            !(g->groups_held >> gr & 1))
            open |= 1u << gr;
    if (open == g->groups)
        return false;
    g->groups = open;
    if (open) {
        pack_tree_build(g);
    } else { /* the pack is used up */
        memset(g->pack_tree, 0, sizeof g->pack_tree[0] * (g->tree_width + 1u));
        g->draw_left = 0;
    }
    return true;
}

void game_hold_group(struct game *g, int group, bool held)
{
    if (group < 0 || group >= TG__COUNT)
        return;
    if (held)
        g->groups_held |= 1u << group;
    else
        g->groups_held &= ~(1u << group);
    (void)groups_update(g);
}

/* Adds d copies of tile kind t to the pack (d < 0 takes them). */
static inline void pack_add(struct game *g, int t, int d)
{
    int gr = tile_defs[t].group;
    bool was_empty = g->group_left[gr] == 0;
    g->pack[t] = (int16_t)(g->pack[t] + d);
    g->pack_left += d;
    g->group_left[gr] = (int16_t)(g->group_left[gr] + d);
    if (__builtin_expect(was_empty != (g->group_left[gr] == 0), 0) &&
        groups_update(g))
        return; /* another group opened: the tree is new */
    if (!group_open(g, t))
        return;
    g->draw_left += d;
    for (int i = g->pack_local[t] + 1; i <= g->tree_width; i += i & -i)
        g->pack_tree[i] = (int16_t)(g->pack_tree[i] + d);
}

bool game_drawable(const struct game *g, int def)
{
    return def >= 0 && def < TILE_KINDS && g->pack[def] > 0 &&
           group_open(g, def);
}

int game_pack_draw(const struct game *g, double r)
{
    int n = g->draw_left;
    if (n <= 0 || !(r >= 0 && r < 1))
        return -1;
    /* the kind whose copies hold slot idx: the most kinds whose copies
     * together stay at or below idx, by halving steps down the tree */
    int idx = (int)(r * n), k = 0;
    if (idx >= n) /* r rounded up to 1 */
        return -1;
    /* idx < n = pack_tree[tree_width]: k stays below it */
    for (int step = g->tree_width / 2; step > 0; step >>= 1) {
        int below = g->pack_tree[k + step], take = below <= idx;
        k += take * step; /* no branch: which way is a coin toss */
        idx -= take * below;
    }
    return k < g->n_pack_kinds ? g->pack_kind[k] : -1;
}

double game_redraw_random(double r)
{
    const uint64_t mask = (1ull << 48) - 1;
    uint64_t x;
    memcpy(&x, &r, sizeof x); /* the double's bits, as Java's generator */
    x = (25214903917ull * (x & mask) + 11) & mask;
    return (double)x / (double)(1ull << 48);
}

double game_pack_random(const struct game *g, int def)
{
    int idx = 0;
    if (!game_drawable(g, def))
        return -1;
    for (int k = 0; k < g->pack_local[def]; k++)
        idx += game_drawable(g, g->pack_kind[k]) ? g->pack[g->pack_kind[k]]
                                                 : 0;
    return (idx + 0.5) / g->draw_left;
}

/* The full pack of the rules' tile sets, the edges of the kinds in it,
 * and the tree of what may be drawn. */
static void pack_fill(struct game *g, const struct rules *r)
{
    pack_counts(r, g->pack);
    for (int t = 0; t < TILE_KINDS; t++)
        g->pack_local[t] = -1;
    /* by group in registry order (groups open together are drawn one
     * after the other), by id within a group: a counting sort, as this
     * runs once a game */
    int first[TG__COUNT + 1] = { 0 };
    for (int t = 0; t < TILE_KINDS; t++)
        first[tile_defs[t].group + 1] += g->pack[t] > 0;
    for (int gr = 0; gr < TG__COUNT; gr++)
        first[gr + 1] += first[gr];
    g->n_pack_kinds = first[TG__COUNT];
    for (int t = 0; t < TILE_KINDS; t++) {
        int gr = tile_defs[t].group;
        if (g->pack[t] <= 0)
            continue;
        g->pack_left += g->pack[t];
        g->group_left[gr] = (int16_t)(g->group_left[gr] + g->pack[t]);
        g->kind_edges[t] = tile_defs[t].edges;
        g->pack_local[t] = (int16_t)first[gr];
        g->pack_kind[first[gr]++] = (int16_t)t;
    }
    g->tree_width = 1;
    while (g->tree_width < g->n_pack_kinds)
        g->tree_width *= 2;
    g->groups = ~0u; /* forces the first build */
    groups_update(g);
}

struct game *game_new(const struct rules *r)
{
    /* the tile and segment arrays are most of the bytes and are written
     * before they are read: clear only what precedes them */
    struct game *g = xmalloc(sizeof *g);
    memset(g, 0, offsetof(struct game, tiles));
    g->rules = *r;
    g->part = 1;
    g->units = game_rules_units(r);
    unsigned standable = 0; /* kinds a figure may occupy in this game */
    for (int f = 1; f < FEAT__COUNT; f++) {
        const struct feature_class *c = feature_class(f);
        if (c->on_board && (c->needs & ~r->flags) == 0)
            g->kinds_on_board = (uint32_t)(g->kinds_on_board | 1u << f);
        if (c->done == DONE_BLOCK)
            g->kinds_block = (uint32_t)(g->kinds_block | 1u << f);
        if (c->done == DONE_EDGES)
            g->kinds_edged = (uint32_t)(g->kinds_edged | 1u << f);
        if (c->on_board && ((c->needs | c->stand_needs) & ~r->flags) == 0)
            standable |= 1u << f;
    }
    for (int k = 0; k < FIG__COUNT; k++)
        for (int f = 1; f < FEAT__COUNT; f++)
            if ((standable >> f & 1) && figure_stands_on(k, f))
                g->stands[k] = (uint32_t)(g->stands[k] | 1u << f);
    for (int e = 0; e < EXP__COUNT; e++) {
        const struct expansion *u = expansion_get(e);
        if (!(g->units >> e & 1))
            continue;
        g->unit[g->n_units++] = u;
#define X(h) g->hooked |= (uint32_t)(u->h != NULL) << HOOK_##h;
        UNIT_HOOKS(X)
#undef X
    }
    g->now.tile = -1;
    g->grid_shift = __builtin_ctz(GAME_GRID_MIN); /* around the origin */
    g->grid_x0 = g->grid_y0 = -GAME_GRID_MIN / 2;
    pack_fill(g, r);
    int off = 0;
    for (int f = 0; f < FIG__COUNT; f++) {
        g->fig0[f] = (uint8_t)off;
        off += r->figures[f];
    }
    assert(off <= GAME_MAX_SEAT_FIGURES);
    g->per_seat = (uint8_t)off;
    for (int p = 0; p < r->n_players; p++)
        for (int f = 0; f < FIG__COUNT; f++)
            for (int n = 1; n <= r->figures[f]; n++)
                g->meeples[g->n_meeples++] = (struct meeple){
                    (int8_t)p, (uint8_t)f, (uint8_t)n,
                    (uint8_t)(!figure_class(f)->follower ? 0
                              : figure_class(f)->by_pennants
                                  ? STRENGTH_PENNANTS
                                  : figure_class(f)->strength),
                    -1, false, 0
                };
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

/* Edge kinds of tile kind def (a valid one) turned rot (mod 4): a turn
 * moves side i to i + rot, a nibble each. */
static unsigned kind_edges(const struct game *g, int def, int rot)
{
    unsigned e = g->kind_edges[def]; /* 0: a kind not in the pack */
    e = e ? e : tile_get(def)->edges;
    int s = 4 * (rot & 3);
    return (e << s | e >> ((16 - s) & 15)) & 0xFFFF;
}

static unsigned edge_of(unsigned edges, int side)
{
    return (edges >> 4 * side) & 15;
}

/* What the tiles around the empty square p ask of a tile there: for each
 * side with a neighbour, the kind of that neighbour's facing edge (in
 * *need) and a full nibble (in *care). No neighbour: *care is 0. */
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
        *need |= edge_of(g->tiles[nb].edges, (side + 2) & 3) << 4 * side;
        *care |= 15u << 4 * side;
    }
}

/* A closed tile (edges 0, the abbey) meets any edge. */
static bool meets_demand(unsigned edges, unsigned need, unsigned care)
{
    return care != 0 && (edges == 0 || (edges & care) == need);
}

/* What the units in play forbid of def at p turned rot (edges match):
 * RULE_OK or their rule, explained in why. */
static enum rule units_check_place(const struct game *g, int def,
                                   struct pos p, int rot, char *why,
                                   size_t why_len)
{
    FOR_UNITS(g, u, check_place) {
        int rule = u->check_place(g, def, p, rot, why, why_len);
        if (rule != RULE_OK)
            return (enum rule)rule;
    }
    return RULE_OK;
}

/* Does a unit in play make good def's edges that do not match (a
 * bridge)? */
static bool units_excuse_edges(const struct game *g, int def, struct pos p,
                               int rot)
{
    FOR_UNITS(g, u, excuse_edges)
        if (u->excuse_edges(g, def, p, rot))
            return true;
    return false;
}

/* Does any unit in play judge placements? (most games: none) */
static bool place_judged(const struct game *g)
{
    return g->hooked >> HOOK_check_place & 1;
}

bool game_fits(const struct game *g, int def, struct pos p, int rot)
{
    const struct tile_def *t = tile_get(def);
    unsigned need, care;
    if (!t || !on_board(p) || game_tile_at(g, p) >= 0)
        return false;
    edge_demand(g, p, &need, &care);
    if (!meets_demand(kind_edges(g, def, rot), need, care) &&
        !units_excuse_edges(g, def, p, rot))
        return false;
    return !place_judged(g) ||
           units_check_place(g, def, p, rot, NULL, 0) == RULE_OK;
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
            snprintf(why, why_len, "%s edge: %s meets the %s of the tile "
                     "at (%d,%d)", side_name(side), feat_name((int)mine),
                     feat_name((int)theirs), n->x, n->y);
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
    bool held = tile_group_rank(t->group) < 0 && /* the abbey */
                game_in_play(g, t->expansion);
    if (g->pack[def] <= 0 && !held) {
        snprintf(why, why_len, "no copy of that tile is left in the game's "
                 "tile sets");
        return RULE_TILE_NOT_IN_PACK;
    }
    int there = game_tile_at(g, p);
    if (there >= 0) {
        snprintf(why, why_len, "(%d,%d) already holds a tile", p.x, p.y);
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
    if (!meets_demand(kind_edges(g, def, rot), need, care) &&
        !units_excuse_edges(g, def, p, rot))
        return check_edges(g, def, p, rot, why, why_len);
    if (!place_judged(g))
        return RULE_OK;
    return units_check_place(g, def, p, rot, why, why_len);
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

int game_side_seg(const struct game *g, int tile, int side)
{
    const struct placed *t = &g->tiles[tile];
    int slot = t->side_slots >> 4 * side & 15;
    return slot ? t->seg0 + slot - 1 : -1;
}

int game_half_seg(const struct game *g, int tile, int half)
{
    const struct placed *t = &g->tiles[tile];
    int slot = (int)(t->half_slots >> 4 * half & 15);
    return slot ? t->seg0 + slot - 1 : -1;
}

/* Is a segment of this kind on the board under the game's rules (a
 * river is not a feature; a garden only with gardens)? */
static bool seg_in_play(const struct game *g, int kind)
{
    return g->kinds_on_board >> kind & 1;
}

/* Appends the segments of t turned rot as tile ti's, in the board frame,
 * and fills the tile's side and half-edge slots (a side holds at most
 * one road or city segment, a half-edge one field: tilegen checks it).
 * True when it has a monastery or garden. Tiles all of whose segments
 * are on the board copy their turned geometry from the tables; the
 * others (a river, a garden without gardens) work it out here; a kind
 * out of play that is a kind of another (a shrine without shrines) is
 * that other. */
static bool add_segs(struct game *g, int ti, const struct tile_def *t,
                     int rot)
{
    struct placed *pl = &g->tiles[ti];
    const struct tile_turn *tt = &t->turn[rot];
    bool all = (t->kinds & ~g->kinds_on_board) == 0;
    unsigned sides = 0;
    uint32_t halves = 0;
    pl->seg0 = (uint16_t)g->n_segs;
    for (int i = 0; i < t->n_seg; i++) {
        const struct seg_def *d = &t->seg[i];
        int kind = all || seg_in_play(g, d->kind) ? d->kind
                                                   : feature_class(d->kind)->like;
        if (!all && !seg_in_play(g, kind))
            continue;
        int si = g->n_segs++;
        struct seg *s = &g->segs[si];
        s->kind = (uint8_t)kind;
        s->pennants = d->pennants;
        s->attrs = d->attrs;
        s->adjoin = d->adjoin;
        s->tile = (uint16_t)ti;
        s->parent = s->next = s->min = (uint16_t)si;
        s->size = 1;
        s->meeples = 0;
        s->mask = tt->mask[i];
        s->cities = tt->cities[i];
        s->open = d->n_edges;
        if (all)
            continue;
        /* no branches on the mask: which sides a segment covers is
         * anybody's guess */
        int shape = feat_shape(d->kind);
        unsigned slot = (unsigned)(si - pl->seg0 + 1);
        unsigned spread = shape == SHAPE_HALVES ? nibbles8(s->mask)
                                                : nibbles4(s->mask);
        sides |= shape == SHAPE_EDGES ? spread * slot : 0;
        halves |= shape == SHAPE_HALVES ? spread * slot : 0;
    }
    pl->side_slots = all ? tt->side_slots : (uint16_t)sides;
    pl->half_slots = all ? tt->half_slots : halves;
    pl->n_seg = (uint8_t)(g->n_segs - pl->seg0);
    pl->edges = tt->edges;
    return (t->kinds & g->kinds_block) != 0;
}

/* Joins the features of tile ti and its neighbour nb (-1: none) across
 * ti's board side `side`. */
static void join_across(struct game *g, int ti, int nb, int side)
{
    if (nb < 0)
        return;
    int sa = game_side_seg(g, ti, side);
    int sb = game_side_seg(g, nb, (side + 2) & 3);
    if (sa >= 0 && sb >= 0 && g->segs[sa].kind == g->segs[sb].kind)
        join(g, sa, sb, true);
    int h = 2 * side;
    int fa = game_half_seg(g, ti, h), fb = game_half_seg(g, nb, opposite_half(h));
    if (fa >= 0 && fb >= 0)
        join(g, fa, fb, false);
    /* the other half: often the same two fields, joined already */
    int ga = game_half_seg(g, ti, h + 1);
    int gb = game_half_seg(g, nb, opposite_half(h + 1));
    if (ga >= 0 && gb >= 0 && (ga != fa || gb != fb))
        join(g, ga, gb, false);
}

void game_join_segs(struct game *g, int a, int b)
{
    join(g, a, b, false);
}

/* Re-forms the feature of seg from its own segments, joined across the
 * tile sides they share only: each side with no tile beyond it open, a
 * side a tile closes (an abbey) closed; then the units' own links (their
 * reformed hook), and the figures counted again. */
void game_split_feature(struct game *g, int seg)
{
    int16_t list[GAME_MAX_SEGS];
    int16_t standing[GAME_MAX_MEEPLES];
    int root = find_root(g, seg), n = 0, n_standing = 0, s = root;
    do {
        list[n++] = (int16_t)s;
        s = g->segs[s].next;
    } while (s != root);
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].seg >= 0 &&
            find_root(g, g->meeples[i].seg) == root)
            standing[n_standing++] = (int16_t)i;
    for (int i = 0; i < n; i++) {
        struct seg *sg = &g->segs[list[i]];
        sg->parent = sg->next = sg->min = (uint16_t)list[i];
        sg->size = 1;
        sg->meeples = 0;
        sg->open = 0;
        if (feat_shape(sg->kind) != SHAPE_EDGES)
            continue;
        struct pos p = game_tile_pos(g, sg->tile);
        for (int side = 0; side < 4; side++)
            if ((sg->mask >> side & 1) && game_tile_at(g, step(p, side)) < 0)
                sg->open++;
    }
    for (int i = 0; i < n; i++) {
        const struct seg *sg = &g->segs[list[i]];
        if (feat_shape(sg->kind) != SHAPE_EDGES)
            continue;
        struct pos p = game_tile_pos(g, sg->tile);
        for (int side = 0; side < 4; side++) {
            if (!(sg->mask >> side & 1))
                continue;
            int nb = game_tile_at(g, step(p, side));
            int other = nb < 0 ? -1 : game_side_seg(g, nb, (side + 2) & 3);
            if (other >= 0 && g->segs[other].kind == sg->kind)
                join(g, list[i], other, false);
        }
    }
    FOR_UNITS(g, u, reformed) /* their own links: tunnels */
        u->reformed(g, list, n);
    for (int i = 0; i < n_standing; i++) {
        struct seg *r = &g->segs[find_root(g, g->meeples[standing[i]].seg)];
        r->meeples++;
    }
}

void game_join_side(struct game *g, int ti, int side)
{
    int nb = game_tile_at(g, step(game_tile_pos(g, ti), side));
    if (nb < 0)
        return;
    join_across(g, ti, nb, side);
    int s = game_side_seg(g, ti, side);
    if (s >= 0 && !tile_get(g->tiles[nb].def)->edges &&
        g->segs[find_root(g, s)].open > 0) /* a closed tile ends it */
        g->segs[find_root(g, s)].open--;
}

static void new_turn(struct game *g, int ti)
{
    g->now = (struct turn_state){ (int16_t)ti, 0, false };
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
    if (!t->edges) /* a closed tile ends the roads and cities it meets */
        for (int side = 0; side < 4; side++) {
            int s = cross[side] < 0 ? -1
                                    : game_side_seg(g, cross[side],
                                                    (side + 2) & 3);
            if (s >= 0 && g->segs[find_root(g, s)].open > 0)
                g->segs[find_root(g, s)].open--;
        }
    g->turn = turn;
    new_turn(g, ti);
    FOR_UNITS(g, u, placed)
        u->placed(g, ti);
    return true;
}

bool game_start(struct game *g, int def, struct pos p, int rot)
{
    struct start_place s = { (int16_t)def, (uint8_t)rot, p };
    return game_start_tiles(g, &s, 1);
}

int game_start_layout(const struct rules *r, struct start_place *out,
                      int max)
{
    for (int e = 0; e < EXP__COUNT; e++) {
        const struct expansion *u = expansion_units[e];
        int n = u->start_layout ? u->start_layout(r, out, max) : 0;
        if (n > 0)
            return n;
    }
    return 0;
}

bool game_start_tiles(struct game *g, const struct start_place *s, int n)
{
    for (int i = 0; i < n; i++)
        if (!game_place(g, s[i].tile, s[i].at, s[i].rot, 0))
            return false;
    new_turn(g, -1); /* the start tile is no one's turn */
    FOR_UNITS(g, u, start)
        u->start(g);
    return true;
}

void game_discard(struct game *g, int def)
{
    if (def >= 0 && def < TILE_KINDS && g->pack[def] > 0)
        pack_add(g, def, -1);
}

void game_undiscard(struct game *g, int def)
{
    if (def >= 0 && def < TILE_KINDS && g->pack_local[def] >= 0)
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
    bool judged = place_judged(g);
    bool excusable = g->hooked >> HOOK_excuse_edges & 1;
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
                /* the edges as game_check_place() takes them: a unit may
                 * make good those that do not match (a bridge) */
                if ((!meets_demand(edges[rot], need, care) &&
                     !(excusable && units_excuse_edges(g, def, q, rot))) ||
                    (judged && units_check_place(g, def, q, rot, NULL, 0) !=
                                   RULE_OK))
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
    bool judged = place_judged(g);
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
                if (meets_demand(edges[rot], need, care) &&
                    (!judged || units_check_place(g, def, q, rot, NULL, 0) ==
                                    RULE_OK))
                    return true;
        }
    }
    return false;
}

int game_pack_kept(const struct game *g)
{
    int kept = 0;
    FOR_UNITS(g, u, pack_kept)
        kept += u->pack_kept(g);
    return kept;
}

bool game_pack_done(const struct game *g)
{
    if (game_pack_left(g) <= game_pack_kept(g))
        return true;
    for (int k = 0; k < g->n_pack_kinds; k++)
        if (g->pack[g->pack_kind[k]] > 0 &&
            game_fits_anywhere(g, g->pack_kind[k]))
            return false;
    return true;
}

/* ---- features ---------------------------------------------------------- */

int game_find_seg(const struct game *g, int tile, int kind, uint8_t mask)
{
    if (tile < 0)
        return -1;
    const struct placed *t = &g->tiles[tile];
    bool inner = feat_shape(kind) == SHAPE_INNER;
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        const struct seg *s = &g->segs[i];
        if (feat_is(s->kind, kind) && (inner || s->mask == mask))
            return i;
    }
    return -1;
}

bool game_feature_complete(const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    int whole = feature_class(s->kind)->part_of;
    if (whole) /* finished with the feature it belongs to */
        return game_find_seg(g, s->tile, whole, 0) >= 0 &&
               game_feature_complete(g, game_find_seg(g, s->tile, whole, 0));
    switch (feature_class(s->kind)->done) {
    case DONE_EDGES:
        return g->segs[find_root(g, seg)].open == 0;
    case DONE_BLOCK:
        return game_block_count(g, s->tile) == 9;
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
        per_player[m->owner]++;
    }
    return n;
}

bool game_kind_allowed(const struct game *g, int figure, int feat)
{
    return (unsigned)figure < FIG__COUNT && (unsigned)feat < FEAT__COUNT &&
           (g->stands[figure] >> feat & 1);
}

/* ---- figures ----------------------------------------------------------- */

int game_meeple(const struct game *g, int player, int kind, int n)
{
    /* game_new() seats them in order, each kind's 1..count in turn:
     * index them directly */
    if (player < 0 || player >= g->rules.n_players || kind < 0 ||
        kind >= FIG__COUNT)
        return -1;
    int base = player * g->per_seat + g->fig0[kind];
    int count = g->rules.figures[kind];
    if (n != 0)
        return n >= 1 && n <= count ? base + n - 1 : -1;
    for (int i = base; i < base + count; i++)
        if (meeple_in_supply(&g->meeples[i]))
            return i;
    return -1;
}

static const char *a_or_an(const char *word)
{
    return strchr("aeiou", word[0]) ? "an" : "a";
}

enum rule game_check_action(const struct game *g, int fig, char *why,
                            size_t why_len)
{
    if (g->now.actions == 0)
        return RULE_OK;
    FOR_UNITS(g, u, extra_action)
        if (u->extra_action(g, fig))
            return RULE_OK;
    snprintf(why, why_len, "a figure was already deployed this turn");
    return RULE_MEEPLE_SECOND_DEPLOY;
}

enum rule game_check_on_tile(const struct game *g, int seg, char *why,
                             size_t why_len)
{
    const struct seg *s = &g->segs[seg];
    if (s->tile == g->now.tile)
        return RULE_OK;
    struct pos p = game_tile_pos(g, s->tile);
    snprintf(why, why_len, "(%d,%d) is not the tile placed this turn", p.x,
             p.y);
    return RULE_MEEPLE_NOT_ON_PLACED_TILE;
}

void game_feature_attrs(const struct game *g, int seg,
                        uint8_t attrs[SA__COUNT])
{
    int root = find_root(g, seg), s = root;
    memset(attrs, 0, SA__COUNT);
    do {
        for (unsigned a = g->segs[s].attrs; a; a &= a - 1)
            attrs[__builtin_ctz(a)]++;
        s = g->segs[s].next;
    } while (s != root);
}

enum rule game_check_stand(const struct game *g, int fig, int seg, char *why,
                           size_t why_len)
{
    FOR_UNITS(g, u, check_stand) {
        int rule = u->check_stand(g, fig, seg, why, why_len);
        if (rule != RULE_OK)
            return (enum rule)rule;
    }
    return RULE_OK;
}

/* Does a unit let a figure onto seg although its feature is occupied? */
static bool excused(const struct game *g, int seg)
{
    FOR_UNITS(g, u, excuse_occupied) {
        if (u->excuse_occupied(g, seg))
            return true;
    }
    return false;
}

enum rule game_check_deploy(const struct game *g, int player, int m, int seg,
                            char *why, size_t why_len)
{
    if (m < 0 || !meeple_in_supply(&g->meeples[m])) {
        snprintf(why, why_len, "that %s is not in the player's supply",
                 m < 0 ? "meeple" : figure_class(g->meeples[m].kind)->name);
        return RULE_MEEPLE_NONE_LEFT;
    }
    FOR_UNITS(g, u, check_deploy) { /* figures with rules of their own */
        int rule = u->check_deploy(g, player, m, seg, why, why_len);
        if (rule >= 0)
            return (enum rule)rule;
    }
    const struct seg *s = &g->segs[seg];
    enum rule on = game_check_on_tile(g, seg, why, why_len);
    if (on != RULE_OK)
        return on;
    if (game_feature_meeples(g, seg, NULL) > 0 && !excused(g, seg)) {
        snprintf(why, why_len, "the %s already holds a meeple",
                 feat_name(s->kind));
        return RULE_MEEPLE_FEATURE_OCCUPIED;
    }
    int fig = g->meeples[m].kind;
    if (!game_kind_allowed(g, fig, s->kind)) {
        const char *name = figure_class(fig)->name;
        snprintf(why, why_len, "%s %s may not stand on a %s", a_or_an(name),
                 name, feat_name(s->kind));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    enum rule stand = game_check_stand(g, fig, seg, why, why_len);
    if (stand != RULE_OK)
        return stand;
    return game_check_action(g, fig, why, why_len);
}

static void count_action(struct game *g)
{
    g->now.actions++;
}

void game_act(struct game *g, int fig)
{
    (void)fig;
    count_action(g);
}

/* Moves meeple m onto seg (or into supply with -1), keeping the
 * features' counts. */
static void move_meeple(struct game *g, int m, int seg, bool flew)
{
    struct meeple *mp = &g->meeples[m];
    if (mp->seg >= 0)
        g->segs[find_root(g, mp->seg)].meeples--;
    mp->seg = (int16_t)seg;
    if (seg >= 0)
        g->segs[find_root(g, seg)].meeples++;
    mp->flew = flew;
    mp->flight = 0; /* the auditor numbers a landing after it */
}

void game_deploy(struct game *g, int m, int seg)
{
    move_meeple(g, m, seg, false);
    count_action(g);
    FOR_UNITS(g, u, deployed)
        u->deployed(g, m);
}

void game_put(struct game *g, int m, int seg)
{
    move_meeple(g, m, seg, false);
}

void game_land(struct game *g, int m, int seg)
{
    move_meeple(g, m, seg, true);
}

int game_list_deploys(const struct game *g, int player,
                      struct deploy_option *out, int max)
{
    int n = 0;
    if (g->now.tile < 0)
        return 0;
    const struct placed *t = &g->tiles[g->now.tile];
    for (int fig = 0; fig < FIG__COUNT; fig++) {
        int m = game_meeple(g, player, fig, 0);
        if (m < 0)
            continue;
        for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
            bool ok = g->segs[i].kind == FEAT_FLIER
                          ? game_check_flight(g, fig, NULL, 0) == RULE_OK
                          : game_check_deploy(g, player, m, i, NULL, 0) ==
                                RULE_OK;
            if (!ok)
                continue;
            if (n < max)
                out[n] = (struct deploy_option){ (int16_t)i, (uint8_t)fig };
            n++;
        }
    }
    /* figures that may stand beside the tile: on the eight around, as
     * their unit's check allows */
    struct pos at = game_tile_pos(g, g->now.tile);
    for (int k = 0; k < 9; k++) {
        struct pos q = { at.x + k % 3 - 1, at.y + k / 3 - 1 };
        int tile = k == 4 ? -1 : game_tile_at(g, q);
        if (tile < 0)
            continue;
        const struct placed *nb = &g->tiles[tile];
        for (int i = nb->seg0; i < nb->seg0 + nb->n_seg; i++)
            for (int fig = 0; fig < FIG__COUNT; fig++) {
                int m = figure_class(fig)->beside
                            ? game_meeple(g, player, fig, 0) : -1;
                if (m < 0 || g->segs[i].kind == FEAT_FLIER ||
                    game_check_deploy(g, player, m, i, NULL, 0) != RULE_OK)
                    continue;
                if (n < max)
                    out[n] = (struct deploy_option){ (int16_t)i,
                                                     (uint8_t)fig };
                n++;
            }
    }
    return n;
}

/* ---- scoring --------------------------------------------------------- */

struct score_event *game_new_event(struct game *g)
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
    ev->turn = g->turn;
    return ev;
}

static const char *const item_names[SI__COUNT] = {
#define X(id, name) name,
    SCORE_ITEMS(X)
#undef X
#define SCORE_TERM(id, name, receipt) name,
#include "core/exp/units.def"
#undef SCORE_TERM
};

static const char *const expr_suffixes[EXPR__COUNT] = {
#define X(id, suffix, note) suffix,
    SCORE_EXPRS(X)
#undef X
#define SCORE_EXPR(id, suffix, note) suffix,
#include "core/exp/units.def"
#undef SCORE_EXPR
};

static const char *const expr_notes[EXPR__COUNT] = {
#define X(id, suffix, note) note,
    SCORE_EXPRS(X)
#undef X
#define SCORE_EXPR(id, suffix, note) note,
#include "core/exp/units.def"
#undef SCORE_EXPR
};

const char *score_expr_note(int expr)
{
    return expr >= 0 && expr < EXPR__COUNT ? expr_notes[expr] : NULL;
}

const char *score_item_name(int kind)
{
    return kind >= 0 && kind < SI__COUNT ? item_names[kind] : "?";
}

void score_expr_format(int feature, int expr, char *out, size_t len)
{
    const struct feature_class *c = feature_class(feature);
    struct text t = text_at(out, len); /* one per score event reported */
    text_put(&t, c->expr ? c->expr : c->name);
    text_put(&t, expr > 0 && expr < EXPR__COUNT ? expr_suffixes[expr] : "");
}

void game_score_points(const struct game *g, struct score_event *ev)
{
    const struct feature_class *c = feature_class(ev->feature);
    ev->points = 0;
    ev->n_items = 0;
    ev->expr = EXPR_DONE;
    if (c->score)
        c->score(&g->rules, ev);
    FOR_UNITS(g, u, score)
        u->score(&g->rules, ev);
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

void game_event_ref(struct game *g, struct score_event *ev, int seg)
{
    if (!ev->n_refs)
        ev->ref0 = (uint32_t)g->n_refs;
    push_ref(g, ev, &g->segs[seg], 1);
}

/* Tiles covered by the feature of seg (each tile once), and the
 * attributes its segments carry (or'ed into *attrs). */
static int feature_tiles(const struct game *g, int seg, unsigned *attrs)
{
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    int root = find_root(g, seg), s = root, tiles = 0;
    do {
        unsigned t = g->segs[s].tile;
        uint64_t bit = 1ull << (t & 63);
        tiles += !(seen[t >> 6] & bit);
        seen[t >> 6] |= bit;
        *attrs |= g->segs[s].attrs;
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
        int side = __builtin_ctz(m), c = game_side_seg(g, s->tile, side);
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
 * each with its size, in the order of their first touch; how many of
 * them carry each attribute (a besieged city counts twice for
 * farmers). */
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
    for (int k = 0; k < n; k++) {
        unsigned attrs = 0;
        push_ref(g, ev, &g->segs[cities[k].city],
                 feature_tiles(g, cities[k].city, &attrs));
        for (; attrs; attrs &= attrs - 1)
            ev->city_attrs[__builtin_ctz(attrs)]++;
    }
}

/* Size, pennants and touched completed cities of the feature of root,
 * with the receipt's refs: for a road or city its tiles in placement
 * order, each by the feature's lowest segment there; for a field the
 * completed cities. One walk round the feature, in any order: a bitmap of
 * its tiles puts them in order. */
void game_measure(struct game *g, int root, struct score_event *ev)
{
    const struct seg *r = &g->segs[root];
    ev->ref0 = (uint32_t)g->n_refs;
    if (feature_class(r->kind)->done == DONE_BLOCK) {
        ev->tiles = (uint16_t)game_block_count(g, r->tile);
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
        for (unsigned a = sp->attrs; a; a &= a - 1)
            ev->attrs[__builtin_ctz(a)]++;
        if (sp->cities)
            touched_cities(g, s, cities, &n_cities);
        s = sp->next;
    } while (s != root);
    if (feat_shape(r->kind) == SHAPE_HALVES) {
        push_cities(g, ev, cities, n_cities);
        return;
    }
    for (int w = 0; w < GAME_MAX_TILES / 64; w++)
        for (uint64_t b = seen[w]; b; b &= b - 1)
            push_ref(g, ev, &g->segs[lowest[64 * w + __builtin_ctzll(b)]], 1);
}

/* The root of the feature each meeple stands on, -1 in supply. */
static void meeple_roots(const struct game *g, int roots[GAME_MAX_MEEPLES])
{
    for (int i = 0; i < g->n_meeples; i++)
        roots[i] = g->meeples[i].seg < 0 ? -1 : find_root(g, g->meeples[i].seg);
}

/* Gives event e (an index: adding events may move them) to these
 * players: their points, and when a unit gave them a bonus, its term. */
static void award(struct game *g, int e, unsigned players, int bonus,
                  const struct score_item *bonus_item)
{
    struct score_event *ev = &g->events[e];
    ev->players = (uint8_t)players;
    ev->fliers = (uint8_t)(ev->fliers & players);
    if (bonus) {
        ev->points += bonus;
        score_add_item(ev, bonus_item->kind, bonus_item->count,
                       bonus_item->points);
    }
    for (unsigned w = players; w; w &= w - 1)
        g->score[__builtin_ctz(w)] += ev->points;
}

/* A new event, a copy of t (the first one as it stood before award()):
 * another group of players scores the same feature. */
static int copy_event(struct game *g, const struct score_event *t)
{
    int k = g->n_events;
    *game_new_event(g) = *t;
    return k;
}

/* What the units give seat p besides the feature's points (a pig in a
 * field): the points, and their term in *item. */
static int seat_bonus(const struct game *g, const struct score_event *ev,
                      int root, int p, struct score_item *item)
{
    int bonus = 0;
    FOR_UNITS(g, u, bonus) {
        int b = u->bonus(g, ev, root, p, item);
        bonus += b;
    }
    return bonus;
}

static void event_add_flight(struct score_event *ev, uint16_t flight)
{
    for (int i = 0; i < ev->n_flights; i++)
        if (ev->flights[i] == flight)
            return;
    if (ev->n_flights < GAME_MAX_EV_FLIGHTS)
        ev->flights[ev->n_flights++] = flight;
}

static bool score_feature(struct game *g, int seg, bool completed, int turn,
                          const struct score_how *how, const int *roots);

bool game_score_feature(struct game *g, int seg, bool completed, int turn,
                        const struct score_how *how, const int *roots)
{
    if (!score_feature(g, seg, completed, turn, how, roots))
        return false;
    if (g->hooked >> HOOK_scored & 1) {
        int mine[GAME_MAX_MEEPLES];
        if (!roots) {
            meeple_roots(g, mine);
            roots = mine;
        }
        FOR_UNITS(g, u, scored)
            u->scored(g, find_root(g, seg), turn, roots);
    }
    return true;
}

static bool score_feature(struct game *g, int seg, bool completed, int turn,
                          const struct score_how *how, const int *roots)
{
    int root = find_root(g, seg), mine[GAME_MAX_MEEPLES];
    int counts[GAME_MAX_PLAYERS] = { 0 }, strength[GAME_MAX_PLAYERS] = { 0 };
    if (g->segs[root].meeples == 0)
        return false;
    if (!roots) {
        meeple_roots(g, mine);
        roots = mine;
    }
    /* built in place, at the first follower found (most features have
     * one event); a feature of figures of no strength has none */
    int e = -1;
    struct score_event *t = NULL;
    unsigned flew = 0; /* seats with a meeple that flew onto it */
    uint8_t figures[GAME_MAX_PLAYERS][FIG__COUNT]; /* followers or not */
    memset(figures, 0, sizeof figures);
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (roots[i] != root)
            continue;
        if (figures[m->owner][m->kind] < UINT8_MAX)
            figures[m->owner][m->kind]++;
        if (!m->strength)
            continue;
        if (!t) {
            e = g->n_events;
            t = game_new_event(g);
            t->turn = turn;
            t->feature = g->segs[root].kind;
            t->completed = completed;
            t->seg = g->segs[root].min;
            game_measure(g, root, t);
        }
        counts[m->owner]++;
        /* the mayor weighs the pennants of its city */
        strength[m->owner] += m->strength == STRENGTH_PENNANTS ? t->pennants
                                                                : m->strength;
        if (m->flew)
            flew |= 1u << m->owner;
        if (m->flew && m->flight)
            event_add_flight(t, m->flight);
    }
    if (!t)
        return false;
    memcpy(t->figures, figures, sizeof t->figures);
    game_score_points(g, t);
    if (how && how->score) {
        t->points = 0;
        t->n_items = 0;
        how->score(&g->rules, t);
    }
    if (how)
        t->expr = how->expr;
    FOR_UNITS(g, u, adjust_points)
        u->adjust_points(g, root, t);
    t->fliers = (uint8_t)flew;
    int best = 0;
    unsigned left = 0; /* the seats of the greatest strength */
    for (int p = 0; p < g->rules.n_players; p++) {
        t->meeples[p] = (uint8_t)counts[p];
        t->strength[p] = (uint8_t)strength[p];
        if (strength[p] > best) {
            best = strength[p];
            left = 1u << p;
        } else if (strength[p] == best) {
            left |= 1u << p;
        }
    }
    if (best > 0 && (left & (left - 1))) {
        FOR_UNITS(g, u, break_tie) /* a tie a unit breaks: hills */
            left = u->break_tie(g, root, roots, left);
    }
    if (best == 0) { /* followers of no strength: "city.empty", each */
        t->points = 0;
        t->n_items = 0;
        t->expr = EXPR_EMPTY;
        struct score_event tmpl = *t;
        bool first = true;
        for (int p = 0; p < g->rules.n_players; p++)
            if (counts[p]) {
                award(g, first ? e : copy_event(g, &tmpl), 1u << p, 0,
                      NULL);
                first = false;
            }
        return true;
    }
    if (!(g->hooked >> HOOK_bonus & 1)) { /* no unit gives a bonus */
        award(g, e, left, 0, NULL);
        return true;
    }
    /* the winners, one event for each distinct bonus the units give */
    struct score_event tmpl = *t;
    int bonus[GAME_MAX_PLAYERS];
    struct score_item item[GAME_MAX_PLAYERS];
    for (unsigned w = left; w; w &= w - 1)
        bonus[__builtin_ctz(w)] =
            seat_bonus(g, &tmpl, root, __builtin_ctz(w),
                       &item[__builtin_ctz(w)]);
    bool first = true;
    while (left) {
        int lead = __builtin_ctz(left);
        unsigned same = 0;
        for (unsigned w = left; w; w &= w - 1)
            if (bonus[__builtin_ctz(w)] == bonus[lead])
                same |= 1u << __builtin_ctz(w);
        award(g, first ? e : copy_event(g, &tmpl), same, bonus[lead],
              &item[lead]);
        first = false;
        left &= ~same;
    }
    return true;
}

void game_return_figures(struct game *g, int seg, bool all)
{
    int root = find_root(g, seg);
    if (g->segs[root].meeples == 0)
        return;
    for (int i = 0; i < g->n_meeples; i++) {
        struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || find_root(g, m->seg) != root ||
            (!all && figure_class(m->kind)->stays))
            continue;
        FOR_UNITS(g, u, returned)
            u->returned(g, i);
        m->seg = -1;
        m->flew = false;
        m->flight = 0;
        g->segs[root].meeples--;
    }
}

/* The next seat (or the same, when a unit grants a second part). */
static inline void next_turn(struct game *g)
{
    bool again = false;
    FOR_UNITS(g, u, extra_part)
        again |= u->extra_part(g);
    if (!again && g->rules.n_players > 0)
        g->seat = g->seat + 1 == g->rules.n_players ? 0 : g->seat + 1;
    g->part = again ? g->part + 1 : 1;
    new_turn(g, -1);
}

/* Remembers a feature the turn completed (once). */
static void note_done(struct game *g, int root)
{
    root = find_root(g, root);
    for (int j = 0; j < g->n_done; j++)
        if (g->done[j] == root)
            return;
    if (g->n_done < GAME_MAX_DONE)
        g->done[g->n_done++] = (int16_t)root;
}

void game_note_done(struct game *g, int seg)
{
    note_done(g, seg);
}

/* The completed edged features of tile ti's segments (or, when `sides`
 * is set, only those on those board sides of it). */
static inline void find_done(struct game *g, int ti, unsigned sides)
{
    const struct placed *t = &g->tiles[ti];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if ((g->kinds_edged >> g->segs[i].kind & 1) &&
            (!sides || (g->segs[i].mask & sides)) &&
            g->segs[find_root(g, i)].open == 0)
            note_done(g, find_root(g, i));
}

void game_end_turn(struct game *g)
{
    int ti = g->now.tile;
    if (ti < 0)
        return;
    g->n_done = 0;
    find_done(g, ti, 0);
    if (!tile_defs[g->tiles[ti].def].edges) { /* it closes the sides of */
        int cross[4];                         /* the tiles around it */
        cross_of(g, game_tile_pos(g, ti), cross);
        for (int side = 0; side < 4; side++)
            if (cross[side] >= 0)
                find_done(g, cross[side], 1u << ((side + 2) & 3));
    }
    /* monasteries and gardens whose block this tile filled */
    for (int f = 0; f < g->n_filled; f++) {
        const struct placed *n = &g->tiles[g->filled[f]];
        for (int i = n->seg0; i < n->seg0 + n->n_seg; i++)
            if (g->kinds_block >> g->segs[i].kind & 1)
                note_done(g, i);
    }
    FOR_UNITS(g, u, hold_scoring) /* moves before the scoring: the City's */
        if (u->hold_scoring(g)) {   /* followers going out */
            g->held = true;
            return;
        }
    game_finish_turn(g);
}

void game_finish_turn(struct game *g)
{
    g->held = false;
    FOR_UNITS(g, u, turn_scoring) /* before the completed features: barns */
        u->turn_scoring(g);
    for (int j = 0; j < g->n_done; j++)
        game_score_feature(g, g->done[j], true, g->turn, NULL, NULL);
    for (int j = 0; j < g->n_done; j++)
        game_return_figures(g, g->done[j], false);
    FOR_UNITS(g, u, turn_done) /* trade goods, wagons */
        u->turn_done(g);
    g->n_filled = 0;
    next_turn(g);
}

void game_skip_turn(struct game *g)
{
    next_turn(g);
}

void game_final_scoring(struct game *g)
{
    if (g->now.tile >= 0)
        game_end_turn(g);
    if (g->held) /* nobody moves before that scoring any more */
        game_finish_turn(g);
    uint64_t seen[GAME_MAX_SEGS / 64] = { 0 }; /* roots scored */
    int roots[GAME_MAX_MEEPLES];
    meeple_roots(g, roots); /* scoring moves no meeple */
    for (int i = 0; i < g->n_meeples; i++) {
        int root = roots[i];
        if (root < 0 || seen[root >> 6] & 1ull << (root & 63))
            continue;
        seen[root >> 6] |= 1ull << (root & 63);
        const struct feature_class *c = feature_class(g->segs[root].kind);
        if (!c->score || (c->stand_needs & ~g->rules.flags))
            continue;
        game_score_feature(g, root, game_feature_complete(g, root), -1,
                           NULL, roots);
    }
    FOR_UNITS(g, u, final_scoring) /* trade goods, barns */
        u->final_scoring(g);
}

/* ---- hashing and notation ------------------------------------------ */

/* Folds v into h a word at a time (multiply, then fold the high bits
 * down): a fingerprint for comparing two replays of one game, never
 * stored, so cheap beats cryptographic; byte-wise FNV cost a sixteenth
 * of an audit. */
uint64_t game_hash_mix(uint64_t h, int64_t v)
{
    h = (h ^ (uint64_t)v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}
#define mix game_hash_mix

uint64_t game_hash(const struct game *g)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < g->n_tiles; i++) {
        const struct placed *t = &g->tiles[i];
        h = mix(h, t->def);
        h = mix(h, t->rot);
        h = mix(h, t->x);
        h = mix(h, t->y);
    }
    for (int i = 0; i < g->n_segs; i++)
        h = mix(h, g->segs[find_root(g, i)].min);
    for (int i = 0; i < g->n_meeples; i++)
        h = mix(h, g->meeples[i].seg);
    for (int p = 0; p < g->rules.n_players; p++)
        h = mix(h, g->score[p]);
    for (int t = 0; t < TILE_KINDS; t++)
        if (g->kind_edges[t]) /* the kinds the game's pack had */
            h = mix(h, g->pack[t]);
    /* the units' board state that tiles, meeples and scores do not show
     * (not their bookkeeping, which a log and a simulation keep apart) */
    FOR_UNITS(g, u, hash)
        h = u->hash(g, h);
    h = mix(h, g->n_events);
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

/* Appends str to out (len bytes in all, *n used so far), truncating as
 * snprintf would and keeping the NUL. */
static void seg_put(char *out, size_t len, size_t *n, const char *str)
{
    size_t k = strlen(str);
    if (*n + 1 < len) {
        size_t room = len - 1 - *n, put = k < room ? k : room;
        memcpy(out + *n, str, put);
        out[*n + put] = '\0';
    }
    *n += k;
}

/* Without snprintf: it was a fifth of rendering a replay, which names a
 * segment for every meeple and every tile kind shown. */
void seg_format(int kind, uint8_t mask, char *out, size_t len)
{
    static const char *const halves[8] = { "NL", "NR", "EL", "ER",
                                           "SL", "SR", "WL", "WR" };
    int shape = feat_shape(kind);
    size_t n = 0;
    if (len == 0)
        return;
    out[0] = '\0';
    seg_put(out, len, &n, feat_name(kind));
    if (shape == SHAPE_EDGES) {
        seg_put(out, len, &n, ":");
        seg_put(out, len, &n, edge_names(mask));
    } else if (shape == SHAPE_HALVES && (mask == 0 || mask == FIELD_INNER2)) {
        seg_put(out, len, &n, mask ? ":II" : ":I");
    } else if (shape == SHAPE_HALVES) {
        const char *sep = ":";
        for (int i = 0; i < 8; i++) {
            if (!(mask & (1u << i)))
                continue;
            seg_put(out, len, &n, sep);
            seg_put(out, len, &n, halves[i]);
            sep = ".";
        }
    } else if (shape == SHAPE_SPOTS && mask) {
        seg_put(out, len, &n, ":");
        seg_put(out, len, &n, tile_spot_name(__builtin_ctz(mask)));
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
    int shape = feat_shape(kind);
    if (shape == SHAPE_INNER)
        return strcmp(s, "I") == 0 || s[0] == '\0';
    if (shape == SHAPE_SPOTS) {
        int spot = tile_spot_find(s);
        *mask = spot >= 0 ? (uint8_t)(1u << spot) : 0;
        return spot >= 0;
    }
    if (shape == SHAPE_HALVES && strcmp(s, "I") == 0)
        return true; /* a field that touches no edge */
    if (shape == SHAPE_HALVES && strcmp(s, "II") == 0) {
        *mask = FIELD_INNER2; /* a second one (AM/CCcc+) */
        return true;
    }
    if (shape == SHAPE_HALVES) {
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
    if (shape != SHAPE_EDGES)
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
