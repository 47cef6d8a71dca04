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

static bool on_board(struct pos p)
{
    const int lim = BOARD_SPAN / 2;
    return p.x >= -lim && p.x < lim && p.y >= -lim && p.y < lim;
}

/* A board position packed in 16 bits (both coordinates fit in 8), plus
 * one so that 0 marks an empty cell (hence 32-bit keys). */
static uint32_t cell_key(struct pos p)
{
    return (((uint32_t)p.y & 0xFF) << 8 | ((uint32_t)p.x & 0xFF)) + 1;
}

static size_t cell_slot(uint32_t key)
{
    return (size_t)((key * 2654435761u) >> 22) & (GAME_CELLS - 1);
}

int game_tile_at(const struct game *g, struct pos p)
{
    if (!on_board(p))
        return -1;
    uint32_t key = cell_key(p);
    for (size_t i = cell_slot(key);; i = (i + 1) & (GAME_CELLS - 1)) {
        if (g->cell_key[i] == key)
            return g->cell_tile[i];
        if (g->cell_key[i] == 0)
            return -1;
    }
}

static void cell_put(struct game *g, struct pos p, int tile)
{
    uint32_t key = cell_key(p);
    size_t i = cell_slot(key);
    while (g->cell_key[i] != 0)
        i = (i + 1) & (GAME_CELLS - 1);
    g->cell_key[i] = key;
    g->cell_tile[i] = (uint16_t)tile;
}

struct pos game_tile_pos(const struct game *g, int tile)
{
    struct pos p = { g->tiles[tile].x, g->tiles[tile].y };
    return p;
}

static struct pos step(struct pos p, int side)
{
    struct pos q = { p.x + dx4[side], p.y + dy4[side] };
    return q;
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

int game_pack_draw(const struct game *g, double r)
{
    int n = game_pack_left(g);
    if (n <= 0 || !(r >= 0 && r < 1))
        return -1;
    int idx = (int)(r * n);
    for (int t = 0; t < tile_count(); t++) {
        if (idx < g->pack[t])
            return t;
        idx -= g->pack[t];
    }
    return -1;
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

struct game *game_new(const struct rules *r)
{
    struct game *g = xcalloc(1, sizeof *g);
    g->rules = *r;
    g->last_tile = -1;
    for (int s = 0; s < tile_set_count(); s++) {
        const struct tile_set_def *d = tile_set_get(s);
        for (int i = 0; i < d->n_refs; i++) {
            int t = tile_find(d->refs[i].tile);
            assert(t >= 0 && t < GAME_MAX_TILE_KINDS);
            g->pack[t] += (int16_t)(d->refs[i].count * r->set_copies[s]);
            g->pack_left += d->refs[i].count * r->set_copies[s];
        }
    }
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
        free(g);
    }
}

/* ---- union-find ---------------------------------------------------- */

static int find_root(const struct game *g, int s)
{
    while (g->segs[s].parent != s)
        s = g->segs[s].parent;
    return s;
}

static int find_mut(struct game *g, int s)
{
    while (g->segs[s].parent != s) {
        g->segs[s].parent = g->segs[g->segs[s].parent].parent;
        s = g->segs[s].parent;
    }
    return s;
}

/* Joins the features of a and b across one shared edge: union by size
 * keeps the trees shallow; splicing the two circular lists keeps every
 * feature's segments one walk away. */
static void join(struct game *g, int a, int b, bool counts_edges)
{
    int ra = find_mut(g, a), rb = find_mut(g, b);
    if (ra != rb) {
        if (g->segs[ra].size < g->segs[rb].size) {
            int t = ra;
            ra = rb;
            rb = t;
        }
        struct seg *A = &g->segs[ra], *B = &g->segs[rb];
        B->parent = (uint16_t)ra;
        A->open = (uint16_t)(A->open + B->open);
        A->size = (uint16_t)(A->size + B->size);
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

/* The segments of the feature of seg in index order (placement order, a
 * tile's segments together); returns how many (at most max). */
static int members(const struct game *g, int seg, uint16_t *out, int max)
{
    int root = find_root(g, seg), n = 0, s = root;
    do {
        if (n < max) {
            int k = n++;
            while (k > 0 && out[k - 1] > s) { /* insertion sort: small */
                out[k] = out[k - 1];
                k--;
            }
            out[k] = (uint16_t)s;
        }
        s = g->segs[s].next;
    } while (s != root);
    return n;
}

/* ---- placement --------------------------------------------------------- */

/* Segment of a placed tile covering board side `side` with this kind. */
static int seg_on_side(const struct game *g, int tile, int kind, int side)
{
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if (g->segs[i].kind == kind && (g->segs[i].mask & (1u << side)))
            return i;
    return -1;
}

static int field_on_half(const struct game *g, int tile, int half)
{
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if (g->segs[i].kind == FEAT_FIELD && (g->segs[i].mask & (1u << half)))
            return i;
    return -1;
}

/* Half-edge across the border: NL (west half of north) meets SR of the
 * tile to the north, NR meets SL, and so on round the compass. */
static int opposite_half(int h)
{
    return (h & 1) ? (h + 3) & 7 : (h + 5) & 7;
}

bool game_fits(const struct game *g, int def, struct pos p, int rot)
{
    const struct tile_def *t = tile_get(def);
    if (!t || !on_board(p) || game_tile_at(g, p) >= 0)
        return false;
    bool adjacent = false;
    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, step(p, side));
        if (nb < 0)
            continue;
        adjacent = true;
        const struct placed *n = &g->tiles[nb];
        if (tile_edge(t, rot, side) !=
            tile_edge(tile_get(n->def), n->rot, (side + 2) & 3))
            return false;
    }
    return adjacent;
}

static const char *side_name(int side)
{
    static const char *const n[4] = { "north", "east", "south", "west" };
    return n[side & 3];
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
    int neighbours = 0;
    for (int side = 0; side < 4; side++)
        neighbours += game_tile_at(g, step(p, side)) >= 0;
    if (neighbours == 0) {
        snprintf(why, why_len, "(%d,%d) has no orthogonal neighbour", p.x,
                 p.y);
        return RULE_TILE_NOT_ADJACENT;
    }
    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, step(p, side));
        if (nb < 0)
            continue;
        const struct placed *n = &g->tiles[nb];
        enum feat mine = tile_edge(t, rot, side);
        enum feat theirs = tile_edge(tile_get(n->def), n->rot, (side + 2) & 3);
        if (mine != theirs) {
            snprintf(why, why_len, "%s edge: %s meets the %s of %s at (%d,%d)",
                     side_name(side), feat_name(mine), feat_name(theirs),
                     tile_get(n->def)->id, n->x, n->y);
            return RULE_TILE_EDGE_MISMATCH;
        }
    }
    return RULE_OK;
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
    pl->seg0 = (uint16_t)g->n_segs;
    pl->turn = (uint16_t)turn;
    for (int i = 0; i < t->n_seg; i++) {
        const struct seg_def *d = &t->seg[i];
        if (d->kind == FEAT_GARDEN && !g->rules.gardens)
            continue;
        struct seg *s = &g->segs[g->n_segs];
        s->kind = d->kind;
        s->pennants = d->pennants;
        s->tile = (uint16_t)ti;
        s->parent = (uint16_t)g->n_segs;
        s->next = (uint16_t)g->n_segs;
        s->min = (uint16_t)g->n_segs;
        s->size = 1;
        s->mask = d->kind == FEAT_FIELD ? rot_halves(d->mask, rot)
                                        : rot_edges(d->mask, rot);
        s->cities = rot_edges(d->cities, rot);
        s->open = (d->kind == FEAT_ROAD || d->kind == FEAT_CITY)
                      ? (uint16_t)__builtin_popcount(s->mask)
                      : 0;
        g->n_segs++;
    }
    pl->n_seg = (uint8_t)(g->n_segs - pl->seg0);
    cell_put(g, p, ti);
    pl->block = 1;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int nb = dx || dy ? game_tile_at(g, (struct pos){ p.x + dx,
                                                              p.y + dy })
                              : -1;
            if (nb >= 0) {
                g->tiles[nb].block++;
                pl->block++;
            }
        }
    if (g->pack[def] > 0) {
        g->pack[def]--;
        g->pack_left--;
    }

    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, step(p, side));
        if (nb < 0)
            continue;
        int back = (side + 2) & 3;
        for (int kind = FEAT_ROAD; kind <= FEAT_CITY; kind++) {
            int a = seg_on_side(g, ti, kind, side);
            int b = seg_on_side(g, nb, kind, back);
            if (a >= 0 && b >= 0)
                join(g, a, b, true);
        }
        for (int h = 2 * side; h < 2 * side + 2; h++) {
            int a = field_on_half(g, ti, h);
            int b = field_on_half(g, nb, opposite_half(h));
            if (a >= 0 && b >= 0)
                join(g, a, b, false);
        }
    }
    g->turn = turn;
    g->last_tile = ti;
    g->deployed = false;
    return true;
}

void game_discard(struct game *g, int def)
{
    if (def >= 0 && def < tile_count() && g->pack[def] > 0) {
        g->pack[def]--;
        g->pack_left--;
    }
}

void game_undiscard(struct game *g, int def)
{
    if (def >= 0 && def < tile_count()) {
        g->pack[def]++;
        g->pack_left++;
    }
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
    int n = 0;
    for (int t = 0; t < g->n_tiles; t++) {
        struct pos p = game_tile_pos(g, t);
        for (int side = 0; side < 4; side++) {
            struct pos q = step(p, side);
            if (!on_board(q) || game_tile_at(g, q) >= 0 ||
                !first_neighbour(g, q, t))
                continue;
            for (int rot = 0; rot < 4; rot++) {
                if (!game_fits(g, def, q, rot))
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
    for (int t = 0; t < g->n_tiles; t++) {
        struct pos p = game_tile_pos(g, t);
        for (int side = 0; side < 4; side++) {
            struct pos q = step(p, side);
            if (game_tile_at(g, q) >= 0)
                continue;
            for (int rot = 0; rot < 4; rot++)
                if (game_fits(g, def, q, rot))
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

static int block_count(const struct game *g, int tile)
{
    return g->tiles[tile].block;
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
    g->meeples[m].seg = (int16_t)seg;
    g->meeples[m].flew = false;
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
    char why[8];
    if (g->last_tile < 0 || g->deployed)
        return 0;
    const struct placed *t = &g->tiles[g->last_tile];
    for (int kind = MK_SMALL; kind <= MK_ABBOT; kind++) {
        int m = game_meeple(g, player, kind, 0);
        if (m < 0)
            continue;
        for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
            bool ok = g->segs[i].kind == FEAT_FLIER ||
                      game_check_deploy(g, player, m, i, why, sizeof why) ==
                          RULE_OK;
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
        size_t cap = (size_t)g->cap_events;
        xgrow((void **)&g->events, &cap, (size_t)g->n_events + 1,
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
        size_t cap = (size_t)g->cap_refs;
        xgrow((void **)&g->refs, &cap, (size_t)g->n_refs + 1, sizeof *g->refs);
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
    uint16_t m[GAME_MAX_SEGS];
    int n = members(g, seg, m, GAME_MAX_SEGS), tiles = 0, last_tile = -1;
    for (int i = 0; i < n; i++)
        if (g->segs[m[i]].tile != last_tile) { /* sorted: a tile's together */
            tiles++;
            last_tile = g->segs[m[i]].tile;
        }
    return tiles;
}

/* The completed cities field segment s touches, added to cities[] once. */
static void touched_cities(const struct game *g, const struct seg *s,
                           int *cities, int *n_cities, int max)
{
    for (int side = 0; side < 4; side++) {
        if (!(s->cities & (1u << side)))
            continue;
        int c = seg_on_side(g, s->tile, FEAT_CITY, side);
        if (c < 0 || !game_feature_complete(g, c))
            continue;
        int cr = game_feature(g, c), k;
        for (k = 0; k < *n_cities && cities[k] != cr; k++)
            ;
        if (k == *n_cities && *n_cities < max)
            cities[(*n_cities)++] = cr;
    }
}

/* Size, pennants and touched completed cities of the feature of root,
 * with the receipt's refs. */
static void measure(struct game *g, int root, struct score_event *ev)
{
    const struct seg *r = &g->segs[root];
    ev->ref0 = (uint32_t)g->n_refs;
    if (r->kind == FEAT_MONASTERY || r->kind == FEAT_GARDEN) {
        ev->tiles = (uint16_t)block_count(g, r->tile);
        push_ref(g, ev, r, 1);
        return;
    }
    int last_tile = -1;
    int cities[GAME_MAX_SEGS / 4];
    int n_cities = 0;
    uint16_t m[GAME_MAX_SEGS];
    int n_m = members(g, root, m, GAME_MAX_SEGS);
    for (int k = 0; k < n_m; k++) {
        const struct seg *s = &g->segs[m[k]];
        if (s->tile != last_tile) { /* sorted: a tile's segments together */
            ev->tiles++;
            last_tile = s->tile;
            if (s->kind != FEAT_FIELD)
                push_ref(g, ev, s, 1);
        }
        ev->pennants = (uint16_t)(ev->pennants + s->pennants);
        if (s->kind == FEAT_FIELD && s->cities)
            touched_cities(g, s, cities, &n_cities,
                           (int)(sizeof cities / sizeof *cities));
    }
    ev->cities = (uint16_t)n_cities;
    for (int k = 0; k < n_cities; k++)
        push_ref(g, ev, &g->segs[cities[k]], feature_tiles(g, cities[k]));
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

/* Scores the feature of seg for the majority; returns false (and records
 * nothing) when no meeple stands on it. */
static bool score_feature(struct game *g, int seg, bool completed, int turn)
{
    int counts[GAME_MAX_PLAYERS];
    if (game_feature_meeples(g, seg, counts) == 0)
        return false;
    int root = find_root(g, seg);
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
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->flew && m->seg >= 0 && find_root(g, m->seg) == root &&
            (ev->players & (1u << m->owner)))
            ev->fliers |= (uint8_t)(1u << m->owner);
    }
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
        if ((k != FEAT_ROAD && k != FEAT_CITY) || !game_feature_complete(g, i))
            continue;
        int root = find_root(g, i), j;
        for (j = 0; j < n_done && done[j] != root; j++)
            ;
        if (j < n_done)
            continue;
        done[n_done++] = root;
        if (score_feature(g, i, true, g->turn))
            return_meeples(g, i);
    }
    /* monasteries and gardens in the 3x3 block: complete now means
     * completed by this tile */
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            int nb = game_tile_at(g, (struct pos){ t->x + dx, t->y + dy });
            if (nb < 0)
                continue;
            const struct placed *n = &g->tiles[nb];
            for (int i = n->seg0; i < n->seg0 + n->n_seg; i++) {
                int k = g->segs[i].kind;
                if ((k == FEAT_MONASTERY || k == FEAT_GARDEN) &&
                    game_feature_complete(g, i) &&
                    score_feature(g, i, true, g->turn))
                    return_meeples(g, i);
            }
        }
    }
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
    mp->seg = -1;
    g->deployed = true;
}

void game_final_scoring(struct game *g)
{
    if (g->last_tile >= 0)
        game_end_turn(g);
    int seen[GAME_MAX_MEEPLES], n_seen = 0;
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0)
            continue;
        int root = find_root(g, m->seg), j;
        for (j = 0; j < n_seen && seen[j] != root; j++)
            ;
        if (j < n_seen)
            continue;
        seen[n_seen++] = root;
        if (g->segs[root].kind == FEAT_FIELD && !g->rules.farmers)
            continue;
        score_feature(g, root, game_feature_complete(g, root), -1);
    }
    for (int i = 0; i < g->n_events; i++)
        if (g->events[i].turn < 0)
            g->events[i].completed = g->events[i].completed &&
                                     g->events[i].feature != FEAT_FIELD;
}

/* ---- hashing and notation ------------------------------------------ */

static uint64_t fnv(uint64_t h, int64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (uint8_t)(v >> (8 * i));
        h *= 1099511628211ull;
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
    for (int t = 0; t < tile_count(); t++)
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
