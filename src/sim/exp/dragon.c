/* dragon.c - The Princess & the Dragon in simulated and forged games:
 * the princess sending a knight home (MV_PRINCESS) and the fairy put
 * beside a follower (MV_NEUTRAL) as the turn's action when no deployment
 * is made, the dragon's steps (MV_NEUTRAL each) after the turn's actions,
 * before its COMMIT. Forgeries of each, and of a deployment on the
 * dragon's tile or through the magic portal onto a completed feature. */
#include "core/exp/dragon.h"
#include "sim/exp/units.h"

#include <stdio.h>

enum { T_FAIRY_MOVES, T_PRINCESS_REMOVALS, T_DRAGON_STEPS };

static const char *const counts[] = { "fairy_moves", "princess_removals",
                                      "dragon_steps", NULL };

/* The actions instead of a deployment: the
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
    if (n == 0 || !sim_chance(s, s->p->deploy_rate))
        return false;
    int mi = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_PRINCESS, mi, g->meeples[mi].seg);
    game_princess(g, mi);
    sim_tally(s, EXP_DRAGON, T_PRINCESS_REMOVALS);
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
    if (n == 0 || !sim_chance(s, s->p->recall_rate))
        return false;
    int mi = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_NEUTRAL, mi, g->meeples[mi].seg)->neutral = FIG_FAIRY;
    game_fairy(g, mi);
    sim_tally(s, EXP_DRAGON, T_FAIRY_MOVES);
    return true;
}

static bool act(struct sim *s, int seat)
{
    return try_princess(s) || try_fairy(s, seat);
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
        struct pos to = opt[sim_below(s, n)];
        struct move *m = sim_emit(s, MV_NEUTRAL);
        m->neutral = FIG_DRAGON;
        m->at = to;
        game_dragon_step(g, to);
        sim_tally(s, EXP_DRAGON, T_DRAGON_STEPS);
    }
}

/* ---- forgeries ---------------------------------------------------------- */

/* A dragon step where it may not go: the turn's first step moved two
 * squares on, or, in a turn where the dragon does not move, a step
 * added before the COMMIT. */
static bool f_dragon_move(struct forge *f)
{
    for (size_t i = f->place + 1; i < f->commit; i++) {
        struct move *m = &f->out->moves[i];
        if (m->kind != MV_NEUTRAL || m->neutral != FIG_DRAGON)
            continue;
        m->at.x += 2;
        forge_how(f, "moved the dragon's first step to (%d,%d), two squares "
                  "from where it stood", m->at.x, m->at.y);
        return true;
    }
    struct move *m = forge_insert(f->out, f->commit);
    m->kind = MV_NEUTRAL;
    m->neutral = FIG_DRAGON;
    m->at = f->in->moves[f->place].at;
    f->commit++;
    forge_how(f, "added a dragon step to (%d,%d) in a turn where the dragon "
              "does not move", m->at.x, m->at.y);
    return true;
}

/* The turn's action replaced by the fairy (or the princess) naming a
 * follower of the seat that stands nowhere. */
static bool beside_nothing(struct forge *f, bool princess)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    int tile = g->now.tile;
    if (mi >= 0 && tile >= 0) {
        const struct seg *sg = &g->segs[g->tiles[tile].seg0];
        struct move *m = forge_replace_action(f);
        m->kind = princess ? MV_PRINCESS : MV_NEUTRAL;
        m->neutral = princess ? 0 : FIG_FAIRY;
        m->at = game_tile_pos(g, tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, mi);
        forge_how(f, "%s beside follower %d.small.%d, which is in supply",
                  princess ? "the princess sent home" : "put the fairy",
                  g->meeples[mi].owner, g->meeples[mi].n);
    }
    forge_state_end(&s);
    return mi >= 0 && tile >= 0;
}

static bool f_fairy_placement(struct forge *f)
{
    return beside_nothing(f, false);
}

static bool f_princess(struct forge *f)
{
    return beside_nothing(f, true);
}

/* The turn's action replaced by a follower on a feature of the tile the
 * dragon stands on (f: the placed tile, a volcano; the portal's: another
 * tile), or, with the magic portal, on a completed feature elsewhere. */
static bool deploy_where(struct forge *f, bool dragon)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0), pick = -1;
    int tile = g->now.tile;
    struct pos d;
    bool portal = tile >= 0 &&
                  (tile_get(g->tiles[tile].def)->marks & TILE_MARK(PORTAL));
    bool on = tile >= 0 && game_dragon_at(g, &d) &&
              game_tile_at(g, d) == tile;
    if (mi >= 0 && tile >= 0 && (dragon ? on : portal))
        for (int i = 0; i < g->n_segs && pick < 0; i++) {
            const struct seg *sg = &g->segs[i];
            bool here = sg->tile == tile;
            if ((dragon ? !here : here) ||
                !game_kind_allowed(g, FIG_SMALL, sg->kind) ||
                game_feature_meeples(g, i, NULL) > 0 ||
                (!dragon && !game_feature_complete(g, i)))
                continue;
            pick = i;
        }
    if (pick >= 0) {
        const struct seg *sg = &g->segs[pick];
        char name[40];
        struct move *m = forge_replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        forge_set_meeple(m, g, mi);
        seg_format(sg->kind, sg->mask, name, sizeof name);
        forge_how(f, "deployed a follower on %s at (%d,%d), %s", name, m->at.x,
                  m->at.y, dragon ? "where the dragon stands"
                                : "completed, through the magic portal");
    }
    forge_state_end(&s);
    return pick >= 0;
}

static bool f_dragon_tile(struct forge *f)
{
    return deploy_where(f, true);
}

static bool f_portal(struct forge *f)
{
    return deploy_where(f, false);
}

static const struct forger forgers[] = {
    { RULE_DRAGON_TILE, f_dragon_tile, EXP_DRAGON, BY_NONE },
    { RULE_DRAGON_MOVE, f_dragon_move, EXP_DRAGON, BY_NONE },
    { RULE_FAIRY_PLACEMENT, f_fairy_placement, EXP_DRAGON, BY_NONE },
    { RULE_PRINCESS, f_princess, EXP_DRAGON, BY_NONE },
    { RULE_PORTAL, f_portal, EXP_DRAGON, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_dragon = {
    .counts = counts,
    .act = act,
    .acted = move_dragon,
    .forgers = forgers,
};
