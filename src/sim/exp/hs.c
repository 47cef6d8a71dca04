/* hs.c - Hills & Sheep in simulated and forged games:
 *   - the shepherd is deployed like any figure (the engine lists it);
 *   - after the turn's action, the flocks are worked out as
 *     JCloisterZone does (the tile's draw number handed to the unit
 *     first), and each choice due is an expansion with chance
 *     flock_expand (a token drawn with a number of our generator), else
 *     the flock comes home.
 * Forgeries: a flock brought home when no shepherd's field was extended;
 * a turn that ends with the choice not made. */
#include "core/exp/hs.h"
#include "core/game_int.h"
#include "sim/exp/units.h"

enum { R_FLOCK_EXPAND };

/* No tallies of its own: the simulator's table of them is full. */
static const struct sim_rate rates[] = { { "flock_expand", 0.6 },
                                         { NULL, 0 } };

/* The number the turn's tile was drawn with, as the log keeps it. */
static double place_draw(const struct game_log *l, size_t end)
{
    for (size_t i = end; i-- > 0;)
        if (l->moves[i].kind == MV_PLACE)
            return l->moves[i].draw;
    return -1.0;
}

static void part_start(struct sim *s, int seat)
{
    (void)seat;
    game_hs_turn_random(s->g, place_draw(s->log, s->log->n_moves));
}

static void acted(struct sim *s)
{
    struct game *g = s->g;
    game_hs_enter(g);
    while (game_hs_pending(g) >= 0) {
        bool grow = sim_chance(s, sim_rate(s, EXP_HS, R_FLOCK_EXPAND));
        double r = sim_random(s);
        struct move *m = sim_emit(s, grow ? MV_FLOCK_EXPAND : MV_FLOCK_SCORE);
        m->draw = r;
        game_hs_flock(g, grow, r);
    }
}

/* A flock brought home after a turn whose tile extended no field of the
 * seat's shepherds. */
static bool f_no_flock(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->commit);
    bool due = false;
    for (size_t i = f->place; i < f->commit; i++)
        due |= f->in->moves[i].kind == MV_FLOCK_EXPAND ||
               f->in->moves[i].kind == MV_FLOCK_SCORE;
    bool ok = !due && g->now.tile >= 0;
    if (ok) {
        struct move *m = forge_insert(f->out, f->commit);
        m->kind = MV_FLOCK_SCORE;
        m->player = -1;
        m->tile = -1;
        m->draw = 0.5;
        forge_how(f, "brought a flock home although the turn's tile "
                  "extended no field of the player's shepherd");
    }
    forge_state_end(&st);
    return ok;
}

/* The choice a turn owed, left out. */
static bool f_no_choice(struct forge *f)
{
    for (size_t i = f->place; i < f->commit; i++) {
        int k = f->in->moves[i].kind;
        if (k != MV_FLOCK_EXPAND && k != MV_FLOCK_SCORE)
            continue;
        forge_remove(f->out, i, i + 1);
        forge_how(f, "left out the flock's choice (%s) the turn owed",
                  k == MV_FLOCK_EXPAND ? "expand" : "bring home");
        return true;
    }
    return false;
}

static const struct forger forgers[] = {
    { RULE_FLOCK, f_no_flock, EXP_HS, BY_NONE },
    { RULE_FLOCK, f_no_choice, EXP_HS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_hs = {
    .rates = rates,
    .part_start = part_start,
    .acted = acted,
    .forgers = forgers,
};
