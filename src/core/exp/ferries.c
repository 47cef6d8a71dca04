/* ferries.c - The Ferries (the set "ferries" and the element "ferry") as
 * a unit, as JCloisterZone plays it.
 *
 * Each road of a lake tile (the tile mark "ferry") ends at the tile's
 * lake: the lake ends it, as a village does. After the
 * turn's action the player who placed a lake tile puts a ferry on its
 * lake joining two of its road ends (PLACE_TOKEN FERRY, the pointer's
 * location the two ends: "WE"); the two roads are one from then on.
 * Then, on any turn, the player may move each ferry that a road of the
 * turn's tile reaches first (following the roads, through ferries, up
 * to the first ferry end met on another tile) to join another two ends
 * of its lake, once a turn each lake, and again as long as moves reveal
 * other ferries; a PASS declines. A road a ferry leaves falls apart
 * into the roads its ends lead to, figures staying where they stand.
 * The turn's scoring takes, besides the features of its tile, the
 * roads at the old and new ends of each ferry moved, when completed.
 * Tiles: ferries.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/ferries.h"
#include "core/game_int.h"
#include "core/move.h"
#include "core/replay.h"
#include "core/words.h"

enum { MAX_FERRIES = 8 * GAME_MAX_SET_COPIES };

struct ferry {
    int16_t tile;
    int16_t a, b;   /* the road end segments it joins */
    int16_t oa, ob; /* those at the start of the turn, when moved */
};

struct ferries_state {
    uint8_t n;
    uint32_t moved; /* bit per ferry moved this turn */
    struct ferry f[MAX_FERRIES];
};
UNIT_STATE_FITS(struct ferries_state);

static struct ferries_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_FERRIES, struct ferries_state);
}

static const struct ferries_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_FERRIES,
                      const struct ferries_state);
}

static void start(struct game *g)
{
    memset(st(g), 0, sizeof(struct ferries_state));
}

/* The road end at the lake of tile on board side `side`, or -1. */
static int lake_end(const struct game *g, int tile, int side)
{
    if (!(tile_get(g->tiles[tile].def)->marks & TILE_MARK(FERRY)))
        return -1;
    int s = game_side_seg(g, tile, side);
    return s >= 0 && g->segs[s].kind == FEAT_ROAD ? s : -1;
}

/* The road ends at tile's lake, as a board-frame mask (0: no lake). */
static unsigned lake_mask(const struct game *g, int tile)
{
    unsigned m = 0;
    for (int side = 0; side < 4; side++)
        if (lake_end(g, tile, side) >= 0)
            m |= 1u << side;
    return m;
}

static int ferry_on(const struct ferries_state *s, int tile)
{
    for (int i = 0; i < s->n; i++)
        if (s->f[i].tile == tile)
            return i;
    return -1;
}

/* The ferry one of whose ends is seg, or -1. */
static int ferry_end(const struct ferries_state *s, int seg)
{
    for (int i = 0; i < s->n; i++)
        if (s->f[i].a == seg || s->f[i].b == seg)
            return i;
    return -1;
}

static unsigned ferry_mask(const struct game *g, const struct ferry *f)
{
    return (unsigned)(g->segs[f->a].mask | g->segs[f->b].mask);
}

uint8_t game_ferry_at(const struct game *g, struct pos at)
{
    if (!game_in_play(g, EXP_FERRIES))
        return 0;
    int i = ferry_on(cst(g), game_tile_at(g, at));
    return i < 0 ? 0 : (uint8_t)ferry_mask(g, &cst(g)->f[i]);
}

bool game_ferry_due(const struct game *g)
{
    return game_in_play(g, EXP_FERRIES) && g->now.tile >= 0 &&
           lake_mask(g, g->now.tile) &&
           ferry_on(cst(g), g->now.tile) < 0;
}

/* The ferries the roads of the turn's tile reach first: a walk along
 * them, across tile sides and through ferries, that stops at each end of
 * a ferry on another tile. Those not moved this turn, a bit each. */
static uint32_t reached(const struct game *g)
{
    const struct ferries_state *s = cst(g);
    int ti = g->now.tile;
    uint64_t seen[GAME_MAX_SEGS / 64] = { 0 };
    int16_t stack[GAME_MAX_SEGS];
    int sp = 0;
    uint32_t found = 0;
    if (ti < 0)
        return 0;
    const struct placed *pl = &g->tiles[ti];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == FEAT_ROAD) {
            seen[i >> 6] |= 1ull << (i & 63);
            stack[sp++] = (int16_t)i;
        }
    while (sp > 0) {
        int x = stack[--sp];
        int f = ferry_end(s, x);
        if (f >= 0 && s->f[f].tile != ti) {
            found |= 1u << f;
            continue;
        }
        int next[5], n = 0;
        struct pos p = game_tile_pos(g, g->segs[x].tile);
        for (int side = 0; side < 4; side++) {
            if (!(g->segs[x].mask >> side & 1))
                continue;
            int nb = game_tile_at(g, pos_step(p, side));
            int y = nb < 0 ? -1 : game_side_seg(g, nb, (side + 2) & 3);
            if (y >= 0 && g->segs[y].kind == FEAT_ROAD)
                next[n++] = y;
        }
        if (f >= 0)
            next[n++] = s->f[f].a == x ? s->f[f].b : s->f[f].a;
        for (int k = 0; k < n; k++)
            if (!(seen[next[k] >> 6] >> (next[k] & 63) & 1)) {
                seen[next[k] >> 6] |= 1ull << (next[k] & 63);
                stack[sp++] = (int16_t)next[k];
            }
    }
    return found & ~s->moved;
}

/* The two road ends of tile's lake in mask, into *a and *b: false when
 * mask is not two of them. */
static bool ends_of(const struct game *g, int tile, unsigned mask, int *a,
                    int *b)
{
    if (__builtin_popcount(mask & 15) != 2 || (mask & ~15u) ||
        (mask & ~lake_mask(g, tile)))
        return false;
    int lo = __builtin_ctz(mask), hi = 31 - __builtin_clz(mask);
    *a = lake_end(g, tile, lo);
    *b = lake_end(g, tile, hi);
    return true;
}

enum rule game_check_ferry(const struct game *g, struct pos at,
                           uint8_t mask, char *why, size_t why_len)
{
    const struct ferries_state *s = cst(g);
    int a, b;
    if (g->now.tile < 0) {
        snprintf(why, why_len, "no tile was placed this turn");
        return RULE_TURN_SEQUENCE;
    }
    int ti = game_tile_at(g, at);
    if (ti < 0 || !lake_mask(g, ti)) {
        snprintf(why, why_len, "no lake is there");
        return RULE_FERRY;
    }
    if (!ends_of(g, ti, mask, &a, &b)) {
        snprintf(why, why_len, "a ferry joins two of the lake's road ends");
        return RULE_FERRY;
    }
    int f = ferry_on(s, ti);
    if (ti == g->now.tile) {
        if (f < 0)
            return RULE_OK;
        snprintf(why, why_len, "the turn's lake has its ferry already, "
                 "and it does not move in the turn it came");
        return RULE_FERRY;
    }
    if (game_ferry_due(g)) {
        snprintf(why, why_len, "the turn's lake tile gets its ferry first");
        return RULE_FERRY;
    }
    if (f < 0) {
        snprintf(why, why_len, "no ferry is on that lake");
        return RULE_FERRY;
    }
    if (s->moved >> f & 1) {
        snprintf(why, why_len, "that ferry moved this turn already");
        return RULE_FERRY;
    }
    if (ferry_mask(g, &s->f[f]) == mask) {
        snprintf(why, why_len, "the ferry is there already");
        return RULE_FERRY;
    }
    if (!(reached(g) >> f & 1)) {
        snprintf(why, why_len, "no road of the turn's tile leads to that "
                 "ferry first");
        return RULE_FERRY;
    }
    return RULE_OK;
}

void game_ferry(struct game *g, struct pos at, uint8_t mask)
{
    struct ferries_state *s = st(g);
    int a, b, ti = game_tile_at(g, at);
    if (ti < 0 || !ends_of(g, ti, mask, &a, &b))
        return;
    int f = ferry_on(s, ti);
    if (f < 0) {
        if (s->n >= MAX_FERRIES)
            return;
        s->f[s->n++] = (struct ferry){ (int16_t)ti, (int16_t)a, (int16_t)b,
                                       (int16_t)a, (int16_t)b };
        game_join_segs(g, a, b);
        return;
    }
    struct ferry *fe = &s->f[f];
    if (!(s->moved >> f & 1)) {
        fe->oa = fe->a;
        fe->ob = fe->b;
        s->moved |= 1u << f;
    }
    int old = fe->a;
    fe->a = (int16_t)a;
    fe->b = (int16_t)b;
    /* the road it left falls apart; every ferry joins its ends again */
    game_split_feature(g, old);
    for (int i = 0; i < s->n; i++)
        game_join_segs(g, s->f[i].a, s->f[i].b);
}

uint8_t game_lake_ends(const struct game *g, struct pos at)
{
    int ti = game_tile_at(g, at);
    return ti < 0 ? 0 : (uint8_t)lake_mask(g, ti);
}

bool game_ferry_movable(const struct game *g, struct pos at)
{
    if (!game_in_play(g, EXP_FERRIES) || g->now.tile < 0)
        return false;
    int f = ferry_on(cst(g), game_tile_at(g, at));
    return f >= 0 && cst(g)->f[f].tile != g->now.tile &&
           (reached(g) >> f & 1);
}

int game_ferry_options(const struct game *g, struct ferry_place *out,
                       int max)
{
    const struct ferries_state *s = cst(g);
    int n = 0;
    if (!game_in_play(g, EXP_FERRIES) || g->now.tile < 0)
        return 0;
    uint32_t movable = game_ferry_due(g) ? 0 : reached(g);
    for (int f = -1; f < s->n && n < max; f++) {
        int ti = f < 0 ? g->now.tile : s->f[f].tile;
        if (f < 0 ? !game_ferry_due(g) : !(movable >> f & 1))
            continue;
        unsigned lake = lake_mask(g, ti);
        struct pos at = game_tile_pos(g, ti);
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++) {
                unsigned m = 1u << i | 1u << j;
                if ((m & lake) != m ||
                    (f >= 0 && m == ferry_mask(g, &s->f[f])) || n >= max)
                    continue;
                out[n++] = (struct ferry_place){ at, (uint8_t)m };
            }
    }
    return n;
}

/* A new turn: no ferry moved yet. */
static void placed(struct game *g, int tile)
{
    (void)tile;
    st(g)->moved = 0;
}

/* The roads at both places of each ferry moved score with the turn's
 * completed features, when completed. */
static void turn_scoring(struct game *g)
{
    const struct ferries_state *s = cst(g);
    for (int i = 0; i < s->n; i++) {
        if (!(s->moved >> i & 1))
            continue;
        const int16_t ends[4] = { s->f[i].oa, s->f[i].ob, s->f[i].a,
                                  s->f[i].b };
        for (int k = 0; k < 4; k++)
            if (game_feature_complete(g, ends[k]))
                game_note_done(g, ends[k]);
    }
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct ferries_state *s = cst(g);
    for (int i = 0; i < s->n; i++)
        h = game_hash_mix(h, (int64_t)s->f[i].tile << 32 ^
                                 (int64_t)s->f[i].a << 16 ^ s->f[i].b);
    return h;
}

/* For a replay: each ferry on its lake, between the two road ends it
 * joins. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct ferries_state *s = cst(g);
    for (int i = 0; i < s->n; i++)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_TOKEN, .name = "ferry", .feature = FEAT_ROAD,
            .mask = (uint8_t)ferry_mask(g, &s->f[i]), .seat = -1,
            .at = game_tile_pos(g, s->f[i].tile) });
}

static const struct element elements[] = {
    { "ferry", EL_FLAG, RFB_FERRIES, 1, true },
    { NULL, 0, 0, 0, false },
};

/* ---- the auditor's side: after the action, the lake's ferry, then
 * the moves ------------------------------------------------------------ */

static void check_ferry(struct audit *a, const struct move *m)
{
    char why[200], name[40];
    struct game *g = a->g;
    enum rule r = game_check_ferry(g, m->at, m->mask, why, sizeof why);
    if (r != RULE_OK) {
        seg_format(FEAT_ROAD, m->mask, name, sizeof name);
        audit_violate(a, m, r, "a ferry on %s at (%d,%d): %s", name,
                      m->at.x, m->at.y, why);
        if (r == RULE_TURN_SEQUENCE)
            return;
    }
    game_ferry(g, m->at, m->mask); /* as logged, where the lake allows */
}

/* The PASS that declines moving the ferries the turn's roads reach. */
static bool turn_pass(struct audit *a, const struct move *m)
{
    (void)m;
    struct ferry_place one;
    return !game_ferry_due(a->g) && game_ferry_options(a->g, &one, 1) > 0;
}

/* A lake tile's turn ends with its ferry on the lake. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    if (void_turn || !game_ferry_due(a->g))
        return;
    struct pos at = game_tile_pos(a->g, a->g->now.tile);
    audit_violate(a, m, RULE_FERRY, "the lake tile at (%d,%d) was left "
                  "without its ferry", at.x, at.y);
}

static int ferry_options(const struct audit *a, struct move *out, int max)
{
    struct ferry_place fp[24];
    if (a->phase == PH_IDLE || a->phase == PH_VOID ||
        a->phase == PH_ROUND || a->phase == PH_FLYING)
        return 0;
    int n = game_ferry_options(a->g, fp, max < 24 ? max : 24);
    for (int i = 0; i < n; i++) {
        out[i] = audit_option(MV_FERRY);
        out[i].at = fp[i].at;
        out[i].feature = FEAT_ROAD;
        out[i].mask = fp[i].mask;
    }
    return n;
}

static const struct audit_unit audit = {
    .turn_pass = turn_pass,
    .turn_end = turn_end,
};

static const struct move_class moves[] = {
    {
        .kind = MV_FERRY,
        .slot = SLOT_AFTER,
        .at = AT_FEATURE,
        .what = "a ferry",
        .check = check_ferry,
        .name = "ferry",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"FERRY\",\"pointer\":\"$pointer\"}",
        .feature = FEAT_ROAD,
        .fl_fields = "at segment",
        .options = ferry_options,
    },
    { .name = NULL },
};

const struct expansion expansion_ferries = {
    .id = "ferries",
    .name = "The Ferries",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .turn_scoring = turn_scoring,
    .hash = hash,
    .replay = replay,
};
