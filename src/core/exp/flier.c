/* flier.c - The Flier as a unit: the flying machine and the flights.
 * After placing a tile with a flying machine a player may, instead of an
 * ordinary deployment, put a figure on the machine: it flies the die's
 * roll (1..3) along the arrow (turned with the tile) and must land on an
 * incomplete feature of the tile there that a flier may land on and the
 * figure may occupy (never a field, never a flying machine, occupied or
 * not), or goes back to the supply when there is none. A feature the
 * turn's tile completed is already complete. Tiles: flier.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/game_int.h"

static const int dx8[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int dy8[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };

const struct feature_class feature_class_FLIER = {
    .name = "flier", .jcz = "FlyingMachine", .done = DONE_NEVER,
    .on_board = true,
};

int game_flier_dir(const struct game *g, int tile)
{
    return tile < 0 ? NO_FLIER : g->tiles[tile].flier_dir;
}

struct pos game_flight_target(struct pos from, int dir, int roll)
{
    struct pos t = { from.x + roll * dx8[dir & 7], from.y + roll * dy8[dir & 7] };
    return t;
}

enum rule game_check_flight(const struct game *g, int fig, char *why,
                            size_t why_len)
{
    enum rule rule = game_check_action(g, fig, why, why_len);
    const struct figure_class *f = figure_class(fig);
    if (rule != RULE_OK)
        return rule;
    if (game_flier_dir(g, g->now.tile) == NO_FLIER) {
        snprintf(why, why_len, "this turn's tile has no flying machine");
        return RULE_FLIER_NO_MACHINE;
    }
    if (g->now.flier_used) {
        snprintf(why, why_len, "the flying machine was already used this "
                 "turn");
        return RULE_FLIER_USED;
    }
    if (!f || !f->flies) {
        snprintf(why, why_len, "%s cannot fly", f ? f->names : "that");
        return RULE_MEEPLE_WRONG_TYPE;
    }
    FOR_UNITS(g, u, check_flight) {
        int r = u->check_flight(g, fig, why, why_len);
        if (r != RULE_OK)
            return (enum rule)r;
    }
    return RULE_OK;
}

void game_fly(struct game *g, int fig)
{
    game_act(g, fig);
    g->now.flier_used = true;
}

/* May a flier land on a feature of class c under the game's rules (its
 * class's, or the rule variant it names)? */
static bool class_landable(const struct game *g,
                           const struct feature_class *c)
{
    return c->landable ||
           (c->land_option && g->rules.opt[c->land_option - 1] != 0);
}

static bool landable(const struct game *g, int fig, int seg)
{
    int f = g->segs[seg].kind;
    return class_landable(g, feature_class(f)) &&
           game_kind_allowed(g, fig, f) &&
           !game_feature_complete(g, seg) &&
           game_check_stand(g, fig, seg, NULL, 0) == RULE_OK;
}

int game_landings(const struct game *g, struct pos target, int fig, int *out,
                  int max)
{
    int tile = game_tile_at(g, target), n = 0;
    if (tile < 0)
        return 0;
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        if (!landable(g, fig, i))
            continue;
        if (n < max)
            out[n] = i;
        n++;
    }
    return n;
}

void game_flight_options(const struct game *g, int tile, int fig,
                         struct flight_options *out)
{
    memset(out, 0, sizeof *out);
    int dir = game_flier_dir(g, tile);
    if (dir == NO_FLIER)
        return;
    struct pos from = game_tile_pos(g, tile);
    for (int roll = 1; roll <= 3; roll++) {
        out->target[roll - 1] = game_flight_target(from, dir, roll);
        out->n[roll - 1] = game_landings(g, out->target[roll - 1], fig,
                                         out->seg[roll - 1], TILE_MAX_SEGS);
    }
}

enum rule game_check_landing(const struct game *g, int fig, struct pos at,
                             int seg, struct pos target, char *why,
                             size_t why_len)
{
    int f = seg >= 0 ? g->segs[seg].kind : FEAT_NONE;
    const struct feature_class *c = feature_class(f);
    const struct figure_class *k = figure_class(fig);
    /* The City of Carcassonne itself (its quarters, its inner tiles) is
     * no place to land; the roads, cities and fields on its outer sides
     * lie outside it. */
    int tile = game_tile_at(g, at);
    if (f == FEAT_QUARTER ||
        (seg < 0 && tile >= 0 &&
         tile_get(g->tiles[tile].def)->group == TG_CITY &&
         !g->tiles[tile].n_seg)) {
        snprintf(why, why_len, "a flier never lands in the City of "
                 "Carcassonne, only on features outside it");
        return RULE_FLIER_INTO_CITY;
    }
    if (seg >= 0 && c->claimable && !figure_stands_on(fig, f)) {
        snprintf(why, why_len, "%s %s may not land on a %s",
                 k->name[0] == 'a' ? "an" : "a", k->name, c->name);
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (at.x != target.x || at.y != target.y) {
        snprintf(why, why_len, "the landing is at (%d,%d), not on the target",
                 at.x, at.y);
        return RULE_FLIER_WRONG_TARGET;
    }
    if (game_tile_at(g, at) < 0) {
        snprintf(why, why_len, "no tile lies at (%d,%d)", at.x, at.y);
        return RULE_FLIER_NO_TILE;
    }
    if (c->claimable && !class_landable(g, c)) {
        snprintf(why, why_len, "a flier never lands on a %s", c->name);
        return c->no_landing ? (enum rule)c->no_landing : RULE_FLIER_FIELD;
    }
    if (!c->claimable) {
        snprintf(why, why_len, "%s",
                 f == FEAT_FLIER ? "a flier never lands on a flying machine"
                                 : "the target tile has no such feature");
        return RULE_FLIER_BAD_FEATURE;
    }
    if (game_feature_complete(g, seg)) {
        snprintf(why, why_len, "the %s is already completed", c->name);
        return RULE_FLIER_COMPLETED;
    }
    return game_check_stand(g, fig, seg, why, why_len);
}

const struct expansion expansion_flier = {
    .id = "flier",
    .name = "The Flier",
};
