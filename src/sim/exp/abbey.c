/* abbey.c - Abbey & Mayor in simulated and forged games. Mayors, barns
 * and their flights are deployed from the engine's answers; the moves
 * between turns are the unit's own:
 *   - before the draw, when the engine offers the seat the tile it holds
 *     (game_abbey_offered()): its MV_PLACE instead of the draw, a turn
 *     like the others, or MV_PASS + MV_COMMIT (that COMMIT's random
 *     number draws the tile); when the pack is used up, the last round
 *     of offers, each a placement or a bare MV_PASS;
 *   - after a turn's COMMIT, each wagon the engine queues
 *     (game_wagon_next()): an MV_DEPLOY of it, or MV_PASS to leave it in
 *     supply, and an MV_COMMIT when game_wagon_move() says one follows
 *     (after its owner's last move).
 * Forgeries: an abbey off a hole, a wagon's move out of reach, a barn off
 * its corner, a mayor's or a wagon's wrong landing. */
#include "core/exp/abbey.h"
#include "sim/exp/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_ABBEY, R_WAGON };
enum { T_HELD_PLACED, T_HELD_DECLINED, T_WAGON_MOVES, T_WAGON_PASSES };

/* abbey: place the held tile when offered; wagon: move a wagon whose
 * feature scored when it has somewhere to go. */
static const struct sim_rate rates[] = { { "abbey", 0.4 },
                                         { "wagon", 0.6 },
                                         { NULL, 0 } };
static const char *const counts[] = { "held_placed", "held_declined",
                                      "wagon_moves", "wagon_passes", NULL };

/* Does a seat of this game hold tiles of kind def (the abbey)? */
static bool held(const struct game *g, int def)
{
    return forge_never_drawn(def) &&
           game_in_play(g, tile_get(def)->expansion);
}

/* The tile a seat holds instead of drawing (the abbey): a kind of a
 * group that is never drawn, of a unit in play; -1 when there is none. */
static int held_kind(const struct game *g)
{
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (held(g, t))
            return t;
    return -1;
}

/* The seat on turn, offered its held tile, places it (chance abbey_rate)
 * where the engine allows, as a turn part; false when it declines. */
static bool place_held(struct sim *s)
{
    struct game *g = s->g;
    int def = held_kind(g);
    int n = def < 0 ? 0 : game_list_placements(g, def, s->place,
                                               SIM_MAX_PLACEMENTS);
    if (n == 0 || !sim_chance(s, sim_rate(s, EXP_ABBEY, R_ABBEY))) {
        sim_tally(s, EXP_ABBEY, T_HELD_DECLINED);
        return false;
    }
    if (n > SIM_MAX_PLACEMENTS)
        n = SIM_MAX_PLACEMENTS;
    struct placement pl = s->place[sim_below(s, n)];
    int turn = ++s->res->turns;
    int seat = g->seat;
    struct move *m = sim_emit_tile(s, MV_PLACE, def);
    m->draw = sim_random(s); /* the COMMIT before it has one */
    m->at = pl.at;
    m->rot = (uint8_t)pl.rot;
    if (!game_place(g, def, pl.at, pl.rot, turn))
        abort();
    sim_tally(s, EXP_ABBEY, T_HELD_PLACED);
    sim_play_part(s, seat);
    return true;
}

/* At the start of a turn part, before the draw: the engine may offer the
 * seat its held tile. Placed, it is the turn part (true); declined, a
 * PASS and a COMMIT, whose random number draws the tile. */
static bool before_draw(struct sim *s)
{
    if (!game_abbey_offered(s->g))
        return false;
    if (place_held(s))
        return true;
    sim_emit(s, MV_PASS);
    sim_emit(s, MV_COMMIT);
    return false;
}

/* When the pack is used up: the engine's last round of offers, each a
 * placement or a bare PASS. */
static void last_round(struct sim *s)
{
    while (game_abbey_offered(s->g))
        if (!place_held(s)) {
            sim_emit(s, MV_PASS);
            game_abbey_declined(s->g);
        }
}

/* The wagons the turn part's scoring sent back, in the engine's order:
 * each moves (with chance wagon_rate) to a feature the engine allows it,
 * or its owner passes; a COMMIT follows when the engine says so. */
static void move_wagons(struct sim *s)
{
    struct game *g = s->g;
    int w;
    while ((w = game_wagon_next(g)) >= 0) {
        int n = 0, seg = -1;
        for (int i = 0; i < g->n_segs; i++)
            if (game_check_wagon_move(g, w, i, NULL, 0) == RULE_OK)
                s->targets[n++] = i;
        if (n > 0 && sim_chance(s, sim_rate(s, EXP_ABBEY, R_WAGON))) {
            seg = s->targets[sim_below(s, n)];
            sim_emit_on(s, MV_DEPLOY, w, seg);
            sim_tally(s, EXP_ABBEY, T_WAGON_MOVES);
        } else {
            sim_emit(s, MV_PASS);
            sim_tally(s, EXP_ABBEY, T_WAGON_PASSES);
        }
        if (game_wagon_move(g, w, seg))
            sim_emit(s, MV_COMMIT);
    }
}

/* ---- forgeries ---------------------------------------------------------- */

static bool f_barn_placement(struct forge *f)
{
    return forge_deploy_refused(f, RULE_BARN_PLACEMENT, FIG_BARN, true);
}

/* A mayor landing on a road, a wagon on a field: the landing breaks the
 * figure's own rule first (MEEPLE_WRONG_TYPE precedes the FLIER_* ids). */
static bool f_wrong_landing(struct forge *f)
{
    return forge_wrong_landing(f);
}

/* Did the legal game place a held tile (an abbey) anywhere? */
static bool any_held(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_PLACE && forge_never_drawn(l->moves[i].tile))
            return true;
    return false;
}

/* The turn's abbey moved off its hole to a square next to the board that
 * is none (the turn's moves on it follow it); in a game where no abbey
 * was placed, the turn's drawn tile replaced by an abbey on a square
 * that is no hole, the turn's action by a pass. */
static bool f_abbey_placement(struct forge *f)
{
    const struct move *m = &f->in->moves[f->place];
    bool moved = forge_never_drawn(m->tile);
    if (!moved && any_held(f->in))
        return false; /* forge the abbeys the game has */
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    int def = moved ? m->tile : held_kind(g), rot = moved ? m->rot : 0;
    struct pos at = { 0, 0 };
    bool ok = false;
    char why[120] = "";
    /* the logged square first when it is no hole, then the board's edge */
    if (def >= 0 && !moved &&
        game_check_place(g, def, m->at, rot, why, sizeof why) ==
            RULE_ABBEY_PLACEMENT) {
        at = m->at;
        ok = true;
    }
    for (int t = 0; def >= 0 && t < g->n_tiles && !ok; t++)
        for (int side = 0; side < 4 && !ok; side++) {
            struct pos q = pos_step(game_tile_pos(g, t), side);
            if (game_check_place(g, def, q, rot, why, sizeof why) ==
                RULE_ABBEY_PLACEMENT) {
                at = q;
                ok = true;
            }
        }
    forge_state_end(&s);
    if (!ok)
        return false;
    struct move *o = &f->out->moves[f->place];
    if (moved) {
        for (size_t i = f->place + 1; i < f->commit; i++)
            if (f->out->moves[i].at.x == m->at.x &&
                f->out->moves[i].at.y == m->at.y)
                f->out->moves[i].at = at;
        forge_how(f, "moved the abbey from the hole "
                  "(%d,%d) to (%d,%d): %s", m->at.x, m->at.y, at.x, at.y, why);
    } else {
        o->tile = (int16_t)def;
        snprintf(o->tile_id, sizeof o->tile_id, "%s", tile_get(def)->id);
        o->rot = (uint8_t)rot;
        forge_replace_action(f)->kind = MV_PASS;
        forge_how(f, "placed an abbey at (%d,%d) instead "
                  "of %s: %s", at.x, at.y, m->tile_id, why);
    }
    o->at = at;
    return true;
}

/* The first move between turns after this turn's COMMIT, when a wagon
 * the turn sent back waits (it is that wagon's move or pass), becomes a
 * move of the wagon where game_check_wagon_move() refuses it: an
 * unoccupied unfinished road, city or monastery out of its reach if
 * there is one, else an occupied or finished one; the owner's COMMIT
 * follows. */
static bool f_wagon_move(struct forge *f)
{
    size_t at = f->commit + 1;
    if (at >= f->in->n_moves)
        return false;
    struct forge_state s;
    /* the replay's own game: asking it for the next wagon drops those
     * with nowhere to go, as the auditor's next step does */
    struct game *g = (struct game *)forge_state_at(&s, f->in, at);
    int w = game_wagon_next(g), pick = -1, best = 0;
    if (f->in->moves[at].kind != MV_DEPLOY && f->in->moves[at].kind != MV_PASS)
        w = -1;
    char why[120] = "";
    for (int i = 0; w >= 0 && i < g->n_segs && best < 2; i++) {
        char reason[120];
        if (!game_kind_allowed(g, FIG_WAGON, g->segs[i].kind) ||
            game_check_wagon_move(g, w, i, reason, sizeof reason) !=
                RULE_WAGON_MOVE)
            continue;
        int rank = game_feature_meeples(g, i, NULL) == 0 &&
                           !game_feature_complete(g, i)
                       ? 2
                       : 1;
        if (rank > best) {
            best = rank;
            pick = i;
            memcpy(why, reason, sizeof why);
        }
    }
    if (pick >= 0) {
        const struct move *was = &f->in->moves[at];
        bool pass = was->kind == MV_PASS;
        struct move *m = &f->out->moves[at];
        char name[40];
        memset(m, 0, sizeof *m);
        m->kind = MV_DEPLOY;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->src = was->src;
        m->at = game_tile_pos(g, g->segs[pick].tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        forge_set_meeple(m, g, w);
        if (pass && (at + 1 >= f->in->n_moves ||
                     f->in->moves[at + 1].kind != MV_COMMIT))
            forge_insert(f->out, at + 1)->kind = MV_COMMIT;
        seg_format(m->feature, m->mask, name, sizeof name);
        forge_how(f, "%s the wagon to %s at (%d,%d): %s",
                  pass ? "instead of a pass, moved" : "moved", name, m->at.x,
                  m->at.y, why);
    }
    forge_state_end(&s);
    return pick >= 0;
}

/* With mayors and wagons, their wrong landings are tried before the
 * common follower's wrong deployments. */
static const struct forger forgers[] = {
    { RULE_ABBEY_PLACEMENT, f_abbey_placement, EXP_ABBEY, BY_NONE },
    { RULE_MEEPLE_WRONG_TYPE, f_wrong_landing, EXP_ABBEY, BY_PICKY_FLIER },
    { RULE_BARN_PLACEMENT, f_barn_placement, EXP_ABBEY, BY_NONE },
    { RULE_WAGON_MOVE, f_wagon_move, EXP_ABBEY, BY_NONE },
    { RULE_OK, NULL, -1, BY_NONE },
};

const struct sim_unit sim_abbey = {
    .rates = rates,
    .counts = counts,
    .after = move_wagons,
    .before_draw = before_draw,
    .end = last_round,
    .forgers = forgers,
};
