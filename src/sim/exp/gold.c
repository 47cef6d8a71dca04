/* gold.c - Gold Mines in simulated and forged games:
 *   - right after a gold mine's tile, when two or more tiles lie around
 *     it, the second gold bar on one of them, chosen uniformly (with one
 *     it goes there by itself, as JCloisterZone puts it).
 * Forgery: a gold bar after a tile that has no gold mine waiting. */
#include "core/exp/gold.h"
#include "sim/exp/units.h"

static void part_start(struct sim *s, int seat)
{
    (void)seat;
    struct game *g = s->g;
    struct pos sq[8];
    int n = gold_second_squares(g, sq);
    if (g->now.tile < 0 || n == 0)
        return;
    struct pos at = sq[sim_below(s, n)];
    struct move *m = sim_emit(s, MV_GOLD);
    m->at = at;
    game_gold(g, at);
}

/* A gold bar on the turn's tile, after a tile with no gold mine waiting
 * for its second bar. */
static bool f_no_mine(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    bool ok = g->now.tile >= 0 && !gold_pending(g, NULL);
    if (ok) {
        struct move *m = forge_insert(f->out, f->place + 1);
        m->kind = MV_GOLD;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->at = game_tile_pos(g, g->now.tile);
        forge_how(f, "a gold bar on (%d,%d), where no gold mine waits for "
                  "one", m->at.x, m->at.y);
    }
    forge_state_end(&st);
    return ok;
}

static const struct forger forgers[] = {
    { RULE_GOLD, f_no_mine, EXP_GOLD, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_gold = {
    .part_start = part_start,
    .forgers = forgers,
};
