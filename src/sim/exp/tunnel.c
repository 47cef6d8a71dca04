/* tunnel.c - The Tunnel in simulated and forged games:
 *   - before the turn's action, with chance tunnel_before, a token of a
 *     colour the seat holds on an open tunnel end;
 *   - after it, when none went down and the seat could, the offer
 *     JCloisterZone makes: a token with chance tunnel_after, else a
 *     PASS.
 * Forgery: a token on a road end that is no open tunnel. */
#include "core/exp/tunnel.h"
#include "sim/exp/units.h"

enum { R_BEFORE, R_AFTER };
enum { T_TOKENS };

static const struct sim_rate rates[] = { { "tunnel_before", 0.3 },
                                         { "tunnel_after", 0.6 },
                                         { NULL, 0 } };
static const char *const counts[] = { "tunnel_tokens", NULL };

static const uint8_t move_of[TUNNEL__COLOURS] = { MV_TUNNEL_A, MV_TUNNEL_B,
                                                  MV_TUNNEL_C };

/* The open tunnel ends into s->targets; how many. */
static int open_ends(struct sim *s)
{
    const struct game *g = s->g;
    int n = 0;
    for (int i = 0; i < g->n_segs; i++)
        if (game_tunnel_open(g, i))
            s->targets[n++] = i;
    return n;
}

/* A token, if the seat may put one: true when it did. */
static bool try_token(struct sim *s, int seat, double rate, bool offer)
{
    struct game *g = s->g;
    int colours[TUNNEL__COLOURS], nc = 0, n = open_ends(s);
    for (int c = 0; c < TUNNEL__COLOURS && n > 0; c++)
        if (game_check_tunnel(g, seat, c, s->targets[0], NULL, 0) ==
            RULE_OK)
            colours[nc++] = c;
    if (nc == 0)
        return false;
    if (!sim_chance(s, rate)) {
        if (offer) /* the offer after the action, declined */
            sim_emit(s, MV_PASS);
        return false;
    }
    int c = colours[sim_below(s, nc)], seg = s->targets[sim_below(s, n)];
    struct move *m = sim_emit(s, (enum move_kind)move_of[c]);
    m->at = game_tile_pos(g, g->segs[seg].tile);
    m->feature = g->segs[seg].kind;
    m->mask = g->segs[seg].mask;
    game_tunnel(g, seat, c, seg);
    sim_tally(s, EXP_TUNNEL, T_TOKENS);
    return true;
}

static void part_start(struct sim *s, int seat)
{
    if (s->g->now.tile >= 0)
        (void)try_token(s, seat, sim_rate(s, EXP_TUNNEL, R_BEFORE), false);
}

static void acted(struct sim *s)
{
    (void)try_token(s, s->g->seat, sim_rate(s, EXP_TUNNEL, R_AFTER), true);
}

/* The turn's tile's first road end that is no open tunnel, a token on
 * it, before the action. */
static bool f_no_tunnel(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    int seg = -1;
    const struct placed *pl = g->now.tile >= 0 ? &g->tiles[g->now.tile]
                                                : NULL;
    for (int i = pl ? pl->seg0 : 0; pl && i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == FEAT_ROAD && !game_tunnel_open(g, i) &&
            game_tunnels_left(g, f->seat, TUNNEL_A) > 0 && seg < 0)
            seg = i;
    if (seg >= 0) {
        const struct seg *sg = &g->segs[seg];
        struct move *m = forge_insert(f->out, f->place + 1);
        char name[40];
        m->kind = MV_TUNNEL_A;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "a tunnel token on %s at (%d,%d), where no tunnel "
                  "opens", name, m->at.x, m->at.y);
    }
    forge_state_end(&st);
    return seg >= 0;
}

static const struct forger forgers[] = {
    { RULE_TUNNEL, f_no_tunnel, EXP_TUNNEL, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_tunnel = {
    .rates = rates,
    .counts = counts,
    .part_start = part_start,
    .acted = acted,
    .forgers = forgers,
};
