/* bigtop.c - Under the Big Top (JCloisterZone's sets under-the-big-top:1
 * and :2, the elements "ringmaster", "big-top" and "acrobats") as a
 * unit, as JCloisterZone plays it.
 *  - Acrobat spaces (FEAT_ACROBATS, inside the .ac tiles): as the turn's
 *    action a small follower goes onto one on the turn's tile or the 8
 *    around it holding fewer than 3 figures, anyone's (they stack); 3
 *    make a complete pyramid, which any later turn's action may score
 *    instead (MV_SCORE_ACROBATS, anywhere on the board): 5 a figure to
 *    each owner, the figures go home. At the end every occupied space
 *    scores so. Nothing else ever sends acrobats home.
 *  - The ringmaster (FIG_RINGMASTER, one a player): a follower of
 *    strength 1 on a road, city, monastery or field, never an acrobat
 *    space; it flies. Whenever a feature it stands on scores (in a turn
 *    or at the end), won or not, its owner gets 2 for each circus tile
 *    and each acrobat space on its tile and the 8 around it.
 *  - JCloisterZone lists the seats that get the same points from one
 *    scoring in one event, with the terms of the first (for ringmasters:
 *    the one that came onto the board first), so the unit's events do.
 *  - The big top: when a circus tile (tile mark "bigtop") is placed, the
 *    big top, if it stands on another already, scores there with an
 *    animal token drawn from the bag (each player's followers on its
 *    tile and the 8 around it, after the turn's scoring, times the
 *    token's value), then moves to the new tile. At the end it scores
 *    once more where it stands. JCloisterZone draws the token with its
 *    turn generator's current number (the turn's COMMIT random) and so
 *    uses it up: the next tile is drawn with the generator's next number
 *    (audit_unit.randoms_used).
 *  - The Flier: JCloisterZone never offers a flier an acrobat space; the
 *    rule pages let a small follower land on one that is not a complete
 *    pyramid. The rule variant "flier-acrobats" chooses (0: as
 *    JCloisterZone, 1: as the rule pages).
 * Tiles: bigtop.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/bigtop.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/replay.h"
#include "core/text.h"

enum {
    PYRAMID = 3,          /* figures on a complete pyramid */
    ACROBAT_POINTS = 5,   /* a figure on acrobats */
    RINGMASTER_POINTS = 2,/* a circus tile or acrobat space around it */
    TOKEN_VALUES = 6,
};

/* The animal tokens, in JCloisterZone's order: their values and how many
 * of each the bag holds. */
static const uint8_t token_value[TOKEN_VALUES] = { 1, 3, 4, 5, 6, 7 };
static const uint8_t token_count[TOKEN_VALUES] = { 1, 4, 5, 3, 2, 1 };

struct bigtop_state {
    double random;      /* the turn's random number, -1: unknown */
    int16_t x, y;       /* where the big top stands */
    bool on_board;
    bool used;          /* the last turn drew a token with its number */
    uint8_t drawn[TOKEN_VALUES]; /* tokens of each value drawn */
    /* the turn each seat's ringmaster came onto the board (0: in supply,
     * or it came this turn), to tell which came first */
    uint16_t since[GAME_MAX_PLAYERS];
};
UNIT_STATE_FITS(struct bigtop_state);

static struct bigtop_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_BIGTOP, struct bigtop_state);
}

static const struct bigtop_state *cst(const struct game *g)
{
    return UNIT_STATE(g, EXP_BIGTOP, const struct bigtop_state);
}

/* ---- classes ------------------------------------------------------------ */

/* "acrobats at (1,2): 2 figures × 5" */
static int explain_acrobats(const struct game_log *log,
                            const struct score_event *ev,
                            const struct feature_ref *refs, char *out,
                            size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "acrobats");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    int n = ev->n_items ? ev->items[0].count : 0;
    text_put(&t, ": ");
    text_int(&t, n);
    text_put(&t, n == 1 ? " figure × 5 = " : " figures × 5 = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

const struct feature_class feature_class_ACROBATS = {
    .claimable = true,
    .name = "acrobats", .jcz = "Acrobats", .done = DONE_NEVER,
    .on_board = true, .needs = RF_ACROBATS,
    .no_landing = RULE_FLIER_BAD_FEATURE,
    .land_option = 1 + OPT_FLIER_ACROBATS,
    .role = "acrobat", .roles = "acrobats", .explain = explain_acrobats,
};

/* "big top at (3,1), animal 4: 2 followers × 4 = 8" */
static int explain_bigtop(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "big top");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    int n = ev->n_items ? ev->items[0].count : 0;
    int v = n ? ev->points / n : 0;
    text_put(&t, ", animal ");
    text_int(&t, v);
    text_put(&t, ": ");
    text_int(&t, n);
    text_put(&t, n == 1 ? " follower around it × " : " followers around it × ");
    text_int(&t, v);
    text_put(&t, " = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

const struct feature_class feature_class_BIGTOP = {
    .name = "bigtop", .explain = explain_bigtop,
};

/* "ringmaster at (3,1): 1 circus tile and 2 acrobat spaces around it,
 * 3 × 2 = 6" */
static int explain_ringmaster(const struct game_log *log,
                              const struct score_event *ev,
                              const struct feature_ref *refs, char *out,
                              size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    int circus = 0, acrobats = 0;
    for (int i = 0; i < ev->n_items; i++) {
        if (ev->items[i].kind == SI_CIRCUS)
            circus = ev->items[i].count;
        else if (ev->items[i].kind == SI_ACROBATS)
            acrobats = ev->items[i].count;
    }
    text_put(&t, "ringmaster");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, ", its feature scored: ");
    text_int(&t, circus);
    text_put(&t, circus == 1 ? " circus tile and " : " circus tiles and ");
    text_int(&t, acrobats);
    text_put(&t, acrobats == 1 ? " acrobat space" : " acrobat spaces");
    text_put(&t, " around it, ");
    text_int(&t, circus + acrobats);
    text_put(&t, " × 2 = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

const struct feature_class feature_class_RINGMASTER = {
    .name = "ringmaster", .explain = explain_ringmaster,
};

#define STANDS(f) (1u << FEAT_##f)

const struct figure_class figure_class_RINGMASTER = {
    .jcz = "ringmaster", .name = "ringmaster", .names = "ringmasters",
    .strength = 1,
    .stands = STANDS(ROAD) | STANDS(CITY) | STANDS(MONASTERY) | STANDS(FIELD) |
              STANDS(YAGA_HUT),
    .follower = true, .flies = true,
};

static const struct element elements[] = {
    { "ringmaster", EL_FIGURES, FIG_RINGMASTER, 1, true },
    { "big-top", EL_FLAG, RFB_BIG_TOP, 1, true },
    { "acrobats", EL_FLAG, RFB_ACROBATS, 1, false },
    { NULL, 0, 0, 0, false },
};

/* ---- the board around a tile ------------------------------------------- */

static bool near(struct pos a, struct pos b)
{
    return a.x >= b.x - 1 && a.x <= b.x + 1 && a.y >= b.y - 1 &&
           a.y <= b.y + 1;
}

/* The acrobat space of tile t, or -1. */
static int acrobats_seg(const struct game *g, int t)
{
    if (t < 0)
        return -1;
    const struct placed *pl = &g->tiles[t];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == FEAT_ACROBATS)
            return i;
    return -1;
}

static bool is_circus(const struct game *g, int t)
{
    return t >= 0 && (tile_get(g->tiles[t].def)->marks & TILE_MARK(CIRCUS));
}

/* Circus tiles and acrobat spaces on the tile at c and the 8 around. */
static void count_around(const struct game *g, struct pos c, int *circus,
                         int *acrobats)
{
    *circus = *acrobats = 0;
    for (int k = 0; k < 9; k++) {
        struct pos q = { c.x + k % 3 - 1, c.y + k / 3 - 1 };
        int t = game_tile_at(g, q);
        *circus += is_circus(g, t);
        *acrobats += acrobats_seg(g, t) >= 0;
    }
}

/* ---- events ----------------------------------------------------------- */

static int points_of(const struct score_item *items, int n)
{
    int pts = 0;
    for (int i = 0; i < n; i++)
        pts += items[i].points;
    return pts;
}

/* An event of class feat for every group of seats with the same points
 * (JCloisterZone lists them in one event, with the terms of the first in
 * its order: order[p] lowest first, NULL: seat order): items[p][0..n[p])
 * per seat, none when n[p] is 0; at is the tile it names. */
static void award_groups(struct game *g, int feat, int turn, struct pos at,
                         const int n[GAME_MAX_PLAYERS],
                         struct score_item items[GAME_MAX_PLAYERS][2],
                         const int *order)
{
    unsigned left = 0;
    for (int p = 0; p < g->rules.n_players; p++)
        if (n[p])
            left |= 1u << p;
    while (left) {
        int lead = __builtin_ctz(left);
        unsigned same = 0;
        int pts = points_of(items[lead], n[lead]);
        for (unsigned w = left; w; w &= w - 1) {
            int p = __builtin_ctz(w);
            if (points_of(items[p], n[p]) != pts)
                continue;
            same |= 1u << p;
            if (order && order[p] < order[lead])
                lead = p;
        }
        left &= ~same;
        struct score_event *ev = game_new_event(g);
        ev->turn = turn;
        ev->feature = (uint8_t)feat;
        ev->completed = true;
        ev->players = (uint8_t)same;
        int t = game_tile_at(g, at);
        if (t >= 0) {
            ev->seg = (uint16_t)g->tiles[t].seg0;
            game_event_ref(g, ev, g->tiles[t].seg0);
        }
        for (int i = 0; i < n[lead]; i++) {
            score_add_item(ev, items[lead][i].kind, items[lead][i].count,
                           items[lead][i].points);
            ev->points += items[lead][i].points;
        }
        for (unsigned w = same; w; w &= w - 1)
            g->score[__builtin_ctz(w)] += ev->points;
    }
}

/* ---- acrobats ----------------------------------------------------------- */

/* The figures of each seat on the acrobat space seg into n, items. */
static void acrobat_terms(const struct game *g, int seg,
                          int n[GAME_MAX_PLAYERS],
                          struct score_item items[GAME_MAX_PLAYERS][2])
{
    int per[GAME_MAX_PLAYERS];
    game_feature_meeples(g, seg, per);
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) {
        n[p] = per[p] ? 1 : 0;
        items[p][0] = (struct score_item){ SI_MEEPLES, (int16_t)per[p],
                                           (int16_t)(ACROBAT_POINTS * per[p]) };
    }
}

static void score_acrobats(struct game *g, int seg, int turn)
{
    int n[GAME_MAX_PLAYERS];
    struct score_item items[GAME_MAX_PLAYERS][2];
    memset(items, 0, sizeof items);
    acrobat_terms(g, seg, n, items);
    award_groups(g, FEAT_ACROBATS, turn, game_tile_pos(g, g->segs[seg].tile),
                 n, items, NULL);
}

enum rule game_check_score_acrobats(const struct game *g, int seg, char *why,
                                    size_t why_len)
{
    if (seg < 0 || g->segs[seg].kind != FEAT_ACROBATS) {
        snprintf(why, why_len, "no acrobat space is there");
        return RULE_ACROBATS;
    }
    int n = game_feature_meeples(g, seg, NULL);
    if (n < PYRAMID) {
        snprintf(why, why_len, "the pyramid there has %d figure%s, not %d",
                 n, n == 1 ? "" : "s", PYRAMID);
        return RULE_ACROBATS;
    }
    return game_check_action(g, FIG_SMALL, why, why_len);
}

void game_score_acrobats(struct game *g, int seg)
{
    score_acrobats(g, seg, g->turn);
    game_return_figures(g, seg, true);
    game_act(g, FIG_SMALL);
}

/* A deployment on an acrobat space: a small follower, onto a space on
 * the turn's tile or around it with room, as the turn's action. */
static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    (void)player;
    if (g->segs[seg].kind != FEAT_ACROBATS)
        return -1;
    int fig = g->meeples[m].kind;
    if (!game_kind_allowed(g, fig, FEAT_ACROBATS)) {
        snprintf(why, why_len, "only a small follower may go onto an "
                 "acrobat space, not a %s", figure_class(fig)->name);
        return RULE_MEEPLE_WRONG_TYPE;
    }
    struct pos p = game_tile_pos(g, g->segs[seg].tile);
    if (g->now.tile < 0 || !near(p, game_tile_pos(g, g->now.tile))) {
        snprintf(why, why_len, "the acrobat space at (%d,%d) is neither on "
                 "the tile placed this turn nor next to it", p.x, p.y);
        return RULE_MEEPLE_NOT_ON_PLACED_TILE;
    }
    if (game_feature_meeples(g, seg, NULL) >= PYRAMID) {
        snprintf(why, why_len, "the pyramid at (%d,%d) is complete", p.x,
                 p.y);
        return RULE_MEEPLE_FEATURE_OCCUPIED;
    }
    enum rule r = game_check_action(g, fig, why, why_len);
    return r != RULE_OK ? r : game_check_stand(g, fig, seg, why, why_len);
}

/* A flier lands on an acrobat space (as the variant allows) only while
 * it is no complete pyramid (a deployment onto one is refused before,
 * by check_deploy). */
static int check_stand(const struct game *g, int fig, int seg, char *why,
                       size_t why_len)
{
    (void)fig;
    if (g->segs[seg].kind != FEAT_ACROBATS ||
        game_feature_meeples(g, seg, NULL) < PYRAMID)
        return RULE_OK;
    if (why)
        snprintf(why, why_len, "the pyramid there is complete");
    return RULE_FLIER_COMPLETED;
}

/* ---- the ringmaster ----------------------------------------------------- */

/* The feature of root scored: each ringmaster on it earns its bonus. */
static void scored(struct game *g, int root, int turn, const int *roots)
{
    const struct bigtop_state *s = cst(g);
    int n[GAME_MAX_PLAYERS] = { 0 }, order[GAME_MAX_PLAYERS] = { 0 };
    struct score_item items[GAME_MAX_PLAYERS][2];
    memset(items, 0, sizeof items);
    struct pos at = { 0, 0 };
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (roots[i] != root || m->kind != FIG_RINGMASTER || m->seg < 0 ||
            m->owner < 0)
            continue;
        int c, a, p = m->owner;
        order[p] = s->since[p] ? s->since[p] : UINT16_MAX;
        at = game_tile_pos(g, g->segs[m->seg].tile);
        count_around(g, at, &c, &a);
        if (c)
            items[p][n[p]++] = (struct score_item){
                SI_CIRCUS, (int16_t)c, (int16_t)(RINGMASTER_POINTS * c) };
        if (a)
            items[p][n[p]++] = (struct score_item){
                SI_ACROBATS, (int16_t)a, (int16_t)(RINGMASTER_POINTS * a) };
    }
    award_groups(g, FEAT_RINGMASTER, turn, at, n, items, order);
}

/* ---- the big top ---------------------------------------------------------- */

/* The token the number r draws from the bag (its value), taken out. */
static int draw_token(struct bigtop_state *s, double r)
{
    int left = 0;
    for (int v = 0; v < TOKEN_VALUES; v++)
        left += token_count[v] - s->drawn[v];
    if (left <= 0) { /* a second bag */
        memset(s->drawn, 0, sizeof s->drawn);
        left = 16;
    }
    int k = (int)(r * left);
    for (int v = 0; v < TOKEN_VALUES; v++) {
        int here = token_count[v] - s->drawn[v];
        if (k < here) {
            s->drawn[v]++;
            return token_value[v];
        }
        k -= here;
    }
    return 0;
}

/* The big top scores where it stands, with a token drawn with r. */
static void score_bigtop(struct game *g, double r, int turn)
{
    struct bigtop_state *s = st(g);
    struct pos at = { s->x, s->y };
    int v = draw_token(s, r < 0 ? 0 : r); /* unknown: the first left */
    int n[GAME_MAX_PLAYERS] = { 0 }, k[GAME_MAX_PLAYERS] = { 0 };
    struct score_item items[GAME_MAX_PLAYERS][2];
    memset(items, 0, sizeof items);
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg >= 0 && m->owner >= 0 && figure_class(m->kind)->follower &&
            near(game_tile_pos(g, g->segs[m->seg].tile), at))
            k[m->owner]++;
    }
    for (int p = 0; p < g->rules.n_players; p++) {
        n[p] = k[p] ? 1 : 0;
        items[p][0] = (struct score_item){ SI_MEEPLES, (int16_t)k[p],
                                           (int16_t)(k[p] * v) };
    }
    award_groups(g, FEAT_BIGTOP, turn, at, n, items, NULL);
}

static void start(struct game *g)
{
    struct bigtop_state *s = st(g);
    memset(s, 0, sizeof *s);
    s->random = -1.0;
}

/* After the turn's scoring: a circus tile placed brings the big top,
 * which scores first where it stood. */
static void turn_done(struct game *g)
{
    struct bigtop_state *s = st(g);
    int t = g->now.tile;
    s->used = false;
    for (int p = 0; p < g->rules.n_players; p++) {
        int m = game_meeple(g, p, FIG_RINGMASTER, 1);
        bool on = m >= 0 && g->meeples[m].seg >= 0;
        s->since[p] = !on ? 0 : s->since[p] ? s->since[p] : (uint16_t)g->turn;
    }
    if (!is_circus(g, t) || !(g->rules.flags & RF_BIG_TOP))
        return;
    if (s->on_board) {
        score_bigtop(g, s->random, g->turn);
        s->used = true;
    }
    struct pos p = game_tile_pos(g, t);
    s->x = (int16_t)p.x;
    s->y = (int16_t)p.y;
    s->on_board = true;
}

/* The end: every occupied acrobat space, then the big top once more,
 * with the number the last turn left. */
static void final_scoring(struct game *g)
{
    for (int t = 0; t < g->n_tiles; t++) {
        int seg = acrobats_seg(g, t);
        if (seg >= 0 && game_feature_meeples(g, seg, NULL) > 0)
            score_acrobats(g, seg, -1);
    }
    struct bigtop_state *s = st(g);
    if (!s->on_board || !(g->rules.flags & RF_BIG_TOP))
        return;
    double r = s->random;
    if (r >= 0 && s->used)
        r = game_redraw_random(r);
    score_bigtop(g, r, -1);
}

void game_bigtop_random(struct game *g, double r)
{
    st(g)->random = r;
}

bool game_bigtop_at(const struct game *g, struct pos *at)
{
    const struct bigtop_state *s = cst(g);
    if (at)
        *at = (struct pos){ s->x, s->y };
    return s->on_board;
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct bigtop_state *s = cst(g);
    h = game_hash_mix(h, s->on_board ? s->x * 1000 + s->y : -1000000);
    for (int v = 0; v < TOKEN_VALUES; v++)
        h = game_hash_mix(h, s->drawn[v]);
    return h;
}

static void replay(const struct game *g, struct replay_out *out)
{
    struct replay_item it = { .kind = REPLAY_FIGURE, .seat = -1,
                              .name = "bigtop" };
    if (game_bigtop_at(g, &it.at))
        replay_put(out, it);
}

/* ---- the auditor --------------------------------------------------------- */

/* The acrobat space at the target of this turn's flight, when the
 * variant decided whether the flier could land there: a small follower
 * that came back to supply (JCloisterZone's way) or landed on acrobats
 * (the rule pages'); -1 otherwise. */
static int variant_landing(const struct audit *a)
{
    if (a->flight < 0 || (size_t)a->flight >= a->r->n_flights)
        return -1;
    const struct flight *f = &a->r->flights[a->flight];
    if (f->figure != FIG_SMALL || f->bad_roll || f->pending)
        return -1;
    if (f->landed)
        return f->feature == FEAT_ACROBATS
                   ? acrobats_seg(a->g, game_tile_at(a->g, f->target)) : -1;
    int seg = acrobats_seg(a->g, game_tile_at(a->g, f->target));
    return seg >= 0 && game_feature_meeples(a->g, seg, NULL) < PYRAMID ? seg
                                                                      : -1;
}

/* The report says which way the flier-acrobats variant was applied, and
 * where it first decided a flight. */
static void note_variant(struct audit *a)
{
    bool pages = a->g->rules.opt[OPT_FLIER_ACROBATS] != 0;
    char *note = a->r->rule_note;
    if (!note[0])
        snprintf(note, AUDIT_MSG_MAX, "flier-acrobats=%s: %s",
                 pages ? "small" : "never",
                 pages ? "as the rule pages, a small follower may land on an "
                         "acrobat space that is no complete pyramid"
                       : "as JCloisterZone, a flier never lands on an "
                         "acrobat space");
    if (strstr(note, "; turn ") || variant_landing(a) < 0)
        return;
    const struct flight *f = &a->r->flights[a->flight];
    size_t n = strlen(note);
    snprintf(note + n, AUDIT_MSG_MAX - n, "; turn %d, %s's follower %s the "
             "acrobats at (%d,%d), which %s", f->turn, audit_who(a, f->player),
             f->landed ? "landed on" : "went back to supply beside",
             f->target.x, f->target.y,
             f->landed ? "JCloisterZone never offers a flier"
                       : "the rule pages would have let it land on");
}

/* The turn ends: its random number, which the big top draws with. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    (void)void_turn;
    note_variant(a);
    if (m) /* else the log's end, after the last turn's COMMIT */
        game_bigtop_random(a->g, audit_turn_random(a, m));
}

static int randoms_used(const struct game *g)
{
    return cst(g)->used ? 1 : 0;
}

static const struct audit_unit audit = {
    .turn_end = turn_end,
    .randoms_used = randoms_used,
};

static void check_score(struct audit *a, const struct move *m)
{
    char why[200];
    int seg = audit_move_seg(a->g, m);
    enum rule rule = game_check_score_acrobats(a->g, seg, why, sizeof why);
    a->phase = PH_DONE;
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "the acrobats at (%d,%d) scored: %s",
                      m->at.x, m->at.y, why);
        game_act(a->g, FIG_SMALL);
        return;
    }
    game_score_acrobats(a->g, seg);
}

/* Each pyramid that may score as the turn's action. */
static int score_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    for (int seg = 0; seg < g->n_segs && n < max; seg++) {
        if (g->segs[seg].kind != FEAT_ACROBATS ||
            game_check_score_acrobats(g, seg, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_SCORE_ACROBATS);
        audit_option_on(&out[n++], g, seg);
    }
    return n;
}

static const struct move_class moves[] = {
    {
        .kind = MV_SCORE_ACROBATS,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "a pyramid scored",
        .check = check_score,
        .name = "score-acrobats",
        .jcz = "SCORE_ACROBATS",
        .jcz_payload = "{\"pointer\":\"$pointer\"}",
        .feature = FEAT_ACROBATS,
        .fl_fields = "at",
        .options = score_options,
    },
    { .name = NULL },
};

const struct expansion expansion_bigtop = {
    .id = "bigtop",
    .name = "Under the Big Top",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .check_deploy = check_deploy,
    .check_stand = check_stand,
    .scored = scored,
    .turn_done = turn_done,
    .final_scoring = final_scoring,
    .hash = hash,
    .replay = replay,
};
