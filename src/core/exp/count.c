/* count.c - The Count of Carcassonne as a unit, as JCloisterZone plays it.
 *
 * The City of Carcassonne is the start: twelve tiles (count.tiles), its
 * fields running round it. CO/7 holds its four quarters; each serves
 * one kind of feature: the castle cities, the market fields, the
 * blacksmith roads, the cathedral monasteries.
 * - Into the City: when the turn's scoring gave points to other players
 *   and none to the player on turn, that player may send a follower from
 *   supply (not an abbot) into any quarter (the market only with
 *   farmers), then move the count to another quarter or leave it (a
 *   PASS). No COMMIT follows.
 * - Out of the City, before a turn's completed features score: in seat
 *   order from the player after the one on turn round to that player,
 *   each with a follower in a quarter whose kind the turn completed (a
 *   feature on the turn's tile, a monastery it surrounded) may move such
 *   followers onto those features, one at a time, or pass; a COMMIT
 *   follows a move. The market serves no field during the game (barns
 *   only, which this unit leaves out).
 * - At the end, before the final scoring: followers leave the market
 *   onto any field, in turns round the table until every such player
 *   passed (JCloisterZone's default; the other quarters' followers stay,
 *   as the corpus shows: nobody is asked for them).
 * - The count's quarter keeps its followers in the City. Followers left
 *   in the City score nothing.
 * - A field joined to the City counts it as one more completed city for
 *   its farmers ("coc": 3 points; the City's fields carry 'coc').
 * Fliers never land in the City (exp/flier.c asks the tile's group). */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/count.h"
#include "core/game_int.h"
#include "core/move.h"
#include "core/replay.h"
#include "core/words.h"

const struct figure_class figure_class_COUNT = {
    .jcz = "count", .name = "count", .names = "counts",
};

const struct feature_class feature_class_QUARTER = {
    .name = "quarter", .jcz = "Quarter", .done = DONE_NEVER,
    .on_board = true, .role = "citizen", .roles = "citizens",
};

struct count_state {
    int16_t quarter[SPOT__COUNT]; /* the quarters' segments, -1: none */
    int16_t ev0;      /* the turn's first score event */
    uint8_t count_at; /* enum tile_spot the count stands in */
    int8_t offer;     /* seat offered a follower into the City, -1 */
    int8_t mover;     /* seat that moves the count now, -1 */
    int8_t held;      /* seat deciding before the held scoring, -1 */
    bool city;        /* the City is on the board */
};
UNIT_STATE_FITS(struct count_state);

static struct count_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_COUNT, struct count_state);
}

static const struct count_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_COUNT, struct count_state);
}

/* The kind of feature each quarter serves. */
static const uint8_t serves[SPOT__COUNT] = {
    [SPOT_CASTLE] = FEAT_CITY, [SPOT_MARKET] = FEAT_FIELD,
    [SPOT_BLACKSMITH] = FEAT_ROAD, [SPOT_CATHEDRAL] = FEAT_MONASTERY,
};

/* The quarter of seg, or -1. */
static int spot_of(const struct game *g, int seg)
{
    const struct count_state *s = cst(g);
    for (int q = 0; q < SPOT__COUNT; q++)
        if (seg >= 0 && s->quarter[q] == seg)
            return q;
    return -1;
}

/* May a figure of this kind go into the City? Followers that may stand
 * on a road or a city (not the abbot). */
static bool citizen(int kind)
{
    const struct figure_class *c = figure_class(kind);
    return c && c->follower &&
           (c->stands & (1u << FEAT_ROAD | 1u << FEAT_CITY));
}

static void start(struct game *g)
{
    struct count_state *s = st(g);
    memset(s, 0, sizeof *s);
    s->offer = s->mover = s->held = -1;
    s->count_at = SPOT_CASTLE;
    for (int q = 0; q < SPOT__COUNT; q++)
        s->quarter[q] = -1;
    for (int i = 0; i < g->n_segs; i++)
        if (g->segs[i].kind == FEAT_QUARTER && g->segs[i].mask) {
            s->quarter[__builtin_ctz(g->segs[i].mask)] = (int16_t)i;
            s->city = true;
        }
}

static void placed(struct game *g, int tile)
{
    (void)tile;
    struct count_state *s = st(g);
    s->offer = s->mover = -1; /* what the log left undone lapses */
}

/* The scoring of what the turn completed begins: only its events count
 * for the City (not an abbot's recall earlier in the turn). */
static void turn_scoring(struct game *g)
{
    st(g)->ev0 = (int16_t)g->n_events;
}

/* Is root among the features the turn completed? */
static bool done_now(const struct game *g, int root)
{
    for (int j = 0; j < g->n_done; j++)
        if (g->done[j] == root)
            return true;
    return false;
}

/* May a follower in quarter q go onto seg: before the held scoring, a
 * feature the turn completed (the market serves no field then); at the
 * end only the market's, onto any field (JCloisterZone's default final
 * scoring of the City: the market only). */
static bool leave_target(const struct game *g, int q, int seg)
{
    if (seg < 0 || seg >= g->n_segs || !feat_is(g->segs[seg].kind, serves[q]))
        return false;
    if (!(g->kinds_on_board >> serves[q] & 1))
        return false;
    if (g->held)
        return q != SPOT_MARKET && done_now(g, game_root(g, seg));
    return q == SPOT_MARKET;
}

/* Has seat p a follower in a quarter it may leave now? */
static bool may_leave(const struct game *g, int p)
{
    const struct count_state *s = cst(g);
    for (int q = 0; q < SPOT__COUNT; q++) {
        if (q == s->count_at || s->quarter[q] < 0 ||
            g->segs[g->segs[s->quarter[q]].parent].meeples == 0)
            continue; /* most quarters stand empty: no walk of the figures */
        bool someone = false;
        for (int i = 0; i < g->n_meeples && !someone; i++)
            someone = g->meeples[i].owner == p &&
                      g->meeples[i].seg == s->quarter[q];
        if (!someone)
            continue;
        if (g->held) {
            for (int j = 0; j < g->n_done; j++)
                if (leave_target(g, q, g->done[j]))
                    return true;
        } else {
            for (int i = 0; i < g->n_segs; i++)
                if (g->segs[i].parent == i && leave_target(g, q, i))
                    return true;
        }
    }
    return false;
}

/* The first seat from `from` (itself when `self`) round to the player
 * on turn, asked last, that may move followers out before the held
 * scoring; -1. */
static int next_held(const struct game *g, int from, bool self)
{
    if (!self && from == g->seat)
        return -1;
    int first = self ? from : (from + 1) % g->rules.n_players;
    return game_seat_walk(g, first, g->seat, may_leave);
}

static bool hold_scoring(struct game *g)
{
    struct count_state *s = st(g);
    if (!s->city)
        return false;
    g->held = true; /* may_leave() asks for the held targets */
    s->held = (int8_t)next_held(g, (g->seat + 1) % g->rules.n_players,
                                true);
    g->held = s->held >= 0;
    return g->held;
}

/* After the scoring: the seat on turn scored nothing while others did
 * (events of the turn's scoring only: an abbot's recall does not count). */
static void turn_done(struct game *g)
{
    struct count_state *s = st(g);
    bool mine = false, theirs = false;
    if (!s->city)
        return;
    for (int e = s->ev0; e < g->n_events; e++) {
        const struct score_event *ev = &g->events[e];
        if (ev->points == 0)
            continue;
        if (ev->players >> g->seat & 1)
            mine = true;
        if (ev->players & ~(1u << g->seat))
            theirs = true;
    }
    s->offer = -1;
    if (mine || !theirs)
        return;
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].owner == g->seat && g->meeples[i].seg < 0 &&
            citizen(g->meeples[i].kind)) {
            s->offer = (int8_t)g->seat;
            return;
        }
}

/* The City's fields count it as a completed city. */
static void score(const struct rules *r, struct score_event *ev)
{
    (void)r;
    if (ev->feature != FEAT_FIELD || !ev->attrs[SA_BIT_COC])
        return;
    int rate = ev->expr == EXPR_BARN_CONNECTED ? 1 : 3;
    score_add_item(ev, SI_COC, -1, rate);
    ev->points += rate;
}

static const struct element elements[] = {
    { "count", EL_FLAG, RFB_COUNT, 1, true },
    { NULL, 0, 0, 0, false },
};

/* The count's quarter. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    return game_hash_mix(h, game_count_seg(g));
}

/* ---- the auditor's side: the count's move, the City's rounds ---------- */

/* A move around the City of Carcassonne: the seat whose follower it
 * moves (the id's, else the move's player, else the seat the engine
 * asks), and the follower: the one named, else for a move out of the
 * City one of that kind in a quarter the count leaves free, else one in
 * supply. */
static int city_seat(const struct audit *a, const struct move *m)
{
    if (m->meeple_owner >= 0)
        return m->meeple_owner;
    if (m->player >= 0)
        return m->player;
    int held = game_city_held_seat(a->g), offer = game_city_offer(a->g);
    return held >= 0 ? held : offer >= 0 ? offer : a->player;
}

static int resolve_city(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int owner = city_seat(a, m);
    if (owner < 0 || owner >= a->log->rules.n_players)
        return -1;
    if (m->meeple_n == 0 && m->feature != FEAT_QUARTER) {
        int pick = -1;
        for (int i = 0; i < g->n_meeples; i++) {
            int seg = g->meeples[i].seg;
            if (g->meeples[i].owner != owner ||
                g->meeples[i].kind != m->meeple || seg < 0 ||
                g->segs[seg].kind != FEAT_QUARTER)
                continue;
            if (pick < 0 || seg != game_count_seg(g))
                pick = i;
            if (seg != game_count_seg(g))
                break;
        }
        if (pick >= 0)
            return pick;
    }
    return game_meeple(g, owner, m->meeple, m->meeple_n);
}

static bool in_quarter(const struct game *g, int mi)
{
    int seg = mi >= 0 ? g->meeples[mi].seg : -1;
    return seg >= 0 && g->segs[seg].kind == FEAT_QUARTER;
}

/* Held scoring, or the end: a follower leaves the City of Carcassonne
 * for the feature m names. A COMMIT follows such a move before a
 * turn's scoring. */
static bool quarter_leave(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = resolve_city(a, m), seg = audit_move_seg(g, m);
    bool held = a->phase == PH_ROUND;
    enum rule rule = game_check_quarter_leave(g, city_seat(a, m), mi, seg,
                                              why, sizeof why);
    if (rule == RULE_OK && !held && !game_pack_done(g)) {
        rule = RULE_QUARTER_LEAVE;
        snprintf(why, sizeof why, "followers leave the City only before a "
                 "turn's scoring or at the end of the game");
    }
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "%s out of the City, on %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
        return false;
    }
    game_quarter_leave(g, mi, seg);
    return held; /* its COMMIT follows */
}

/* A seat asked before the held scoring declines (the turn's player last:
 * the scoring follows). */
static bool held_pass(struct audit *a, const struct move *m)
{
    (void)m;
    game_quarter_leave(a->g, -1, -1);
    return false;
}

/* After the scoring: the player on turn sends a follower into a quarter
 * of the City (the offer), or the log does so out of place. */
static bool quarter_deploy(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = resolve_city(a, m), seg = audit_move_seg(g, m);
    enum rule rule = game_check_quarter_deploy(g, city_seat(a, m), mi, seg,
                                               why, sizeof why);
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "%s into the City, on %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
        return false;
    }
    game_quarter_deploy(g, mi, seg);
    return false;
}

static bool offer_pass(struct audit *a, const struct move *m)
{
    (void)m;
    game_quarter_deploy(a->g, -1, -1); /* no follower into the City */
    return false;
}

static bool count_stays(struct audit *a, const struct move *m)
{
    (void)m;
    game_count_move(a->g, -1);
    return false;
}

static bool final_pass(struct audit *a, const struct move *m)
{
    (void)a;
    (void)m;
    return false; /* no follower out of the City at the end */
}

/* The first seat that may take a follower out of the City at the end,
 * or -1. */
static int final_seat(const struct game *g)
{
    if (!game_city_final_open(g))
        return -1;
    for (int p = 0; p < g->rules.n_players; p++)
        if (may_leave(g, p))
            return p;
    return -1;
}

/* Between turns, a deployment out of a quarter goes for the end's moves
 * out of the City (judged there, wherever it stands); a PASS only once
 * the offer and the count's move are done and the game is. */
static bool final_claims(const struct audit *a, const struct move *m)
{
    if (m->kind == MV_DEPLOY)
        return in_quarter(a->g, resolve_city(a, m)) &&
               m->feature != FEAT_QUARTER;
    return m->kind == MV_PASS && game_city_offer(a->g) < 0 &&
           game_city_count_mover(a->g) < 0 && final_seat(a->g) >= 0 &&
           game_pack_done(a->g);
}

/* A follower into a quarter between turns is the offer's answer, or out
 * of place (judged there). */
static bool offer_claims(const struct audit *a, const struct move *m)
{
    if (m->kind == MV_DEPLOY)
        return game_city_offer(a->g) >= 0 || m->feature == FEAT_QUARTER;
    return m->kind == MV_PASS && game_city_offer(a->g) >= 0;
}

static int held_asked(const struct game *g)
{
    return game_city_held_seat(g);
}

static int offer_asked(const struct game *g)
{
    return game_city_offer(g);
}

static int mover_asked(const struct game *g)
{
    return game_city_count_mover(g);
}

/* ---- what a recorder is offered (core/options.h) ---------------------- */

/* Each follower of seat in the City onto each feature it may leave
 * for. */
static int leave_options(const struct audit *a, int seat, struct move *out,
                         int max)
{
    const struct game *g = a->g;
    int n = 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++)
        if (g->meeples[mi].owner == seat && in_quarter(g, mi))
            n += audit_onto_options(a, MV_DEPLOY, seat, mi,
                                    game_check_quarter_leave, out + n,
                                    max - n);
    return n;
}

static int held_options(const struct audit *a, struct move *out, int max)
{
    int seat = game_city_held_seat(a->g);
    return seat >= 0 ? leave_options(a, seat, out, max) : 0;
}

static int final_options(const struct audit *a, struct move *out, int max)
{
    int seat = final_seat(a->g);
    return seat >= 0 ? leave_options(a, seat, out, max) : 0;
}

/* One follower of each kind in the offered seat's supply into each
 * quarter it may enter. */
static int offer_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int seat = game_city_offer(g), n = 0;
    unsigned kinds = 0;
    for (int mi = 0; seat >= 0 && mi < g->n_meeples && n < max; mi++) {
        const struct meeple *mp = &g->meeples[mi];
        if (mp->owner != seat || mp->seg >= 0 || (kinds >> mp->kind & 1))
            continue;
        kinds |= 1u << mp->kind;
        n += audit_onto_options(a, MV_DEPLOY, seat, mi,
                                game_check_quarter_deploy, out + n, max - n);
    }
    return n;
}

/* The count into each other quarter, by the player who sent a follower
 * into the City. */
static int count_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    int mover = game_city_count_mover(g), n = 0;
    for (int seg = 0; mover >= 0 && seg < g->n_segs && n < max; seg++) {
        if (g->segs[seg].kind != FEAT_QUARTER ||
            game_check_count_move(g, mover, seg, why, sizeof why) != RULE_OK)
            continue;
        out[n] = audit_option(MV_NEUTRAL);
        out[n].neutral = FIG_COUNT;
        audit_option_on(&out[n++], g, seg);
    }
    return n;
}

static const struct round_class rounds[] = {
    { /* before a turn's scoring: followers out onto what it completed */
      .what = "the City's followers before the scoring",
      .role = STEP_CITY, .pass_role = STEP_CITY, .from = ROUND_FROM_NEXT,
      .commit = COMMIT_AFTER_MOVE, .after_end = AFTER_END_NONE,
      .holds = true, .answers = 1ull << MV_DEPLOY, .asked = held_asked,
      .answer = quarter_leave, .pass = held_pass, .meeple = resolve_city,
      .release = game_city_release, .options = held_options },
    { /* at the end, before the final scoring: out of the market */
      .what = "the City's followers at the end",
      .role = STEP_CITY, .pass_role = STEP_CITY, .from = ROUND_FROM_TURN,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_NO_TILE,
      .answers = 1ull << MV_DEPLOY, .asked = final_seat,
      .claims = final_claims, .answer = quarter_leave, .pass = final_pass,
      .meeple = resolve_city, .options = final_options },
    { /* after the scoring: the turn's player into the City */
      .what = "a follower into the City",
      .role = STEP_CITY, .pass_role = STEP_CITY, .from = ROUND_ONLY_TURN,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_ANY,
      .answers = 1ull << MV_DEPLOY, .asked = offer_asked,
      .claims = offer_claims, .answer = quarter_deploy, .pass = offer_pass,
      .meeple = resolve_city, .options = offer_options },
    { /* then the count's move (its row), or a PASS: it stays */
      .what = "the count's move",
      .role = STEP_CITY, .pass_role = STEP_CITY, .from = ROUND_ONLY_TURN,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_ANY,
      .answers = 0, .asked = mover_asked, .pass = count_stays,
      .options = count_options },
    { .asked = NULL },
};

/* A follower into the City during a turn: only after the scoring. */
static bool turn_deploy(struct audit *a, const struct move *m)
{
    char nm[80];
    if (m->feature != FEAT_QUARTER)
        return false;
    a->phase = PH_DONE;
    game_act(a->g, m->meeple);
    audit_violate(a, m, RULE_QUARTER_DEPLOY, "%s into the City during a "
                  "turn: only after the scoring, when others scored and the "
                  "player on turn did not",
                  audit_meeple_name(a, m, nm, sizeof nm));
    return true;
}

static const struct audit_unit audit = {
    .rounds = rounds,
    .turn_deploy = turn_deploy,
};

/* The count moves to another quarter, by the player who sent a follower
 * into the City (a held scoring took place first). */
static void check_count(struct audit *a, const struct move *m)
{
    char why[200], name[64];
    struct game *g = a->g;
    int seg = audit_move_seg(g, m);
    int mover = game_city_count_mover(g);
    int player = m->player >= 0 ? m->player : mover;
    enum rule rule = a->phase != PH_IDLE
                         ? RULE_COUNT_MOVE
                         : game_check_count_move(g, player, seg, why,
                                                 sizeof why);
    if (a->phase != PH_IDLE)
        snprintf(why, sizeof why, "the count moves only between turns");
    a->role = STEP_CITY;
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "the count to %s: %s", name, why);
        return;
    }
    game_count_move(g, seg);
}

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_NEUTRAL,
        .neutral = FIG_COUNT,
        .slot = SLOT_BETWEEN,
        .check = check_count,
        .name = "count",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"count.1\",\"to\":\"$pointer\"}",
        .fl_fields = "at segment",
        .options = count_options,
    },
    { .name = NULL },
};

/* For a replay: the count, in its quarter of the City. */
static void replay(const struct game *g, struct replay_out *out)
{
    int cs = game_count_seg(g);
    if (cs >= 0)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_FIGURE, .name = "count", .seat = -1,
            .at = game_tile_pos(g, g->segs[cs].tile),
            .feature = g->segs[cs].kind, .mask = g->segs[cs].mask });
}

static int start_layout(const struct rules *r, struct start_place *out,
                        int max);

const struct expansion expansion_count = {
    .id = "count",
    .name = "The Count of Carcassonne",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .hold_scoring = hold_scoring,
    .turn_scoring = turn_scoring,
    .turn_done = turn_done,
    .score = score,
    .hash = hash,
    .replay = replay,
    .start_layout = start_layout,
};

/* ---- the engine's questions (game.h) ---------------------------------- */

static bool in_play(const struct game *g)
{
    return game_in_play(g, EXP_COUNT) && cst(g)->city;
}

int game_city_held_seat(const struct game *g)
{
    return in_play(g) && g->held ? cst(g)->held : -1;
}

int game_city_offer(const struct game *g)
{
    return in_play(g) ? cst(g)->offer : -1;
}

int game_city_count_mover(const struct game *g)
{
    return in_play(g) ? cst(g)->mover : -1;
}

int game_count_seg(const struct game *g)
{
    return in_play(g) ? cst(g)->quarter[cst(g)->count_at] : -1;
}

bool game_city_final_open(const struct game *g)
{
    if (!in_play(g) || g->held)
        return false;
    for (int p = 0; p < g->rules.n_players; p++)
        if (may_leave(g, p))
            return true;
    return false;
}

enum rule game_check_quarter_deploy(const struct game *g, int player, int m,
                                    int seg, char *why, size_t why_len)
{
    const struct count_state *s = cst(g);
    int q = spot_of(g, seg);
    if (!in_play(g) || s->offer < 0 || player != s->offer) {
        snprintf(why, why_len, "no follower may go into the City now: only "
                 "the player on turn, when others scored and it did not");
        return RULE_QUARTER_DEPLOY;
    }
    if (m < 0 || g->meeples[m].owner != player || g->meeples[m].seg >= 0) {
        snprintf(why, why_len, "that follower is not in its owner's supply");
        return RULE_MEEPLE_NONE_LEFT;
    }
    if (!citizen(g->meeples[m].kind)) {
        snprintf(why, why_len, "a %s never goes into the City",
                 figure_class(g->meeples[m].kind)->name);
        return RULE_QUARTER_DEPLOY;
    }
    if (q < 0 || (q == SPOT_MARKET && !(g->rules.flags & RF_FARMERS))) {
        snprintf(why, why_len, "no such quarter of the City%s",
                 q == SPOT_MARKET ? " (the market needs farmers)" : "");
        return RULE_QUARTER_DEPLOY;
    }
    return RULE_OK;
}

enum rule game_check_quarter_leave(const struct game *g, int player, int m,
                                   int seg, char *why, size_t why_len)
{
    const struct count_state *s = cst(g);
    int q = m >= 0 ? spot_of(g, g->meeples[m].seg) : -1;
    if (!in_play(g) || q < 0 || g->meeples[m].owner != player) {
        snprintf(why, why_len, "that follower is not in the City");
        return RULE_QUARTER_LEAVE;
    }
    if (g->held && player != s->held) {
        snprintf(why, why_len, "it is not that player's turn to take "
                 "followers out of the City");
        return RULE_QUARTER_LEAVE;
    }
    if (q == s->count_at) {
        snprintf(why, why_len, "the count in the %s keeps its followers in "
                 "the City", tile_spot_name(q));
        return RULE_QUARTER_LEAVE;
    }
    if (!leave_target(g, q, seg)) {
        if (g->held)
            snprintf(why, why_len, "from the %s a follower goes only onto "
                     "a %s this turn completed", tile_spot_name(q),
                     feat_name(serves[q]));
        else
            snprintf(why, why_len, "at the end only the market's followers "
                     "leave the City, onto a field");
        return RULE_QUARTER_LEAVE;
    }
    return RULE_OK;
}

enum rule game_check_count_move(const struct game *g, int player, int seg,
                                char *why, size_t why_len)
{
    const struct count_state *s = cst(g);
    int q = spot_of(g, seg);
    if (!in_play(g) || s->mover < 0 || player != s->mover) {
        snprintf(why, why_len, "the count moves only after a follower went "
                 "into the City, by that player");
        return RULE_COUNT_MOVE;
    }
    if (q < 0 || (q == SPOT_MARKET && !(g->rules.flags & RF_FARMERS))) {
        snprintf(why, why_len, "no such quarter of the City");
        return RULE_COUNT_MOVE;
    }
    if (q == s->count_at) {
        snprintf(why, why_len, "the count already stands in the %s (a move "
                 "goes to another quarter)", tile_spot_name(q));
        return RULE_COUNT_MOVE;
    }
    return RULE_OK;
}

void game_quarter_deploy(struct game *g, int m, int seg)
{
    struct count_state *s = st(g);
    if (m >= 0 && seg >= 0) {
        game_put(g, m, seg);
        s->mover = s->offer;
    }
    s->offer = -1;
}

void game_quarter_leave(struct game *g, int m, int seg)
{
    struct count_state *s = st(g);
    if (m >= 0 && seg >= 0)
        game_put(g, m, seg);
    if (!g->held)
        return;
    int p = s->held;
    if (m >= 0 && seg >= 0) /* the same player may move another */
        s->held = (int8_t)next_held(g, p, true);
    else
        s->held = (int8_t)next_held(g, p, false);
    if (s->held < 0)
        game_finish_turn(g);
}

void game_count_move(struct game *g, int seg)
{
    struct count_state *s = st(g);
    int q = spot_of(g, seg);
    if (q >= 0)
        s->count_at = (uint8_t)q;
    s->mover = -1;
}

void game_city_release(struct game *g)
{
    if (!g->held)
        return;
    st(g)->held = -1;
    game_finish_turn(g);
}

/* The City as JCloisterZone lays it out: four by three, row by row. */
static const char *const city_layout[3][4] = {
    { "CO/1", "CO/2", "CO/3", "CO/4" },
    { "CO/5", "CO/6", "CO/7", "CO/8" },
    { "CO/9", "CO/10", "CO/11", "CO/12" },
};

/* The City of Carcassonne: CO/1..CO/12, four by three, CO/7 at (0,0). */
static int start_layout(const struct rules *r, struct start_place *out,
                        int max)
{
    int set = tile_set_find("count"), n = 0;
    if (set < 0 || !r->set_copies[set])
        return 0;
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4 && n < max; x++)
            out[n++] = (struct start_place){
                (int16_t)tile_find(city_layout[y][x]), 0, { x - 2, y - 1 } };
    return n;
}
