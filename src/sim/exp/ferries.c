/* ferries.c - The Ferries in simulated and forged games:
 *   - after the turn's action, the ferry of a lake tile placed, on two of
 *     its road ends drawn at random;
 *   - then, while a road of the turn's tile reaches a ferry that may
 *     move, the offer JCloisterZone makes: a move drawn among them with
 *     chance ferry_move, else a PASS.
 * Forgeries: a lake tile's turn without its ferry; a ferry moved that no
 * road of the turn's tile reaches. */
#include "core/exp/ferries.h"
#include "sim/exp/units.h"

enum { R_MOVE };

static const struct sim_rate rates[] = { { "ferry_move", 0.5 },
                                         { NULL, 0 } };

enum { MAX_OPTIONS = 64 };

static void emit(struct sim *s, const struct ferry_place *fp)
{
    struct move *m = sim_emit(s, MV_FERRY);
    m->at = fp->at;
    m->feature = FEAT_ROAD;
    m->mask = fp->mask;
    game_ferry(s->g, fp->at, fp->mask);
}

static void acted(struct sim *s)
{
    struct ferry_place opts[MAX_OPTIONS];
    if (s->g->now.tile < 0)
        return;
    if (game_ferry_due(s->g)) {
        int n = game_ferry_options(s->g, opts, MAX_OPTIONS);
        if (n > 0) {
            emit(s, &opts[sim_below(s, n)]);
        }
    }
    for (;;) {
        int n = game_ferry_options(s->g, opts, MAX_OPTIONS);
        if (n == 0)
            return;
        if (!sim_chance(s, sim_rate(s, EXP_FERRIES, R_MOVE))) {
            sim_emit(s, MV_PASS); /* the offer declined */
            return;
        }
        emit(s, &opts[sim_below(s, n)]);
    }
}

/* The index of the turn's first ferry in f->in, or f->commit. */
static size_t first_ferry(const struct forge *f)
{
    for (size_t i = f->place + 1; i < f->commit; i++)
        if (f->in->moves[i].kind == MV_FERRY)
            return i;
    return f->commit;
}

/* A lake tile's ferry left out (with what followed it in the turn). */
static bool f_no_ferry(struct forge *f)
{
    struct forge_state st;
    size_t k = first_ferry(f);
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    bool due = k < f->commit && game_ferry_due(g);
    forge_state_end(&st);
    if (!due)
        return false;
    forge_remove(f->out, k, f->commit);
    forge_how(f, "the lake tile's ferry left out");
    return true;
}

/* A ferry moved, last in the turn, that no road of the turn's tile
 * reaches. */
static bool f_far_ferry(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->commit);
    bool done = false;
    for (int t = 0; t < g->n_tiles && !done; t++) {
        struct pos at = game_tile_pos(g, t);
        uint8_t now = game_ferry_at(g, at);
        if (!now || t == g->now.tile || game_ferry_due(g) ||
            game_ferry_movable(g, at))
            continue;
        for (int i = 0; i < 4 && !done; i++)
            for (int j = i + 1; j < 4 && !done; j++) {
                uint8_t mask = (uint8_t)(1u << i | 1u << j);
                if (mask == now ||
                    (mask & game_lake_ends(g, at)) != mask ||
                    game_check_ferry(g, at, mask, NULL, 0) != RULE_FERRY)
                    continue;
                struct move *m = forge_insert(f->out, f->commit);
                m->kind = MV_FERRY;
                m->player = -1;
                m->tile = -1;
                m->draw = -1;
                m->at = at;
                m->feature = FEAT_ROAD;
                m->mask = mask;
                forge_how(f, "the ferry at (%d,%d) moved, which no road of "
                          "the turn's tile reaches", at.x, at.y);
                done = true;
            }
    }
    forge_state_end(&st);
    return done;
}

static const struct forger forgers[] = {
    { RULE_FERRY, f_far_ferry, EXP_FERRIES, BY_NONE },
    { RULE_FERRY, f_no_ferry, EXP_FERRIES, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_ferries = {
    .rates = rates,
    .acted = acted,
    .forgers = forgers,
};
