/* sim.c - random legal games through the engine's API.
 *
 * The simulator asks the engine what is legal (game_list_placements,
 * game_list_deploys, which lists each figure's flights too,
 * game_landings, game_check_action) and only ever picks among those
 * answers, so a game it plays is legal by construction, and the auditor,
 * which replays the same engine, must agree. Tests rely on that. Nothing
 * here knows an expansion's rules: a river tile's placements, a large
 * follower's landings, the phantom's second action, a builder's second
 * tile (the seat the engine keeps on turn) and a barn's corner are the
 * engine's answers like any other, and the moves a unit adds (a tower's
 * floor, the dragon's steps, a wagon's move, ...) its own file in
 * src/sim/exp/ plays from the hooks of struct sim_unit (sim_int.h),
 * called here at fixed points of the turn. */
#include "sim/sim_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* Deployments on the placed tile, and on the tiles around it where a
 * unit lets a figure stand off it (the barn's corner). */
#define SIM_MAX_OPTIONS (2 * TILE_MAX_SEGS * FIG__COUNT)
/* Actions in one turn (the first and those units allow after it). */
#define SIM_MAX_ACTIONS 4

/* Each registered unit u with a sim_unit, in registry order (two loops:
 * leave with return, not break). */
#define EACH_UNIT(u)                                                       \
    for (int u##_id = 0; u##_id < EXP__COUNT; u##_id++)                    \
        for (const struct sim_unit *u = sim_units[u##_id]; u; u = NULL)

/* ---- the units' rates and tallies: slots in registry order ------------ */

/* The slot of unit u's k-th rate (tally): after every row of the units
 * before it. */
static int rate_slot(int u, int k)
{
    int n = 0;
    for (int e = 0; e < u && e < EXP__COUNT; e++)
        for (int i = 0; sim_units[e] && sim_units[e]->rates &&
                        sim_units[e]->rates[i].name; i++)
            n++;
    return n + k;
}

static int tally_slot(int u, int k)
{
    int n = 0;
    for (int e = 0; e < u && e < EXP__COUNT; e++)
        for (int i = 0; sim_units[e] && sim_units[e]->counts &&
                        sim_units[e]->counts[i]; i++)
            n++;
    return n + k;
}

double sim_rate(const struct sim *s, int u, int k)
{
    int slot = rate_slot(u, k);
    return slot < SIM_MAX_RATES ? s->p->unit_rate[slot] : 0.0;
}

void sim_tally(struct sim *s, int u, int k)
{
    int slot = tally_slot(u, k);
    if (slot < SIM_MAX_COUNTS)
        s->res->unit_count[slot]++;
}

double *sim_policy_rate(struct sim_policy *p, const char *name)
{
    int slot = 0;
    EACH_UNIT(u)
        for (int i = 0; u->rates && u->rates[i].name; i++, slot++)
            if (strcmp(u->rates[i].name, name) == 0 && slot < SIM_MAX_RATES)
                return &p->unit_rate[slot];
    return NULL;
}

int sim_result_count(const struct sim_result *r, const char *name)
{
    int slot = 0;
    EACH_UNIT(u)
        for (int i = 0; u->counts && u->counts[i]; i++, slot++)
            if (strcmp(u->counts[i], name) == 0 && slot < SIM_MAX_COUNTS)
                return r->unit_count[slot];
    return 0;
}

struct sim_policy sim_policy_default(void)
{
    struct sim_policy p = { 0.7, 0.6, 0.15, 0.6, { 0 } };
    int slot = 0;
    EACH_UNIT(u)
        for (int i = 0; u->rates && u->rates[i].name; i++, slot++)
            if (slot < SIM_MAX_RATES)
                p.unit_rate[slot] = u->rates[i].def;
    return p;
}

struct sim_policy sim_policy_uniform(double v)
{
    struct sim_policy p = { v, v, v, v, { 0 } };
    for (int i = 0; i < SIM_MAX_RATES; i++)
        p.unit_rate[i] = v;
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

bool sim_chance(struct sim *s, double rate)
{
    return rng_unit(&s->rng) < rate;
}

int sim_below(struct sim *s, int n)
{
    return rng_below(&s->rng, n);
}

double sim_random(struct sim *s)
{
    return rng_unit(&s->rng);
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
struct move *sim_emit(struct sim *s, enum move_kind kind)
{
    struct move *m = game_log_push(s->log);
    m->kind = (uint8_t)kind;
    m->src = s->src;
    if (kind != MV_DISCARD)
        s->src++;
    return m;
}

struct move *sim_emit_tile(struct sim *s, enum move_kind kind, int def)
{
    struct move *m = sim_emit(s, kind);
    m->tile = (int16_t)def;
    copy_str(m->tile_id, sizeof m->tile_id, tile_get(def)->id);
    return m;
}

/* A deploy-like move of meeple mi onto (feature, mask) of the tile at. */
struct move *sim_emit_meeple(struct sim *s, enum move_kind kind, int mi,
                                struct pos at, int feature, uint8_t mask)
{
    const struct meeple *mp = &s->g->meeples[mi];
    struct move *m = sim_emit(s, kind);
    m->at = at;
    m->feature = (uint8_t)feat_logged(feature); /* as logs name it */
    m->mask = mask;
    m->meeple = mp->kind;
    m->meeple_n = mp->n;
    m->meeple_owner = mp->owner;
    return m;
}

struct move *sim_emit_on(struct sim *s, enum move_kind kind, int mi,
                         int seg)
{
    const struct seg *sg = &s->g->segs[seg];
    return sim_emit_meeple(s, kind, mi, game_tile_pos(s->g, sg->tile),
                           sg->kind, sg->mask);
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
    if (s->handed >= 0) { /* a unit used the COMMIT's number up */
        double r = s->handed;
        s->handed = -1.0;
        *used = s->redraw;
        return r;
    }
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

static bool is_flight_option(const struct game *g,
                             const struct deploy_option *o)
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
 * that some roll (1..3) would land and sim_chance(rate) says so; returns
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
    if (n_kinds == 0 || !sim_chance(s, rate))
        return false;
    int weight[FIG__COUNT];
    for (int i = 0; i < n_kinds; i++)
        weight[i] = first_weight(g, seat, kinds[i]);
    int kind = kinds[weighted_pick(s, weight, n_kinds)];
    int mi = game_meeple(g, seat, kind, 0);
    int roll = 1 + rng_below(&s->rng, 3);
    sim_emit_meeple(s, MV_DEPLOY, mi, from, FEAT_FLIER, 0)->roll = roll;
    game_fly(g, kind);
    s->res->flights++;
    s->res->flights_by[kind]++;
    s->res->extra_flights += g->now.actions > 1;
    struct pos target = game_flight_target(from, dir, roll);
    int n = game_landings(g, target, kind, segs, TILE_MAX_SEGS);
    if (n > 0) { /* landing is mandatory; otherwise back to supply */
        int seg = segs[rng_below(&s->rng, n)];
        sim_emit_meeple(s, MV_DEPLOY, mi, target, g->segs[seg].kind,
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
    if (n == 0 || !sim_chance(s, rate))
        return false;
    /* Farmers never come back: weighting them down keeps followers in
     * play for flights and completions, as human players do. */
    int weight[SIM_MAX_OPTIONS];
    for (int i = 0; i < n; i++)
        weight[i] = option_weight(g, seat, &opt[i]);
    int k = weighted_pick(s, weight, n);
    struct option c = opt[k];
    int fig = g->meeples[c.meeple].kind;
    sim_emit_on(s, MV_DEPLOY, c.meeple, c.seg);
    s->res->deploys++;
    s->res->deploys_by[fig]++;
    game_deploy(g, c.meeple, c.seg);
    EACH_UNIT(u)
        if (u->deployed)
            u->deployed(s, fig, c.seg);
    return true;
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
        if (!sim_chance(s, s->p->extra_rate) ||
            (!try_fly(s, seat, &o, s->p->flier_rate) &&
             !try_deploy(s, seat, &o, 1.0))) {
            sim_emit(s, MV_PASS);
            return;
        }
        s->res->extra_actions++;
    }
}

/* The turn's first action: a flight, a unit's action before a
 * deployment (a tower's floor), a deployment, or a unit's other actions
 * (a recall, the princess, the fairy); false when the seat does none. */
static bool first_action(struct sim *s, int seat, const struct offer *o)
{
    if (try_fly(s, seat, o, s->p->flier_rate))
        return true;
    EACH_UNIT(u)
        if (u->first_act && u->first_act(s, seat))
            return true;
    if (try_deploy(s, seat, o, s->p->deploy_rate))
        return true;
    EACH_UNIT(u)
        if (u->act && u->act(s, seat))
            return true;
    return false;
}

/* The turn part on the tile just placed: the action phase, COMMIT, the
 * scoring, then what the units play after it. */
void sim_play_part(struct sim *s, int seat)
{
    struct game *g = s->g;
    struct offer o;
    EACH_UNIT(u)
        if (u->part_start)
            u->part_start(s, seat);
    list_offer(g, seat, &o);
    /* A pass in the action phase ends the turn's actions. */
    if (first_action(s, seat, &o))
        extra_actions(s, seat);
    else
        sim_emit(s, MV_PASS);
    EACH_UNIT(u)
        if (u->acted)
            u->acted(s);
    sim_emit(s, MV_COMMIT);
    game_end_turn(g);
    EACH_UNIT(u) /* the scoring may wait for moves */
        if (u->ended)
            u->ended(s);
    s->res->extra_parts += g->seat == seat && g->rules.n_players > 1;
    s->drew = false;
    EACH_UNIT(u)
        if (u->after)
            u->after(s);
}

/* One drawn tile: a turn, or a discard when it fits nowhere. */
static void draw(struct sim *s, int def)
{
    struct game *g = s->g;
    int n = game_list_placements(g, def, s->place, SIM_MAX_PLACEMENTS);
    double used;
    double r = next_draw(s, def, &used);
    if (n == 0) {
        sim_emit_tile(s, MV_DISCARD, def)->draw = r;
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
    struct move *m = sim_emit_tile(s, MV_PLACE, def);
    m->draw = r;
    m->at = pl.at;
    m->rot = (uint8_t)pl.rot;
    if (!game_place(g, def, pl.at, pl.rot, turn))
        abort(); /* the engine listed it as legal: our invariant */
    sim_play_part(s, seat);
}

/* At the start of a turn part, before the draw: a unit may play a turn
 * part without one (a tile the seat holds); true when it did. */
static bool before_draw(struct sim *s)
{
    if (s->drew)
        return false;
    EACH_UNIT(u)
        if (u->before_draw && u->before_draw(s))
            return true;
    return false;
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
    s->handed = -1.0;
    for (int i = 0; i < s->n_pack;) {
        if (game_pack_left(s->g) <= game_pack_kept(s->g))
            break; /* the rest is kept out of the draw (under hills) */
        if (before_draw(s))
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
    EACH_UNIT(u)
        if (u->end)
            u->end(s);
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
