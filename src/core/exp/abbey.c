/* abbey.c - Abbey & Mayor as a unit, as JCloisterZone plays it.
 *
 * The abbey: each player holds one (the abbey element), offered at the
 * start of a turn when the board has a hole (an empty square with four
 * neighbours): played there instead of drawing, it is a monastery whose
 * sides end the roads and cities they meet; declined, the player draws.
 * When the pack is used up, the players after the last to draw, up to
 * that one, are offered theirs once more.
 * The mayor stands in cities; its strength is its city's pennants (none:
 * none, and a city of such followers only scores ".empty").
 * The wagon stands on roads, cities and monasteries; when its feature
 * scores it may move on (its owner's choice, in seat order from the
 * player on turn) to an unoccupied unfinished road, city or monastery on
 * its tile or the eight around (rule C2, the default; rule C1: a feature
 * next to the one it left, by the tiles' wagon-move groups).
 * The barn goes on the corner of the turn's tile where four fields meet
 * (logged on the tile south-east of that corner); it occupies the field.
 * Placed, it scores the field's farmers 3 a city ("field.barn-placed"),
 * who go back to supply with their pigs; a later tile joining a field
 * with farmers to it scores them 1 a city ("field.barn-connected"); at
 * the end each barn owner scores 4 a city of its field, once a field.
 * The mayor and the wagon may fly; the barn never does.
 * Tiles: abbey.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/abbey.h"
#include "core/exp/units.h"
#include "core/game_int.h"
#include "core/replay.h"
#include "core/words.h"

#define MAX_WAITING (GAME_MAX_PLAYERS * 2)

const struct figure_class figure_class_MAYOR = {
    .jcz = "mayor", .name = "mayor", .names = "mayors",
    .stands = 1u << FEAT_CITY, .follower = true, .by_pennants = true,
    .flies = true,
};

const struct figure_class figure_class_WAGON = {
    .jcz = "wagon", .name = "wagon", .names = "wagons", .strength = 1,
    .stands = 1u << FEAT_ROAD | 1u << FEAT_CITY | 1u << FEAT_MONASTERY |
              1u << FEAT_YAGA_HUT,
    .follower = true, .flies = true,
};

const struct figure_class figure_class_BARN = {
    .jcz = "barn", .name = "barn", .names = "barns",
    .stands = 1u << FEAT_FIELD, .stays = true, .beside = true,
};

/* "barn in a field touching 2 completed cities [(0,-1) 2 tiles, (3,1)
 * 5 tiles]: 2×4 = 8" */
static int explain_barn(const struct game_log *log,
                        const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len)
{
    (void)log;
    size_t n = (size_t)snprintf(out, len, "barn in a field");
    if (n < len)
        n += (size_t)base_touched_cities(ev, refs, out + n, len - n);
    if (n < len)
        n += (size_t)base_cities_formula(ev, 4, out + n, len - n);
    return (int)n;
}

/* A barn owner's points at the end: JCloisterZone's "barn" with a field
 * expression. */
const struct feature_class feature_class_BARN = {
    .name = "barn", .expr = "field", .role = "barn", .roles = "barns",
    .explain = explain_barn,
};

struct abbey {
    uint8_t abbeys[GAME_MAX_PLAYERS];   /* abbeys each seat holds */
    int16_t waiting[MAX_WAITING];       /* wagons to move, in order */
    int16_t from[MAX_WAITING];          /* the tile each stood on */
    int16_t left[MAX_WAITING];          /* the feature each left (root) */
    uint8_t n_waiting;
    uint8_t moved;                      /* seats whose wagon moved */
    int16_t new_barn;                   /* a barn deployed this turn */
    uint8_t n_barns;                    /* barns on the board (they stay) */
    int8_t last_drawn;                  /* seat of the last drawn tile */
    int8_t round_next;                  /* the last round: the next seat */
    bool round;                         /*   to ask; it has started, */
    bool round_over;                    /*   it is over */
};
UNIT_STATE_FITS(struct abbey);

static struct abbey *state(struct game *g)
{
    return UNIT_STATE(g, EXP_ABBEY, struct abbey);
}

static const struct abbey *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_ABBEY, const struct abbey);
}

static bool is_abbey(int def)
{
    return tile_get(def)->group == TG_ABBEY;
}

/* ---- the abbey -------------------------------------------------------- */

static bool hole_at(const struct game *g, struct pos p)
{
    if (game_tile_at(g, p) >= 0)
        return false;
    for (int side = 0; side < 4; side++)
        if (game_tile_at(g, pos_step(p, side)) < 0)
            return false;
    return true;
}

static bool any_hole(const struct game *g)
{
    for (int i = 0; i < g->n_tiles; i++)
        for (int side = 0; side < 4; side++)
            if (hole_at(g, pos_step(game_tile_pos(g, i), side)))
                return true;
    return false;
}

static void start(struct game *g)
{
    struct abbey *st = state(g);
    for (int p = 0; p < g->rules.n_players; p++)
        st->abbeys[p] = g->rules.counts[COUNT_ABBEYS];
    st->new_barn = -1;
    st->last_drawn = -1;
}

static int check_place(const struct game *g, int def, struct pos p, int rot,
                       char *why, size_t why_len)
{
    (void)rot;
    if (!is_abbey(def))
        return RULE_OK;
    if (cstate(g)->abbeys[g->seat] == 0) {
        snprintf(why, why_len, "the player on turn holds no abbey");
        return RULE_ABBEY_PLACEMENT;
    }
    if (!hole_at(g, p)) {
        snprintf(why, why_len, "(%d,%d) is no hole: an abbey goes where all "
                 "four sides have tiles", p.x, p.y);
        return RULE_ABBEY_PLACEMENT;
    }
    return RULE_OK;
}

/* The last round asks up to the seat of the last tile drawn (with no
 * tile drawn, round the whole table from the first seat). */
static int last_seat(const struct game *g, const struct abbey *st)
{
    int n = g->rules.n_players;
    return (st->last_drawn + n) % n;
}

/* Is seat p asked in the last round: it holds an abbey, and there is a
 * hole to put it in? */
static bool may_play(const struct game *g, int p)
{
    return cstate(g)->abbeys[p] > 0 && any_hole(g);
}

/* The seat on turn has answered in the last round: it goes on after it,
 * or is over when that seat was the last to ask. */
static void round_asked(const struct game *g, struct abbey *st)
{
    if (g->seat == last_seat(g, st))
        st->round_over = true;
    else
        st->round_next = (int8_t)((g->seat + 1) % g->rules.n_players);
}

static void placed(struct game *g, int tile)
{
    struct abbey *st = state(g);
    if (!is_abbey(g->tiles[tile].def)) {
        st->last_drawn = (int8_t)g->seat;
        return;
    }
    if (st->abbeys[g->seat] > 0)
        st->abbeys[g->seat]--;
    if (st->round) /* the last round goes on after this seat */
        round_asked(g, st);
}

/* Does anyone still hold an abbey? */
static bool held_by_anyone(const struct abbey *st, int n_players)
{
    for (int p = 0; p < n_players; p++)
        if (st->abbeys[p] > 0)
            return true;
    return false;
}

bool game_abbey_offered(struct game *g)
{
    if (!game_in_play(g, EXP_ABBEY))
        return false;
    struct abbey *st = state(g);
    if (!st->round && (!held_by_anyone(st, g->rules.n_players) ||
                       !game_pack_done(g)))
        return st->abbeys[g->seat] > 0 && any_hole(g);
    if (!st->round) { /* from the seat after the last to draw, to it */
        st->round = true;
        st->round_next = (int8_t)((last_seat(g, st) + 1) %
                                  g->rules.n_players);
    }
    int p = st->round_over ? -1
                           : game_seat_walk(g, st->round_next,
                                            last_seat(g, st), may_play);
    if (p < 0) {
        st->round_over = true;
        return false;
    }
    st->round_next = (int8_t)p;
    g->seat = p;
    g->part = 1; /* no builder's tile after the last */
    return true;
}

void game_abbey_declined(struct game *g)
{
    struct abbey *st = state(g);
    if (!game_in_play(g, EXP_ABBEY) || !st->round)
        return;
    round_asked(g, st);
}

/* ---- the barn --------------------------------------------------------- */

/* Is the field part of tile t (at p) holding half-edge a also holding b,
 * i.e. is that corner field on both its sides? */
static bool corner_field(const struct game *g, struct pos p, int a, int b)
{
    int t = game_tile_at(g, p);
    if (t < 0)
        return false;
    int s = game_half_seg(g, t, a);
    return s >= 0 && s == game_half_seg(g, t, b);
}

static bool barn_on(const struct game *g, int root)
{
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].kind == FIG_BARN && g->meeples[i].seg >= 0 &&
            game_root(g, g->meeples[i].seg) == root)
            return true;
    return false;
}

enum { NL_, NR_, EL_, ER_, SL_, SR_, WL_, WR_ }; /* half-edge numbers */

/* The barn's pointer is the tile P south-east of the corner: the corner
 * must be one of this turn's tile's, where four tiles meet with field on
 * both sides of it on each; the barn stands on P's field at NL. */
static int check_barn(const struct game *g, int m, int seg, char *why,
                      size_t why_len)
{
    const struct seg *s = &g->segs[seg];
    struct pos p = game_tile_pos(g, s->tile), q = game_tile_pos(g, g->now.tile);
    int dx = p.x - q.x, dy = p.y - q.y;
    if (s->kind != FEAT_FIELD) {
        snprintf(why, why_len, "a barn stands on a field, not on a %s",
                 feat_name(s->kind));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    if (dx < 0 || dx > 1 || dy < 0 || dy > 1) {
        snprintf(why, why_len, "the corner north-west of (%d,%d) is no "
                 "corner of this turn's tile", p.x, p.y);
        return RULE_BARN_PLACEMENT;
    }
    if (!corner_field(g, (struct pos){ p.x - 1, p.y - 1 }, SL_, ER_) ||
        !corner_field(g, (struct pos){ p.x, p.y - 1 }, WL_, SR_) ||
        !corner_field(g, (struct pos){ p.x - 1, p.y }, EL_, NR_) ||
        !corner_field(g, p, NL_, WR_)) {
        snprintf(why, why_len, "the corner north-west of (%d,%d) is no "
                 "corner where four fields meet", p.x, p.y);
        return RULE_BARN_PLACEMENT;
    }
    if (seg != game_half_seg(g, s->tile, NL_)) {
        snprintf(why, why_len, "a barn at the corner north-west of (%d,%d) "
                 "stands on that tile's field at its north-west", p.x, p.y);
        return RULE_BARN_PLACEMENT;
    }
    if (barn_on(g, game_root(g, seg))) {
        snprintf(why, why_len, "the field has a barn already");
        return RULE_BARN_PLACEMENT;
    }
    return game_check_action(g, g->meeples[m].kind, why, why_len);
}

static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    (void)player;
    if (g->meeples[m].kind != FIG_BARN)
        return -1;
    return check_barn(g, m, seg, why, why_len);
}

static void deployed(struct game *g, int m)
{
    if (g->meeples[m].kind == FIG_BARN) {
        state(g)->new_barn = (int16_t)m;
        state(g)->n_barns++;
    }
}

/* A field joined to a barn: 1 a city (the pigs' bonus comes on top). */
static void score_connected(const struct rules *r, struct score_event *ev)
{
    (void)r;
    ev->points = ev->cities;
    if (ev->cities)
        score_add_item(ev, SI_CITIES, ev->cities, ev->cities);
}

/* Before the features the turn completed: the barn placed this turn
 * scores its field's farmers, then the fields the tile joined to a barn
 * score theirs; farmers and pigs of those fields go back to supply. */
static void turn_scoring(struct game *g)
{
    static const struct score_how placed_how = { EXPR_BARN_PLACED, NULL };
    static const struct score_how joined_how = { EXPR_BARN_CONNECTED,
                                                 score_connected };
    struct abbey *st = state(g);
    int barn_root = -1;
    if (st->n_barns == 0)
        return; /* most turns of most games */
    if (st->new_barn >= 0 && g->meeples[st->new_barn].seg >= 0) {
        int seg = g->meeples[st->new_barn].seg;
        barn_root = game_root(g, seg);
        game_score_feature(g, seg, false, g->turn, &placed_how, NULL);
        game_return_figures(g, seg, false);
    }
    st->new_barn = -1;
    const struct placed *t = &g->tiles[g->now.tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++) {
        int root = game_root(g, i);
        if (g->segs[i].kind != FEAT_FIELD || root == barn_root ||
            !barn_on(g, root))
            continue;
        game_score_feature(g, i, false, g->turn, &joined_how, NULL);
        game_return_figures(g, i, false);
    }
}

/* Is meeple k a barn of owner p in the field of root? */
static bool barn_of(const struct game *g, int k, int p, int root)
{
    const struct meeple *o = &g->meeples[k];
    return o->kind == FIG_BARN && o->seg >= 0 && o->owner == p &&
           game_root(g, o->seg) == root;
}

/* At the end: each barn owner, once a field, 4 a completed city of it. */
static void final_scoring(struct game *g)
{
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->kind != FIG_BARN || m->seg < 0)
            continue;
        int root = game_root(g, m->seg), barns = 0;
        bool scored = false; /* an earlier barn of the owner here */
        for (int k = 0; k < g->n_meeples; k++)
            if (barn_of(g, k, m->owner, root)) {
                scored |= k < i;
                barns++;
            }
        if (scored)
            continue;
        struct score_event *ev = game_new_event(g);
        ev->turn = -1;
        ev->feature = FEAT_BARN;
        ev->seg = (uint16_t)root;
        game_measure(g, root, ev);
        ev->points = 4 * ev->cities;
        if (ev->cities)
            score_add_item(ev, SI_CITIES, ev->cities, ev->points);
        ev->players = (uint8_t)(1u << m->owner);
        ev->meeples[m->owner] = (uint8_t)barns;
        ev->figures[m->owner][FIG_BARN] = (uint8_t)barns;
        g->score[m->owner] += ev->points;
    }
}

/* ---- the wagon -------------------------------------------------------- */

static void returned(struct game *g, int m)
{
    struct abbey *st = state(g);
    const struct meeple *mp = &g->meeples[m];
    if (mp->kind != FIG_WAGON || st->n_waiting == MAX_WAITING)
        return;
    st->waiting[st->n_waiting] = (int16_t)m;
    st->from[st->n_waiting] = (int16_t)g->segs[mp->seg].tile;
    st->left[st->n_waiting] = (int16_t)game_root(g, mp->seg);
    st->n_waiting++;
}

/* May a wagon move onto seg: a road, city or monastery, unfinished and
 * with no figure at all. */
static bool free_for_wagon(const struct game *g, int seg)
{
    return game_kind_allowed(g, FIG_WAGON, g->segs[seg].kind) &&
           g->segs[game_root(g, seg)].meeples == 0 &&
           !game_feature_complete(g, seg);
}

/* Is seg where waiting wagon w may go? Rule C2: its tile or the eight
 * around it; rule C1: a feature next to the one it left, by a tile's
 * wagon-move groups or across the side of a closed tile (the abbey). */
static bool wagon_may(const struct game *g, int w, int seg)
{
    const struct abbey *st = cstate(g);
    if (!free_for_wagon(g, seg))
        return false;
    struct pos to = game_tile_pos(g, g->segs[seg].tile);
    if (g->rules.opt[OPT_WAGON_MOVE] != 1) {
        struct pos from = game_tile_pos(g, st->from[w]);
        return to.x >= from.x - 1 && to.x <= from.x + 1 &&
               to.y >= from.y - 1 && to.y <= from.y + 1;
    }
    int root = st->left[w], s = root;
    do {
        const struct seg *a = &g->segs[s];
        if (a->tile == g->segs[seg].tile && (a->adjoin & g->segs[seg].adjoin))
            return true;
        for (int side = 0; side < 4; side++) {
            int nb = game_tile_at(g, pos_step(game_tile_pos(g, a->tile),
                                              side));
            if ((a->mask >> side & 1) && nb == g->segs[seg].tile &&
                !tile_get(g->tiles[nb].def)->edges)
                return true;
        }
        s = a->next;
    } while (s != root);
    return false;
}

/* Does waiting wagon w have somewhere to go? */
static bool wagon_has_move(const struct game *g, int w)
{
    const struct abbey *st = cstate(g);
    struct pos from = game_tile_pos(g, st->from[w]);
    for (int i = 0; i < g->n_tiles; i++) {
        struct pos p = game_tile_pos(g, i);
        if (g->rules.opt[OPT_WAGON_MOVE] != 1 &&
            (p.x < from.x - 1 || p.x > from.x + 1 || p.y < from.y - 1 ||
             p.y > from.y + 1))
            continue;
        const struct placed *t = &g->tiles[i];
        for (int s = t->seg0; s < t->seg0 + t->n_seg; s++)
            if (wagon_may(g, w, s))
                return true;
    }
    return false;
}

static void drop_waiting(struct abbey *st, int w)
{
    memmove(&st->waiting[w], &st->waiting[w + 1],
            (size_t)(st->n_waiting - w - 1) * sizeof st->waiting[0]);
    memmove(&st->from[w], &st->from[w + 1],
            (size_t)(st->n_waiting - w - 1) * sizeof st->from[0]);
    memmove(&st->left[w], &st->left[w + 1],
            (size_t)(st->n_waiting - w - 1) * sizeof st->left[0]);
    st->n_waiting--;
}

/* The wagons the turn sent back wait in seat order from the player on
 * turn (then in their own order). */
static void turn_done(struct game *g)
{
    struct abbey *st = state(g);
    int n = g->rules.n_players;
    for (int i = 1; i < st->n_waiting; i++)
        for (int k = i; k > 0; k--) {
            int a = (g->meeples[st->waiting[k - 1]].owner - g->seat + n) % n;
            int b = (g->meeples[st->waiting[k]].owner - g->seat + n) % n;
            if (a <= b)
                break;
            int16_t t;
#define SWAP(arr) (t = st->arr[k], st->arr[k] = st->arr[k - 1], st->arr[k - 1] = t)
            SWAP(waiting);
            SWAP(from);
            SWAP(left);
#undef SWAP
        }
    st->moved = 0;
}

/* The first waiting wagon that has somewhere to go (the others have no
 * choice to make and stay in supply). */
static int first_waiting(struct game *g)
{
    struct abbey *st = state(g);
    while (st->n_waiting > 0 && !wagon_has_move(g, 0))
        drop_waiting(st, 0);
    return st->n_waiting > 0 ? 0 : -1;
}

int game_wagon_next(struct game *g)
{
    if (!game_in_play(g, EXP_ABBEY))
        return -1;
    int w = first_waiting(g);
    return w < 0 ? -1 : cstate(g)->waiting[w];
}

/* Position of meeple m in the queue, if its owner's turn to choose. */
static int queued(const struct game *g, int m)
{
    const struct abbey *st = cstate(g);
    if (st->n_waiting == 0)
        return -1;
    int owner = g->meeples[st->waiting[0]].owner;
    for (int w = 0; w < st->n_waiting; w++)
        if (st->waiting[w] == m && g->meeples[m].owner == owner)
            return w;
    return -1;
}

enum rule game_check_wagon_move(const struct game *g, int m, int seg,
                                char *why, size_t why_len)
{
    int w = m >= 0 ? queued(g, m) : -1;
    if (w < 0) {
        snprintf(why, why_len, "no wagon of that player waits to move");
        return RULE_WAGON_MOVE;
    }
    if (seg < 0 || !wagon_may(g, w, seg)) {
        struct pos from = game_tile_pos(g, cstate(g)->from[w]);
        snprintf(why, why_len, "a wagon leaving (%d,%d) goes to an "
                 "unoccupied unfinished road, city or monastery %s",
                 from.x, from.y,
                 g->rules.opt[OPT_WAGON_MOVE] == 1
                     ? "next to the feature it left"
                     : "on its tile or one of the eight around");
        return RULE_WAGON_MOVE;
    }
    return RULE_OK;
}

bool game_wagon_move(struct game *g, int m, int seg)
{
    struct abbey *st = state(g);
    int w = queued(g, m);
    if (w < 0)
        return false;
    int owner = g->meeples[m].owner;
    if (seg >= 0) {
        game_put(g, m, seg);
        st->moved |= (uint8_t)(1u << owner);
    }
    drop_waiting(st, w);
    for (int k = 0; k < st->n_waiting; k++)
        if (g->meeples[st->waiting[k]].owner == owner &&
            wagon_has_move(g, k))
            return false; /* that owner chooses again first */
    return (st->moved >> owner) & 1;
}

/* ---- the auditor's side: the wagons' moves, the abbeys' rounds -------- */

/* A wagon's move: the wagon that waits when the log leaves it open (no
 * n, and no owner or the waiting wagon's), else the one named. */
static int resolve_wagon(const struct audit *a, const struct move *m)
{
    int w = game_wagon_next(a->g);
    if (w >= 0 && m->meeple_n == 0 && m->meeple == a->g->meeples[w].kind &&
        (m->meeple_owner < 0 || m->meeple_owner == a->g->meeples[w].owner))
        return w;
    return audit_resolve_meeple(a, m);
}

/* A wagon's move after its feature scored, by its owner: a COMMIT
 * follows its owner's last (or a refused one). */
static bool wagon_move(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = resolve_wagon(a, m);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    enum rule rule = game_check_wagon_move(g, mi, seg, why, sizeof why);
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "%s to %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
        seg = -1;
    }
    if (mi >= 0 && game_wagon_move(g, mi, seg))
        return true;
    return rule != RULE_OK; /* its owner's COMMIT follows */
}

/* A waiting wagon stays in supply: a COMMIT follows when its owner
 * moved another. */
static bool wagon_stays(struct audit *a, const struct move *m)
{
    (void)m;
    return game_wagon_move(a->g, game_wagon_next(a->g), -1);
}

/* Each move of a waiting wagon of the owner asked onto a feature it may
 * reach. */
/* The wagon check, in the shape of the seat's figure checks. */
static enum rule check_wagon(const struct game *g, int seat, int m, int seg,
                             char *why, size_t why_len)
{
    (void)seat;
    return game_check_wagon_move(g, m, seg, why, why_len);
}

static int wagon_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++)
        if (g->meeples[mi].kind == FIG_WAGON)
            n += audit_onto_options(a, MV_DEPLOY, g->meeples[mi].owner, mi,
                                    check_wagon, out + n, max - n);
    return n;
}

static int wagon_asked(const struct game *g)
{
    int w = game_wagon_next((struct game *)g);
    return w >= 0 ? g->meeples[w].owner : -1;
}

/* The seat offered its abbey now (the seat on turn before drawing; in
 * the last round, the next holder), -1. */
static int abbey_asked(const struct game *g)
{
    return game_abbey_offered((struct game *)g) ? g->seat : -1;
}

/* A PASS while an abbey is offered: before the draw, or (once the last
 * tile is placed, which game_abbey_offered() sees) in the last round. */
static bool drawing_claims(const struct audit *a, const struct move *m)
{
    return m->kind == MV_PASS && game_abbey_offered(a->g) &&
           !cstate(a->g)->round;
}

static bool last_round_claims(const struct audit *a, const struct move *m)
{
    return m->kind == MV_PASS && game_abbey_offered(a->g) &&
           cstate(a->g)->round;
}

/* The abbey declined: before drawing, a COMMIT follows; in the last
 * round, the round goes on. */
static bool abbey_declined(struct audit *a, const struct move *m)
{
    (void)m;
    a->player = a->g->seat;
    if (!cstate(a->g)->round)
        return true;
    game_abbey_declined(a->g);
    return false;
}

static const struct round_class rounds[] = {
    { /* after a scoring: the wagons that left it move on, or stay */
      .what = "the wagons' moves",
      .role = STEP_WAGON_MOVE, .pass_role = STEP_WAGON_STAYS,
      .from = ROUND_FROM_TURN, .commit = COMMIT_AFTER_SEAT,
      .after_end = AFTER_END_ANY, .answers = 1ull << MV_DEPLOY,
      .asked = wagon_asked, .answer = wagon_move, .pass = wagon_stays,
      .meeple = resolve_wagon, .options = wagon_options },
    { /* before drawing: the seat on turn declines its abbey (playing it
         is the turn's tile) */
      .what = "the abbey before the draw",
      .role = STEP_ABBEY_DECLINED, .pass_role = STEP_ABBEY_DECLINED,
      .from = ROUND_ONLY_TURN, .commit = COMMIT_AFTER_PASS,
      .after_end = AFTER_END_NONE, .last = true, .asked = abbey_asked,
      .claims = drawing_claims, .pass = abbey_declined },
    { /* after the last tile: the holders, from the seat after the last
         to draw round to it, decline (a bare PASS) or play it (a turn) */
      .what = "the last round of abbeys",
      .role = STEP_ABBEY_LAST, .pass_role = STEP_ABBEY_LAST,
      .from = ROUND_FROM_LAST, .commit = COMMIT_NEVER,
      .after_end = AFTER_END_CLAIMED, .last = true, .asked = abbey_asked,
      .claims = last_round_claims, .pass = abbey_declined },
    { .asked = NULL },
};

/* Before a tile: wagons the log leaves waiting stay in supply (their
 * owners passed); an abbey after the last tile is the last round's
 * (game_abbey_offered() gives the seat its turn). */
static void before_place(struct audit *a, const struct move *m)
{
    int w;
    while ((w = game_wagon_next(a->g)) >= 0)
        game_wagon_move(a->g, w, -1);
    if (m->tile >= 0 && tile_group_rank(tile_get(m->tile)->group) < 0)
        (void)game_abbey_offered(a->g);
}

static const struct audit_unit audit = {
    .rounds = rounds,
    .before_place = before_place,
};

static const struct element elements[] = {
    { "abbey", EL_COUNT, COUNT_ABBEYS, 2, true },
    { "mayor", EL_FIGURES, FIG_MAYOR, 2, true },
    { "wagon", EL_FIGURES, FIG_WAGON, 2, true },
    { "barn", EL_FIGURES, FIG_BARN, 2, true },
    { NULL, 0, 0, 0, false },
};

/* For a replay: the abbeys each seat holds yet, in a game with any. */
static void replay(const struct game *g, struct replay_out *out)
{
    if (!g->rules.counts[COUNT_ABBEYS])
        return;
    for (int p = 0; p < g->rules.n_players; p++)
        replay_put(out, (struct replay_item){ .kind = REPLAY_COUNTER,
                                              .name = "abbeys",
                                              .seat = (int8_t)p,
                                              .value = cstate(g)->abbeys[p] });
}

/* The abbey the seat holds, while a hole waits for one and the last
 * round of abbeys is not over. */
static int held_tiles(const struct game *g, int seat, int16_t *kinds,
                      int16_t *held, int max)
{
    const struct abbey *st = cstate(g);
    if (max < 1 || seat < 0 || seat >= g->rules.n_players ||
        st->abbeys[seat] <= 0 || !any_hole(g) || st->round_over)
        return 0;
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (is_abbey(t)) {
            kinds[0] = (int16_t)t;
            held[0] = (int16_t)st->abbeys[seat];
            return 1;
        }
    return 0;
}

const struct expansion expansion_abbey = {
    .id = "abbey",
    .name = "Abbey & Mayor",
    .elements = elements,
    .audit = &audit,
    .start = start,
    .check_place = check_place,
    .held_tiles = held_tiles,
    .placed = placed,
    .check_deploy = check_deploy,
    .deployed = deployed,
    .returned = returned,
    .turn_scoring = turn_scoring,
    .turn_done = turn_done,
    .final_scoring = final_scoring,
    .replay = replay,
};
