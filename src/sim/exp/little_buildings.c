/* little_buildings.c - Little Buildings in simulated and forged games:
 *   - instead of the turn's action, with chance build, a building of a
 *     kind the seat has left on the turn's tile.
 * The buildings' points are the engine's. Forgery: a building on another
 * square than the turn's tile. */
#include "core/exp/little_buildings.h"
#include "sim/exp/units.h"

enum { R_BUILD };
enum { T_BUILDINGS };

static const struct sim_rate rates[] = { { "build", 0.3 }, { NULL, 0 } };
static const char *const counts[] = { "buildings", NULL };

static const uint8_t move_of[LB__KINDS] = { MV_LB_SHED, MV_LB_HOUSE,
                                            MV_LB_TOWER };

static bool try_build(struct sim *s, int seat)
{
    struct game *g = s->g;
    int kinds[LB__KINDS], n = 0;
    if (g->now.tile < 0)
        return false;
    struct pos at = game_tile_pos(g, g->now.tile);
    for (int k = 0; k < LB__KINDS; k++)
        if (game_check_building(g, seat, k, at, NULL, 0) == RULE_OK)
            kinds[n++] = k;
    if (n == 0 ||
        !sim_chance(s, sim_rate(s, EXP_LITTLE_BUILDINGS, R_BUILD)))
        return false;
    int k = kinds[sim_below(s, n)];
    struct move *m = sim_emit(s, (enum move_kind)move_of[k]);
    m->at = at;
    game_build(g, seat, k, at);
    sim_tally(s, EXP_LITTLE_BUILDINGS, T_BUILDINGS);
    return true;
}

/* The turn's action: a shed on the square of the turn before's tile. */
static bool f_off_tile(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    bool ok = false;
    if (g->now.tile > 0) {
        struct pos at = game_tile_pos(g, g->now.tile - 1);
        struct move *m = forge_replace_action(f);
        m->kind = MV_LB_SHED;
        m->at = at;
        forge_how(f, "a shed on (%d,%d), not on the turn's tile", at.x,
                  at.y);
        ok = true;
    }
    forge_state_end(&s);
    return ok;
}

static const struct forger forgers[] = {
    { RULE_LITTLE_BUILDING, f_off_tile, EXP_LITTLE_BUILDINGS, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_little_buildings = {
    .rates = rates,
    .counts = counts,
    .first_act = try_build,
    .forgers = forgers,
};
