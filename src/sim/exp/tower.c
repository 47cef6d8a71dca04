/* tower.c - The Tower in simulated and forged games: at the start of a
 * turn, a ransom (MV_RANSOM) when the player buys a prisoner back; as the
 * turn's action, before a deployment is tried, a floor (MV_TOWER, then
 * MV_CAPTURE of a follower in sight or MV_PASS, and MV_EXCHANGE when
 * the engine offers a prisoner back) or a follower on top of a
 * tower (an MV_DEPLOY off the tile). Forgeries: a floor, a capture and a
 * ransom the rules refuse, and a flight landing on a tower. */
#include "core/exp/tower.h"
#include "sim/exp/units.h"

#include <stdlib.h>

enum { R_TOWER, R_CAPTURE, R_RANSOM };
enum { T_TOWER_FLOORS, T_TOWER_TOPS, T_CAPTURES, T_RANSOMS };

/* tower: before deploying, build a floor or put a follower on top of a
 * tower when one may; capture: after a floor, take a follower in sight
 * prisoner (else pass); ransom: at the start of the turn, buy back a
 * prisoner when the rules allow it. */
static const struct sim_rate rates[] = { { "tower", 0.3 },
                                         { "capture", 0.7 },
                                         { "ransom", 0.5 },
                                         { NULL, 0 } };
static const char *const counts[] = { "tower_floors", "tower_tops",
                                      "captures", "ransoms", NULL };

/* At the start of the turn: buy back one of the seat's prisoners. */
static void try_ransom(struct sim *s, int seat)
{
    struct game *g = s->g;
    if (!game_in_play(g, EXP_TOWER))
        return;
    for (int mi = 0; mi < g->n_meeples; mi++) {
        if (g->meeples[mi].owner != seat ||
            game_check_ransom(g, seat, mi, NULL, 0) != RULE_OK)
            continue;
        if (!sim_chance(s, sim_rate(s, EXP_TOWER, R_RANSOM)))
            return;
        const struct meeple *mp = &g->meeples[mi];
        struct move *m = sim_emit(s, MV_RANSOM);
        m->meeple = mp->kind;
        m->meeple_n = mp->n;
        m->meeple_owner = mp->owner;
        game_pay_ransom(g, mi);
        sim_tally(s, EXP_TOWER, T_RANSOMS);
        return;
    }
}

/* A floor on a tower (then a prisoner, or a pass when one was in sight)
 * or a follower on top of one, with chance tower_rate; returns whether
 * the seat acted. */
static bool try_tower(struct sim *s, int seat)
{
    struct game *g = s->g;
    int floors = 0, tops = 0, m = game_meeple(g, seat, FIG_SMALL, 0);
    if (!game_in_play(g, EXP_TOWER))
        return false;
    for (int t = 0; t < g->n_tiles; t++) {
        int seg = game_find_seg(g, t, FEAT_TOWER, 0);
        if (seg < 0)
            continue;
        if (game_check_tower(g, seat, game_tile_pos(g, t), NULL, 0) ==
            RULE_OK)
            s->targets[floors++] = t;
        else if (m >= 0 &&
                 game_check_deploy(g, seat, m, seg, NULL, 0) == RULE_OK)
            s->targets[GAME_MAX_SEGS - 1 - tops++] = seg;
    }
    if (floors + tops == 0 || !sim_chance(s, sim_rate(s, EXP_TOWER, R_TOWER)))
        return false;
    int k = sim_below(s, floors + tops);
    if (k >= floors) { /* a follower on top */
        int seg = s->targets[GAME_MAX_SEGS - 1 - (k - floors)];
        sim_emit_meeple(s, MV_DEPLOY, m, game_tile_pos(g, g->segs[seg].tile),
                        FEAT_TOWER, g->segs[seg].mask);
        game_deploy(g, m, seg);
        sim_tally(s, EXP_TOWER, T_TOWER_TOPS);
        return true;
    }
    struct pos at = game_tile_pos(g, s->targets[k]);
    struct move *mv = sim_emit(s, MV_TOWER);
    mv->at = at;
    mv->feature = FEAT_TOWER;
    game_raise_tower(g, seat, at);
    sim_tally(s, EXP_TOWER, T_TOWER_FLOORS);
    int opts[GAME_MAX_MEEPLES];
    int n = game_capture_options(g, opts, GAME_MAX_MEEPLES);
    if (n == 0)
        return true;
    if (!sim_chance(s, sim_rate(s, EXP_TOWER, R_CAPTURE))) {
        sim_emit(s, MV_PASS); /* the capture declined */
        game_capture_declined(g);
        return true;
    }
    int c = opts[sim_below(s, n)];
    sim_emit_on(s, MV_CAPTURE, c, g->meeples[c].seg);
    game_capture(g, seat, c);
    sim_tally(s, EXP_TOWER, T_CAPTURES);
    /* the victim holds the capturer's of several kinds: one comes back */
    int back[FIG__COUNT];
    int k2 = game_exchange_options(g, back, FIG__COUNT);
    if (k2 > 0) {
        int b = back[sim_below(s, k2)];
        struct move *mx = sim_emit(s, MV_EXCHANGE);
        mx->meeple = g->meeples[b].kind;
        mx->meeple_n = g->meeples[b].n;
        mx->meeple_owner = g->meeples[b].owner;
        game_exchange(g, b);
    }
    return true;
}

/* ---- forgeries ---------------------------------------------------------- */

static bool f_flier_on_tower(struct forge *f)
{
    return forge_landing_on(f, FEAT_TOWER);
}

/* The turn's action becomes a floor on this turn's tile, which has no
 * tower. */
static bool f_tower_placement(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int tile = g->now.tile;
    bool ok = tile >= 0 && game_find_seg(g, tile, FEAT_TOWER, 0) < 0;
    if (ok) {
        struct move *m = forge_replace_action(f);
        m->kind = MV_TOWER;
        m->at = game_tile_pos(g, tile);
        m->feature = FEAT_TOWER;
        forge_how(f, "built a tower floor on %s at (%d,%d), which has no "
                  "tower", tile_get(g->tiles[tile].def)->id, m->at.x, m->at.y);
    }
    forge_state_end(&s);
    return ok;
}

/* The turn's action becomes a floor on a tower that may take one, then
 * the capture of a follower out of its sight. */
static bool f_tower_capture(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int tower = -1, victim = -1;
    for (int t = 0; t < g->n_tiles && tower < 0; t++)
        if (game_find_seg(g, t, FEAT_TOWER, 0) >= 0 &&
            game_check_tower(g, f->seat, game_tile_pos(g, t), NULL, 0) ==
                RULE_OK)
            tower = t;
    struct pos tp = tower >= 0 ? game_tile_pos(g, tower) : (struct pos){ 0, 0 };
    int reach = tower >= 0 ? game_tower_height(g, tower) + 1 : 0;
    for (int mi = 0; mi < g->n_meeples && tower >= 0 && victim < 0; mi++) {
        const struct meeple *mp = &g->meeples[mi];
        if (mp->seg < 0 || !figure_class(mp->kind)->follower)
            continue;
        struct pos p = game_tile_pos(g, g->segs[mp->seg].tile);
        int d = p.x == tp.x ? abs(p.y - tp.y) : p.y == tp.y ? abs(p.x - tp.x)
                                                            : 1000;
        if (d > reach)
            victim = mi;
    }
    if (victim >= 0) {
        const struct seg *sg = &g->segs[g->meeples[victim].seg];
        struct move *m = forge_replace_action(f);
        m->kind = MV_TOWER;
        m->at = tp;
        m->feature = FEAT_TOWER;
        m = forge_insert(f->out, f->place + 2);
        f->commit++;
        m->kind = MV_CAPTURE;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, victim);
        forge_how(f, "a floor on the tower at (%d,%d) (%d high), then the "
                  "capture of a follower at (%d,%d), out of its sight",
                  tp.x, tp.y, reach, m->at.x, m->at.y);
    }
    forge_state_end(&s);
    return victim >= 0;
}

/* A ransom, right after the tile, for a follower of the seat's own that
 * nobody holds. */
static bool f_tower_ransom(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    if (mi >= 0) {
        struct move *m = forge_insert(f->out, f->place + 1);
        f->commit++;
        m->kind = MV_RANSOM;
        forge_set_meeple(m, g, mi);
        forge_how(f, "paid a ransom for %d.small.%d, which is in its owner's "
                  "supply", f->seat, g->meeples[mi].n);
    }
    forge_state_end(&s);
    return mi >= 0;
}

static const struct forger forgers[] = {
    { RULE_TOWER_PLACEMENT, f_tower_placement, EXP_TOWER, BY_NONE },
    { RULE_TOWER_CAPTURE, f_tower_capture, EXP_TOWER, BY_NONE },
    { RULE_TOWER_RANSOM, f_tower_ransom, EXP_TOWER, BY_NONE },
    { RULE_FLIER_ON_TOWER, f_flier_on_tower, EXP_TOWER, BY_FLIER },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_tower = {
    .rates = rates,
    .counts = counts,
    .part_start = try_ransom,
    .first_act = try_tower,
    .forgers = forgers,
};
