/* sim.c - random legal games through the engine's API.
 *
 * The simulator asks the engine what is legal (game_list_placements,
 * game_list_deploys, which lists each figure's flights too,
 * game_landings, game_check_action; between turns game_abbey_offered,
 * game_wagon_next, game_check_wagon_move) and only ever picks among those
 * answers, so a game it plays is legal by construction, and the auditor,
 * which replays the same engine, must agree. Tests rely on that. Nothing
 * here knows an expansion's rules: a river tile's placements, a large
 * follower's landings, the phantom's second action, a builder's second
 * tile (the seat the engine keeps on turn), a barn's corner, an abbey's
 * hole and a wagon's moves are the engine's answers like any other. */
#include "sim/sim.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Empty cells next to the board times four rotations. */
#define SIM_MAX_PLACEMENTS (4 * GAME_MAX_TILES * 4)
/* Deployments on the placed tile, and on the tiles around it where a
 * unit lets a figure stand off it (the barn's corner). */
#define SIM_MAX_OPTIONS (2 * TILE_MAX_SEGS * FIG__COUNT)
/* Actions in one turn (the first and those units allow after it). */
#define SIM_MAX_ACTIONS 4

struct sim {
    struct game *g;
    struct game_log *log;
    const struct sim_policy *p;
    struct sim_result *res;
    uint64_t rng;
    uint32_t src; /* index of the next message of a .jcz replay */
    bool drew;    /* this turn's draw has taken its random number */
    bool offered; /* this turn part's seat was offered its held tile */
    double redraw;/* after a discard: the number the next tile is drawn
                     with (game_redraw_random()), else -1 */
    int n_pack;
    int16_t pack[GAME_MAX_TILES];
    struct placement place[SIM_MAX_PLACEMENTS];
    int targets[GAME_MAX_SEGS]; /* a wagon's moves */
};

struct sim_policy sim_policy_default(void)
{
    struct sim_policy p = { 0.7, 0.6, 0.15, 0.6, 0.4, 0.6, 0.3, 0.7, 0.5,
                            0.6 };
    return p;
}

/* ---- randomness: splitmix64 ----------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1). */
static int rng_below(uint64_t *s, int n)
{
    return (int)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) / 9007199254740992.0;
}

static bool chance(struct sim *s, double rate)
{
    return rng_unit(&s->rng) < rate;
}

/* An index in 0..n-1 drawn with these weights (each >= 1). */
static int weighted_pick(struct sim *s, const int *weight, int n)
{
    int total = 0, k = 0;
    for (int i = 0; i < n; i++)
        total += weight[i];
    int pick = rng_below(&s->rng, total);
    while (pick >= weight[k])
        pick -= weight[k++];
    return k;
}

/* ---- log output -------------------------------------------------------- */

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap)
        n = cap - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Appends a move; a discard has no message of its own in a .jcz, so it
 * shares the index of the message that follows it. */
static struct move *emit(struct sim *s, enum move_kind kind)
{
    struct move *m = game_log_push(s->log);
    m->kind = (uint8_t)kind;
    m->src = s->src;
    if (kind != MV_DISCARD)
        s->src++;
    return m;
}

static struct move *emit_tile(struct sim *s, enum move_kind kind, int def)
{
    struct move *m = emit(s, kind);
    m->tile = (int16_t)def;
    copy_str(m->tile_id, sizeof m->tile_id, tile_get(def)->id);
    return m;
}

/* A deploy-like move of meeple mi onto (feature, mask) of the tile at. */
static struct move *emit_meeple(struct sim *s, enum move_kind kind, int mi,
                                struct pos at, int feature, uint8_t mask)
{
    const struct meeple *mp = &s->g->meeples[mi];
    struct move *m = emit(s, kind);
    m->at = at;
    m->feature = (uint8_t)feature;
    m->mask = mask;
    m->meeple = mp->kind;
    m->meeple_n = mp->n;
    m->meeple_owner = mp->owner;
    return m;
}

/* ---- the pack ---------------------------------------------------------- */

/* Everything left after the start tile, as JCloisterZone will draw it:
 * group by group in the order they open (the river's tiles first; most
 * games have one group), each shuffled (Fisher-Yates). Drawing them in
 * this order from the open group is what the engine's draw allows, and
 * game_pack_random() gives each its random number. */
static void shuffle_pack(struct sim *s)
{
    int start = 0, last = 0;
    s->n_pack = 0;
    for (int gr = 0; gr < TG__COUNT; gr++)
        if (tile_group_rank(gr) > last)
            last = tile_group_rank(gr);
    for (int rank = 1; rank <= last; rank++) { /* rank 0: never drawn */
        for (int t = 0; t < tile_count() && t < TILE_KINDS; t++) {
            if (tile_group_rank(tile_get(t)->group) != rank)
                continue;
            for (int k = 0; k < s->g->pack[t] && s->n_pack < GAME_MAX_TILES;
                 k++)
                s->pack[s->n_pack++] = (int16_t)t;
        }
        for (int i = s->n_pack - 1; i > start; i--) {
            int j = start + rng_below(&s->rng, i - start + 1);
            int16_t tmp = s->pack[i];
            s->pack[i] = s->pack[j];
            s->pack[j] = tmp;
        }
        start = s->n_pack;
    }
}

/* The draw of the turn's first tile (placed or put aside) is the one a
 * save's random numbers give; a tile drawn again after a discard comes
 * from JCloisterZone's generator, which no message records (-1). *used
 * is the number it was drawn with. */
static double next_draw(struct sim *s, int def, double *used)
{
    if (s->drew) {
        *used = s->redraw;
        return -1.0;
    }
    s->drew = true;
    *used = game_pack_random(s->g, def);
    return *used;
}

/* ---- actions -----------------------------------------------------------
 * Each phase of a turn starts from what the engine offers the seat now
 * (game_list_deploys: every figure in supply on every segment of the
 * placed tile it may take, a flying machine as that figure's flight). */

struct offer {
    int n;
    struct deploy_option opt[SIM_MAX_OPTIONS];
};

static void list_offer(const struct game *g, int seat, struct offer *o)
{
    o->n = game_list_deploys(g, seat, o->opt, SIM_MAX_OPTIONS);
    if (o->n > SIM_MAX_OPTIONS)
        o->n = SIM_MAX_OPTIONS;
}

static bool is_flight_option(const struct game *g, const struct deploy_option *o)
{
    return g->segs[o->seg].kind == FEAT_FLIER;
}

/* How many figures of kind the seat has in supply. */
static int in_supply(const struct game *g, int seat, int kind)
{
    int n = 0;
    for (int k = 1; k <= g->rules.figures[kind]; k++) {
        int mi = game_meeple(g, seat, kind, k);
        n += mi >= 0 && meeple_in_supply(&g->meeples[mi]);
    }
    return n;
}

/* The weight of the turn's first action by a figure of kind: 1, but in
 * a game where a unit allows more actions after the first (the phantom),
 * a figure of the supply picked at random, as players keep their single
 * figures for the second action: the number in supply. */
static int first_weight(const struct game *g, int seat, int kind)
{
    if (g->now.actions > 0 || !(g->hooked >> HOOK_extra_action & 1))
        return 1;
    return in_supply(g, seat, kind);
}

static bool lands_somewhere(const struct game *g, struct pos from, int dir,
                            int kind)
{
    for (int roll = 1; roll <= 3; roll++)
        if (game_landings(g, game_flight_target(from, dir, roll), kind, NULL,
                          0) > 0)
            return true;
    return false;
}

/* Flies a figure from the tile just placed when one is offered a flight
 * that some roll (1..3) would land and chance(rate) says so; returns
 * whether it flew. */
static bool try_fly(struct sim *s, int seat, const struct offer *o,
                    double rate)
{
    struct game *g = s->g;
    int tile = g->now.tile, dir = game_flier_dir(g, tile);
    int kinds[FIG__COUNT], n_kinds = 0, segs[TILE_MAX_SEGS];
    if (dir == NO_FLIER)
        return false;
    struct pos from = game_tile_pos(g, tile);
    for (int i = 0; i < o->n && n_kinds < FIG__COUNT; i++) /* by figure */
        if (is_flight_option(g, &o->opt[i]) &&
            lands_somewhere(g, from, dir, o->opt[i].figure))
            kinds[n_kinds++] = o->opt[i].figure;
    if (n_kinds == 0 || !chance(s, rate))
        return false;
    int weight[FIG__COUNT];
    for (int i = 0; i < n_kinds; i++)
        weight[i] = first_weight(g, seat, kinds[i]);
    int kind = kinds[weighted_pick(s, weight, n_kinds)];
    int mi = game_meeple(g, seat, kind, 0);
    int roll = 1 + rng_below(&s->rng, 3);
    emit_meeple(s, MV_DEPLOY, mi, from, FEAT_FLIER, 0)->roll = roll;
    game_fly(g, kind);
    s->res->flights++;
    s->res->flights_by[kind]++;
    s->res->extra_flights += g->now.actions > 1;
    struct pos target = game_flight_target(from, dir, roll);
    int n = game_landings(g, target, kind, segs, TILE_MAX_SEGS);
    if (n > 0) { /* landing is mandatory; otherwise back to supply */
        int seg = segs[rng_below(&s->rng, n)];
        emit_meeple(s, MV_DEPLOY, mi, target, g->segs[seg].kind,
                    g->segs[seg].mask);
        game_land(g, mi, seg);
        s->res->landed++;
        s->res->landed_by[kind]++;
    }
    return true;
}

struct option {
    int meeple;
    int seg;
};

static int option_weight(const struct game *g, int seat,
                         const struct option *o)
{
    return (g->segs[o->seg].kind == FEAT_FIELD ? 1 : 4) *
           first_weight(g, seat, g->meeples[o->meeple].kind);
}

/* The offer's deployments, segment by segment and, on one segment,
 * figure by figure, each with the first figure of its kind in supply. */
static int deploy_options(const struct game *g, int seat,
                          const struct offer *o, struct option *out)
{
    const struct deploy_option *d[SIM_MAX_OPTIONS];
    int n = 0;
    for (int i = 0; i < o->n; i++) {
        const struct deploy_option *x = &o->opt[i];
        if (is_flight_option(g, x))
            continue;
        int k = n++;
        while (k > 0 && (d[k - 1]->seg > x->seg ||
                         (d[k - 1]->seg == x->seg &&
                          d[k - 1]->figure > x->figure))) {
            d[k] = d[k - 1];
            k--;
        }
        d[k] = x;
    }
    for (int k = 0; k < n; k++)
        out[k] = (struct option){ game_meeple(g, seat, d[k]->figure, 0),
                                  d[k]->seg };
    return n;
}

static bool try_deploy(struct sim *s, int seat, const struct offer *o,
                       double rate)
{
    struct game *g = s->g;
    struct option opt[SIM_MAX_OPTIONS];
    int n = deploy_options(g, seat, o, opt);
    if (n == 0 || !chance(s, rate))
        return false;
    /* Farmers never come back: weighting them down keeps followers in
     * play for flights and completions, as human players do. */
    int weight[SIM_MAX_OPTIONS];
    for (int i = 0; i < n; i++)
        weight[i] = option_weight(g, seat, &opt[i]);
    int k = weighted_pick(s, weight, n);
    struct option c = opt[k];
    const struct seg *sg = &g->segs[c.seg];
    int fig = g->meeples[c.meeple].kind;
    emit_meeple(s, MV_DEPLOY, c.meeple, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask);
    s->res->deploys++;
    s->res->deploys_by[fig]++;
    s->res->abbot_deploys += fig == FIG_ABBOT;
    s->res->garden_deploys += sg->kind == FEAT_GARDEN;
    game_deploy(g, c.meeple, c.seg);
    return true;
}

static bool try_recall(struct sim *s, int seat)
{
    struct game *g = s->g;
    int mi;
    for (mi = 0; mi < g->n_meeples; mi++)
        if (g->meeples[mi].owner == seat && g->meeples[mi].kind == FIG_ABBOT &&
            g->meeples[mi].seg >= 0)
            break;
    if (mi == g->n_meeples ||
        game_check_action(g, FIG_ABBOT, NULL, 0) != RULE_OK ||
        !chance(s, s->p->recall_rate))
        return false;
    const struct seg *sg = &g->segs[g->meeples[mi].seg];
    emit_meeple(s, MV_RECALL, mi, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask);
    game_recall(g, mi);
    s->res->recalls++;
    return true;
}

/* ---- The Tower ----------------------------------------------------------- */

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
        if (!chance(s, s->p->ransom_rate))
            return;
        const struct meeple *mp = &g->meeples[mi];
        struct move *m = emit(s, MV_RANSOM);
        m->meeple = mp->kind;
        m->meeple_n = mp->n;
        m->meeple_owner = mp->owner;
        game_pay_ransom(g, mi);
        s->res->ransoms++;
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
    if (floors + tops == 0 || !chance(s, s->p->tower_rate))
        return false;
    int k = rng_below(&s->rng, floors + tops);
    if (k >= floors) { /* a follower on top */
        int seg = s->targets[GAME_MAX_SEGS - 1 - (k - floors)];
        emit_meeple(s, MV_DEPLOY, m, game_tile_pos(g, g->segs[seg].tile),
                    FEAT_TOWER, g->segs[seg].mask);
        game_deploy(g, m, seg);
        s->res->tower_tops++;
        return true;
    }
    struct pos at = game_tile_pos(g, s->targets[k]);
    struct move *mv = emit(s, MV_TOWER);
    mv->at = at;
    mv->feature = FEAT_TOWER;
    game_raise_tower(g, seat, at);
    s->res->tower_floors++;
    int opts[GAME_MAX_MEEPLES];
    int n = game_capture_options(g, opts, GAME_MAX_MEEPLES);
    if (n == 0)
        return true;
    if (!chance(s, s->p->capture_rate)) {
        emit(s, MV_PASS); /* the capture declined */
        game_capture_declined(g);
        return true;
    }
    int c = opts[rng_below(&s->rng, n)];
    const struct seg *sg = &g->segs[g->meeples[c].seg];
    emit_meeple(s, MV_CAPTURE, c, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask);
    game_capture(g, seat, c);
    s->res->captures++;
    /* the victim holds the capturer's of several kinds: one comes back */
    int back[FIG__COUNT];
    int k2 = game_exchange_options(g, back, FIG__COUNT);
    if (k2 > 0) {
        int b = back[rng_below(&s->rng, k2)];
        struct move *mx = emit(s, MV_EXCHANGE);
        mx->meeple = g->meeples[b].kind;
        mx->meeple_n = g->meeples[b].n;
        mx->meeple_owner = g->meeples[b].owner;
        game_exchange(g, b);
    }
    return true;
}

/* The Princess & the Dragon's actions instead of a deployment: the
 * princess sends a knight of her city home, the fairy goes beside one of
 * the seat's followers; each as the engine allows, by chance. */
static bool try_princess(struct sim *s)
{
    struct game *g = s->g;
    int n = 0;
    for (int mi = 0; mi < g->n_meeples; mi++)
        if (g->meeples[mi].seg >= 0 &&
            game_check_princess(g, mi, NULL, 0) == RULE_OK)
            s->targets[n++] = mi;
    if (n == 0 || !chance(s, s->p->deploy_rate))
        return false;
    int mi = s->targets[rng_below(&s->rng, n)];
    const struct seg *sg = &g->segs[g->meeples[mi].seg];
    emit_meeple(s, MV_PRINCESS, mi, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask);
    game_princess(g, mi);
    s->res->princess_removals++;
    return true;
}

static bool try_fairy(struct sim *s, int seat)
{
    struct game *g = s->g;
    int n = 0;
    for (int mi = 0; mi < g->n_meeples; mi++)
        if (g->meeples[mi].seg >= 0 &&
            game_check_fairy(g, seat, mi, NULL, 0) == RULE_OK)
            s->targets[n++] = mi;
    if (n == 0 || !chance(s, s->p->recall_rate))
        return false;
    int mi = s->targets[rng_below(&s->rng, n)];
    const struct seg *sg = &g->segs[g->meeples[mi].seg];
    emit_meeple(s, MV_NEUTRAL, mi, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask)->neutral = FIG_FAIRY;
    game_fairy(g, mi);
    s->res->fairy_moves++;
    return true;
}

/* The dragon's steps after the turn's action, each to a square the
 * engine offers, chosen at random (the players who move it are the
 * engine's to know: a step names none). */
static void move_dragon(struct sim *s)
{
    struct game *g = s->g;
    struct pos opt[4];
    while (game_dragon_steps(g) > 0) {
        int n = game_dragon_options(g, opt);
        struct pos to = opt[rng_below(&s->rng, n)];
        struct move *m = emit(s, MV_NEUTRAL);
        m->neutral = FIG_DRAGON;
        m->at = to;
        game_dragon_step(g, to);
        s->res->dragon_steps++;
    }
}

/* The actions a unit allows after the turn's first (the phantom's phase):
 * while the engine offers something, act or pass; when it offers
 * nothing, nothing is written, as JCloisterZone writes nothing. */
static void extra_actions(struct sim *s, int seat)
{
    struct offer o;
    for (int k = 1; k < SIM_MAX_ACTIONS; k++) {
        list_offer(s->g, seat, &o);
        if (o.n == 0)
            return;
        if (!chance(s, s->p->extra_rate) ||
            (!try_fly(s, seat, &o, s->p->flier_rate) &&
             !try_deploy(s, seat, &o, 1.0))) {
            emit(s, MV_PASS);
            return;
        }
        s->res->extra_actions++;
    }
}

/* The wagons the turn part's scoring sent back, in the engine's order:
 * each moves (with chance wagon_rate) to a feature the engine allows it,
 * or its owner passes; a COMMIT follows when the engine says so. */
static void move_wagons(struct sim *s)
{
    struct game *g = s->g;
    int w;
    while ((w = game_wagon_next(g)) >= 0) {
        int n = 0, seg = -1;
        for (int i = 0; i < g->n_segs; i++)
            if (game_check_wagon_move(g, w, i, NULL, 0) == RULE_OK)
                s->targets[n++] = i;
        if (n > 0 && chance(s, s->p->wagon_rate)) {
            seg = s->targets[rng_below(&s->rng, n)];
            const struct seg *sg = &g->segs[seg];
            emit_meeple(s, MV_DEPLOY, w, game_tile_pos(g, sg->tile), sg->kind,
                        sg->mask);
            s->res->wagon_moves++;
        } else {
            emit(s, MV_PASS);
            s->res->wagon_passes++;
        }
        if (game_wagon_move(g, w, seg))
            emit(s, MV_COMMIT);
    }
}

/* ---- The Count of Carcassonne: the City's followers ------------------- */

/* Seat's moves out of the City the engine allows now (held: onto what
 * the turn completed; else at the end): meeple and segment pairs into
 * s->targets (meeple * GAME_MAX_SEGS + seg). */
static int city_leaves(struct sim *s, int seat)
{
    struct game *g = s->g;
    int n = 0;
    for (int m = 0; m < g->n_meeples; m++) {
        int at = g->meeples[m].seg;
        if (g->meeples[m].owner != seat || at < 0 ||
            g->segs[at].kind != FEAT_QUARTER)
            continue;
        for (int i = 0; i < g->n_segs && n < GAME_MAX_SEGS; i++)
            if (g->segs[i].parent == i &&
                game_check_quarter_leave(g, seat, m, i, NULL, 0) == RULE_OK)
                s->targets[n++] = m * GAME_MAX_SEGS + i;
    }
    return n;
}

/* One move out of the City by seat, or none (false). */
static bool city_leave(struct sim *s, int seat)
{
    int n = city_leaves(s, seat);
    if (n == 0 || !chance(s, s->p->city_rate))
        return false;
    int t = s->targets[rng_below(&s->rng, n)];
    int m = t / GAME_MAX_SEGS, seg = t % GAME_MAX_SEGS;
    const struct seg *sg = &s->g->segs[seg];
    emit_meeple(s, MV_DEPLOY, m, game_tile_pos(s->g, sg->tile), sg->kind,
                sg->mask);
    game_quarter_leave(s->g, m, seg);
    s->res->city_leaves++;
    return true;
}

/* Before the turn's scoring: the seats the engine asks, in its order. */
static void city_held(struct sim *s)
{
    bool moved = false;
    int seat;
    while ((seat = game_city_held_seat(s->g)) >= 0) {
        if (city_leave(s, seat)) {
            moved = true;
            continue;
        }
        emit(s, MV_PASS);
        game_quarter_leave(s->g, -1, -1);
    }
    if (moved)
        emit(s, MV_COMMIT);
}

/* After the scoring: the seat offered the City sends a follower into a
 * quarter and moves the count, or declines. */
static void city_offer(struct sim *s)
{
    struct game *g = s->g;
    int seat = game_city_offer(g), n = 0;
    if (seat < 0)
        return;
    for (int m = 0; m < g->n_meeples; m++)
        for (int i = 0; i < g->n_segs && n < GAME_MAX_SEGS; i++)
            if (g->segs[i].kind == FEAT_QUARTER &&
                game_check_quarter_deploy(g, seat, m, i, NULL, 0) == RULE_OK)
                s->targets[n++] = m * GAME_MAX_SEGS + i;
    if (n == 0 || !chance(s, s->p->city_rate)) {
        emit(s, MV_PASS);
        game_quarter_deploy(g, -1, -1);
        return;
    }
    int t = s->targets[rng_below(&s->rng, n)];
    int m = t / GAME_MAX_SEGS, seg = t % GAME_MAX_SEGS;
    const struct seg *sg = &g->segs[seg];
    emit_meeple(s, MV_DEPLOY, m, game_tile_pos(g, sg->tile), sg->kind,
                sg->mask);
    game_quarter_deploy(g, m, seg);
    s->res->city_deploys++;
    n = 0;
    for (int i = 0; i < g->n_segs; i++)
        if (g->segs[i].kind == FEAT_QUARTER &&
            game_check_count_move(g, seat, i, NULL, 0) == RULE_OK)
            s->targets[n++] = i;
    if (n == 0 || !chance(s, s->p->city_rate)) {
        emit(s, MV_PASS);
        game_count_move(g, -1);
        return;
    }
    seg = s->targets[rng_below(&s->rng, n)];
    struct move *mv = emit(s, MV_NEUTRAL);
    mv->neutral = FIG_COUNT;
    mv->at = game_tile_pos(g, g->segs[seg].tile);
    mv->feature = FEAT_QUARTER;
    mv->mask = g->segs[seg].mask;
    game_count_move(g, seg);
    s->res->count_moves++;
}

/* After the last turn: seat by seat from the one after the last on turn,
 * followers leave the City, or their owners pass (once). */
static void city_final(struct sim *s)
{
    struct game *g = s->g;
    int np = g->rules.n_players;
    bool passed[GAME_MAX_PLAYERS] = { false };
    for (int p = g->seat, left = np; game_city_final_open(g) && left > 0;
         p = (p + 1) % np) {
        if (passed[p])
            continue;
        if (city_leaves(s, p) == 0 || !city_leave(s, p)) {
            if (city_leaves(s, p) > 0)
                emit(s, MV_PASS);
            passed[p] = true;
            left--;
        }
    }
}

/* The turn part on the tile just placed: the action phase, COMMIT, the
 * scoring, then the wagons. */
static void play_part(struct sim *s, int seat)
{
    struct game *g = s->g;
    struct offer o;
    try_ransom(s, seat); /* The Tower: before the action */
    list_offer(g, seat, &o);
    /* A pass in the action phase ends the turn's actions. */
    if (try_fly(s, seat, &o, s->p->flier_rate) || try_tower(s, seat) ||
        try_deploy(s, seat, &o, s->p->deploy_rate) || try_recall(s, seat) ||
        try_princess(s) || try_fairy(s, seat))
        extra_actions(s, seat);
    else
        emit(s, MV_PASS);
    move_dragon(s);
    emit(s, MV_COMMIT);
    game_end_turn(g);
    city_held(s); /* the scoring may wait for the City's followers */
    s->res->extra_parts += g->seat == seat && g->rules.n_players > 1;
    s->drew = false;
    s->offered = false;
    move_wagons(s);
    city_offer(s);
}

/* One drawn tile: a turn, or a discard when it fits nowhere. */
static void draw(struct sim *s, int def)
{
    struct game *g = s->g;
    int n = game_list_placements(g, def, s->place, SIM_MAX_PLACEMENTS);
    double used;
    double r = next_draw(s, def, &used);
    if (n == 0) {
        emit_tile(s, MV_DISCARD, def)->draw = r;
        game_discard(g, def);
        s->res->discards++;
        s->redraw = game_redraw_random(used);
        return;
    }
    s->redraw = -1.0;
    if (n > SIM_MAX_PLACEMENTS)
        n = SIM_MAX_PLACEMENTS;
    struct placement pl = s->place[rng_below(&s->rng, n)];
    int turn = ++s->res->turns;
    int seat = g->seat; /* the engine keeps who is on turn */
    struct move *m = emit_tile(s, MV_PLACE, def);
    m->draw = r;
    m->at = pl.at;
    m->rot = (uint8_t)pl.rot;
    if (!game_place(g, def, pl.at, pl.rot, turn))
        abort(); /* the engine listed it as legal: our invariant */
    play_part(s, seat);
}

/* The tile a seat holds instead of drawing (the abbey): a kind of a
 * group that is never drawn, of a unit in play; -1 when there is none. */
static int held_tile(const struct game *g)
{
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++) {
        const struct tile_def *d = tile_get(t);
        if (tile_group_rank(d->group) < 0 && game_in_play(g, d->expansion))
            return t;
    }
    return -1;
}

/* The seat on turn, offered its held tile, places it (chance abbey_rate)
 * where the engine allows, as a turn part; false when it declines. */
static bool place_held(struct sim *s)
{
    struct game *g = s->g;
    int def = held_tile(g);
    int n = def < 0 ? 0 : game_list_placements(g, def, s->place,
                                               SIM_MAX_PLACEMENTS);
    if (n == 0 || !chance(s, s->p->abbey_rate)) {
        s->res->held_declined++;
        return false;
    }
    if (n > SIM_MAX_PLACEMENTS)
        n = SIM_MAX_PLACEMENTS;
    struct placement pl = s->place[rng_below(&s->rng, n)];
    int turn = ++s->res->turns;
    int seat = g->seat;
    struct move *m = emit_tile(s, MV_PLACE, def);
    m->draw = rng_unit(&s->rng); /* the COMMIT before it has one */
    m->at = pl.at;
    m->rot = (uint8_t)pl.rot;
    if (!game_place(g, def, pl.at, pl.rot, turn))
        abort();
    s->res->held_placed++;
    play_part(s, seat);
    return true;
}

/* At the start of a turn part, before the draw: the engine may offer the
 * seat its held tile. Placed, it is the turn part (true); declined, a
 * PASS and a COMMIT, whose random number draws the tile. */
static bool held_phase(struct sim *s)
{
    if (s->drew || s->offered || !game_abbey_offered(s->g))
        return false;
    s->offered = true;
    if (place_held(s))
        return true;
    emit(s, MV_PASS);
    emit(s, MV_COMMIT);
    return false;
}

/* When the pack is used up: the engine's last round of offers, each a
 * placement or a bare PASS. */
static void last_round(struct sim *s)
{
    while (game_abbey_offered(s->g))
        if (!place_held(s)) {
            emit(s, MV_PASS);
            game_abbey_declined(s->g);
        }
}

int sim_start_tile(const struct rules *r)
{
    for (int i = 0; i < tile_set_count(); i++) {
        const struct tile_set_def *d = tile_set_get(i);
        for (int k = 0; r->set_copies[i] && k < d->n_refs; k++)
            if (tile_group_rank(tile_get(d->refs[k].kind)->group) == 0)
                return d->refs[k].kind;
    }
    return tile_find("BA/RCr");
}

void sim_play_result(const struct rules *r, const char *const names[],
                     uint64_t seed, const struct sim_policy *p,
                     struct game_log *out, struct sim_result *out_res)
{
    struct sim *s = xcalloc(1, sizeof *s);
    memset(out_res, 0, sizeof *out_res);
    game_log_init(out);
    out->rules = *r;
    if (out->rules.opt[OPT_TINY_CITY] != 2)
        out->rules.opt[OPT_TINY_CITY] = 4;
    for (int i = 0; i < r->n_players && i < GAME_MAX_PLAYERS; i++)
        copy_str(out->names[i], sizeof out->names[i], names[i]);
    out->start_tile = sim_start_tile(r);
    out->start_at = (struct pos){ 0, 0 };
    out->start_rot = 0;
    struct start_place starts[LOG_MAX_STARTS];
    int n_starts = game_start_layout(r, starts, LOG_MAX_STARTS);
    if (n_starts > 0) { /* a unit's own start: the City of Carcassonne */
        out->start_tile = starts[0].tile;
        out->start_at = starts[0].at;
        out->start_rot = starts[0].rot;
        for (int i = 1; i < n_starts; i++)
            out->more_starts[out->n_more_starts++] = starts[i];
    } else {
        starts[0] = game_log_start(out, 0);
        n_starts = 1;
    }

    s->g = game_new(&out->rules);
    s->log = out;
    s->p = p;
    s->res = out_res;
    s->rng = seed;
    (void)game_start_tiles(s->g, starts, n_starts);
    shuffle_pack(s);
    s->redraw = -1.0;
    for (int i = 0; i < s->n_pack;) {
        if (held_phase(s))
            continue; /* a turn part without a draw */
        if (s->redraw >= 0) { /* after a discard the generator chooses */
            int want = game_pack_draw(s->g, s->redraw);
            for (int k = i; k < s->n_pack; k++)
                if (s->pack[k] == want) {
                    s->pack[k] = s->pack[i];
                    s->pack[i] = (int16_t)want;
                    break;
                }
        }
        /* a tile of a group held out of the draw (the dragon's, before a
         * volcano) waits for the first that may be drawn */
        int k = i;
        while (k < s->n_pack && !game_drawable(s->g, s->pack[k]))
            k++;
        if (k == s->n_pack)
            break; /* only held tiles are left: the pack is used up */
        int16_t next = s->pack[k];
        s->pack[k] = s->pack[i];
        s->pack[i] = next;
        draw(s, s->pack[i++]);
    }
    last_round(s);
    city_final(s);
    game_final_scoring(s->g);

    memcpy(out_res->score, s->g->score, sizeof out_res->score);
    out_res->state_hash = game_hash(s->g);
    game_free(s->g);
    free(s);
}

void sim_play(const struct rules *r, const char *const names[], uint64_t seed,
              const struct sim_policy *p, struct game_log *out)
{
    struct sim_result res;
    sim_play_result(r, names, seed, p, out, &res);
}
