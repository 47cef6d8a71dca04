/* tower.c - The Tower as a unit, as JCloisterZone (5.12) plays it.
 *
 * Every tile of the set has a tower foundation. Each player holds tower
 * pieces (JCloisterZone gives 10 each to 1 or 2 players, 9 to 3, 7 to 4,
 * 6 to 5, 5 to 6; the save's "tower" element only switches the
 * expansion on). As the turn's action, instead of a deployment or a
 * flight, a player may put a piece on any tower of the board (not only
 * the turn's tile) that no follower tops: the tower grows a floor. The
 * player may then take prisoner one follower (of any player, their own
 * included) standing on a tile in the tower's row or column at most its
 * height away (the tower's own tile included); nothing blocks the view,
 * neither other towers nor gaps. A player's own follower goes back to
 * the supply; another's is held by the capturer. When the captured
 * follower's owner holds one of the capturer's followers, the two are
 * exchanged at once: both go back to their owners' supplies (the
 * capturer's earliest taken, when they are all of one kind; of several
 * kinds the capturer picks one, the earliest of its kind, with
 * JCloisterZone's EXCHANGE_FOLLOWER, and until then the captured follower
 * is held).
 * During their turn, once (before or after placing the tile), a player
 * with 3 points or more may buy a follower of theirs back from the one
 * holding it: 3 points go from the payer to the jailer and the follower
 * is back in the supply, to be deployed that same turn. We record that as
 * two score events "ransom", -3 and +3.
 * Instead of a deployment on the turn's tile a player may put a small or
 * large follower or the phantom on top of any tower with at least one
 * floor and none on top: it seals the tower (no more floors) and stays
 * there (a tower never completes nor scores) until captured from another
 * tower. A flier never lands on a tower (the seeds' ruling, which
 * JCloisterZone follows: the tower is no feature that could be claimed
 * and scored). Prisoners at the end score nothing.
 * Tiles: tower.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/tower.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/move.h"
#include "core/replay.h"
#include "core/words.h"

#define RANSOM_POINTS 3
#define MAX_HELD 40

const struct feature_class feature_class_TOWER = {
    .name = "tower", .jcz = "Tower", .done = DONE_NEVER, .on_board = true,
    .claimable = true, .no_landing = RULE_FLIER_ON_TOWER,
    .role = "follower on a tower", .roles = "followers on towers",
};

/* "ransom: Cy paid 3 to Ada for 2.small.2" */
static int explain_ransom(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len);

/* A ransom's two events: the payer's (-3) and the jailer's (+3), each
 * naming the other party and the figure freed (xfer). */
const struct feature_class feature_class_RANSOM = {
    .name = "ransom", .explain = explain_ransom,
};

struct tower {
    uint8_t pieces[GAME_MAX_PLAYERS];  /* tower pieces each seat holds */
    uint8_t height[GAME_MAX_TILES];    /* floors of the tower on tile i */
    uint8_t held[MAX_HELD];            /* prisoners (meeple indexes), in */
    uint8_t jailer[MAX_HELD];          /*   the order taken, and who */
    uint8_t n_held;                    /*   holds each */
    int16_t raised;                    /* tile of this turn's floor, -1 */
    int16_t pending;                   /* captured, its exchange to be
                                          chosen (meeple index), -1 */
    bool captured;                     /* this turn's capture is done */
    int16_t ransom_for;                /* the turn whose ransom is paid
                                          (one paid before the tile
                                          counts for the turn it opens) */
};
UNIT_STATE_FITS(struct tower);

static struct tower *state(struct game *g)
{
    return UNIT_STATE(g, EXP_TOWER, struct tower);
}

static const struct tower *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_TOWER, const struct tower);
}

static int pieces_for(int players)
{
    static const uint8_t by_players[] = { 10, 10, 10, 9, 7, 6, 5, 4 };
    return players < (int)sizeof by_players ? by_players[players] : 3;
}

static void start(struct game *g)
{
    struct tower *st = state(g);
    for (int p = 0; p < g->rules.n_players; p++)
        st->pieces[p] = (uint8_t)pieces_for(g->rules.n_players);
    st->raised = -1;
    st->pending = -1;
    st->ransom_for = -1;
}

static void placed(struct game *g, int tile)
{
    (void)tile;
    struct tower *st = state(g);
    st->raised = -1;
    st->pending = -1;
    st->captured = false;
}

/* The turn a ransom paid now counts for: this one, or between turns the
 * next (JCloisterZone takes a ransom in any phase of the payer's turn,
 * the draw's included). */
static int ransom_turn(const struct game *g)
{
    return g->now.tile >= 0 ? g->turn : g->turn + 1;
}

/* The tower segment of tile, or -1. */
static int tower_seg(const struct game *g, int tile)
{
    return tile < 0 ? -1 : game_find_seg(g, tile, FEAT_TOWER, 0);
}

int game_tower_height(const struct game *g, int tile)
{
    if (!game_in_play(g, EXP_TOWER) || tile < 0 || tile >= g->n_tiles)
        return 0;
    return cstate(g)->height[tile];
}

int game_tower_pieces(const struct game *g, int seat)
{
    if (!game_in_play(g, EXP_TOWER) || seat < 0 ||
        seat >= g->rules.n_players)
        return 0;
    return cstate(g)->pieces[seat];
}

int game_meeple_jailer(const struct game *g, int m)
{
    if (!game_in_play(g, EXP_TOWER))
        return -1;
    const struct tower *st = cstate(g);
    for (int i = 0; i < st->n_held; i++)
        if (st->held[i] == m)
            return st->jailer[i];
    return -1;
}

/* ---- floors ----------------------------------------------------------- */

enum rule game_check_tower(const struct game *g, int player, struct pos at,
                           char *why, size_t why_len)
{
    if (!game_in_play(g, EXP_TOWER)) {
        snprintf(why, why_len, "The Tower is not in play");
        return RULE_TOWER_PLACEMENT;
    }
    enum rule rule = game_check_action(g, FIG__COUNT, why, why_len);
    if (rule != RULE_OK)
        return rule;
    int tile = game_tile_at(g, at), seg = tower_seg(g, tile);
    if (seg < 0) {
        snprintf(why, why_len, "%s at (%d,%d) has no tower",
                 tile < 0 ? "no tile" : "the tile", at.x, at.y);
        return RULE_TOWER_PLACEMENT;
    }
    if (game_feature_meeples(g, seg, NULL) > 0) {
        snprintf(why, why_len, "a follower on top seals the tower at "
                 "(%d,%d)", at.x, at.y);
        return RULE_TOWER_PLACEMENT;
    }
    if (player < 0 || player >= g->rules.n_players ||
        cstate(g)->pieces[player] == 0) {
        snprintf(why, why_len, "the player has no tower piece left");
        return RULE_TOWER_PLACEMENT;
    }
    return RULE_OK;
}

void game_raise_tower(struct game *g, int player, struct pos at)
{
    struct tower *st = state(g);
    int tile = game_tile_at(g, at), seg = tower_seg(g, tile);
    game_act(g, FIG__COUNT);
    if (seg < 0 || game_feature_meeples(g, seg, NULL) > 0)
        return; /* no floor where there is no tower, or a sealed one */
    if (st->height[tile] < 255)
        st->height[tile]++;
    if (player >= 0 && player < g->rules.n_players && st->pieces[player])
        st->pieces[player]--;
    st->raised = (int16_t)tile;
    st->captured = false;
}

/* Is meeple m in sight of the tower on tile t (its row or column, at
 * most the tower's height away)? */
static bool in_sight(const struct game *g, int t, int m)
{
    const struct meeple *mp = &g->meeples[m];
    if (mp->seg < 0 || !figure_class(mp->kind)->follower)
        return false;
    struct pos a = game_tile_pos(g, t);
    struct pos b = game_tile_pos(g, g->segs[mp->seg].tile);
    int d = a.x == b.x ? b.y - a.y : a.y == b.y ? b.x - a.x : -1000;
    if (d < 0)
        d = -d;
    return d <= cstate(g)->height[t];
}

int game_capture_options(const struct game *g, int *out, int max)
{
    if (!game_in_play(g, EXP_TOWER))
        return 0;
    const struct tower *st = cstate(g);
    int n = 0;
    if (st->raised < 0 || st->captured)
        return 0;
    for (int m = 0; m < g->n_meeples; m++)
        if (in_sight(g, st->raised, m)) {
            if (n < max)
                out[n] = m;
            n++;
        }
    return n;
}

enum rule game_check_capture(const struct game *g, int m, int seg,
                             char *why, size_t why_len)
{
    const struct tower *st = game_in_play(g, EXP_TOWER) ? cstate(g) : NULL;
    if (!st || st->raised < 0) {
        snprintf(why, why_len, "no tower grew a floor this turn");
        return RULE_TOWER_CAPTURE;
    }
    if (st->captured) {
        snprintf(why, why_len, "this turn's floor has taken its prisoner");
        return RULE_TOWER_CAPTURE;
    }
    if (m < 0 || g->meeples[m].seg < 0 || g->meeples[m].seg != seg) {
        snprintf(why, why_len, "that figure does not stand there");
        return RULE_TOWER_CAPTURE;
    }
    if (!figure_class(g->meeples[m].kind)->follower) {
        snprintf(why, why_len, "a tower takes followers only, not %s",
                 figure_class(g->meeples[m].kind)->names);
        return RULE_TOWER_CAPTURE;
    }
    if (!in_sight(g, st->raised, m)) {
        struct pos t = game_tile_pos(g, st->raised);
        snprintf(why, why_len, "the tower at (%d,%d), %d floor%s high, sees "
                 "only its row and column up to %d tiles away", t.x, t.y,
                 st->height[st->raised],
                 st->height[st->raised] == 1 ? "" : "s",
                 st->height[st->raised]);
        return RULE_TOWER_CAPTURE;
    }
    return RULE_OK;
}

static void release(struct tower *st, int i)
{
    memmove(&st->held[i], &st->held[i + 1], (size_t)(st->n_held - i - 1));
    memmove(&st->jailer[i], &st->jailer[i + 1], (size_t)(st->n_held - i - 1));
    st->n_held--;
}

void game_capture_declined(struct game *g)
{
    if (game_in_play(g, EXP_TOWER))
        state(g)->captured = true;
}

/* The capturer's followers that the victim holds, the earliest of each
 * kind (what an exchange may free); returns how many kinds. */
static int exchange_for(const struct game *g, int capturer, int victim,
                        int out[FIG__COUNT])
{
    const struct tower *st = cstate(g);
    int n = 0;
    bool seen[FIG__COUNT] = { false };
    for (int i = 0; i < st->n_held; i++) {
        const struct meeple *p = &g->meeples[st->held[i]];
        if (st->jailer[i] != victim || p->owner != capturer || seen[p->kind])
            continue;
        seen[p->kind] = true;
        out[n++] = st->held[i];
    }
    return n;
}

static int held_index(const struct tower *st, int m)
{
    for (int i = 0; i < st->n_held; i++)
        if (st->held[i] == m)
            return i;
    return -1;
}

/* Prisoners a and b (one of each side) both go home. */
static void exchange(struct game *g, int a, int b)
{
    struct tower *st = state(g);
    int i = held_index(st, a);
    if (i >= 0)
        release(st, i);
    if ((i = held_index(st, b)) >= 0)
        release(st, i);
    game_put(g, a, MEEPLE_SUPPLY);
    game_put(g, b, MEEPLE_SUPPLY);
}

void game_capture(struct game *g, int capturer, int m)
{
    struct tower *st = state(g);
    int owner = g->meeples[m].owner, opts[FIG__COUNT];
    st->captured = true;
    if (owner == capturer || capturer < 0) { /* one's own: back home */
        game_put(g, m, MEEPLE_SUPPLY);
        return;
    }
    if (st->n_held == MAX_HELD) { /* cannot happen with real supplies */
        game_put(g, m, MEEPLE_SUPPLY);
        return;
    }
    game_put(g, m, MEEPLE_HELD);
    st->held[st->n_held] = (uint8_t)m;
    st->jailer[st->n_held++] = (uint8_t)capturer;
    /* the owner holds the capturer's: exchanged at once when they are of
     * one kind; of several, the capturer chooses (game_exchange()) */
    int n = exchange_for(g, capturer, owner, opts);
    if (n == 1)
        exchange(g, m, opts[0]);
    else if (n > 1)
        st->pending = (int16_t)m;
}

int game_exchange_options(const struct game *g, int *out, int max)
{
    if (!game_in_play(g, EXP_TOWER) || cstate(g)->pending < 0)
        return 0;
    int m = cstate(g)->pending, opts[FIG__COUNT];
    int n = exchange_for(g, game_meeple_jailer(g, m), g->meeples[m].owner,
                         opts);
    for (int i = 0; i < n && i < max; i++)
        out[i] = opts[i];
    return n;
}

enum rule game_check_exchange(const struct game *g, int m, char *why,
                              size_t why_len)
{
    int opts[FIG__COUNT];
    int n = game_exchange_options(g, opts, FIG__COUNT);
    if (n == 0) {
        snprintf(why, why_len, "no capture waits for an exchange");
        return RULE_TOWER_CAPTURE;
    }
    for (int i = 0; i < n; i++)
        if (opts[i] == m)
            return RULE_OK;
    snprintf(why, why_len, "that follower is not the earliest of its kind "
             "the captured follower's owner holds of the capturer's");
    return RULE_TOWER_CAPTURE;
}

void game_exchange(struct game *g, int m)
{
    struct tower *st = state(g);
    if (st->pending < 0)
        return;
    exchange(g, st->pending, m);
    st->pending = -1;
}

/* ---- ransom ----------------------------------------------------------- */

enum rule game_check_ransom(const struct game *g, int player, int m,
                            char *why, size_t why_len)
{
    if (!game_in_play(g, EXP_TOWER)) {
        snprintf(why, why_len, "The Tower is not in play");
        return RULE_TOWER_RANSOM;
    }
    if (cstate(g)->ransom_for == ransom_turn(g)) {
        snprintf(why, why_len, "a ransom was already paid this turn");
        return RULE_TOWER_RANSOM;
    }
    if (m < 0 || game_meeple_jailer(g, m) < 0) {
        snprintf(why, why_len, "that figure is no prisoner");
        return RULE_TOWER_RANSOM;
    }
    if (g->meeples[m].owner != player) {
        snprintf(why, why_len, "a player buys back only their own "
                 "followers");
        return RULE_TOWER_RANSOM;
    }
    if (g->score[player] < RANSOM_POINTS) {
        snprintf(why, why_len, "a ransom costs %d points; the player has %d",
                 RANSOM_POINTS, g->score[player]);
        return RULE_TOWER_RANSOM;
    }
    return RULE_OK;
}

static void ransom_event(struct game *g, int seat, int other, int m,
                         int points)
{
    const struct meeple *mp = &g->meeples[m];
    struct score_event *ev = game_new_event(g);
    ev->feature = FEAT_RANSOM;
    ev->players = (uint8_t)(1u << seat);
    ev->expr = EXPR_DONE;
    ev->points = points;
    ev->completed = true;
    ev->xfer.with = (uint8_t)(other + 1);
    ev->xfer.owner = (uint8_t)mp->owner;
    ev->xfer.kind = mp->kind;
    ev->xfer.n = mp->n;
    score_add_item(ev, SI_RANSOM, -1, points);
    g->score[seat] += points;
}

void game_pay_ransom(struct game *g, int m)
{
    struct tower *st = state(g);
    int owner = g->meeples[m].owner;
    st->ransom_for = (int16_t)ransom_turn(g);
    for (int i = 0; i < st->n_held; i++) {
        if (st->held[i] != m)
            continue;
        int jailer = st->jailer[i];
        release(st, i);
        game_put(g, m, MEEPLE_SUPPLY);
        ransom_event(g, owner, jailer, m, -RANSOM_POINTS);
        ransom_event(g, jailer, owner, m, RANSOM_POINTS);
        return;
    }
}

/* ---- deployments on towers -------------------------------------------- */

static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    (void)player;
    if (g->segs[seg].kind != FEAT_TOWER)
        return -1;
    int fig = g->meeples[m].kind;
    const struct figure_class *f = figure_class(fig);
    if (!game_kind_allowed(g, fig, FEAT_TOWER)) {
        snprintf(why, why_len, "%s may not stand on a tower", f->names);
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (game_feature_meeples(g, seg, NULL) > 0) {
        snprintf(why, why_len, "a follower already tops the tower");
        return RULE_MEEPLE_FEATURE_OCCUPIED;
    }
    if (cstate(g)->height[g->segs[seg].tile] == 0) {
        snprintf(why, why_len, "a follower goes on a tower of one floor or "
                 "more; this one has none");
        return RULE_TOWER_PLACEMENT;
    }
    return game_check_action(g, fig, why, why_len);
}

static int explain_ransom(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    (void)refs;
    int seat = ev->players ? __builtin_ctz(ev->players) : 0;
    int other = ev->xfer.with ? ev->xfer.with - 1 : 0;
    const char *name = log->names[seat % GAME_MAX_PLAYERS];
    const char *them = log->names[other % GAME_MAX_PLAYERS];
    /* the figure as players say it: "Ada's follower" (its id stays in
     * the JSON's transfer.meeple) */
    const char *owner = log->names[ev->xfer.owner % GAME_MAX_PLAYERS];
    const char *fig = figure_class(ev->xfer.kind)
                          ? figure_class(ev->xfer.kind)->name
                          : "figure";
    if (ev->points < 0)
        return snprintf(out, len, "ransom: %s paid %d to %s for %s's %s",
                        name, -ev->points, them, owner, fig);
    return snprintf(out, len, "ransom: %s received %d from %s for %s's %s",
                    name, ev->points, them, owner, fig);
}

static const struct element elements[] = {
    { "tower", EL_FLAG, RFB_TOWER, 1, true },
    { NULL, 0, 0, 0, false },
};

/* Each tower's height and who holds each prisoner. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    for (int i = 0; i < g->n_tiles; i++)
        h = game_hash_mix(h, game_tower_height(g, i));
    for (int i = 0; i < g->n_meeples; i++)
        h = game_hash_mix(h, game_meeple_jailer(g, i));
    return h;
}

/* The moves this unit adds to a log (core/move.h). */
/* ---- the auditor's side: floors, captures, ransoms ---------------- */

/* A floor, as the turn's action. */
static void check_tower(struct audit *a, const struct move *m)
{
    char why[200];
    enum rule rule = game_check_tower(a->g, a->player, m->at, why,
                                      sizeof why);
    if (rule != RULE_OK)
        audit_violate(a, m, rule, "a floor on tower at (%d,%d): %s", m->at.x,
                m->at.y, why);
    game_raise_tower(a->g, a->player, m->at); /* as logged, where it can */
    a->phase = PH_DONE;
}

/* A prisoner after the turn's floor. */
static void check_capture(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = audit_resolve_meeple(a, m);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    enum rule rule = game_check_capture(g, mi, seg, why, sizeof why);
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "capture of %s on %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
        return;
    }
    game_capture(g, a->player, mi);
}

/* After a capture: the prisoner taken back in exchange. */
static void check_exchange(struct audit *a, const struct move *m)
{
    char why[200], nm[80];
    int mi = audit_resolve_meeple(a, m);
    enum rule rule = game_check_exchange(a->g, mi, why, sizeof why);
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "exchange for %s: %s",
                audit_meeple_name(a, m, nm, sizeof nm), why);
        return;
    }
    game_exchange(a->g, mi);
}

/* A ransom, by the player on turn: after the tile or before it (then by
 * the seat about to draw). */
static void check_ransom(struct audit *a, const struct move *m)
{
    char why[200], nm[80];
    int payer = a->phase == PH_IDLE ? a->g->seat : a->player;
    int mi = audit_resolve_meeple(a, m);
    enum rule rule = game_check_ransom(a->g, payer, mi, why, sizeof why);
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "ransom for %s: %s",
                audit_meeple_name(a, m, nm, sizeof nm), why);
        return;
    }
    game_pay_ransom(a->g, mi);
}

/* ---- driver ------------------------------------------------------------ */

/* After a floor with followers in sight, a PASS declines the capture; it
 * ends no action phase (a phantom may still act). */
static bool turn_pass(struct audit *a, const struct move *m)
{
    (void)m;
    if (game_capture_options(a->g, NULL, 0) <= 0)
        return false;
    game_capture_declined(a->g);
    return true;
}

static const struct audit_unit audit = {
    .turn_pass = turn_pass,
};

/* ---- what may be done next (the moves' options hooks) ---------------- */

/* A floor on every tower the player on turn may raise. */
static int tower_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    for (int t = 0; t < g->n_tiles && n < max; t++) {
        int seg = tower_seg(g, t);
        struct pos at = game_tile_pos(g, t);
        if (seg < 0 || game_check_tower(g, a->player, at, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_TOWER);
        audit_option_on(&out[n++], g, seg);
    }
    return n;
}

/* Each follower in sight of this turn's floor. */
static int capture_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int opts[GAME_MAX_MEEPLES];
    int n = game_capture_options(g, opts, GAME_MAX_MEEPLES);
    for (int i = 0; i < n && i < max; i++) {
        out[i] = audit_option(MV_CAPTURE);
        audit_option_on(&out[i], g, g->meeples[opts[i]].seg);
        audit_option_meeple(&out[i], g, opts[i]);
    }
    return n < max ? n : max;
}

static int exchange_options(const struct audit *a, struct move *out, int max)
{
    int opts[FIG__COUNT];
    int n = game_exchange_options(a->g, opts, FIG__COUNT);
    for (int i = 0; i < n && i < max; i++) {
        out[i] = audit_option(MV_EXCHANGE);
        audit_option_meeple(&out[i], a->g, opts[i]);
    }
    return n < max ? n : max;
}

/* The prisoners the payer may buy back: the player on turn, or before a
 * tile the seat about to draw (check_ransom's payer). */
static int ransom_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int payer = a->phase == PH_IDLE ? g->seat : a->player, n = 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++) {
        if (game_check_ransom(g, payer, mi, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_RANSOM);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

static const struct move_class moves[] = {
    {
        .kind = MV_TOWER,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "a tower floor",
        .check = check_tower,
        .name = "tower",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"TOWER_PIECE\",\"pointer\":\"$pointer\"}",
        .feature = FEAT_TOWER,
        .fl_fields = "at",
        .options = tower_options,
    },
    {
        .kind = MV_CAPTURE,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "a capture",
        .check = check_capture,
        .name = "capture",
        .jcz = "CAPTURE_FOLLOWER",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"}}",
        .fl_fields = "at segment meeple_id",
        .options = capture_options,
    },
    {
        .kind = MV_RANSOM,
        .check = check_ransom,
        .name = "ransom",
        .jcz = "PAY_RANSOM",
        .jcz_payload = "{\"meepleId\":\"$meeple\"}",
        .fl_fields = "meeple_id",
        .options = ransom_options,
    },
    {
        .kind = MV_EXCHANGE,
        .slot = SLOT_ACTION,
        .what = "an exchange of prisoners",
        .check = check_exchange,
        .name = "exchange",
        .jcz = "EXCHANGE_FOLLOWER",
        .jcz_payload = "{\"meepleId\":\"$meeple\"}",
        .fl_fields = "meeple_id",
        .options = exchange_options,
    },
    { .name = NULL },
};

/* For a replay: each tower with a floor and its height, the prisoners
 * each seat holds, and each prisoner (whose figure, its value the seat
 * that holds it), in the order taken: a viewer says "Ben takes Ada's
 * follower prisoner" rather than sending that follower to the supply. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct tower *st = cstate(g);
    int held[GAME_MAX_PLAYERS] = { 0 };
    for (int i = 0; i < g->n_tiles; i++)
        if (game_tower_height(g, i) > 0)
            replay_put(out, (struct replay_item){
                .kind = REPLAY_MARK, .name = "height", .seat = -1,
                .at = game_tile_pos(g, i), .value = game_tower_height(g, i) });
    for (int i = 0; i < g->n_meeples; i++) {
        int j = game_meeple_jailer(g, i);
        if (j >= 0 && j < GAME_MAX_PLAYERS)
            held[j]++;
    }
    for (int p = 0; p < g->rules.n_players; p++)
        replay_put(out, (struct replay_item){ .kind = REPLAY_COUNTER,
                                              .name = "prisoners",
                                              .seat = (int8_t)p,
                                              .value = held[p] });
    for (int i = 0; i < st->n_held; i++)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_COUNTER, .name = "prisoner",
            .seat = (int8_t)g->meeples[st->held[i]].owner,
            .value = st->jailer[i] });
}

const struct expansion expansion_tower = {
    .id = "tower",
    .name = "The Tower",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .check_deploy = check_deploy,
    .hash = hash,
    .replay = replay,
};
