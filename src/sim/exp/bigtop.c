/* bigtop.c - Under the Big Top in simulated and forged games.
 *  - Play: as the turn's first action a seat may score a complete
 *    pyramid anywhere ("score-acrobats"), or put a small follower onto an
 *    acrobat space on the turn's tile or the 8 around it ("acrobats");
 *    the ringmaster is deployed and flies like any follower (the engine
 *    lists its deployments). When the turn's tile is a circus tile and
 *    the big top already stands, the big top draws its animal token with
 *    the COMMIT's random number, as JCloisterZone does: the simulator
 *    chooses that number and the next tile comes from the generator's
 *    next (struct sim.handed), so the save replays as JCloisterZone
 *    would have played it.
 *  - Forgeries: a pyramid of fewer than 3 figures scored (ACROBATS), a
 *    follower onto an acrobat space two squares away from the turn's
 *    tile (MEEPLE_NOT_ON_PLACED_TILE), a ringmaster onto an acrobat space
 *    (MEEPLE_WRONG_TYPE). */
#include "sim/exp/units.h"

#include <stdio.h>

#include "core/exp/bigtop.h"

enum { RATE_ACROBATS, RATE_SCORE };

static const struct sim_rate rates[] = {
    { "acrobats", 0.25 },
    { "score-acrobats", 0.7 },
    { NULL, 0 },
};

static const char *const counts[] = { "acrobats", "pyramids", NULL };

/* The acrobat space of the tile at p, or -1. */
static int space_at(const struct game *g, struct pos p)
{
    int t = game_tile_at(g, p);
    if (t < 0)
        return -1;
    const struct placed *pl = &g->tiles[t];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == FEAT_ACROBATS)
            return i;
    return -1;
}

/* A complete pyramid the seat may score now, or -1. */
static int pyramid(const struct game *g)
{
    for (int t = 0; t < g->n_tiles; t++) {
        struct pos p = game_tile_pos(g, t);
        int seg = space_at(g, p);
        if (seg >= 0 && game_check_score_acrobats(g, seg, NULL, 0) == RULE_OK)
            return seg;
    }
    return -1;
}

static bool first_act(struct sim *s, int seat)
{
    struct game *g = s->g;
    int u = EXP_BIGTOP, seg = pyramid(g);
    if (seg >= 0 && sim_chance(s, sim_rate(s, u, RATE_SCORE))) {
        const struct seg *sg = &g->segs[seg];
        struct move *m = sim_emit(s, MV_SCORE_ACROBATS);
        m->at = game_tile_pos(g, sg->tile);
        m->feature = FEAT_ACROBATS;
        m->mask = sg->mask;
        game_score_acrobats(g, seg);
        sim_tally(s, u, 1);
        return true;
    }
    int mi = game_meeple(g, seat, FIG_SMALL, 0), n = 0;
    if (mi < 0 || g->now.tile < 0 ||
        !sim_chance(s, sim_rate(s, u, RATE_ACROBATS)))
        return false;
    struct pos c = game_tile_pos(g, g->now.tile);
    for (int k = 0; k < 9; k++) {
        struct pos q = { c.x + k % 3 - 1, c.y + k / 3 - 1 };
        int sp = space_at(g, q);
        if (sp >= 0 && game_check_deploy(g, seat, mi, sp, NULL, 0) == RULE_OK)
            s->targets[n++] = sp;
    }
    if (n == 0)
        return false;
    seg = s->targets[sim_below(s, n)];
    sim_emit_on(s, MV_DEPLOY, mi, seg);
    game_deploy(g, mi, seg);
    sim_tally(s, u, 0);
    return true;
}

/* Before the COMMIT: a big top about to move draws its token with the
 * COMMIT's number, which the simulator chooses now; the next tile is
 * drawn with the generator's next. */
static void acted(struct sim *s)
{
    struct game *g = s->g;
    int t = g->now.tile;
    if (t < 0 || !(g->rules.flags & RF_BIG_TOP) ||
        !(tile_get(g->tiles[t].def)->marks & TILE_MARK(CIRCUS)) ||
        !game_bigtop_at(g, NULL))
        return;
    double r = sim_random(s);
    game_bigtop_random(g, r);
    s->handed = r;
    s->redraw = game_redraw_random(r);
}

/* The pack is used up: the last COMMIT's number, which the big top's last
 * scoring draws with (the one handed on, or a new one). */
static void end(struct sim *s)
{
    double r = s->handed;
    if (r < 0) {
        r = sim_random(s);
        game_bigtop_random(s->g, r);
    }
    s->handed = -1.0;
    s->log->end_draw = r;
}

/* ---- forgeries --------------------------------------------------------- */

/* An acrobat space on the board with 1 or 2 figures, or -1. */
static int partial_pyramid(const struct game *g)
{
    for (int t = 0; t < g->n_tiles; t++) {
        int seg = space_at(g, game_tile_pos(g, t));
        int n = seg >= 0 ? game_feature_meeples(g, seg, NULL) : 0;
        if (n > 0 && n < 3)
            return seg;
    }
    return -1;
}

/* The turn's action replaced by scoring a pyramid that is not complete. */
static bool f_score_partial(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    int seg = partial_pyramid(g);
    bool ok = seg >= 0;
    if (ok) {
        struct pos p = game_tile_pos(g, g->segs[seg].tile);
        int n = game_feature_meeples(g, seg, NULL);
        struct move *m = forge_replace_action(f);
        m->kind = MV_SCORE_ACROBATS;
        m->at = p;
        m->feature = FEAT_ACROBATS;
        m->mask = g->segs[seg].mask;
        forge_how(f, "scored the acrobats at (%d,%d), %d figure%s, no "
                  "complete pyramid", p.x, p.y, n, n == 1 ? "" : "s");
    }
    forge_state_end(&st);
    return ok;
}

/* The turn's action replaced by meeple mi onto acrobat space pick: its
 * square. */
static struct pos deploy_onto(struct forge *f, const struct game *g,
                              int pick, int mi)
{
    struct pos p = game_tile_pos(g, g->segs[pick].tile);
    struct move *m = forge_replace_action(f);
    m->kind = MV_DEPLOY;
    m->at = p;
    m->feature = FEAT_ACROBATS;
    m->mask = g->segs[pick].mask;
    forge_set_meeple(m, g, mi);
    return p;
}

/* The turn's action replaced by a follower onto an acrobat space two
 * squares or more from the turn's tile. */
static bool f_far_acrobats(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0), pick = -1;
    struct pos c = g->now.tile >= 0 ? game_tile_pos(g, g->now.tile)
                                    : (struct pos){ 0, 0 };
    for (int t = 0; t < g->n_tiles && mi >= 0 && pick < 0; t++) {
        struct pos p = game_tile_pos(g, t);
        int seg = space_at(g, p);
        if (seg >= 0 && (p.x < c.x - 1 || p.x > c.x + 1 || p.y < c.y - 1 ||
                         p.y > c.y + 1) &&
            game_feature_meeples(g, seg, NULL) < 3)
            pick = seg;
    }
    if (pick >= 0) {
        struct pos p = deploy_onto(f, g, pick, mi);
        forge_how(f, "deployed a follower on the acrobats at (%d,%d), off "
                  "the turn's tile and its 8 neighbours", p.x, p.y);
    }
    forge_state_end(&st);
    return pick >= 0;
}

/* The turn's action replaced by the ringmaster onto an acrobat space on
 * or beside the turn's tile. */
static bool f_ringmaster_acrobats(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_RINGMASTER, 0), pick = -1;
    if (mi >= 0 && g->now.tile >= 0) {
        struct pos c = game_tile_pos(g, g->now.tile);
        for (int k = 0; k < 9 && pick < 0; k++) {
            int seg = space_at(g, (struct pos){ c.x + k % 3 - 1,
                                                c.y + k / 3 - 1 });
            if (seg >= 0 && game_feature_meeples(g, seg, NULL) < 3)
                pick = seg;
        }
    }
    if (pick >= 0) {
        struct pos p = deploy_onto(f, g, pick, mi);
        forge_how(f, "deployed the ringmaster on the acrobats at (%d,%d)",
                  p.x, p.y);
    }
    forge_state_end(&st);
    return pick >= 0;
}

static const struct forger forgers[] = {
    { RULE_ACROBATS, f_score_partial, EXP_BIGTOP, BY_NONE },
    { RULE_MEEPLE_NOT_ON_PLACED_TILE, f_far_acrobats, EXP_BIGTOP, BY_NONE },
    { RULE_MEEPLE_WRONG_TYPE, f_ringmaster_acrobats, EXP_BIGTOP, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_bigtop = {
    .rates = rates,
    .counts = counts,
    .first_act = first_act,
    .acted = acted,
    .end = end,
    .forgers = forgers,
};
