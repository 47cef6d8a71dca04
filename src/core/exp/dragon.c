/* dragon.c - The Princess & the Dragon as a unit, as JCloisterZone plays
 * it.
 *
 * The dragon comes onto the board with the first volcano placed (and to
 * every later volcano); until then the tiles with the dragon's symbol
 * (group dragon) stay out of the draw. When a tile with the symbol is
 * placed and the dragon is on the board, after the turn's action and
 * before its end the players, from the one on turn in seat order, move it
 * one square each, six squares in all, never back onto a square it
 * visited in this move nor onto the fairy's; it stops early when it has
 * no square to go to. Every figure on a square it enters goes back to
 * its owner's supply (a barn stays). No figure is deployed or lands on
 * the dragon's square.
 *
 * The fairy: instead of deploying, a player puts it beside one of their
 * followers on the board. At the start of that player's turn the
 * follower still beside it scores 1 (fairy.turn); when that follower's
 * feature scores, in the game or at its end, its owner scores 3 more
 * (fairy.completed), whether the follower won the feature or not. The
 * fairy stays where it was put when its follower leaves.
 *
 * The princess: instead of deploying, the player who places a city tile
 * with the princess may send one knight of the city she joins back to
 * its owner's supply. The magic portal: instead of deploying on it, the
 * player who places a portal tile may deploy a follower on any
 * unoccupied, unfinished feature of the board. Tiles: dragon.tiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/dragon.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/move.h"
#include "core/replay.h"

#define DRAGON_STEPS 6

const struct figure_class figure_class_DRAGON = {
    .jcz = "dragon", .name = "dragon", .names = "dragons",
};

const struct figure_class figure_class_FAIRY = {
    .jcz = "fairy", .name = "fairy", .names = "fairies",
};

/* "fairy beside Ada's follower: 1 at the start of Ada's turn 8". The
 * point of a turn's start is filed with the turn before (JCloisterZone
 * counts it there, and so do the report's turn numbers), so the
 * sentence says which turn it really began. */
static int explain_fairy(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len)
{
    (void)refs;
    int p = ev->players ? __builtin_ctz(ev->players) : 0;
    const char *who = p < log->rules.n_players ? log->names[p] : "?";
    if (ev->expr == EXPR_TURN)
        return snprintf(out, len, "fairy beside %s's follower: %d at the "
                        "start of %s's turn %d", who, ev->points, who,
                        ev->turn + 1);
    return snprintf(out, len, "fairy beside %s's follower: %d as its "
                    "feature scored", who, ev->points);
}

/* The fairy's points: no board feature of their own. */
const struct feature_class feature_class_FAIRY = {
    .name = "fairy", .explain = explain_fairy,
};

struct dragon {
    bool on_board;       /* the dragon stands at (x, y) */
    bool moving;         /* it takes its steps this turn */
    bool fairy_on;       /* the fairy stands beside meeple fairy_m */
    bool portal_used;    /* a figure went through the portal this turn */
    uint8_t steps;       /* steps taken in this move */
    int16_t x, y;
    int16_t vx[DRAGON_STEPS + 1], vy[DRAGON_STEPS + 1]; /* visited */
    int16_t fairy_m, fairy_seg, fx, fy;
};
UNIT_STATE_FITS(struct dragon);

static struct dragon *state(struct game *g)
{
    return UNIT_STATE(g, EXP_DRAGON, struct dragon);
}

static const struct dragon *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_DRAGON, const struct dragon);
}

static bool same(struct pos a, int x, int y)
{
    return a.x == x && a.y == y;
}

static struct pos seg_pos(const struct game *g, int seg)
{
    return game_tile_pos(g, g->segs[seg].tile);
}

static void start(struct game *g)
{
    struct dragon *d = state(g);
    memset(d, 0, sizeof *d);
    d->fairy_m = d->fairy_seg = -1;
    game_hold_group(g, TG_DRAGON, true);
}

/* An event of the fairy for seat p. */
static void fairy_event(struct game *g, int p, int turn, int expr,
                        int points)
{
    const struct dragon *d = cstate(g);
    struct score_event *ev = game_new_event(g);
    ev->turn = turn;
    ev->feature = FEAT_FAIRY;
    ev->players = (uint8_t)(1u << p);
    ev->expr = (uint8_t)expr;
    ev->points = points;
    ev->seg = (uint16_t)(d->fairy_seg >= 0 ? d->fairy_seg : 0);
    ev->completed = expr == EXPR_COMPLETED;
    score_add_item(ev, SI_FAIRY, -1, points);
    g->score[p] += points;
}

/* Is the fairy's follower still beside it? Once it has left, the fairy
 * stands there alone: the same follower back on that spot is not beside
 * it (JCloisterZone forgets which meeple it was), so the fairy lets go
 * of it the first time it is seen gone. */
static bool fairy_follower_there(struct game *g)
{
    struct dragon *d = state(g);
    if (d->fairy_on && d->fairy_m >= 0 &&
        g->meeples[d->fairy_m].seg != d->fairy_seg)
        d->fairy_m = -1;
    return d->fairy_on && d->fairy_m >= 0;
}

static void placed(struct game *g, int tile)
{
    struct dragon *d = state(g);
    const struct tile_def *t = tile_get(g->tiles[tile].def);
    bool beside = fairy_follower_there(g);
    /* the start of the turn, which JCloisterZone counts with the last (a
     * builder's second tile is no new turn: its part goes straight to the
     * tile) */
    if (g->turn > 0 && g->now.tile == tile && beside && g->part == 1 &&
        g->meeples[d->fairy_m].owner == g->seat)
        fairy_event(g, g->seat, g->turn - 1, EXPR_TURN, 1);
    struct pos p = game_tile_pos(g, tile);
    d->portal_used = false;
    if (t->marks & TILE_MARK(VOLCANO)) {
        d->on_board = true;
        d->x = (int16_t)p.x;
        d->y = (int16_t)p.y;
        game_hold_group(g, TG_DRAGON, false);
    } else if ((t->marks & TILE_MARK(DRAGON)) && d->on_board &&
               g->turn > 0) {
        d->moving = true;
        d->steps = 0;
        d->vx[0] = d->x;
        d->vy[0] = d->y;
    }
}

/* The turn ends: the dragon's move with it, whatever steps it had left
 * (the auditor reports those it still had somewhere to go). */
static void turn_scoring(struct game *g)
{
    state(g)->moving = false;
}

static int check_stand(const struct game *g, int fig, int seg, char *why,
                       size_t why_len)
{
    const struct dragon *d = cstate(g);
    (void)fig;
    if (d->on_board && same(seg_pos(g, seg), d->x, d->y)) {
        snprintf(why, why_len, "the dragon stands on (%d,%d)", d->x, d->y);
        return RULE_DRAGON_TILE;
    }
    return RULE_OK;
}

/* The magic portal: a follower off the turn's tile when that tile has a
 * portal; everything else is the engine's. */
static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    int fig = g->meeples[m].kind;
    const struct seg *s = &g->segs[seg];
    (void)player;
    if (g->now.tile < 0 || s->tile == g->now.tile)
        return -1;
    const struct tile_def *t = tile_get(g->tiles[g->now.tile].def);
    if (!(t->marks & TILE_MARK(PORTAL)) ||
        !(g->rules.flags & RF_PORTAL))
        return -1;
    if (!figure_class(fig)->follower) {
        snprintf(why, why_len, "only a follower goes through the magic "
                 "portal, not a %s", figure_class(fig)->name);
        return RULE_PORTAL;
    }
    if (cstate(g)->portal_used) {
        snprintf(why, why_len, "the magic portal serves one figure a turn");
        return RULE_PORTAL;
    }
    if (game_feature_meeples(g, seg, NULL) > 0) {
        snprintf(why, why_len, "the %s already holds a meeple",
                 feat_name(s->kind));
        return RULE_MEEPLE_FEATURE_OCCUPIED;
    }
    if (!game_kind_allowed(g, fig, s->kind)) {
        snprintf(why, why_len, "a %s may not stand on a %s",
                 figure_class(fig)->name, feat_name(s->kind));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (game_feature_complete(g, seg)) {
        snprintf(why, why_len, "the magic portal leads to unfinished "
                 "features only; this %s is completed", feat_name(s->kind));
        return RULE_PORTAL;
    }
    int rule = game_check_stand(g, fig, seg, why, why_len);
    if (rule != RULE_OK)
        return rule;
    return game_check_action(g, fig, why, why_len);
}

/* A figure deployed off the turn's tile went through the portal. */
static void deployed(struct game *g, int m)
{
    int seg = g->meeples[m].seg;
    if (seg >= 0 && g->now.tile >= 0 && g->segs[seg].tile != g->now.tile &&
        (tile_get(g->tiles[g->now.tile].def)->marks & TILE_MARK(PORTAL)))
        state(g)->portal_used = true;
}

static void scored(struct game *g, int root, int turn, const int *roots)
{
    const struct dragon *d = cstate(g);
    if (!fairy_follower_there(g) || roots[d->fairy_m] != root)
        return;
    fairy_event(g, g->meeples[d->fairy_m].owner, turn, EXPR_COMPLETED, 3);
}

/* ---- the dragon's move ------------------------------------------------ */

bool game_dragon_at(const struct game *g, struct pos *at)
{
    const struct dragon *d = cstate(g);
    if (!game_in_play(g, EXP_DRAGON) || !d->on_board)
        return false;
    if (at)
        *at = (struct pos){ d->x, d->y };
    return true;
}

int game_dragon_options(const struct game *g, struct pos out[4])
{
    const struct dragon *d = cstate(g);
    int n = 0;
    if (!game_in_play(g, EXP_DRAGON) || !d->on_board)
        return 0;
    for (int side = 0; side < 4; side++) {
        struct pos q = pos_step((struct pos){ d->x, d->y }, side);
        bool seen = false;
        for (int i = 0; d->moving && i <= d->steps; i++)
            seen |= same(q, d->vx[i], d->vy[i]);
        if (seen || game_tile_at(g, q) < 0 ||
            (d->fairy_on && same(q, d->fx, d->fy)))
            continue;
        out[n++] = q;
    }
    return n;
}

int game_dragon_steps(const struct game *g)
{
    const struct dragon *d = cstate(g);
    struct pos opt[4];
    if (!game_in_play(g, EXP_DRAGON) || !d->moving ||
        game_dragon_options(g, opt) == 0)
        return 0;
    return DRAGON_STEPS - d->steps;
}

int game_dragon_mover(const struct game *g)
{
    const struct dragon *d = cstate(g);
    int n = g->rules.n_players > 0 ? g->rules.n_players : 1;
    return (g->seat + (game_in_play(g, EXP_DRAGON) ? d->steps : 0)) % n;
}

enum rule game_check_dragon_step(const struct game *g, struct pos p,
                                 char *why, size_t why_len)
{
    const struct dragon *d = cstate(g);
    struct pos opt[4];
    if (game_dragon_steps(g) == 0) {
        snprintf(why, why_len, "the dragon does not move now");
        return RULE_DRAGON_MOVE;
    }
    int n = game_dragon_options(g, opt);
    for (int i = 0; i < n; i++)
        if (same(p, opt[i].x, opt[i].y))
            return RULE_OK;
    const char *because = "it was there in this move";
    if (abs(p.x - d->x) + abs(p.y - d->y) != 1)
        because = "not a square beside it";
    else if (game_tile_at(g, p) < 0)
        because = "no tile there";
    else if (d->fairy_on && same(p, d->fx, d->fy))
        because = "the fairy is there";
    snprintf(why, why_len, "the dragon at (%d,%d) cannot step to (%d,%d): "
             "%s", d->x, d->y, p.x, p.y, because);
    return RULE_DRAGON_MOVE;
}

void game_dragon_step(struct game *g, struct pos p)
{
    struct dragon *d = state(g);
    d->x = (int16_t)p.x;
    d->y = (int16_t)p.y;
    if (d->steps < DRAGON_STEPS) {
        d->steps++;
        d->vx[d->steps] = d->x;
        d->vy[d->steps] = d->y;
    }
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg >= 0 && same(seg_pos(g, m->seg), d->x, d->y) &&
            !figure_class(m->kind)->stays)
            game_put(g, i, -1);
    }
    if (game_dragon_steps(g) == 0)
        d->moving = false;
}

void game_dragon_stop(struct game *g)
{
    if (game_in_play(g, EXP_DRAGON))
        state(g)->moving = false;
}

/* ---- the fairy and the princess --------------------------------------- */

enum rule game_check_fairy(const struct game *g, int player, int m,
                           char *why, size_t why_len)
{
    if (!game_in_play(g, EXP_DRAGON) || !(g->rules.flags & RF_FAIRY)) {
        snprintf(why, why_len, "the game has no fairy");
        return RULE_FAIRY_PLACEMENT;
    }
    if (m < 0 || m >= g->n_meeples || g->meeples[m].seg < 0 ||
        g->meeples[m].owner != player ||
        !figure_class(g->meeples[m].kind)->follower) {
        snprintf(why, why_len, "the fairy goes beside a follower of the "
                 "player on turn, on the board");
        return RULE_FAIRY_PLACEMENT;
    }
    return game_check_action(g, FIG_FAIRY, why, why_len);
}

void game_fairy(struct game *g, int m)
{
    struct dragon *d = state(g);
    struct pos p = seg_pos(g, g->meeples[m].seg);
    d->fairy_on = true;
    d->fairy_m = (int16_t)m;
    d->fairy_seg = g->meeples[m].seg;
    d->fx = (int16_t)p.x;
    d->fy = (int16_t)p.y;
    game_act(g, FIG_FAIRY);
}

bool game_fairy_at(const struct game *g, struct pos *at)
{
    const struct dragon *d = cstate(g);
    if (!game_in_play(g, EXP_DRAGON) || !d->fairy_on)
        return false;
    if (at)
        *at = (struct pos){ d->fx, d->fy };
    return true;
}

int game_fairy_meeple(const struct game *g)
{
    const struct dragon *d = cstate(g);
    if (!game_in_play(g, EXP_DRAGON) || !d->fairy_on || d->fairy_m < 0 ||
        g->meeples[d->fairy_m].seg != d->fairy_seg)
        return -1;
    return d->fairy_m;
}

enum rule game_check_princess(const struct game *g, int m, char *why,
                              size_t why_len)
{
    if (g->now.tile < 0 || m < 0 || m >= g->n_meeples ||
        g->meeples[m].seg < 0 ||
        !figure_class(g->meeples[m].kind)->follower) {
        snprintf(why, why_len, "the princess sends home a follower on the "
                 "board");
        return RULE_PRINCESS;
    }
    const struct placed *t = &g->tiles[g->now.tile];
    int root = game_root(g, g->meeples[m].seg);
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if ((g->segs[i].attrs & SA_PRINCESS) && game_root(g, i) == root)
            return game_check_action(g, FIG_FAIRY, why, why_len);
    snprintf(why, why_len, "that follower is not in a city the princess of "
             "the turn's tile joins");
    return RULE_PRINCESS;
}

void game_princess(struct game *g, int m)
{
    struct dragon *d = state(g);
    if (d->fairy_m == m)
        d->fairy_m = -1; /* the fairy stays, alone */
    game_put(g, m, -1);
    game_act(g, FIG_FAIRY);
}

static const struct element elements[] = {
    { "dragon", EL_FLAG, RFB_DRAGON, 1, true },
    { "fairy", EL_FLAG, RFB_FAIRY, 1, true },
    { "princess", EL_FLAG, RFB_PRINCESS, 1, false },
    { "portal", EL_FLAG, RFB_PORTAL, 1, false },
    { NULL, 0, 0, 0, false },
};

/* Where the dragon and the fairy stand. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    struct pos at;
    if (game_dragon_at(g, &at))
        h = game_hash_mix(game_hash_mix(h, at.x), at.y);
    if (game_fairy_at(g, &at))
        h = game_hash_mix(game_hash_mix(h, at.x), at.y);
    return h;
}

/* The moves this unit adds to a log (core/move.h). */

/* ---- the auditor's side: the dragon, the fairy, the princess ------- */

/* The meeple a fairy or princess message names: by id, else the one of
 * that kind and seat standing on the named feature. */
static int resolve_on_board(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    /* the princess's knight may be anyone's: a log that names no owner
     * means the one standing there */
    bool anyone = m->kind == MV_PRINCESS && m->meeple_owner < 0;
    int owner = audit_meeple_owner(a, m);
    if (!anyone && (owner < 0 || owner >= a->log->rules.n_players))
        return -1;
    if (m->meeple_n > 0 && !anyone)
        return game_meeple(g, owner, m->meeple, m->meeple_n);
    for (int i = 0; i < g->n_meeples; i++)
        if ((anyone || g->meeples[i].owner == owner) &&
            g->meeples[i].kind == m->meeple && g->meeples[i].seg >= 0 &&
            g->meeples[i].seg == seg)
            return i;
    return -1;
}

/* Is meeple mi standing on the feature the message names? */
static bool stands_as_logged(const struct game *g, int mi,
                             const struct move *m)
{
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    return mi >= 0 && seg >= 0 && g->meeples[mi].seg == seg;
}

/* The fairy beside a follower, as the turn's action. */
static void check_fairy(struct audit *a, const struct move *m)
{
    char why[200];
    int mi = resolve_on_board(a, m);
    enum rule rule = game_check_fairy(a->g, a->player, mi, why, sizeof why);
    if (rule == RULE_OK && !stands_as_logged(a->g, mi, m)) {
        rule = RULE_FAIRY_PLACEMENT;
        snprintf(why, sizeof why, "that follower does not stand on the %s "
                 "at (%d,%d)", feat_name(m->feature), m->at.x, m->at.y);
    }
    a->phase = PH_DONE;
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "the fairy beside a follower at (%d,%d): %s",
                m->at.x, m->at.y, why);
        game_act(a->g, FIG_FAIRY);
        return;
    }
    game_fairy(a->g, mi);
}

/* A step of the dragon, after the turn's action. */
static void check_dragon(struct audit *a, const struct move *m)
{
    char why[200];
    enum rule rule = game_check_dragon_step(a->g, m->at, why, sizeof why);
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "%s", why);
        return;
    }
    int mover = game_dragon_mover(a->g);
    game_dragon_step(a->g, m->at);
    if (m->player >= 0 && m->player != mover)
        audit_violate(a, m, RULE_TURN_ORDER, "the log names %s for the "
                      "dragon's step, but it is %s's", audit_who(a, m->player),
                      audit_who(a, mover));
}

/* The princess sends a knight home, as the turn's action. */
static void check_princess(struct audit *a, const struct move *m)
{
    char why[200];
    int mi = resolve_on_board(a, m);
    enum rule rule = game_check_princess(a->g, mi, why, sizeof why);
    if (rule == RULE_OK && !stands_as_logged(a->g, mi, m)) {
        rule = RULE_PRINCESS;
        snprintf(why, sizeof why, "that knight does not stand on the %s at "
                 "(%d,%d)", feat_name(m->feature), m->at.x, m->at.y);
    }
    a->phase = PH_DONE;
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "the princess at (%d,%d): %s", m->at.x,
                      m->at.y, why);
        game_act(a->g, FIG_FAIRY);
        return;
    }
    game_princess(a->g, mi);
}

/* The turn ends: the dragon must have taken its steps, if it had a
 * square to go to. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    int left = void_turn ? 0 : game_dragon_steps(a->g);
    if (left > 0)
        audit_violate(a, m, RULE_DRAGON_MOVE, "the dragon still had %d step%s "
                      "to take this turn, and a square to go to", left,
                      left == 1 ? "" : "s");
    game_dragon_stop(a->g);
}

static const struct audit_unit audit = {
    .turn_end = turn_end,
};

/* ---- what may be done next (the moves' options hooks) ---------------- */

/* The dragon's next step, each square it may go to, named with the
 * player whose step it is. */
static int dragon_options(const struct audit *a, struct move *out, int max)
{
    struct pos opt[4];
    if (game_dragon_steps(a->g) == 0)
        return 0;
    int n = game_dragon_options(a->g, opt);
    for (int i = 0; i < n && i < max; i++) {
        out[i] = audit_option(MV_NEUTRAL);
        out[i].neutral = FIG_DRAGON;
        out[i].at = opt[i];
        out[i].player = (int8_t)game_dragon_mover(a->g);
    }
    return n < max ? n : max;
}

/* The fairy beside each follower of the player on turn. */
static int fairy_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++) {
        if (game_check_fairy(g, a->player, mi, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_NEUTRAL);
        out[n].neutral = FIG_FAIRY;
        audit_option_on(&out[n], g, g->meeples[mi].seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

/* Each knight the princess may send home. */
static int princess_options(const struct audit *a, struct move *out,
                            int max)
{
    const struct game *g = a->g;
    int n = 0;
    if (game_check_action(g, FIG_FAIRY, NULL, 0) != RULE_OK)
        return 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++) {
        if (game_check_princess(g, mi, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_PRINCESS);
        audit_option_on(&out[n], g, g->meeples[mi].seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

static const struct move_class moves[] = {
    {
        .kind = MV_NEUTRAL,
        .neutral = FIG_DRAGON,
        .slot = SLOT_AFTER,
        .what = "the dragon moved",
        .check = check_dragon,
        .name = "dragon",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"dragon.1\",\"to\":\"$position\"}",
        .fl_fields = "at",
        .options = dragon_options,
    },
    {
        .kind = MV_NEUTRAL,
        .neutral = FIG_FAIRY,
        .slot = SLOT_ACTION,
        .what = "the fairy moved",
        .check = check_fairy,
        .meeple = resolve_on_board,
        .name = "fairy",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"fairy.1\",\"to\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"}}",
        .fl_fields = "at segment meeple",
        .options = fairy_options,
    },
    {
        .kind = MV_PRINCESS,
        .slot = SLOT_ACTION,
        .what = "the princess acted",
        .check = check_princess,
        .meeple = resolve_on_board,
        .name = "princess",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"PRINCESS\"}",
        .fl_fields = "at segment meeple",
        .options = princess_options,
    },
    { .name = NULL },
};

/* For a replay: where the dragon and the fairy stand. */
static void replay(const struct game *g, struct replay_out *out)
{
    struct replay_item it = { .kind = REPLAY_FIGURE, .seat = -1 };
    if (game_dragon_at(g, &it.at)) {
        it.name = "dragon";
        replay_put(out, it);
    }
    if (game_fairy_at(g, &it.at)) {
        it.name = "fairy";
        replay_put(out, it);
    }
}

const struct expansion expansion_dragon = {
    .id = "dragon",
    .name = "The Princess & the Dragon",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .check_deploy = check_deploy,
    .check_stand = check_stand,
    .deployed = deployed,
    .scored = scored,
    .turn_scoring = turn_scoring,
    .hash = hash,
    .replay = replay,
};
