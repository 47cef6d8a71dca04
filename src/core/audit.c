/* audit.c - the replay state machine behind `flierd audit`.
 *
 * One turn is: PLACE, then at most one of DEPLOY / flight (+ landing) /
 * RECALL / PASS, then COMMIT. Each message is checked in the precedence
 * order of enum rule; at most one violation is recorded per message. */
#include "core/audit.h"
#include "core/audit_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/xalloc.h"

enum phase {
    PH_IDLE,   /* between turns */
    PH_ACTION, /* tile placed, nothing else yet */
    PH_FLYING, /* flown with landing options: a landing must follow */
    PH_DONE,   /* the turn's action is taken */
    PH_VOID,   /* the turn's tile could not be placed: skip to COMMIT */
    PH_HELD,   /* COMMIT came, but the scoring waits for followers that
                  may leave the City of Carcassonne first */
};

struct audit {
    const struct game_log *log;
    struct game *g;
    struct report *r;
    enum phase phase;
    int turn;
    int player;
    int flight;       /* index in r->flights of this turn's flight, -1 */
    int flight_meeple;/* meeple index of that flight, -1 */
    bool flight_open; /* its landing is still to come (or be refused) */
    bool passed;      /* this turn's player passed */
    bool draw_trusted;/* every draw so far matched the save's randoms */
    double redraw;    /* after a tile put aside: the number JCloisterZone
                         draws the next with (-1: none) */
    bool commit_due;  /* a COMMIT ends what happened between turns (an
                         abbey declined before drawing, wagons moved) */
    uint8_t due_role; /* enum step_role of that COMMIT */
    uint8_t role;     /* enum step_role of the last move */
    bool ended;       /* the log's last turn is over */
};

static const char *who(const struct audit *a, int seat)
{
    return seat >= 0 && seat < a->log->rules.n_players ? a->log->names[seat]
                                                         : "?";
}

static void violate(struct audit *a, const struct move *m, enum rule rule,
                    const char *fmt, ...) PRINTF_LIKE(4, 5);

static struct violation *new_violation(struct report *r, int turn,
                                       int player, enum rule rule,
                                       uint32_t src)
{
    xgrow((void **)&r->violations, &r->cap_violations, r->n_violations + 1,
          sizeof *r->violations);
    struct violation *v = &r->violations[r->n_violations++];
    memset(v, 0, sizeof *v);
    v->turn = turn;
    v->player = player;
    v->rule = rule;
    v->src = src;
    return v;
}

void report_violation(struct report *r, int turn, int player, enum rule rule,
                      uint32_t src, const char *fmt, ...)
{
    struct violation *v = new_violation(r, turn, player, rule, src);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
}

static void violate(struct audit *a, const struct move *m, enum rule rule,
                    const char *fmt, ...)
{
    struct violation *v = new_violation(a->r, a->turn, a->player, rule,
                                        m ? m->src : 0);
    if (m && (m->kind == MV_PLACE || m->kind == MV_DEPLOY ||
              m->kind == MV_RECALL || m->kind == MV_TOWER ||
              m->kind == MV_CAPTURE)) {
        v->has_at = true;
        v->at = m->at;
        v->feature = m->kind == MV_PLACE ? FEAT_NONE : m->feature;
        v->mask = m->kind == MV_PLACE ? 0 : m->mask;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
}

static const char *meeple_name(const struct move *m, char *buf, size_t len)
{
    const struct figure_class *f = figure_class(m->meeple);
    if (m->meeple_owner >= 0 && m->meeple_n > 0)
        snprintf(buf, len, "%d.%s.%d", m->meeple_owner, f->jcz, m->meeple_n);
    else
        snprintf(buf, len, "%s", f->name);
    return buf;
}

/* "road (completed this turn), city, field" for the tile at p. */
static void describe_tile(const struct game *g, struct pos p, char *out,
                          size_t len)
{
    int tile = game_tile_at(g, p);
    size_t n = 0;
    out[0] = '\0';
    if (tile < 0) {
        snprintf(out, len, "no tile");
        return;
    }
    const struct placed *t = &g->tiles[tile];
    n += (size_t)snprintf(out, len, "%s:", tile_get(t->def)->id);
    for (int i = t->seg0; i < t->seg0 + t->n_seg && n < len; i++) {
        const struct seg *s = &g->segs[i];
        char name[40];
        seg_format(s->kind, s->mask, name, sizeof name);
        const char *state = "";
        const struct feature_class *c = feature_class(s->kind);
        if (c->done != DONE_NEVER && game_feature_complete(g, i))
            state = " (completed)";
        else if (c->claimable && game_feature_meeples(g, i, NULL))
            state = " (occupied)";
        n += (size_t)snprintf(out + n, len - n, "%s %s%s", i == t->seg0 ? "" : ",",
                              name, state);
    }
}

static void describe_options(const struct flight *f, char *out, size_t len)
{
    size_t n = 0;
    if (f->n_options == 0) {
        snprintf(out, len, "there was no valid landing");
        return;
    }
    n += (size_t)snprintf(out, len, "valid landing%s: ",
                          f->n_options == 1 ? " was" : "s were");
    for (int i = 0; i < f->n_options && n < len; i++) {
        char name[40];
        seg_format(f->options[i].feature, f->options[i].mask, name,
                   sizeof name);
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", name);
    }
}

/* ---- turn boundaries ------------------------------------------------- */

static void close_flight(struct audit *a, const struct move *m)
{
    if (!a->flight_open)
        return;
    a->flight_open = false;
    struct flight *f = &a->r->flights[a->flight];
    if (f->n_options > 0 && !f->bad_roll) {
        char opts[200];
        describe_options(f, opts, sizeof opts);
        violate(a, m, RULE_FLIER_MUST_LAND,
                "flier rolled %d towards %s from (%d,%d) to (%d,%d); %s, but "
                "the meeple went back to supply",
                f->roll, dir_name(f->dir), f->from.x, f->from.y, f->target.x,
                f->target.y, opts);
    }
}

/* Keeps the totals after turn t (for claims and the score chart). */
static void record_running(struct audit *a, int t)
{
    struct report *r = a->r;
    if (t < 0)
        return;
    if ((size_t)t >= r->cap_running) /* a log longer than its pack */
        xgrow((void **)&r->running, &r->cap_running, (size_t)t + 1,
              sizeof *r->running);
    for (size_t i = r->n_running; i < (size_t)t; i++) /* turns skipped */
        memcpy(r->running[i], a->g->score, sizeof r->running[i]);
    if (r->n_running <= (size_t)t)
        r->n_running = (size_t)t + 1;
    memcpy(r->running[t], a->g->score, sizeof r->running[t]);
}

static void end_turn(struct audit *a, const struct move *m)
{
    close_flight(a, m);
    int left = a->phase == PH_VOID ? 0 : game_dragon_steps(a->g);
    if (left > 0)
        violate(a, m, RULE_DRAGON_MOVE, "the dragon still had %d step%s to "
                "take this turn, and a square to go to", left,
                left == 1 ? "" : "s");
    game_dragon_stop(a->g);
    if (a->phase == PH_HELD)
        game_city_release(a->g); /* nobody moves any more: it scores */
    else if (a->phase != PH_IDLE && a->phase != PH_VOID)
        game_end_turn(a->g);
    else if (a->phase == PH_VOID)
        game_skip_turn(a->g);
    if (a->g->held) { /* followers may leave the City before it scores */
        a->phase = PH_HELD;
        return;
    }
    if (a->phase != PH_IDLE)
        record_running(a, a->turn);
    a->phase = PH_IDLE;
    a->flight = -1;
    a->flight_meeple = -1;
    a->passed = false;
}

/* ---- the draw ----------------------------------------------------------
 * JCloisterZone keeps its pack sorted by tile id and draws the tile at
 * floor(random x tiles left), with the random number of the previous
 * COMMIT. A drawn tile that fits nowhere is put aside without a message,
 * so following the draw is how we see such discards. */

static void add_discard(struct audit *a, int turn, int tile, bool logged)
{
    struct report *r = a->r;
    xgrow((void **)&r->discards, &r->cap_discards, r->n_discards + 1,
          sizeof *r->discards);
    r->discards[r->n_discards++] = (struct discard){ turn, (int16_t)tile,
                                                     logged };
    game_discard(a->g, tile);
}

static void stop_trusting_draw(struct audit *a, const char *why)
{
    if (!a->draw_trusted)
        return;
    a->draw_trusted = false;
    snprintf(a->r->draw_note, sizeof a->r->draw_note,
             "from turn %d the tiles do not follow the save's random "
             "numbers (%s); discards after it cannot be inferred",
             a->turn, why);
}

/* Does the placed tile follow the save's random number? False (with
 * the reason in why) when the number draws another tile that fits
 * somewhere: the tile was swapped, by hand or by a tool, and JCloisterZone
 * itself would not replay the save. A drawn tile that fits nowhere was
 * put aside (a discard, inferred) and JCloisterZone drew again with its
 * generator's next number (game_redraw_random()), maybe more than once.
 * No corpus has a discard to confirm that generator, so a redraw that
 * gives another fitting tile only stops the following (a note), never
 * a violation. The draw is checked once: after a swap the pack differs
 * from JCloisterZone's, and later draws are not followed. */
static bool follow_draw(struct audit *a, const struct move *m, char *why,
                        size_t why_len)
{
    double r = m->draw >= 0 ? m->draw : a->redraw;
    bool redrawn = m->draw < 0;
    a->redraw = -1.0;
    if (!a->draw_trusted || m->tile < 0 || a->g->pack[m->tile] <= 0)
        return true;
    if (r < 0) { /* nothing to follow: a test save or another tool */
        a->draw_trusted = false;
        return true;
    }
    a->r->draw_checked = true;
    for (;;) {
        int want = game_pack_draw(a->g, r);
        if (want == m->tile)
            return true;
        if (want < 0) {
            stop_trusting_draw(a, "no tile is left to draw");
            return true;
        }
        if (!game_fits_anywhere(a->g, want)) { /* put aside: draw again */
            add_discard(a, a->turn, want, false);
            r = game_redraw_random(r);
            redrawn = true;
            continue;
        }
        if (redrawn) {
            stop_trusting_draw(a, "the draw after a tile put aside gives "
                               "another tile");
            return true;
        }
        snprintf(why, why_len, "the save's random number %.17g draws %s "
                 "from the %d tiles that may be drawn, not %s", r,
                 tile_get(want)->id, a->g->draw_left, m->tile_id);
        stop_trusting_draw(a, "a tile was placed that the save did not "
                           "draw");
        return false;
    }
}

/* An inferred discard proved wrong (the tile is placed later): undo it. */
static void undo_inferred_discard(struct audit *a, int tile)
{
    struct report *r = a->r;
    for (size_t i = 0; i < r->n_discards; i++) {
        if (r->discards[i].logged || r->discards[i].tile != tile)
            continue;
        memmove(&r->discards[i], &r->discards[i + 1],
                (r->n_discards - i - 1) * sizeof *r->discards);
        r->n_discards--;
        game_undiscard(a->g, tile);
        stop_trusting_draw(a, "an inferred discard was placed later");
        return;
    }
}

static void place_checked(struct audit *a, const struct move *m)
{
    char why[200];
    if (a->phase != PH_IDLE)
        end_turn(a, m);
    a->turn++;
    a->player = a->g->seat; /* the game keeps who is on turn */
    a->phase = PH_VOID;
    if (m->tile >= 0 && a->g->pack[m->tile] <= 0)
        undo_inferred_discard(a, m->tile);
    char drawn[240];
    bool follows = follow_draw(a, m, drawn, sizeof drawn);
    enum rule rule = m->tile < 0 ? RULE_TILE_UNKNOWN
                                 : game_check_place(a->g, m->tile, m->at,
                                                    m->rot, why, sizeof why);
    if (rule == RULE_TILE_UNKNOWN) {
        violate(a, m, rule, "tile '%s' does not exist; the rest of the turn "
                "is skipped", m->tile_id);
        return;
    }
    if (!follows && (rule == RULE_OK || rule > RULE_TILE_NOT_DRAWN))
        violate(a, m, RULE_TILE_NOT_DRAWN, "%s", drawn);
    else if (rule != RULE_OK)
        violate(a, m, rule, "%s at (%d,%d) R%d: %s", m->tile_id, m->at.x,
                m->at.y, 90 * m->rot, why);
    if (rule == RULE_TILE_OCCUPIED)
        return;
    if (!game_place(a->g, m->tile, m->at, m->rot, a->turn)) {
        a->r->halted = true;
        a->r->halt_turn = a->turn;
        snprintf(a->r->halt_msg, sizeof a->r->halt_msg,
                 "turn %d: %s at (%d,%d) cannot be placed on a board of this "
                 "size; the replay stops here", a->turn, m->tile_id, m->at.x,
                 m->at.y);
        return;
    }
    a->phase = PH_ACTION;
}

static void discard_checked(struct audit *a, const struct move *m);

/* Wagons the log leaves waiting stay in supply (their owners passed). */
static void wagons_stay(struct audit *a)
{
    int w;
    while ((w = game_wagon_next(a->g)) >= 0)
        game_wagon_move(a->g, w, -1);
}

static void on_place(struct audit *a, const struct move *m)
{
    if (a->phase != PH_IDLE)
        end_turn(a, m); /* the log skipped the COMMIT */
    wagons_stay(a);
    a->commit_due = false;
    /* the game's last round of abbeys: whose it is */
    if (game_pack_left(a->g) == 0 && m->tile >= 0 &&
        tile_group_rank(tile_get(m->tile)->group) < 0)
        (void)game_abbey_offered(a->g);
    size_t before = a->r->n_violations;
    int last = a->player;
    place_checked(a, m);
    if (a->r->n_violations != before || m->player < 0 ||
        m->player == a->player)
        return;
    if (m->player == last) /* the same player again: only a builder's */
        violate(a, m, RULE_BUILDER_BONUS, "%s places a second tile in a row "
                "without a builder's right to it; it is %s's turn",
                who(a, m->player), who(a, a->player));
    else
        violate(a, m, RULE_TURN_ORDER, "the log names %s, but it is %s's "
                "turn", who(a, m->player), who(a, a->player));
}

static void on_discard(struct audit *a, const struct move *m)
{
    if (a->phase != PH_IDLE)
        end_turn(a, m);
    /* the discarded tile is the next turn's draw: blame that player */
    int turn = a->turn, player = a->player;
    a->turn++;
    a->player = a->g->seat;
    discard_checked(a, m);
    a->turn = turn;
    a->player = player;
}

static void discard_checked(struct audit *a, const struct move *m)
{
    if (m->tile < 0) {
        violate(a, m, RULE_TILE_UNKNOWN, "discarded tile '%s' does not exist",
                m->tile_id);
        return;
    }
    if (a->g->pack[m->tile] <= 0)
        violate(a, m, RULE_TILE_NOT_IN_PACK,
                "discarded %s, but no copy is left in the game's tile sets",
                m->tile_id);
    else if (game_fits_anywhere(a->g, m->tile))
        violate(a, m, RULE_TILE_DISCARD_FITS,
                "%s was discarded, but it fits on the board", m->tile_id);
    /* the next tile comes from the generator's next number */
    double r = m->draw >= 0 ? m->draw : a->redraw;
    a->redraw = r >= 0 ? game_redraw_random(r) : -1.0;
    add_discard(a, a->turn, m->tile, true);
}

/* A save ends when the pack is used up; tiles still in it are the ones
 * the engine drew and put aside at the end if none of them fits. */
static bool rest_is_unplaceable(struct audit *a)
{
    const struct game *g = a->g;
    for (int k = 0; k < g->n_pack_kinds; k++)
        if (g->pack[g->pack_kind[k]] > 0 &&
            game_fits_anywhere(g, g->pack_kind[k]))
            return false;
    for (int k = 0; k < g->n_pack_kinds; k++)
        while (g->pack[g->pack_kind[k]] > 0)
            add_discard(a, a->turn + 1, g->pack_kind[k], false);
    return true;
}

/* Is the last turn over: the pack used up, or no tile left fits (the
 * engine puts them aside)? */
static bool pack_done(const struct game *g)
{
    if (game_pack_left(g) == 0)
        return true;
    for (int k = 0; k < g->n_pack_kinds; k++)
        if (g->pack[g->pack_kind[k]] > 0 &&
            game_fits_anywhere(g, g->pack_kind[k]))
            return false;
    return true;
}

/* ---- meeples ---------------------------------------------------------- */

/* Seat whose meeple this is: the id's, else the player on turn. */
static int meeple_owner(const struct audit *a, const struct move *m)
{
    return m->meeple_owner >= 0 ? m->meeple_owner : a->player;
}

/* "Ada has no follower 0.small.3 in supply" / "Ada has no abbot left in
 * supply" when the log names no particular meeple. */
static void none_left(struct audit *a, const struct move *m, const char *what)
{
    char nm[32];
    const char *kind = figure_class(m->meeple)->name;
    if (m->meeple_n > 0)
        violate(a, m, RULE_MEEPLE_NONE_LEFT, "%s%s has no %s %s in supply",
                what, who(a, meeple_owner(a, m)), kind,
                meeple_name(m, nm, sizeof nm));
    else
        violate(a, m, RULE_MEEPLE_NONE_LEFT, "%s%s has no %s left in supply",
                what, who(a, meeple_owner(a, m)), kind);
}

static int resolve_meeple(const struct audit *a, const struct move *m)
{
    int owner = meeple_owner(a, m);
    if (owner < 0 || owner >= a->log->rules.n_players)
        return -1;
    return game_meeple(a->g, owner, m->meeple, m->meeple_n);
}

/* A wagon's move: the wagon that waits when the log leaves it open (no
 * n, and no owner or the waiting wagon's), else the one named. */
static int resolve_wagon(const struct audit *a, const struct move *m)
{
    int w = game_wagon_next(a->g);
    if (w >= 0 && m->meeple_n == 0 && m->meeple == a->g->meeples[w].kind &&
        (m->meeple_owner < 0 || m->meeple_owner == a->g->meeples[w].owner))
        return w;
    return resolve_meeple(a, m);
}

/* A recall: the abbot on the feature when the log leaves it open. */
static int resolve_abbot(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    int mi = resolve_meeple(a, m);
    if (m->meeple_n == 0) /* "the abbot": the one standing there */
        for (int i = 0; i < g->n_meeples; i++)
            if (g->meeples[i].owner == meeple_owner(a, m) &&
                g->meeples[i].kind == FIG_ABBOT && g->meeples[i].seg >= 0 &&
                g->meeples[i].seg == seg)
                mi = i;
    return mi;
}

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

/* Is the move m at this point one around the City (a follower into or
 * out of it)? */
static bool city_move(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    if (m->kind != MV_DEPLOY || a->ended)
        return false;
    if (a->phase == PH_HELD)
        return true;
    if (a->phase != PH_IDLE || game_wagon_next((struct game *)g) >= 0)
        return false;
    if (game_city_offer(g) >= 0 || m->feature == FEAT_QUARTER)
        return true;
    int mi = resolve_city(a, m);
    return mi >= 0 && g->meeples[mi].seg >= 0 &&
           g->segs[g->meeples[mi].seg].kind == FEAT_QUARTER;
}

static bool meeple_free(const struct game *g, int mi)
{
    return mi >= 0 && meeple_in_supply(&g->meeples[mi]);
}

static void on_landing(struct audit *a, const struct move *m, int mi)
{
    char why[200], tgt[240], opts[200], name[40];
    struct flight *f = &a->r->flights[a->flight];
    a->flight_open = false;
    a->phase = PH_DONE;
    int tile = game_tile_at(a->g, m->at);
    int seg = game_find_seg(a->g, tile, m->feature, m->mask);
    struct pos target = f->bad_roll ? m->at : f->target;
    enum rule rule = game_check_landing(a->g, a->g->meeples[mi].kind, m->at,
                                        seg, target, why, sizeof why);
    if (rule == RULE_OK && !meeple_free(a->g, mi))
        rule = RULE_MEEPLE_NONE_LEFT;
    if (rule != RULE_OK) {
        describe_tile(a->g, f->target, tgt, sizeof tgt);
        describe_options(f, opts, sizeof opts);
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule,
                "flier rolled %d towards %s from (%d,%d); target (%d,%d) "
                "holds %s; %s; the log lands on %s at (%d,%d): %s",
                f->roll, dir_name(f->dir), f->from.x, f->from.y, f->target.x,
                f->target.y, tgt, opts, name, m->at.x, m->at.y,
                rule == RULE_MEEPLE_NONE_LEFT ? "that meeple is not in supply"
                                              : why);
        return;
    }
    game_land(a->g, mi, seg);
    f->landed = true;
    f->feature = a->g->segs[seg].kind;
    f->mask = a->g->segs[seg].mask;
}

/* Valid landings at target with who stands on each feature. */
static int list_landings(const struct game *g, struct pos target, int kind,
                         struct landing out[TILE_MAX_SEGS])
{
    int segs[TILE_MAX_SEGS], counts[GAME_MAX_PLAYERS];
    int n = game_landings(g, target, kind, segs, TILE_MAX_SEGS);
    for (int i = 0; i < n; i++) {
        out[i] = (struct landing){ (uint16_t)segs[i], g->segs[segs[i]].kind,
                                   g->segs[segs[i]].mask, { 0 } };
        game_feature_meeples(g, segs[i], counts);
        for (int p = 0; p < GAME_MAX_PLAYERS; p++)
            out[i].occupants[p] = (uint8_t)counts[p];
    }
    return n;
}

/* A flight refused before take-off: the figure has had its action; a
 * later message about it concerns this refused flight, not an earlier
 * one of the turn (already closed). */
static void refuse_flight(struct audit *a, int fig)
{
    game_act(a->g, fig);
    if (!a->flight_open)
        a->flight = -1;
}

static void on_flight(struct audit *a, const struct move *m, int mi)
{
    char why[200];
    struct game *g = a->g;
    int placed = g->now.tile, fig = m->meeple;
    struct pos from = placed >= 0 ? game_tile_pos(g, placed) : m->at;
    a->phase = PH_DONE;
    a->flight_meeple = mi;
    if (!meeple_free(g, mi)) {
        none_left(a, m, "flier: ");
        refuse_flight(a, fig);
        return;
    }
    if (m->at.x != from.x || m->at.y != from.y) {
        violate(a, m, RULE_MEEPLE_NOT_ON_PLACED_TILE,
                "flight from (%d,%d), but this turn's tile is at (%d,%d)",
                m->at.x, m->at.y, from.x, from.y);
        refuse_flight(a, fig);
        return;
    }
    enum rule rule = game_check_flight(g, fig, why, sizeof why);
    if (rule == RULE_FLIER_NO_MACHINE)
        snprintf(why, sizeof why, "%s at (%d,%d) has no flying machine",
                 tile_get(g->tiles[placed].def)->id, from.x, from.y);
    if (rule != RULE_OK) {
        char nm[32];
        violate(a, m, rule, "flight of %s: %s", meeple_name(m, nm, sizeof nm),
                why);
        refuse_flight(a, fig);
        return;
    }
    int dir = game_flier_dir(g, placed);
    game_fly(g, fig);
    struct report *r = a->r;
    xgrow((void **)&r->flights, &r->cap_flights, r->n_flights + 1,
          sizeof *r->flights);
    a->flight = (int)r->n_flights++;
    struct flight *f = &r->flights[a->flight];
    memset(f, 0, sizeof *f);
    f->turn = a->turn;
    f->player = meeple_owner(a, m);
    f->figure = (uint8_t)fig;
    f->from = from;
    f->dir = dir;
    f->roll = m->roll;
    f->target = game_flight_target(from, dir, m->roll);
    if (m->roll < 1 || m->roll > 3) {
        f->bad_roll = true;
        violate(a, m, RULE_FLIER_BAD_ROLL, "flier roll %d is outside 1..3 "
                "(the die shows 1, 2 or 3)", m->roll);
    }
    int kind = fig;
    for (int roll = 1; roll <= 3; roll++) {
        f->by_roll_target[roll - 1] = game_flight_target(from, dir, roll);
        f->n_by_roll[roll - 1] = list_landings(
            g, f->by_roll_target[roll - 1], kind, f->by_roll[roll - 1]);
    }
    int n = list_landings(g, f->target, kind, f->options);
    f->n_options = n;
    a->flight_open = true;
    if (n > 0 && !f->bad_roll)
        a->phase = PH_FLYING;
}

static void wagon_move(struct audit *a, const struct move *m);

/* The segment a move names, or -1. */
static int move_seg(const struct game *g, const struct move *m)
{
    return game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
}

/* Held scoring, or the end: a follower leaves the City of Carcassonne
 * for the feature m names. A COMMIT follows such a move in a turn. */
static void quarter_leave(struct audit *a, const struct move *m)
{
    char why[200], nm[32], name[40];
    struct game *g = a->g;
    int mi = resolve_city(a, m), seg = move_seg(g, m);
    bool held = a->phase == PH_HELD;
    enum rule rule = game_check_quarter_leave(g, city_seat(a, m), mi, seg,
                                              why, sizeof why);
    if (rule == RULE_OK && !held && !pack_done(g)) {
        rule = RULE_QUARTER_LEAVE;
        snprintf(why, sizeof why, "followers leave the City only before a "
                 "turn's scoring or at the end of the game");
    }
    a->role = STEP_CITY;
    if (rule != RULE_OK) {
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule, "%s out of the City, on %s at (%d,%d): %s",
                meeple_name(m, nm, sizeof nm), name, m->at.x, m->at.y, why);
        return;
    }
    game_quarter_leave(g, mi, seg);
    if (held) { /* its COMMIT follows */
        a->commit_due = true;
        a->due_role = STEP_CITY;
    }
    if (held && !g->held)
        end_turn(a, m);
}

/* After the scoring: the player on turn sends a follower into a quarter
 * of the City (the offer), or the log does so out of place. */
static void quarter_deploy(struct audit *a, const struct move *m)
{
    char why[200], nm[32], name[40];
    struct game *g = a->g;
    int mi = resolve_city(a, m), seg = move_seg(g, m);
    enum rule rule = game_check_quarter_deploy(g, city_seat(a, m), mi, seg,
                                               why, sizeof why);
    a->role = STEP_CITY;
    if (rule != RULE_OK) {
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule, "%s into the City, on %s at (%d,%d): %s",
                meeple_name(m, nm, sizeof nm), name, m->at.x, m->at.y, why);
        return;
    }
    game_quarter_deploy(g, mi, seg);
}

static bool in_quarter(const struct game *g, int mi)
{
    int seg = mi >= 0 ? g->meeples[mi].seg : -1;
    return seg >= 0 && g->segs[seg].kind == FEAT_QUARTER;
}

static void deploy_checked(struct audit *a, const struct move *m)
{
    char why[200], nm[32], name[40];
    struct game *g = a->g;
    if (a->phase == PH_HELD) {
        quarter_leave(a, m);
        return;
    }
    if (a->phase == PH_IDLE && game_wagon_next(g) >= 0) {
        wagon_move(a, m);
        return;
    }
    if (a->phase == PH_IDLE && in_quarter(g, resolve_city(a, m)) &&
        m->feature != FEAT_QUARTER) {
        quarter_leave(a, m);
        return;
    }
    if (a->phase == PH_IDLE && (game_city_offer(g) >= 0 ||
                                m->feature == FEAT_QUARTER)) {
        quarter_deploy(a, m);
        return;
    }
    if (a->phase == PH_IDLE) {
        violate(a, m, RULE_TURN_SEQUENCE, "a meeple deployed before the turn's "
                "tile was placed");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    int mi = resolve_meeple(a, m);
    if (a->passed) {
        violate(a, m, RULE_TURN_SEQUENCE, "%s deployed after passing",
                meeple_name(m, nm, sizeof nm));
        return;
    }
    /* the figure of this turn's flight again: its landing, unless the
     * flight offered none and it may act again (the phantom, back in
     * supply, deployed in its own phase) */
    bool again = a->flight >= 0 && a->r->flights[a->flight].n_options == 0 &&
                 meeple_free(g, mi) && m->feature != FEAT_FLIER &&
                 game_check_action(g, m->meeple, NULL, 0) == RULE_OK;
    if (again)
        close_flight(a, m);
    if (a->flight_meeple >= 0 && mi == a->flight_meeple && !again) {
        if (a->flight_open && a->flight >= 0)
            on_landing(a, m, mi);
        else if (a->flight >= 0 && a->r->flights[a->flight].landed)
            violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "the flier already landed "
                    "this turn");
        else if (a->flight >= 0)
            on_landing(a, m, mi); /* a landing although none was possible */
        else
            violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "%s was already used "
                    "for a refused flight this turn",
                    meeple_name(m, nm, sizeof nm));
        return;
    }
    if (m->feature == FEAT_FLIER) {
        on_flight(a, m, mi);
        return;
    }
    if (m->feature == FEAT_QUARTER) {
        a->phase = PH_DONE;
        game_act(g, m->meeple);
        violate(a, m, RULE_QUARTER_DEPLOY, "%s into the City during a "
                "turn: only after the scoring, when others scored and the "
                "player on turn did not", meeple_name(m, nm, sizeof nm));
        return;
    }
    if (a->phase == PH_FLYING)
        close_flight(a, m);
    if (!meeple_free(g, mi)) {
        none_left(a, m, "");
        return;
    }
    int tile = game_tile_at(g, m->at);
    int seg = game_find_seg(g, tile, m->feature, m->mask);
    enum rule rule;
    /* a barn's pointer may lie beside the turn's tile: the game judges
     * where a figure stands; only a tile that is not there is ours */
    if (tile < 0 || (seg < 0 && tile != g->now.tile)) {
        rule = RULE_MEEPLE_NOT_ON_PLACED_TILE;
        snprintf(why, sizeof why, "(%d,%d) is not the tile placed this turn",
                 m->at.x, m->at.y);
    } else if (seg < 0) {
        rule = RULE_MEEPLE_WRONG_TYPE;
        snprintf(why, sizeof why, "%s has no such feature",
                 tile_get(g->tiles[tile].def)->id);
    } else {
        rule = game_check_deploy(g, a->player, mi, seg, why, sizeof why);
    }
    a->phase = PH_DONE;
    if (rule != RULE_OK)
        seg_format(m->feature, m->mask, name, sizeof name);
    if (rule != RULE_OK)
        violate(a, m, rule, "%s on %s at (%d,%d): %s",
                meeple_name(m, nm, sizeof nm), name, m->at.x, m->at.y, why);
    /* as logged, where the meeple can physically stand there */
    if (seg >= 0 && game_kind_allowed(g, g->meeples[mi].kind, g->segs[seg].kind))
        game_deploy(g, mi, seg);
    else
        game_act(g, g->meeples[mi].kind);
}

/* TURN_ORDER comes last in precedence: only when the move broke nothing
 * else is a meeple of the wrong seat reported. */
static void on_deploy(struct audit *a, const struct move *m)
{
    char nm[32];
    size_t before = a->r->n_violations;
    enum phase ph = a->phase;
    deploy_checked(a, m);
    if (ph == PH_IDLE || ph == PH_VOID || ph == PH_HELD ||
        a->r->n_violations != before)
        return;
    if (m->meeple_owner >= 0 && m->meeple_owner < a->log->rules.n_players &&
        m->meeple_owner != a->player)
        violate(a, m, RULE_TURN_ORDER, "meeple %s belongs to %s, but it is "
                "%s's turn", meeple_name(m, nm, sizeof nm),
                who(a, m->meeple_owner), who(a, a->player));
}

/* A pass between turns: a waiting wagon stays, or the player on turn
 * declines the abbey (before drawing: a COMMIT follows; in the last
 * round: the round goes on). */
static void pass_between_turns(struct audit *a, const struct move *m)
{
    if (game_city_offer(a->g) >= 0) { /* no follower into the City */
        a->role = STEP_CITY;
        game_quarter_deploy(a->g, -1, -1);
        return;
    }
    if (game_city_count_mover(a->g) >= 0) { /* the count stays */
        a->role = STEP_CITY;
        game_count_move(a->g, -1);
        return;
    }
    if (game_city_final_open(a->g) && pack_done(a->g)) {
        a->role = STEP_CITY; /* no follower out of the City at the end */
        return;
    }
    int w = game_wagon_next(a->g);
    if (w >= 0) {
        a->role = STEP_WAGON_STAYS;
        if (game_wagon_move(a->g, w, -1)) { /* its owner moved another */
            a->commit_due = true;
            a->due_role = STEP_WAGON_MOVE;
        }
        return;
    }
    if (game_abbey_offered(a->g)) {
        a->player = a->g->seat;
        if (game_pack_left(a->g) > 0) {
            a->role = a->due_role = STEP_ABBEY_DECLINED;
            a->commit_due = true;
        } else {
            a->role = STEP_ABBEY_LAST;
            game_abbey_declined(a->g);
        }
        return;
    }
    violate(a, m, RULE_TURN_SEQUENCE, "a pass before the turn's tile was "
            "placed");
}

/* A wagon's move after its feature scored, by its owner. */
static void wagon_move(struct audit *a, const struct move *m)
{
    char why[200], nm[32], name[40];
    struct game *g = a->g;
    int mi = resolve_wagon(a, m);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    enum rule rule = game_check_wagon_move(g, mi, seg, why, sizeof why);
    a->role = a->due_role = STEP_WAGON_MOVE;
    if (rule != RULE_OK) {
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule, "%s to %s at (%d,%d): %s",
                meeple_name(m, nm, sizeof nm), name, m->at.x, m->at.y, why);
        seg = -1;
    }
    if (mi >= 0 && game_wagon_move(g, mi, seg))
        a->commit_due = true;
    else if (rule != RULE_OK)
        a->commit_due = true; /* its owner's COMMIT follows */
}

static void on_pass(struct audit *a, const struct move *m)
{
    if (a->phase == PH_HELD) { /* no (more) followers out of the City */
        a->role = STEP_CITY;
        game_quarter_leave(a->g, -1, -1);
        if (!a->g->held)
            end_turn(a, m);
        return;
    }
    /* after a floor with followers in sight: the capture declined, not
     * the end of the actions (a phantom may still act) */
    if (a->phase == PH_DONE && !a->passed &&
        game_capture_options(a->g, NULL, 0) > 0) {
        game_capture_declined(a->g);
        return;
    }
    if (a->phase == PH_IDLE)
        pass_between_turns(a, m);
    else if (a->phase == PH_FLYING)
        close_flight(a, m);
    if (a->phase == PH_ACTION || a->phase == PH_FLYING) {
        a->phase = PH_DONE;
        a->passed = true;
    }
}

/* The count moves to another quarter, by the player who sent a follower
 * into the City. */
static void on_count(struct audit *a, const struct move *m)
{
    char why[200], name[40];
    struct game *g = a->g;
    if (a->phase == PH_HELD)
        end_turn(a, m);
    int seg = move_seg(g, m);
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
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule, "the count to %s: %s", name, why);
        return;
    }
    game_count_move(g, seg);
}

static void on_recall(struct audit *a, const struct move *m)
{
    char nm[32];
    struct game *g = a->g;
    if (a->phase == PH_HELD)
        end_turn(a, m);
    if (a->phase == PH_IDLE) {
        violate(a, m, RULE_TURN_SEQUENCE, "an abbot recalled before the "
                "turn's tile was placed");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    if (a->phase == PH_FLYING)
        close_flight(a, m);
    int tile = game_tile_at(g, m->at);
    int seg = game_find_seg(g, tile, m->feature, m->mask);
    int mi = resolve_abbot(a, m);
    if (mi < 0 || g->meeples[mi].kind != FIG_ABBOT ||
        g->meeples[mi].owner != a->player) {
        violate(a, m, RULE_ABBOT_RECALL, "%s is not an abbot of %s",
                meeple_name(m, nm, sizeof nm), who(a, a->player));
        return;
    }
    if (g->meeples[mi].seg < 0 || g->meeples[mi].seg != seg) {
        violate(a, m, RULE_ABBOT_RECALL, "%s's abbot is not on a %s at "
                "(%d,%d)", who(a, a->player), feat_name(m->feature), m->at.x,
                m->at.y);
        return;
    }
    if (game_check_action(g, FIG_ABBOT, NULL, 0) != RULE_OK) {
        violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "an abbot recall after a "
                "meeple was already deployed this turn");
    }
    game_recall(g, mi);
    a->phase = PH_DONE;
}

/* The turn's action slot for a move that replaces a deployment (the
 * fairy, the princess): false when it must be skipped. */
static bool action_slot(struct audit *a, const struct move *m,
                        const char *what)
{
    if (a->phase == PH_IDLE) {
        violate(a, m, RULE_TURN_SEQUENCE, "%s before the turn's tile was "
                "placed", what);
        return false;
    }
    if (a->phase == PH_VOID)
        return false;
    if (a->phase == PH_FLYING)
        close_flight(a, m);
    if (a->passed) {
        violate(a, m, RULE_TURN_SEQUENCE, "%s after passing", what);
        return false;
    }
    return true;
}

/* The meeple a fairy or princess message names: by id, else the one of
 * that kind and seat standing on the named feature. */
static int resolve_on_board(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    /* the princess's knight may be anyone's: a log that names no owner
     * means the one standing there */
    bool anyone = m->kind == MV_PRINCESS && m->meeple_owner < 0;
    int owner = meeple_owner(a, m);
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

static void on_fairy(struct audit *a, const struct move *m)
{
    char why[200];
    if (!action_slot(a, m, "the fairy moved"))
        return;
    int mi = resolve_on_board(a, m);
    enum rule rule = game_check_fairy(a->g, a->player, mi, why, sizeof why);
    if (rule == RULE_OK && !stands_as_logged(a->g, mi, m)) {
        rule = RULE_FAIRY_PLACEMENT;
        snprintf(why, sizeof why, "that follower does not stand on the %s "
                 "at (%d,%d)", feat_name(m->feature), m->at.x, m->at.y);
    }
    a->phase = PH_DONE;
    if (rule != RULE_OK) {
        violate(a, m, rule, "the fairy beside a follower at (%d,%d): %s",
                m->at.x, m->at.y, why);
        game_act(a->g, FIG_FAIRY);
        return;
    }
    game_fairy(a->g, mi);
}

static void on_dragon(struct audit *a, const struct move *m)
{
    char why[200];
    if (a->phase == PH_IDLE || a->phase == PH_VOID) {
        if (a->phase == PH_IDLE)
            violate(a, m, RULE_TURN_SEQUENCE, "the dragon moved between "
                    "turns");
        return;
    }
    if (a->phase == PH_FLYING)
        close_flight(a, m);
    a->phase = PH_DONE; /* its steps follow the turn's action */
    enum rule rule = game_check_dragon_step(a->g, m->at, why, sizeof why);
    if (rule != RULE_OK) {
        violate(a, m, rule, "%s", why);
        return;
    }
    int mover = game_dragon_mover(a->g);
    game_dragon_step(a->g, m->at);
    if (m->player >= 0 && m->player != mover)
        violate(a, m, RULE_TURN_ORDER, "the log names %s for the dragon's "
                "step, but it is %s's", who(a, m->player), who(a, mover));
}

static void on_neutral(struct audit *a, const struct move *m)
{
    if (m->neutral == FIG_DRAGON)
        on_dragon(a, m);
    else if (m->neutral == FIG_FAIRY)
        on_fairy(a, m);
    else if (m->neutral == FIG_COUNT)
        on_count(a, m);
    else
        violate(a, m, RULE_TURN_SEQUENCE, "a %s moved, which this game "
                "does not have", figure_class(m->neutral)
                                     ? figure_class(m->neutral)->name
                                     : "neutral figure");
}

static void on_princess(struct audit *a, const struct move *m)
{
    char why[200];
    if (!action_slot(a, m, "the princess acted"))
        return;
    int mi = resolve_on_board(a, m);
    enum rule rule = game_check_princess(a->g, mi, why, sizeof why);
    if (rule == RULE_OK && !stands_as_logged(a->g, mi, m)) {
        rule = RULE_PRINCESS;
        snprintf(why, sizeof why, "that knight does not stand on the %s at "
                 "(%d,%d)", feat_name(m->feature), m->at.x, m->at.y);
    }
    a->phase = PH_DONE;
    if (rule != RULE_OK) {
        violate(a, m, rule, "the princess at (%d,%d): %s", m->at.x, m->at.y,
                why);
        game_act(a->g, FIG_FAIRY);
        return;
    }
    game_princess(a->g, mi);
}

/* ---- The Tower: floors, captures, ransoms ----------------------------- */

static void on_tower(struct audit *a, const struct move *m)
{
    char why[200];
    if (!action_slot(a, m, "a tower floor"))
        return;
    enum rule rule = game_check_tower(a->g, a->player, m->at, why,
                                      sizeof why);
    if (rule != RULE_OK)
        violate(a, m, rule, "a floor on tower at (%d,%d): %s", m->at.x,
                m->at.y, why);
    game_raise_tower(a->g, a->player, m->at); /* as logged, where it can */
    a->phase = PH_DONE;
}

static void on_capture(struct audit *a, const struct move *m)
{
    char why[200], nm[32], name[40];
    struct game *g = a->g;
    if (!action_slot(a, m, "a capture"))
        return;
    int mi = resolve_meeple(a, m);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    enum rule rule = game_check_capture(g, mi, seg, why, sizeof why);
    if (rule != RULE_OK) {
        seg_format(m->feature, m->mask, name, sizeof name);
        violate(a, m, rule, "capture of %s on %s at (%d,%d): %s",
                meeple_name(m, nm, sizeof nm), name, m->at.x, m->at.y, why);
        return;
    }
    game_capture(g, a->player, mi);
}

static void on_exchange(struct audit *a, const struct move *m)
{
    char why[200], nm[32];
    if (!action_slot(a, m, "an exchange of prisoners"))
        return;
    int mi = resolve_meeple(a, m);
    enum rule rule = game_check_exchange(a->g, mi, why, sizeof why);
    if (rule != RULE_OK) {
        violate(a, m, rule, "exchange for %s: %s",
                meeple_name(m, nm, sizeof nm), why);
        return;
    }
    game_exchange(a->g, mi);
}

/* A ransom, by the player on turn: after the tile or before it (then by
 * the seat about to draw). */
static void on_ransom(struct audit *a, const struct move *m)
{
    char why[200], nm[32];
    int payer = a->phase == PH_IDLE ? a->g->seat : a->player;
    int mi = resolve_meeple(a, m);
    enum rule rule = game_check_ransom(a->g, payer, mi, why, sizeof why);
    if (rule != RULE_OK) {
        violate(a, m, rule, "ransom for %s: %s",
                meeple_name(m, nm, sizeof nm), why);
        return;
    }
    game_pay_ransom(a->g, mi);
}

/* ---- driver ------------------------------------------------------------ */

/* The score events and their refs into r: copied when the game lives
 * on, else taken over (the game is freed right after). */
static void copy_events(struct report *r, struct game *g, bool take)
{
    r->n_events = (size_t)g->n_events;
    r->n_refs = (size_t)g->n_refs;
    if (take && g->events && g->refs) {
        r->events = g->events;
        r->refs = g->refs;
        g->events = NULL;
        g->refs = NULL;
        return;
    }
    r->events = xmalloc(sizeof *r->events * (r->n_events ? r->n_events : 1));
    if (r->n_events)
        memcpy(r->events, g->events, sizeof *r->events * r->n_events);
    r->refs = xmalloc(sizeof *r->refs * (r->n_refs ? r->n_refs : 1));
    if (r->n_refs)
        memcpy(r->refs, g->refs, sizeof *r->refs * r->n_refs);
}

struct audit *audit_begin(const struct game_log *log, struct report *r)
{
    struct audit *a = xcalloc(1, sizeof *a);
    a->log = log;
    a->r = r;
    a->phase = PH_IDLE;
    a->flight = a->flight_meeple = -1;
    a->player = -1; /* nobody is on turn before the first tile */
    a->draw_trusted = true;
    a->redraw = -1.0;
    memset(r, 0, sizeof *r);
    r->n_players = log->rules.n_players;
    a->g = game_new(&log->rules);
    /* a total per turn: room for the whole pack up front */
    xgrow((void **)&r->running, &r->cap_running,
          (size_t)game_pack_left(a->g) + 1, sizeof *r->running);
    record_running(a, 0);
    if (log->start_tile >= 0) {
        struct start_place s[LOG_MAX_STARTS];
        int n = game_log_n_starts(log);
        for (int i = 0; i < n; i++)
            s[i] = game_log_start(log, i);
        (void)game_start_tiles(a->g, s, n);
    }
    return a;
}

size_t audit_step(struct audit *a, const struct move *m)
{
    size_t before = a->r->n_violations;
    a->role = STEP_TURN;
    if (a->ended || a->r->halted)
        return 0;
    /* after the last turn: wagons may move, and the holders of abbeys
     * decline them (or place them, which are turns) */
    if (a->log->end_turn >= 0 && a->turn >= a->log->end_turn &&
        a->phase == PH_IDLE && !a->commit_due &&
        game_wagon_next(a->g) < 0 && game_city_offer(a->g) < 0 &&
        game_city_count_mover(a->g) < 0 &&
        !(m->kind != MV_PLACE && game_city_final_open(a->g)) &&
        !(m->kind == MV_PASS && game_pack_left(a->g) == 0 &&
          game_abbey_offered(a->g))) {
        violate(a, m, RULE_TURN_SEQUENCE, "moves after the game's last turn "
                "%d", a->log->end_turn);
        a->ended = true;
        return 1;
    }
    switch ((enum move_kind)m->kind) {
    case MV_PLACE: on_place(a, m); break;
    case MV_DISCARD: on_discard(a, m); break;
    case MV_DEPLOY: on_deploy(a, m); break;
    case MV_PASS: on_pass(a, m); break;
    case MV_RECALL: on_recall(a, m); break;
    case MV_TOWER: on_tower(a, m); break;
    case MV_CAPTURE: on_capture(a, m); break;
    case MV_RANSOM: on_ransom(a, m); break;
    case MV_EXCHANGE: on_exchange(a, m); break;
    case MV_NEUTRAL: on_neutral(a, m); break;
    case MV_PRINCESS: on_princess(a, m); break;
    case MV_COMMIT:
        if (a->phase == PH_HELD) { /* nobody moves: the turn scores */
            end_turn(a, m);
            break;
        }
        if (a->phase == PH_IDLE && a->commit_due) {
            a->commit_due = false; /* ends an abbey's pass, wagons' moves */
            a->role = a->due_role;
            break;
        }
        if (a->phase == PH_IDLE)
            violate(a, m, RULE_TURN_SEQUENCE, "end of turn without a tile "
                    "placed");
        end_turn(a, m);
        break;
    }
    return a->r->n_violations - before;
}

const struct game *audit_game(const struct audit *a)
{
    return a->g;
}

int audit_player(const struct audit *a)
{
    return a->player;
}

bool audit_awaits_landing(const struct audit *a)
{
    return a->phase == PH_FLYING;
}

enum step_role audit_step_role(const struct audit *a)
{
    return (enum step_role)a->role;
}

int audit_turn_part(const struct audit *a)
{
    return game_turn_part(a->g);
}

int audit_meeple(const struct audit *a, const struct move *m)
{
    if (m->kind == MV_RECALL)
        return resolve_abbot(a, m);
    if (m->kind == MV_PRINCESS ||
        (m->kind == MV_NEUTRAL && m->neutral == FIG_FAIRY))
        return resolve_on_board(a, m);
    if (m->kind == MV_DEPLOY && a->phase == PH_IDLE && !a->ended &&
        game_wagon_next(a->g) >= 0)
        return resolve_wagon(a, m);
    if (city_move(a, m))
        return resolve_city(a, m);
    return m->kind == MV_DEPLOY ? resolve_meeple(a, m) : -1;
}

void audit_finish(struct audit *a, const struct audit_opts *o,
                  struct game **out_game)
{
    struct report *r = a->r;
    if (a->phase == PH_HELD)
        end_turn(a, NULL);
    r->turns = a->turn;
    if (a->log->end_turn >= 0)
        r->finished = a->turn >= a->log->end_turn;
    else
        r->finished = !r->halted && a->phase == PH_IDLE &&
                      rest_is_unplaceable(a);
    r->tiles_left = game_pack_left(a->g);
    if (o && o->assume_finished)
        r->finished = true;
    if (r->halted)
        r->finished = false;
    if (!r->finished && a->flight_open && a->phase == PH_FLYING)
        r->flights[a->flight].pending = true;
    if (r->finished) {
        end_turn(a, NULL);
        if (a->phase == PH_HELD) /* the log ends before the moves out */
            end_turn(a, NULL);
        game_final_scoring(a->g);
    }
    memcpy(r->score, a->g->score, sizeof r->score);
    r->state_hash = game_hash(a->g);
    copy_events(r, a->g, out_game == NULL);
    claims_check(a->log, r);
    r->valid = r->n_violations == 0 && !r->halted;
    if (out_game)
        *out_game = a->g;
    else
        game_free(a->g);
    free(a);
}

void audit_run(const struct game_log *log, const struct audit_opts *o,
               struct report *r, struct game **out_game)
{
    struct audit *a = audit_begin(log, r);
    for (size_t i = 0; i < log->n_moves; i++)
        audit_step(a, &log->moves[i]);
    audit_finish(a, o, out_game);
}

void report_release(struct report *r)
{
    free(r->violations);
    free(r->flights);
    free(r->events);
    free(r->discards);
    free(r->refs);
    free(r->running);
    memset(r, 0, sizeof *r);
}
