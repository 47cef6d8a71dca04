/* mage.c - Mage & Witch in simulated and forged games:
 *   - before the turn part's action, when the engine says the turn owes
 *     it (the magic symbol, or the two joined), the mage or the witch,
 *     one of the two at random, onto one of the unfinished roads and
 *     cities it may go to (MV_NEUTRAL); with none left, one of the two
 *     off the board (MV_MAGE_OFF).
 * Forgeries: the move left out of a turn that owes it (MAGE_MOVE), and
 * the move sent onto a field of the turn's tile (MAGE_TARGET). */
#include "core/exp/mage.h"
#include "sim/exp/units.h"

/* one tally: the moves and the figures taken off alike */
enum { T_MOVES };

static const char *const counts[] = { "mage_moves", NULL };

static void part_start(struct sim *s, int seat)
{
    struct game *g = s->g;
    (void)seat;
    enum mage_due due = mage_due(g);
    if (due == MAGE_DUE_NONE)
        return;
    int fig = sim_below(s, 2) ? FIG_WITCH : FIG_MAGE;
    if (due == MAGE_DUE_OFF) {
        sim_emit(s, MV_MAGE_OFF)->neutral = (uint8_t)fig;
        mage_move(g, fig, -1);
        sim_tally(s, EXP_MAGE, T_MOVES);
        return;
    }
    int n = mage_targets(g, s->targets, GAME_MAX_SEGS);
    if (n <= 0)
        return;
    int seg = s->targets[sim_below(s, n < GAME_MAX_SEGS ? n : GAME_MAX_SEGS)];
    const struct seg *sg = &g->segs[seg];
    struct move *m = sim_emit(s, MV_NEUTRAL);
    m->neutral = (uint8_t)fig;
    m->at = game_tile_pos(g, sg->tile);
    m->feature = sg->kind;
    m->mask = sg->mask;
    mage_move(g, fig, seg);
    sim_tally(s, EXP_MAGE, T_MOVES);
}

/* ---- forgeries ---------------------------------------------------------- */

/* The turn's move of the mage or the witch, in f->out, or 0. */
static size_t the_move(const struct forge *f)
{
    for (size_t i = f->place + 1; i < f->commit; i++) {
        const struct move *m = &f->out->moves[i];
        if (m->kind == MV_NEUTRAL &&
            (m->neutral == FIG_MAGE || m->neutral == FIG_WITCH))
            return i;
    }
    return 0;
}

/* A turn that owed the move, without it. */
static bool f_missing(struct forge *f)
{
    size_t i = the_move(f);
    if (!i)
        return false;
    const struct move *m = &f->out->moves[i];
    forge_how(f, "left out %s's move to (%d,%d) after a tile with the magic "
              "symbol", m->neutral == FIG_WITCH ? "the witch" : "the mage",
              m->at.x, m->at.y);
    forge_remove(f->out, i, i + 1);
    f->commit--;
    return true;
}

/* The move sent onto a field of the turn's tile. */
static bool f_target(struct forge *f)
{
    size_t i = the_move(f);
    if (!i)
        return false;
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    int field = -1;
    if (g->now.tile >= 0) {
        const struct placed *pl = &g->tiles[g->now.tile];
        for (int k = pl->seg0; k < pl->seg0 + pl->n_seg && field < 0; k++)
            if (g->segs[k].kind == FEAT_FIELD)
                field = k;
    }
    if (field >= 0) {
        struct move *m = &f->out->moves[i];
        m->at = game_tile_pos(g, g->segs[field].tile);
        m->feature = FEAT_FIELD;
        m->mask = g->segs[field].mask;
        forge_how(f, "moved %s onto a field of the turn's tile at (%d,%d)",
                  m->neutral == FIG_WITCH ? "the witch" : "the mage",
                  m->at.x, m->at.y);
    }
    forge_state_end(&st);
    return field >= 0;
}

static const struct forger forgers[] = {
    { RULE_MAGE_MOVE, f_missing, EXP_MAGE, BY_NONE },
    { RULE_MAGE_TARGET, f_target, EXP_MAGE, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_mage = {
    .counts = counts,
    .part_start = part_start,
    .forgers = forgers,
};
