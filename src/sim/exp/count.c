/* count.c - The Count of Carcassonne in simulated and forged games:
 *   - after a turn's COMMIT, before it scores, each seat the engine asks
 *     (game_city_held_seat()) takes a follower out of the City onto what
 *     the turn completed (MV_DEPLOY, and once the scoring is done an
 *     MV_COMMIT) or passes (MV_PASS);
 *   - after the scoring, the seat offered the City (game_city_offer())
 *     sends a follower into a quarter (MV_DEPLOY) and moves the count
 *     (MV_NEUTRAL) or leaves it (MV_PASS), or declines (MV_PASS);
 *   - after the last turn, seat by seat, followers leave the City or
 *     their owners pass.
 * Forgeries: a follower sent into the City, and the count moved, without
 * an offer. */
#include "core/exp/count.h"
#include "sim/exp/units.h"

#include <stdio.h>

enum { R_CITY };
enum { T_CITY_DEPLOYS, T_COUNT_MOVES, T_CITY_LEAVES };

/* city: send a follower into the City when offered, move the count, take
 * a follower out when it may leave (0: never). */
static const struct sim_rate rates[] = { { "city", 0.6 }, { NULL, 0 } };
static const char *const counts[] = { "city_deploys", "count_moves",
                                      "city_leaves", NULL };

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
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_COUNT, R_CITY)))
        return false;
    int t = s->targets[sim_below(s, n)];
    int m = t / GAME_MAX_SEGS, seg = t % GAME_MAX_SEGS;
    const struct seg *sg = &s->g->segs[seg];
    sim_emit_meeple(s, MV_DEPLOY, m, game_tile_pos(s->g, sg->tile), sg->kind,
                    sg->mask);
    game_quarter_leave(s->g, m, seg);
    sim_tally(s, EXP_COUNT, T_CITY_LEAVES);
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
        sim_emit(s, MV_PASS);
        game_quarter_leave(s->g, -1, -1);
    }
    if (moved)
        sim_emit(s, MV_COMMIT);
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
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_COUNT, R_CITY))) {
        sim_emit(s, MV_PASS);
        game_quarter_deploy(g, -1, -1);
        return;
    }
    int t = s->targets[sim_below(s, n)];
    int m = t / GAME_MAX_SEGS, seg = t % GAME_MAX_SEGS;
    const struct seg *sg = &g->segs[seg];
    sim_emit_meeple(s, MV_DEPLOY, m, game_tile_pos(g, sg->tile), sg->kind,
                    sg->mask);
    game_quarter_deploy(g, m, seg);
    sim_tally(s, EXP_COUNT, T_CITY_DEPLOYS);
    n = 0;
    for (int i = 0; i < g->n_segs; i++)
        if (g->segs[i].kind == FEAT_QUARTER &&
            game_check_count_move(g, seat, i, NULL, 0) == RULE_OK)
            s->targets[n++] = i;
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_COUNT, R_CITY))) {
        sim_emit(s, MV_PASS);
        game_count_move(g, -1);
        return;
    }
    seg = s->targets[sim_below(s, n)];
    struct move *mv = sim_emit(s, MV_NEUTRAL);
    mv->neutral = FIG_COUNT;
    mv->at = game_tile_pos(g, g->segs[seg].tile);
    mv->feature = FEAT_QUARTER;
    mv->mask = g->segs[seg].mask;
    game_count_move(g, seg);
    sim_tally(s, EXP_COUNT, T_COUNT_MOVES);
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
                sim_emit(s, MV_PASS);
            passed[p] = true;
            left--;
        }
    }
}

/* ---- forgeries ---------------------------------------------------------- */

/* Between this turn's COMMIT and the next tile, where the log has
 * nothing (no City offer, no wagon, no scoring held): the state there,
 * and a quarter other than the count's (its segment), or -1. */
static int quiet_quarter(struct forge *f, struct forge_state *s,
                         const struct game **out)
{
    size_t at = f->commit + 1;
    *out = NULL;
    if (at >= f->in->n_moves || f->in->moves[at].kind != MV_PLACE)
        return -1;
    const struct game *g = forge_state_at(s, f->in, at);
    *out = g;
    if (g->held || game_city_offer(g) >= 0 ||
        game_city_count_mover(g) >= 0 || game_count_seg(g) < 0)
        return -1;
    for (int i = 0; i < g->n_segs; i++)
        if (g->segs[i].kind == FEAT_QUARTER && i != game_count_seg(g))
            return i;
    return -1;
}

/* A follower of the player on turn sent into a quarter after the turn,
 * with no offer (nobody else scored, or that player did). */
static bool f_quarter_deploy(struct forge *f)
{
    struct forge_state s;
    const struct game *g;
    int q = quiet_quarter(f, &s, &g);
    int mi = q >= 0 ? game_meeple(g, f->seat, FIG_SMALL, 0) : -1;
    if (mi >= 0) {
        struct move *m = forge_insert(f->out, f->commit + 1);
        char name[40];
        m->kind = MV_DEPLOY;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->at = game_tile_pos(g, g->segs[q].tile);
        m->feature = FEAT_QUARTER;
        m->mask = g->segs[q].mask;
        forge_set_meeple(m, g, mi);
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "after the turn, a follower sent into the City (%s) "
                  "without an offer", name);
    }
    if (g)
        forge_state_end(&s);
    return mi >= 0;
}

/* The count moved after the turn, with no follower sent into the City. */
static bool f_count_move(struct forge *f)
{
    struct forge_state s;
    const struct game *g;
    int q = quiet_quarter(f, &s, &g);
    if (q >= 0) {
        struct move *m = forge_insert(f->out, f->commit + 1);
        char name[40];
        m->kind = MV_NEUTRAL;
        m->neutral = FIG_COUNT;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->meeple_owner = -1;
        m->at = game_tile_pos(g, g->segs[q].tile);
        m->feature = FEAT_QUARTER;
        m->mask = g->segs[q].mask;
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "after the turn, the count moved to %s without a "
                  "follower sent into the City", name);
    }
    if (g)
        forge_state_end(&s);
    return q >= 0;
}

static const struct forger forgers[] = {
    { RULE_QUARTER_DEPLOY, f_quarter_deploy, EXP_COUNT, BY_NONE },
    { RULE_COUNT_MOVE, f_count_move, EXP_COUNT, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_count = {
    .rates = rates,
    .counts = counts,
    .ended = city_held,
    .after = city_offer,
    .end = city_final,
    .forgers = forgers,
};
