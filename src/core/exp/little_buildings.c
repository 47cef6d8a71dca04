/* little_buildings.c - Little Buildings (the element "little-buildings")
 * as a unit, as JCloisterZone plays it.
 *
 * Each player holds 6 / players buildings of each kind (shed, house,
 * tower). Instead of the turn's action (no deployment, no flight) the
 * player on turn puts one on the turn's tile (PLACE_TOKEN LB_SHED,
 * LB_HOUSE, LB_TOWER). Whenever a feature scores, during play or at the
 * end, its winners get a point for each building on its tiles (a
 * cloister's: on its 3x3 block; a field's: on the tiles it covers), the
 * term "little-buildings" after the feature's own; under the rule
 * variant little-buildings-scoring "3/2/1" a tower is worth 3, a house 2,
 * a shed 1. A building is no feature: figures do not stand on it and a
 * flier lands around it as if it were not there. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/little_buildings.h"
#include "core/game_int.h"
#include "core/move.h"
#include "core/replay.h"

enum { MAX_BUILDINGS = 3 * 6 }; /* 6 / players a kind, each player */

struct lb_state {
    int8_t left[GAME_MAX_PLAYERS][LB__KINDS];
    uint8_t n;
    struct {
        int16_t x, y;
        uint8_t kind;
    } placed[MAX_BUILDINGS];
};
UNIT_STATE_FITS(struct lb_state);

static struct lb_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_LITTLE_BUILDINGS, struct lb_state);
}

static const struct lb_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_LITTLE_BUILDINGS,
                      const struct lb_state);
}

static const char *const kind_names[LB__KINDS] = { "shed", "house",
                                                   "tower" };
/* the variant "3/2/1" (tower/house/shed), by kind */
static const int8_t rich_points[LB__KINDS] = { 1, 2, 3 };

static void start(struct game *g)
{
    struct lb_state *s = st(g);
    int each = g->rules.n_players > 0 ? 6 / g->rules.n_players : 0;
    memset(s, 0, sizeof *s);
    for (int p = 0; p < g->rules.n_players; p++)
        for (int k = 0; k < LB__KINDS; k++)
            s->left[p][k] = (int8_t)each;
}

int game_buildings_left(const struct game *g, int player, int k)
{
    if (!game_in_play(g, EXP_LITTLE_BUILDINGS) || player < 0 ||
        player >= g->rules.n_players || k < 0 || k >= LB__KINDS)
        return 0;
    return cst(g)->left[player][k];
}

/* The building on the square at, -1: none. */
static int building_at(const struct lb_state *s, struct pos at)
{
    for (int i = 0; i < s->n; i++)
        if (s->placed[i].x == at.x && s->placed[i].y == at.y)
            return s->placed[i].kind;
    return -1;
}

enum rule game_check_building(const struct game *g, int player, int k,
                              struct pos at, char *why, size_t why_len)
{
    if (g->now.tile < 0) {
        snprintf(why, why_len, "no tile was placed this turn");
        return RULE_TURN_SEQUENCE;
    }
    struct pos p = game_tile_pos(g, g->now.tile);
    if (p.x != at.x || p.y != at.y) {
        snprintf(why, why_len, "a building goes on the turn's tile (%d,%d), "
                 "not on (%d,%d)", p.x, p.y, at.x, at.y);
        return RULE_LITTLE_BUILDING;
    }
    if (game_buildings_left(g, player, k) <= 0) {
        snprintf(why, why_len, "the player has no %s left", kind_names[k]);
        return RULE_LITTLE_BUILDING;
    }
    if (building_at(cst(g), at) >= 0) {
        snprintf(why, why_len, "a building already stands on (%d,%d)",
                 at.x, at.y);
        return RULE_LITTLE_BUILDING;
    }
    return game_check_action(g, FIG_SMALL, why, why_len);
}

void game_build(struct game *g, int player, int k, struct pos at)
{
    struct lb_state *s = st(g);
    if (s->n < MAX_BUILDINGS && building_at(s, at) < 0) {
        s->placed[s->n].x = (int16_t)at.x;
        s->placed[s->n].y = (int16_t)at.y;
        s->placed[s->n].kind = (uint8_t)k;
        s->n++;
    }
    if (player >= 0 && player < g->rules.n_players &&
        s->left[player][k] > 0)
        s->left[player][k]--;
    game_act(g, FIG_SMALL);
}

/* The buildings on the tiles of the feature of root, and their worth. */
static int count_buildings(const struct game *g, int root, int *points)
{
    const struct lb_state *s = cst(g);
    bool rich = g->rules.opt[OPT_LB_SCORING] != 0;
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    int n = 0;
    *points = 0;
    if (feature_class(g->segs[root].kind)->done == DONE_BLOCK) {
        struct pos c = game_tile_pos(g, g->segs[root].tile);
        for (int i = 0; i < s->n; i++)
            if (s->placed[i].x >= c.x - 1 && s->placed[i].x <= c.x + 1 &&
                s->placed[i].y >= c.y - 1 && s->placed[i].y <= c.y + 1) {
                n++;
                *points += rich ? rich_points[s->placed[i].kind] : 1;
            }
        return n;
    }
    int seg = root;
    do {
        unsigned t = g->segs[seg].tile;
        if (!(seen[t >> 6] >> (t & 63) & 1)) {
            seen[t >> 6] |= 1ull << (t & 63);
            int k = building_at(s, game_tile_pos(g, (int)t));
            if (k >= 0) {
                n++;
                *points += rich ? rich_points[k] : 1;
            }
        }
        seg = g->segs[seg].next;
    } while (seg != root);
    return n;
}

/* The kinds of feature whose score the buildings raise. */
static bool builds_on(int kind)
{
    return kind == FEAT_ROAD || kind == FEAT_CITY || kind == FEAT_FIELD ||
           feature_class(kind)->done == DONE_BLOCK;
}

static int bonus(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item)
{
    (void)p;
    int points = 0;
    if (!builds_on(g->segs[root].kind) || ev->points < 0)
        return 0;
    int n = count_buildings(g, root, &points);
    if (!n)
        return 0;
    *item = (struct score_item){ SI_LITTLE_BUILDINGS, (int16_t)n,
                                 (int16_t)points };
    return points;
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct lb_state *s = cst(g);
    for (int p = 0; p < g->rules.n_players; p++)
        for (int k = 0; k < LB__KINDS; k++)
            h = game_hash_mix(h, s->left[p][k]);
    for (int i = 0; i < s->n; i++)
        h = game_hash_mix(h, (int64_t)((uint64_t)(uint16_t)s->placed[i].x
                                           << 24 ^
                                       (uint64_t)(uint16_t)s->placed[i].y
                                           << 4 ^
                                       s->placed[i].kind));
    return h;
}

/* For a replay: each building on its square, and what each seat has
 * left of each kind. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct lb_state *s = cst(g);
    for (int i = 0; i < s->n; i++)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_TOKEN, .name = kind_names[s->placed[i].kind],
            .seat = -1, .at = { s->placed[i].x, s->placed[i].y } });
    static const char *const left_names[LB__KINDS] = { "sheds", "houses",
                                                       "towers" };
    for (int p = 0; p < g->rules.n_players; p++)
        for (int k = 0; k < LB__KINDS; k++)
            replay_put(out, (struct replay_item){
                .kind = REPLAY_COUNTER, .name = left_names[k],
                .seat = (int8_t)p, .value = s->left[p][k] });
}

static const struct element elements[] = {
    { "little-buildings", EL_COUNT, COUNT_LITTLE_BUILDINGS, 1, true },
    { NULL, 0, 0, 0, false },
};

/* ---- the auditor's side: a building instead of the action ------------ */

static int kind_of_move(const struct move *m)
{
    return m->kind == MV_LB_TOWER ? LB_TOWER
           : m->kind == MV_LB_HOUSE ? LB_HOUSE : LB_SHED;
}

static void check_building(struct audit *a, const struct move *m)
{
    char why[200];
    int k = kind_of_move(m);
    enum rule r = game_check_building(a->g, a->player, k, m->at, why,
                                      sizeof why);
    a->phase = PH_DONE;
    if (r != RULE_OK) {
        audit_violate(a, m, r, "a %s on (%d,%d): %s", kind_names[k],
                      m->at.x, m->at.y, why);
        if (r != RULE_MEEPLE_SECOND_DEPLOY)
            return;
    }
    game_build(a->g, a->player, k, m->at);
}

/* A building of kind k on the turn's tile, when the player has one. */
static int building_options(const struct audit *a, int k, int kind,
                            struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    if (max < 1 || g->now.tile < 0)
        return 0;
    struct pos at = game_tile_pos(g, g->now.tile);
    if (game_check_building(g, a->player, k, at, why, sizeof why) != RULE_OK)
        return 0;
    out[0] = audit_option(kind);
    out[0].at = at;
    return 1;
}

static int shed_options(const struct audit *a, struct move *out, int max)
{
    return building_options(a, LB_SHED, MV_LB_SHED, out, max);
}

static int house_options(const struct audit *a, struct move *out, int max)
{
    return building_options(a, LB_HOUSE, MV_LB_HOUSE, out, max);
}

static int tower_options(const struct audit *a, struct move *out, int max)
{
    return building_options(a, LB_TOWER, MV_LB_TOWER, out, max);
}

static const struct move_class moves[] = {
    {
        .kind = MV_LB_SHED,
        .slot = SLOT_ACTION,
        .at = AT_TILE,
        .what = "a shed",
        .check = check_building,
        .name = "lb-shed",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"LB_SHED\",\"pointer\":\"$position\"}",
        .fl_fields = "at",
        .options = shed_options,
    },
    {
        .kind = MV_LB_HOUSE,
        .slot = SLOT_ACTION,
        .at = AT_TILE,
        .what = "a house",
        .check = check_building,
        .name = "lb-house",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"LB_HOUSE\",\"pointer\":\"$position\"}",
        .fl_fields = "at",
        .options = house_options,
    },
    {
        .kind = MV_LB_TOWER,
        .slot = SLOT_ACTION,
        .at = AT_TILE,
        .what = "a tower",
        .check = check_building,
        .name = "lb-tower",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"LB_TOWER\",\"pointer\":\"$position\"}",
        .fl_fields = "at",
        .options = tower_options,
    },
    { .name = NULL },
};

const struct expansion expansion_little_buildings = {
    .id = "little_buildings",
    .name = "Little Buildings",
    .elements = elements,
    .moves = moves,
    .start = start,
    .bonus = bonus,
    .hash = hash,
    .replay = replay,
};
