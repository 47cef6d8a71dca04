/* board_fixture.c - see board_fixture.h. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "board_fixture.h"

static struct rules base_rules(int n_players, const char *base,
                               const char *flier)
{
    struct rules r;
    rules_init(&r);
    int b = tile_set_find(base), f = tile_set_find(flier);
    assert_true(b >= 0 && f >= 0);
    r.set_copies[b] = 1;
    r.set_copies[f] = 1;
    r.n_players = n_players;
    r.figures[FIG_SMALL] = FX_FOLLOWERS;
    r.flags = RF_FARMERS; /* tiny-city scoring 4, the default */
    return r;
}

struct rules fx_rules_c2(int n_players)
{
    return base_rules(n_players, "basic:1", "flier:1");
}

struct rules fx_rules_c3(int n_players)
{
    struct rules r = base_rules(n_players, "basic:2", "flier:2");
    r.figures[FIG_ABBOT] = 1;
    r.flags |= RF_GARDENS;
    return r;
}

void fx_add_set(struct rules *r, const char *set)
{
    int s = tile_set_find(set);
    if (s < 0)
        fail_msg("unknown tile set %s", set);
    r->set_copies[s] = 1;
}

int fx_tile(const char *id)
{
    int t = tile_find(id);
    if (t < 0)
        fail_msg("unknown tile id %s", id);
    return t;
}

struct game *fx_new_from(const struct rules *r, const char *start)
{
    struct game *g = game_new(r);
    assert_true(game_start(g, fx_tile(start), (struct pos){ 0, 0 }, 0));
    return g;
}

struct game *fx_new(const struct rules *r)
{
    return fx_new_from(r, "BA/RCr");
}

int fx_place(struct game *g, const char *id, int x, int y, int rot)
{
    char why[200] = "";
    int def = fx_tile(id);
    struct pos p = { x, y };
    enum rule rule = game_check_place(g, def, p, rot, why, sizeof why);
    if (rule != RULE_OK)
        fail_msg("%s at (%d,%d) R%d: %s (%s)", id, x, y, rot * 90,
                 rule_id(rule), why);
    assert_true(game_place(g, def, p, rot, g->turn + 1));
    return g->n_tiles - 1;
}

int fx_play(struct game *g, const char *id, int x, int y, int rot)
{
    int t = fx_place(g, id, x, y, rot);
    game_end_turn(g);
    return t;
}

int fx_seg(const struct game *g, int x, int y, int kind, uint8_t mask)
{
    int tile = game_tile_at(g, (struct pos){ x, y });
    if (tile < 0)
        fail_msg("no tile at (%d,%d)", x, y);
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if (g->segs[i].kind == kind && (g->segs[i].mask & mask) == mask)
            return i;
    fail_msg("no %s holding mask 0x%x at (%d,%d)", feat_name(kind), mask, x,
             y);
    return -1;
}

int fx_deploy(struct game *g, int player, int kind, int seg)
{
    char why[200] = "";
    int m = game_meeple(g, player, kind, 0);
    enum rule rule = game_check_deploy(g, player, m, seg, why, sizeof why);
    if (rule != RULE_OK)
        fail_msg("deploy on seg %d: %s (%s)", seg, rule_id(rule), why);
    game_deploy(g, m, seg);
    return m;
}

int fx_fly(struct game *g, int kind, int roll, struct pos *out_target,
           int *out, int max)
{
    char why[200] = "";
    int dir = game_flier_dir(g, g->now.tile);
    assert_int_not_equal(dir, NO_FLIER);
    if (game_check_flight(g, kind, why, sizeof why) != RULE_OK)
        fail_msg("flight: %s", why);
    game_fly(g, kind); /* counts the action, uses the machine */
    *out_target = game_flight_target(game_tile_pos(g, g->now.tile), dir,
                                     roll);
    return game_landings(g, *out_target, kind, out, max);
}

int fx_land(struct game *g, int player, int kind, int seg, struct pos target)
{
    char why[200] = "";
    int m = game_meeple(g, player, kind, 0);
    assert_true(m >= 0);
    struct pos at = game_tile_pos(g, g->segs[seg].tile);
    enum rule rule = game_check_landing(g, kind, at, seg, target, why,
                                        sizeof why);
    if (rule != RULE_OK)
        fail_msg("landing on seg %d: %s (%s)", seg, rule_id(rule), why);
    game_land(g, m, seg); /* fx_fly() counted the turn's action */
    return m;
}

bool fx_has(const int *list, int n, int seg)
{
    for (int i = 0; i < n; i++)
        if (list[i] == seg)
            return true;
    return false;
}

int fx_on_board(const struct game *g, int player)
{
    int n = 0;
    for (int i = 0; i < g->n_meeples; i++)
        n += g->meeples[i].owner == player && g->meeples[i].seg >= 0;
    return n;
}

void fx_log_init(struct game_log *l, const struct rules *r)
{
    game_log_init(l);
    l->rules = *r;
    for (int p = 0; p < r->n_players; p++)
        snprintf(l->names[p], sizeof l->names[p], "p%d", p);
    l->start_tile = fx_tile("BA/RCr");
    l->start_at = (struct pos){ 0, 0 };
    l->start_rot = 0;
}

void fx_log_init_layout(struct game_log *l, const struct rules *r)
{
    struct start_place s[LOG_MAX_STARTS];
    int n = game_start_layout(r, s, LOG_MAX_STARTS);
    fx_log_init(l, r);
    for (int i = 0; i < n; i++) {
        if (i == 0) {
            l->start_tile = s[i].tile;
            l->start_at = s[i].at;
            l->start_rot = s[i].rot;
        } else {
            l->more_starts[l->n_more_starts++] = s[i];
        }
    }
}

static void fill_move(struct move *m, const struct fx_step *s)
{
    m->kind = (uint8_t)s->kind;
    m->player = (int8_t)s->player;
    if (s->tile) {
        m->tile = (int16_t)tile_find(s->tile);
        snprintf(m->tile_id, sizeof m->tile_id, "%s", s->tile);
    }
    m->at = (struct pos){ s->x, s->y };
    m->rot = (uint8_t)s->rot;
    m->feature = (uint8_t)s->feat;
    if (s->loc && !loc_parse(s->feat, s->loc, &m->mask))
        fail_msg("bad location %s for a %s", s->loc, feat_name(s->feat));
    m->meeple = (uint8_t)s->meeple;
    m->meeple_n = (uint8_t)s->n;
    m->meeple_owner = (int8_t)s->owner;
    m->roll = s->roll;
    m->neutral = (uint8_t)s->neutral;
}

void fx_log_add(struct game_log *l, const struct fx_step *steps, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t src = (uint32_t)l->n_moves;
        struct move *m = game_log_push(l);
        fill_move(m, &steps[i]);
        m->src = src;
    }
}

void fx_audit(const struct game_log *l, struct report *out)
{
    audit_run(l, NULL, out, NULL);
}

int fx_find_violation(const struct report *r, enum rule rule)
{
    for (size_t i = 0; i < r->n_violations; i++)
        if (r->violations[i].rule == rule)
            return (int)i;
    return -1;
}
