/* bcb.c - Bridges, Castles & Bazaars in simulated games: a bridge the
 * player builds on the turn's tile before the action (a placement's own
 * bridges are the engine's: game_list_placements() lists them), castles
 * after the action, and the bazaar's auction after a bazaar tile's turn,
 * whose bought tiles the seats then place undrawn. */
#include "sim/exp/units.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/exp/bcb.h"

enum { R_BRIDGE, R_CASTLE, R_RAISE, R_SELL };
enum { T_BRIDGES, T_CASTLES, T_AUCTIONS, T_BIDS };

static const struct sim_rate rates[] = { { "bridge", 0.15 },
                                         { "castle", 0.8 },
                                         { "raise", 0.3 },
                                         { "sell", 0.5 },
                                         { NULL, 0 } };
static const char *const counts[] = { "bridges", "castles", "auctions",
                                      "bids", NULL };

enum { NS = 1 << 0 | 1 << 2, WE = 1 << 1 | 1 << 3 };

/* Before the action: now and then a bridge across the turn's tile. */
static void part_start(struct sim *s, int seat)
{
    struct game *g = s->g;
    char why[120];
    if (g->now.tile < 0 || bcb_bridges_left(g, seat) <= 0 ||
        !sim_chance(s, sim_rate(s, EXP_BCB, R_BRIDGE)))
        return;
    struct pos at = game_tile_pos(g, g->now.tile);
    for (int a = 0; a < 2; a++) {
        unsigned axis = a ? WE : NS;
        if (bcb_check_bridge(g, at, axis, why, sizeof why) != RULE_OK)
            continue;
        struct move *m = sim_emit(s, MV_BRIDGE);
        m->player = (int8_t)seat;
        m->at = at;
        m->feature = FEAT_ROAD;
        m->mask = (uint8_t)axis;
        bcb_bridge(g, at, axis);
        sim_tally(s, EXP_BCB, T_BRIDGES);
        return;
    }
}

/* After the action: the castles the turn's tile allows, asked from the
 * seat on turn round the table (a save names the player on turn). */
static void acted(struct sim *s)
{
    struct game *g = s->g;
    char why[120];
    int n = g->rules.n_players;
    if (g->now.tile < 0 || !g->rules.counts[COUNT_CASTLES])
        return;
    const struct placed *t = &g->tiles[g->now.tile];
    for (int k = 0; k < n; k++) {
        int p = (g->seat + k) % n;
        for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
            if (g->segs[i].kind != FEAT_CITY ||
                bcb_check_castle(g, p, i, why, sizeof why) != RULE_OK ||
                !sim_chance(s, sim_rate(s, EXP_BCB, R_CASTLE)))
                continue;
            struct move *m = sim_emit(s, MV_CASTLE);
            m->player = (int8_t)g->seat;
            m->at = game_tile_pos(g, g->now.tile);
            m->feature = FEAT_CITY;
            m->mask = g->segs[i].mask;
            bcb_castle(g, p, i);
            sim_tally(s, EXP_BCB, T_CASTLES);
        }
    }
}

/* A random number whose supply (its draw and the generator's next
 * ones) holds tiles that all fit somewhere now, if one of a few tried
 * does. */
static double supply_random(struct sim *s, int n)
{
    struct game *g = s->g;
    double r = 0;
    for (int tries = 0; tries < 16; tries++) {
        int defs[GAME_MAX_PLAYERS], k = 0;
        bool fit = true;
        r = sim_random(s);
        for (double x = r; k < n; k++, x = game_redraw_random(x)) {
            defs[k] = game_pack_draw(g, x);
            if (defs[k] < 0)
                break;
            fit &= game_fits_anywhere(g, defs[k]);
            game_discard(g, defs[k]);
        }
        while (k-- > 0)
            if (defs[k] >= 0)
                game_undiscard(g, defs[k]);
        if (fit)
            break;
    }
    return r;
}

/* The supply leaves the simulator's pack too (the last copy of each
 * kind: the tiles before the loop's index are placed ones). */
static void take_from_pack(struct sim *s, int def)
{
    for (int k = s->n_pack - 1; k >= 0; k--)
        if (s->pack[k] == def) {
            for (int j = k; j + 1 < s->n_pack; j++)
                s->pack[j] = s->pack[j + 1];
            s->n_pack--;
            return;
        }
}

/* One say at the auction, by the seat whose it is. */
static void say(struct sim *s, int who)
{
    struct game *g = s->g;
    struct bcb_auction v;
    char why[120];
    struct move *m;
    bcb_bazaar_view(g, &v);
    if (v.deciding) {
        bool sell = sim_chance(s, sim_rate(s, EXP_BCB, R_SELL));
        m = sim_emit(s, sell ? MV_SELL : MV_BUY);
        (void)bcb_bazaar_decide(g, !sell, why, sizeof why);
    } else if (v.choosing || sim_chance(s, sim_rate(s, EXP_BCB, R_RAISE))) {
        int index = v.index;
        for (int k = sim_below(s, v.n); v.choosing; k = (k + 1) % v.n)
            if (!v.sold[k]) {
                index = k;
                break;
            }
        m = sim_emit(s, MV_BID);
        m->index = (int16_t)index;
        m->amount = (int16_t)(v.choosing ? sim_below(s, 3)
                                         : v.price + 1 + sim_below(s, 2));
        (void)bcb_bid(g, m->index, m->amount, why, sizeof why);
        sim_tally(s, EXP_BCB, T_BIDS);
    } else {
        m = sim_emit(s, MV_PASS);
        (void)bcb_bazaar_pass(g, why, sizeof why);
    }
    m->player = (int8_t)who;
}

/* After a bazaar tile's turn: the supply, and the auction. */
static void after(struct sim *s)
{
    struct game *g = s->g;
    struct bcb_auction v;
    bcb_bazaar_view(g, &v);
    if (!v.open)
        return;
    bcb_bazaar_supply(g, supply_random(s, v.n));
    for (int i = 0; i < v.n; i++)
        if (bcb_bazaar_tile(g, i) >= 0)
            take_from_pack(s, bcb_bazaar_tile(g, i));
    int who;
    while ((who = bcb_bazaar_asked(g)) >= 0)
        say(s, who);
    bcb_bazaar_pay(g);
    sim_tally(s, EXP_BCB, T_AUCTIONS);
}

/* A seat with a bought tile places it instead of drawing. */
static bool before_draw(struct sim *s)
{
    struct game *g = s->g;
    int seat = g->seat, def = bcb_bought(g, seat);
    if (def < 0)
        return false;
    double r = bcb_bazaar_draw(g);
    int n = game_list_placements(g, def, s->place, SIM_MAX_PLACEMENTS);
    if (n == 0) { /* no spot after all: it is lost, the seat draws */
        bcb_lose_bought(g, seat);
        return false;
    }
    bcb_take_bought(g, seat);
    if (n > SIM_MAX_PLACEMENTS)
        n = SIM_MAX_PLACEMENTS;
    struct placement pl = s->place[sim_below(s, n)];
    int turn = ++s->res->turns;
    struct move *m = sim_emit_tile(s, MV_PLACE, def);
    m->draw = r;
    m->at = pl.at;
    m->rot = (uint8_t)pl.rot;
    if (!game_place(g, def, pl.at, pl.rot, turn))
        abort();
    sim_play_part(s, seat);
    return true;
}

/* When the pack is used up: the bought tiles still to place. */
static void end(struct sim *s)
{
    while (before_draw(s))
        ;
}

/* ---- forgeries -------------------------------------------------------- */

/* A castle before the turn's COMMIT on a city of the turn's tile that
 * may not become one (open, too big, nobody or two in it...). */
static bool f_castle(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->commit);
    char why[120];
    int seg = -1;
    if (g->now.tile >= 0) {
        const struct placed *t = &g->tiles[g->now.tile];
        for (int i = t->seg0; i < t->seg0 + t->n_seg && seg < 0; i++)
            if (g->segs[i].kind == FEAT_CITY &&
                bcb_check_castle(g, f->seat, i, why, sizeof why) != RULE_OK)
                seg = i;
    }
    struct pos at = seg >= 0 ? game_tile_pos(g, g->now.tile)
                             : (struct pos){ 0, 0 };
    uint8_t mask = seg >= 0 ? g->segs[seg].mask : 0;
    forge_state_end(&st);
    if (seg < 0)
        return false;
    struct move *m = forge_insert(f->out, f->commit);
    m->kind = MV_CASTLE;
    m->player = (int8_t)f->seat;
    m->at = at;
    m->feature = FEAT_CITY;
    m->mask = mask;
    forge_how(f, "a castle of the city at (%d,%d), %s", at.x, at.y, why);
    return true;
}

/* A bridge right after the tile, across an axis of it that may take
 * none (a road or city end, a tile beyond). */
static bool f_bridge(struct forge *f)
{
    struct forge_state st;
    const struct game *g = forge_state_at(&st, f->in, f->place + 1);
    char why[120];
    unsigned axis = 0;
    struct pos at = { 0, 0 };
    if (g->now.tile >= 0) {
        at = game_tile_pos(g, g->now.tile);
        for (int a = 0; a < 2 && !axis; a++)
            if (bcb_check_bridge(g, at, a ? WE : NS, why, sizeof why) !=
                RULE_OK)
                axis = a ? WE : NS;
    }
    forge_state_end(&st);
    if (!axis)
        return false;
    struct move *m = forge_insert(f->out, f->place + 1);
    m->kind = MV_BRIDGE;
    m->player = (int8_t)f->seat;
    m->at = at;
    m->feature = FEAT_ROAD;
    m->mask = (uint8_t)axis;
    forge_how(f, "a bridge %s across (%d,%d): %s",
              axis == NS ? "north-south" : "west-east", at.x, at.y, why);
    return true;
}

/* The auction's selector passes instead of choosing a tile. */
static bool f_bazaar(struct forge *f)
{
    size_t k = f->commit + 1;
    if (k >= f->in->n_moves || f->in->moves[k].kind != MV_BID)
        return false;
    struct move *m = forge_insert(f->out, k);
    m->kind = MV_PASS;
    m->player = f->in->moves[k].player;
    forge_how(f, "the auction's selector passes");
    return true;
}

static const struct forger forgers[] = {
    { RULE_CASTLE_PLACEMENT, f_castle, EXP_BCB, BY_NONE },
    { RULE_BRIDGE_PLACEMENT, f_bridge, EXP_BCB, BY_NONE },
    { RULE_BAZAAR, f_bazaar, EXP_BCB, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_bcb = {
    .rates = rates,
    .counts = counts,
    .part_start = part_start,
    .acted = acted,
    .after = after,
    .before_draw = before_draw,
    .end = end,
    .forgers = forgers,
};
