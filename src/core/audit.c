/* audit.c - the replay state machine behind `flierd audit`.
 *
 * One turn is: PLACE, then at most one of DEPLOY / flight (+ landing) /
 * RECALL / PASS, then COMMIT. Each message is checked in the precedence
 * order of enum rule; at most one violation is recorded per message.
 *
 * Each move goes through its row (core/move.h): the row says where the
 * move sits in a turn, which is checked here, and its check, in the unit
 * that owns the move, judges and applies it. Between turns a move may be
 * an answer in one of the units' rounds (core/audit_unit.h). The base
 * game's moves are this file's: the tile, deployments and flights,
 * PASS and COMMIT. */
#include "core/audit.h"
#include "core/audit_int.h"
#include "core/audit_unit.h"
#include "core/receipt.h"
#include "core/text.h"
#include "core/words.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/xalloc.h"

const char *audit_who(const struct audit *a, int seat)
{
    return seat >= 0 && seat < a->log->rules.n_players ? a->log->names[seat]
                                                         : "?";
}

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

/* The row of move m, or NULL (a neutral figure no unit has). */
static const struct move_class *row_of(const struct audit *a,
                                       const struct move *m)
{
    if (m->kind >= AUDIT_MOVE_KINDS || m->neutral >= FIG__COUNT)
        return NULL;
    return a->rows[m->kind][m->neutral];
}

void audit_violate(struct audit *a, const struct move *m, enum rule rule,
                   const char *fmt, ...)
{
    struct violation *v = new_violation(a->r, a->turn, a->player, rule,
                                        m ? m->src : 0);
    /* a round between turns (a wagon's move, the City's) is filed with
     * the turn before it: the text report says "after turn N" */
    v->between = a->phase == PH_IDLE || a->phase == PH_ROUND;
    const struct move_class *row = m ? row_of(a, m) : NULL;
    if (row && row->at != AT_NONE) {
        v->has_at = true;
        v->at = m->at;
        v->feature = row->at == AT_TILE ? FEAT_NONE : m->feature;
        v->mask = row->at == AT_TILE ? 0 : m->mask;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
}

const char *audit_meeple_name(const struct audit *a, const struct move *m,
                              char *buf, size_t len)
{
    const struct figure_class *f = figure_class(m->meeple);
    snprintf(buf, len, "%s's %s", audit_who(a, audit_meeple_owner(a, m)),
             f->name);
    return buf;
}

/* What a flier could land on at p, as people name it: "the road on the
 * east side (completed), the city on the north side"; fields and the
 * like are left out, since no flier lands there, to keep the message to
 * what decided the flight. */
static void describe_tile(const struct game *g, struct pos p, char *out,
                          size_t len)
{
    int tile = game_tile_at(g, p);
    struct text t = text_at(out, len);
    if (tile < 0) {
        text_put(&t, "no tile");
        return;
    }
    const struct placed *pl = &g->tiles[tile];
    bool any = false;
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++) {
        const struct seg *s = &g->segs[i];
        const struct feature_class *c = feature_class(s->kind);
        char name[64];
        if (!c->landable && !c->land_option)
            continue;
        seg_words(s->kind, s->mask, name, sizeof name);
        text_put(&t, any ? ", " : "");
        text_put(&t, name);
        if (c->done != DONE_NEVER && game_feature_complete(g, i))
            text_put(&t, " (completed)");
        else if (c->claimable && game_feature_meeples(g, i, NULL))
            text_put(&t, " (occupied)");
        any = true;
    }
    if (!any)
        text_put(&t, "nothing a flier may land on");
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
        char name[64];
        seg_words(f->options[i].feature, f->options[i].mask, name,
                  sizeof name);
        n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", name);
    }
}

/* ---- turn boundaries ------------------------------------------------- */

void audit_close_flight(struct audit *a, const struct move *m)
{
    if (!a->flight_open)
        return;
    a->flight_open = false;
    struct flight *f = &a->r->flights[a->flight];
    if (f->n_options > 0 && !f->bad_roll) {
        char opts[200];
        describe_options(f, opts, sizeof opts);
        audit_violate(a, m, RULE_FLIER_MUST_LAND,
                "the flier rolled %d towards the %s from (%d,%d) to (%d,%d); "
                "%s, but the figure went back to supply",
                f->roll, dir_words(f->dir), f->from.x, f->from.y, f->target.x,
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

/* The round that holds the turn's scoring now, or NULL. */
static const struct round_class *holding_round(const struct audit *a);

void audit_end_turn(struct audit *a, const struct move *m)
{
    audit_close_flight(a, m);
    for (int i = 0; i < a->n_units; i++) {
        const struct audit_unit *u = a->units[i];
        if (u->turn_end)
            u->turn_end(a, m, a->phase == PH_VOID);
    }
    if (a->phase == PH_ROUND) { /* nobody answers any more: it scores */
        const struct round_class *rc = holding_round(a);
        if (rc && rc->release)
            rc->release(a->g);
    } else if (a->phase != PH_IDLE && a->phase != PH_VOID) {
        game_end_turn(a->g);
    } else if (a->phase == PH_VOID) {
        game_skip_turn(a->g);
    }
    if (a->g->held) { /* a round before the turn's scoring */
        a->phase = PH_ROUND;
        return;
    }
    for (int i = 0; i < a->n_units; i++)
        if (a->units[i]->randoms_used)
            a->draw_skip += a->units[i]->randoms_used(a->g);
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

/* The number the next tile is drawn with when the save's is r: past those
 * the last turn's units used up (randoms_used), once. */
static double skip_used(struct audit *a, double r)
{
    for (; a->draw_skip > 0; a->draw_skip--)
        r = game_redraw_random(r);
    return r;
}

double audit_turn_random(const struct audit *a, const struct move *m)
{
    const struct game_log *l = a->log;
    if (!m || m->kind != MV_COMMIT || m < l->moves || m >= l->moves + l->n_moves)
        return -1.0;
    for (const struct move *n = m + 1; n < l->moves + l->n_moves; n++) {
        if (n->kind == MV_PLACE || n->kind == MV_DISCARD)
            return n->draw;
        if (n->kind == MV_COMMIT) /* another COMMIT's number comes first */
            return -1.0;
    }
    return l->end_draw;
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
    double r = m->draw >= 0 ? skip_used(a, m->draw) : a->redraw;
    bool redrawn = m->draw < 0;
    a->redraw = -1.0;
    a->draw_skip = 0;
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
        /* two tiles may read alike: their ids tell them apart */
        char tw[80], placed[80];
        tile_words(want, tw, sizeof tw);
        tile_words(m->tile, placed, sizeof placed);
        char num[32];
        snprintf(num, sizeof num, "%.17g", r);
        struct text t = text_at(why, why_len);
        text_put(&t, "the save's random number ");
        text_put(&t, num);
        text_put(&t, " draws ");
        text_put(&t, tw);
        text_put(&t, " (");
        text_put(&t, tile_get(want)->id);
        text_put(&t, ") from the ");
        text_int(&t, a->g->draw_left);
        text_put(&t, " tiles that may be drawn, not ");
        text_put(&t, placed);
        text_put(&t, " (");
        text_put(&t, m->tile_id);
        text_put(&t, ")");
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

/* Does a unit give the turn its tile, undrawn (the bazaar's)? */
static bool tile_given(struct audit *a, const struct move *m)
{
    for (int i = 0; i < a->n_units; i++)
        if (a->units[i]->tile_given && a->units[i]->tile_given(a, m))
            return true;
    return false;
}

static void place_checked(struct audit *a, const struct move *m)
{
    char why[200];
    if (a->phase != PH_IDLE)
        audit_end_turn(a, m);
    a->turn++;
    a->player = a->g->seat; /* the game keeps who is on turn */
    a->phase = PH_VOID;
    if (m->tile >= 0 && a->g->pack[m->tile] <= 0)
        undo_inferred_discard(a, m->tile);
    char drawn[320];
    bool follows = tile_given(a, m) || follow_draw(a, m, drawn, sizeof drawn);
    enum rule rule = m->tile < 0 ? RULE_TILE_UNKNOWN
                                 : game_check_place(a->g, m->tile, m->at,
                                                    m->rot, why, sizeof why);
    if (rule == RULE_TILE_UNKNOWN) {
        audit_violate(a, m, rule, "tile '%s' does not exist; the rest of the "
                      "turn is skipped", m->tile_id);
        return;
    }
    if (!follows && (rule == RULE_OK || rule > RULE_TILE_NOT_DRAWN)) {
        audit_violate(a, m, RULE_TILE_NOT_DRAWN, "%s", drawn);
    } else if (rule != RULE_OK) {
        char tw[80];
        tile_words(m->tile, tw, sizeof tw);
        audit_violate(a, m, rule, "%s at (%d,%d), turned %d°: %s", tw,
                      m->at.x, m->at.y, 90 * m->rot, why);
    }
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

/* A tile: the turn begins (the units first let lapse what the log left
 * undone between turns). */
void audit_place(struct audit *a, const struct move *m)
{
    if (a->phase != PH_IDLE)
        audit_end_turn(a, m); /* the log skipped the COMMIT */
    a->commit_due = false;
    for (int i = 0; i < a->n_units; i++) {
        const struct audit_unit *u = a->units[i];
        if (u->before_place)
            u->before_place(a, m);
    }
    size_t before = a->r->n_violations;
    int last = a->player;
    place_checked(a, m);
    if (a->r->n_violations != before || m->player < 0 ||
        m->player == a->player)
        return;
    if (m->player == last) /* the same player again: only a builder's */
        audit_violate(a, m, RULE_BUILDER_BONUS, "%s places a second tile "
                      "in a row without a builder's right to it; it is "
                      "%s's turn", audit_who(a, m->player),
                      audit_who(a, a->player));
    else
        audit_violate(a, m, RULE_TURN_ORDER, "the log names %s, but it is "
                      "%s's turn", audit_who(a, m->player),
                      audit_who(a, a->player));
}

void audit_discard(struct audit *a, const struct move *m)
{
    if (a->phase != PH_IDLE)
        audit_end_turn(a, m);
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
        audit_violate(a, m, RULE_TILE_UNKNOWN, "discarded tile '%s' does not "
                      "exist", m->tile_id);
        return;
    }
    if (a->g->pack[m->tile] <= 0)
        audit_violate(a, m, RULE_TILE_NOT_IN_PACK,
                "discarded %s, but no copy is left in the game's tile sets",
                m->tile_id);
    else if (game_fits_anywhere(a->g, m->tile))
        audit_violate(a, m, RULE_TILE_DISCARD_FITS,
                "%s was discarded, but it fits on the board", m->tile_id);
    /* the next tile comes from the generator's next number */
    double r = m->draw >= 0 ? skip_used(a, m->draw) : a->redraw;
    a->redraw = r >= 0 ? game_redraw_random(r) : -1.0;
    add_discard(a, a->turn, m->tile, true);
}

/* A save ends when the pack is used up; tiles still in it are the ones
 * the engine drew and put aside at the end if none of them fits. */
static bool rest_is_unplaceable(struct audit *a)
{
    const struct game *g = a->g;
    if (!game_pack_done(g))
        return false;
    for (int k = 0; k < g->n_pack_kinds; k++)
        while (g->pack[g->pack_kind[k]] > 0)
            add_discard(a, a->turn + 1, g->pack_kind[k], false);
    return true;
}

/* ---- meeples ---------------------------------------------------------- */

/* Seat whose meeple this is: the id's, else the player on turn. */
int audit_meeple_owner(const struct audit *a, const struct move *m)
{
    return m->meeple_owner >= 0 ? m->meeple_owner : a->player;
}

/* "Ada has no follower no. 3 in supply" / "Ada has no abbot left in
 * supply" when the log names no particular meeple. */
static void none_left(struct audit *a, const struct move *m, const char *what)
{
    const char *kind = figure_class(m->meeple)->name;
    if (m->meeple_n > 0)
        audit_violate(a, m, RULE_MEEPLE_NONE_LEFT, "%s%s has no %s no. %d in "
                      "supply", what, audit_who(a, audit_meeple_owner(a, m)),
                      kind, m->meeple_n);
    else
        audit_violate(a, m, RULE_MEEPLE_NONE_LEFT, "%s%s has no %s left in "
                      "supply", what, audit_who(a, audit_meeple_owner(a, m)),
                      kind);
}

int audit_meeple_on_spot(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int mi = audit_resolve_meeple(a, m), seg = audit_move_seg(g, m);
    if (m->meeple_n == 0)
        for (int i = 0; i < g->n_meeples; i++)
            if (g->meeples[i].owner == audit_meeple_owner(a, m) &&
                g->meeples[i].seg >= 0 && g->meeples[i].seg == seg)
                return i;
    return mi;
}

int audit_resolve_meeple(const struct audit *a, const struct move *m)
{
    int owner = audit_meeple_owner(a, m);
    if (owner < 0 || owner >= a->log->rules.n_players)
        return -1;
    return game_meeple(a->g, owner, m->meeple, m->meeple_n);
}

int audit_move_seg(const struct game *g, const struct move *m)
{
    return game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
}

struct move audit_option(int kind)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.kind = (uint8_t)kind;
    m.player = -1;
    m.tile = -1;
    m.meeple_owner = -1;
    m.draw = -1.0;
    return m;
}

void audit_option_on(struct move *m, const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    m->at = game_tile_pos(g, s->tile);
    m->feature = (uint8_t)feat_logged(s->kind);
    m->mask = s->mask;
}

void audit_option_meeple(struct move *m, const struct game *g, int mi)
{
    const struct meeple *mp = &g->meeples[mi];
    m->meeple = mp->kind;
    m->meeple_n = mp->n;
    m->meeple_owner = mp->owner;
}

int audit_standing_options(const struct audit *a, int kind, int seat,
                           audit_figure_check check, struct move *out,
                           int max)
{
    const struct game *g = a->g;
    char why[200];
    int n = 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++) {
        int seg = g->meeples[mi].seg;
        if (seg < 0 || g->meeples[mi].owner != seat ||
            check(g, seat, mi, seg, why, sizeof why) != RULE_OK)
            continue;
        out[n] = audit_option(kind);
        audit_option_on(&out[n], g, seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

int audit_onto_options(const struct audit *a, int kind, int seat, int mi,
                       audit_figure_check check, struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    int n = 0;
    for (int seg = 0; seg < g->n_segs && n < max; seg++) {
        if (check(g, seat, mi, seg, why, sizeof why) != RULE_OK)
            continue;
        out[n] = audit_option(kind);
        audit_option_on(&out[n], g, seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

static bool meeple_free(const struct game *g, int mi)
{
    return mi >= 0 && meeple_in_supply(&g->meeples[mi]);
}

static void on_landing(struct audit *a, const struct move *m, int mi)
{
    char why[200], tgt[400], opts[300], name[64];
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
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule,
                "the flier rolled %d towards the %s from (%d,%d); the target "
                "(%d,%d) has %s; %s; the log lands on %s at (%d,%d): %s",
                f->roll, dir_words(f->dir), f->from.x, f->from.y, f->target.x,
                f->target.y, tgt, opts, name, m->at.x, m->at.y,
                rule == RULE_MEEPLE_NONE_LEFT ? "that meeple is not in supply"
                                              : why);
        return;
    }
    game_land(a->g, mi, seg);
    a->g->meeples[mi].flight = (uint16_t)(a->flight + 1);
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
        audit_violate(a, m, RULE_MEEPLE_NOT_ON_PLACED_TILE,
                "flight from (%d,%d), but this turn's tile is at (%d,%d)",
                m->at.x, m->at.y, from.x, from.y);
        refuse_flight(a, fig);
        return;
    }
    enum rule rule = game_check_flight(g, fig, why, sizeof why);
    if (rule == RULE_FLIER_NO_MACHINE)
        snprintf(why, sizeof why, "the tile at (%d,%d) has no flying "
                 "machine", from.x, from.y);
    if (rule != RULE_OK) {
        char nm[80];
        audit_violate(a, m, rule, "flight of %s: %s",
                      audit_meeple_name(a, m, nm, sizeof nm), why);
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
    f->player = audit_meeple_owner(a, m);
    f->figure = (uint8_t)fig;
    f->from = from;
    f->dir = dir;
    f->roll = m->roll;
    f->target = game_flight_target(from, dir, m->roll);
    if (m->roll < 1 || m->roll > 3) {
        f->bad_roll = true;
        audit_violate(a, m, RULE_FLIER_BAD_ROLL, "flier roll %d is outside "
                      "1..3 (the die shows 1, 2 or 3)", m->roll);
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

/* The figure of this turn's flight again: its landing, unless the
 * flight offered none and it may act again (the phantom, back in supply,
 * deployed in its own phase). True when the move was taken so. */
static bool flight_again(struct audit *a, const struct move *m, int mi)
{
    char nm[80];
    struct game *g = a->g;
    bool again = a->flight >= 0 && a->r->flights[a->flight].n_options == 0 &&
                 meeple_free(g, mi) && m->feature != FEAT_FLIER &&
                 game_check_action(g, m->meeple, NULL, 0) == RULE_OK;
    if (again)
        audit_close_flight(a, m);
    if (a->flight_meeple < 0 || mi != a->flight_meeple || again)
        return false;
    if (a->flight_open && a->flight >= 0)
        on_landing(a, m, mi);
    else if (a->flight >= 0 && a->r->flights[a->flight].landed)
        audit_violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "the flier already "
                      "landed this turn");
    else if (a->flight >= 0)
        on_landing(a, m, mi); /* a landing although none was possible */
    else
        audit_violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "%s was already "
                      "used for a refused flight this turn",
                      audit_meeple_name(a, m, nm, sizeof nm));
    return true;
}

/* "the road already holds a meeple" says whose: " (Ada's)". */
static void add_holders(const struct audit *a, int seg, char *why,
                        size_t len)
{
    int per[GAME_MAX_PLAYERS] = { 0 };
    unsigned seats = 0;
    char who[200];
    if (seg < 0 || game_feature_meeples(a->g, seg, per) == 0)
        return;
    for (int p = 0; p < a->log->rules.n_players; p++)
        if (per[p])
            seats |= 1u << p;
    seats_join(a->log, seats, "'s and ", who, sizeof who);
    struct text t = { why, len, strlen(why) };
    text_put(&t, " (");
    text_put(&t, who);
    text_put(&t, "'s)");
}

/* Meeple mi onto the feature m names, on this turn's tile (or beside it,
 * for a figure the game lets stand there). */
static void deploy_on_tile(struct audit *a, const struct move *m, int mi)
{
    char why[200], nm[80], name[64], tw[80];
    struct game *g = a->g;
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
        tile_words(g->tiles[tile].def, tw, sizeof tw);
        snprintf(why, sizeof why, "%s there has no such feature", tw);
    } else {
        rule = game_check_deploy(g, a->player, mi, seg, why, sizeof why);
    }
    a->phase = PH_DONE;
    if (rule == RULE_MEEPLE_FEATURE_OCCUPIED)
        add_holders(a, seg, why, sizeof why);
    if (rule != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, rule, "%s on %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
    }
    /* as logged, where the meeple can physically stand there */
    if (seg >= 0 &&
        game_kind_allowed(g, g->meeples[mi].kind, g->segs[seg].kind))
        game_deploy(g, mi, seg);
    else
        game_act(g, g->meeples[mi].kind);
}

/* A deployment (or a flight, or its landing) in the turn; between turns
 * only as a round's answer (taken before this). */
static void deploy_checked(struct audit *a, const struct move *m)
{
    char nm[80];
    if (a->phase == PH_IDLE || a->phase == PH_ROUND) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "a meeple deployed before "
                      "the turn's tile was placed");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    int mi = audit_resolve_meeple(a, m);
    if (a->passed) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "%s deployed after passing",
                      audit_meeple_name(a, m, nm, sizeof nm));
        return;
    }
    if (flight_again(a, m, mi))
        return;
    if (m->feature == FEAT_FLIER) {
        on_flight(a, m, mi);
        return;
    }
    for (int i = 0; i < a->n_units; i++) { /* a unit's refusal first */
        const struct audit_unit *u = a->units[i];
        if (u->turn_deploy && u->turn_deploy(a, m))
            return;
    }
    if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    if (!meeple_free(a->g, mi)) {
        none_left(a, m, "");
        return;
    }
    deploy_on_tile(a, m, mi);
}

/* TURN_ORDER comes last in precedence: only when the move broke nothing
 * else is a meeple of the wrong seat reported. */
void audit_deploy(struct audit *a, const struct move *m)
{
    char nm[80];
    size_t before = a->r->n_violations;
    enum phase ph = a->phase;
    deploy_checked(a, m);
    if (ph == PH_IDLE || ph == PH_VOID || ph == PH_ROUND ||
        a->r->n_violations != before)
        return;
    if (m->meeple_owner >= 0 && m->meeple_owner < a->log->rules.n_players &&
        m->meeple_owner != a->player)
        audit_violate(a, m, RULE_TURN_ORDER, "%s moved, but it is %s's "
                      "turn", audit_meeple_name(a, m, nm, sizeof nm),
                      audit_who(a, a->player));
}

/* ---- rounds between turns ---------------------------------------- */

/* The units' rounds, in the registry's order: the first that claims m
 * takes it. Holding rounds are asked while the scoring waits (PH_ROUND),
 * the others between turns. */
static bool other_round_open(const struct audit *a)
{
    for (int i = 0; i < a->n_units; i++)
        for (const struct round_class *rc = a->units[i]->rounds;
             rc && rc->asked; rc++)
            if (!rc->last && !rc->holds && rc->asked(a->g) >= 0)
                return true;
    return false;
}

static bool round_claims(const struct audit *a, const struct round_class *rc,
                         const struct move *m)
{
    if (rc->holds != (a->phase == PH_ROUND))
        return false;
    if (rc->last && other_round_open(a)) /* the others' first */
        return false;
    bool answer = m->kind == MV_PASS ||
                  (m->kind < AUDIT_MOVE_KINDS && (rc->answers >> m->kind & 1));
    if (!answer) /* a tile, a COMMIT: no round's, and asked every turn */
        return false;
    return rc->claims ? rc->claims(a, m) : rc->asked(a->g) >= 0;
}

const struct round_class *audit_round_open(const struct audit *a, int *seat,
                                          bool *may_pass)
{
    if (a->ended || a->commit_due ||
        (a->phase != PH_IDLE && a->phase != PH_ROUND))
        return NULL;
    struct move probe = audit_option(MV_PASS);
    for (int i = 0; i < a->n_units; i++)
        for (const struct round_class *rc = a->units[i]->rounds;
             rc && rc->asked; rc++) {
            if (rc->last || (*seat = rc->asked(a->g)) < 0)
                continue;
            /* open when it would take a PASS; one that never does (a
             * choice) when it would take an answer of some kind */
            probe.kind = MV_PASS;
            *may_pass = !rc->choice && round_claims(a, rc, &probe);
            bool open = *may_pass;
            for (int k = 0; k < AUDIT_MOVE_KINDS && rc->choice && !open;
                 k++) {
                probe.kind = (uint8_t)k;
                open = (rc->answers >> k & 1) && round_claims(a, rc, &probe);
            }
            if (open)
                return rc;
        }
    return NULL;
}

static const struct round_class *claiming_round(const struct audit *a,
                                                const struct move *m)
{
    if (a->ended || (a->phase != PH_IDLE && a->phase != PH_ROUND) ||
        m->kind >= AUDIT_MOVE_KINDS || !(a->answers >> m->kind & 1))
        return NULL;
    for (int i = 0; i < a->n_units; i++) {
        const struct audit_unit *u = a->units[i];
        for (const struct round_class *rc = u->rounds; rc && rc->asked; rc++)
            if (round_claims(a, rc, m))
                return rc;
    }
    return NULL;
}

static const struct round_class *holding_round(const struct audit *a)
{
    for (int i = 0; i < a->n_units; i++) {
        const struct audit_unit *u = a->units[i];
        for (const struct round_class *rc = u->rounds;
             rc && rc->asked; rc++)
            if (rc->holds && rc->asked(a->g) >= 0)
                return rc;
    }
    return NULL;
}

/* An answer in round rc: the unit judges and applies it; a COMMIT is due
 * after it when the round says so. A holding round that nobody is left
 * to answer lets the turn score. */
static void round_answer(struct audit *a, const struct round_class *rc,
                         const struct move *m)
{
    bool pass = m->kind == MV_PASS;
    a->role = pass ? rc->pass_role : rc->role;
    bool commit = pass ? rc->pass(a, m) : rc->answer(a, m);
    if (commit && rc->commit != COMMIT_NEVER) {
        a->commit_due = true;
        a->due_role = rc->role;
    }
    if (rc->holds && a->phase == PH_ROUND && !a->g->held)
        audit_end_turn(a, m);
}

/* May m come after the log's last turn: an answer, or any move some
 * round open now lets through? */
static bool round_after_end(const struct audit *a, const struct move *m)
{
    for (int i = 0; i < a->n_units; i++) {
        const struct audit_unit *u = a->units[i];
        for (const struct round_class *rc = u->rounds;
             rc && rc->asked; rc++) {
            if (rc->after_end == AFTER_END_NONE || rc->holds)
                continue;
            if (rc->after_end == AFTER_END_CLAIMED) {
                if (round_claims(a, rc, m))
                    return true;
            } else if (rc->asked(a->g) >= 0 &&
                       (rc->after_end == AFTER_END_ANY ||
                        m->kind != MV_PLACE)) {
                return true;
            }
        }
    }
    return false;
}

/* ---- the turn's PASS and COMMIT ---------------------------------- */

void audit_pass(struct audit *a, const struct move *m)
{
    /* a PASS that ends no action phase (a capture declined) */
    if (a->phase == PH_DONE && !a->passed)
        for (int i = 0; i < a->n_units; i++) {
            const struct audit_unit *u = a->units[i];
            if (u->turn_pass && u->turn_pass(a, m))
                return;
        }
    if (a->phase == PH_IDLE || a->phase == PH_ROUND)
        audit_violate(a, m, RULE_TURN_SEQUENCE, "a pass before the turn's "
                      "tile was placed");
    else if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    if (a->phase == PH_ACTION || a->phase == PH_FLYING) {
        a->phase = PH_DONE;
        a->passed = true;
    }
}

void audit_commit(struct audit *a, const struct move *m)
{
    /* the COMMIT after an answer in a round; before a held scoring the
     * round goes on with the next seat asked */
    if ((a->phase == PH_IDLE || a->phase == PH_ROUND) && a->commit_due) {
        a->commit_due = false;
        a->role = a->due_role;
        return;
    }
    if (a->phase == PH_ROUND) { /* nobody answers: the turn scores */
        audit_end_turn(a, m);
        return;
    }
    if (a->phase == PH_IDLE)
        audit_violate(a, m, RULE_TURN_SEQUENCE, "end of turn without a "
                      "tile placed");
    audit_end_turn(a, m);
}

/* ---- where a move sits ------------------------------------------ */

/* The turn's action slot for a move that replaces a deployment (the
 * fairy, the princess, a floor): false when it must be skipped. */
static bool action_slot(struct audit *a, const struct move *m,
                        const char *what)
{
    if (a->phase == PH_IDLE) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "%s before the turn's tile "
                      "was placed", what);
        return false;
    }
    if (a->phase == PH_VOID)
        return false;
    if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    if (a->passed) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "%s after passing", what);
        return false;
    }
    return true;
}

/* After the turn's action (the dragon's steps): false when skipped. */
static bool after_slot(struct audit *a, const struct move *m,
                       const char *what)
{
    if (a->phase == PH_IDLE || a->phase == PH_VOID) {
        if (a->phase == PH_IDLE)
            audit_violate(a, m, RULE_TURN_SEQUENCE, "%s between turns",
                          what);
        return false;
    }
    if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    a->phase = PH_DONE;
    return true;
}

static bool slot_ok(struct audit *a, const struct move_class *row,
                    const struct move *m)
{
    switch ((enum move_slot)row->slot) {
    case SLOT_ACTION:
        return action_slot(a, m, row->what);
    case SLOT_AFTER:
        return after_slot(a, m, row->what);
    case SLOT_BETWEEN:
        if (a->phase == PH_ROUND) /* nobody leaves the City: it scores */
            audit_end_turn(a, m);
        return true;
    case SLOT_ANY:
        break;
    }
    return true;
}

static void dispatch(struct audit *a, const struct move *m)
{
    /* a game without rounds (the base game's) asks none, every move */
    const struct round_class *rc = a->n_units ? claiming_round(a, m) : NULL;
    if (rc) {
        round_answer(a, rc, m);
        return;
    }
    const struct move_class *row = row_of(a, m);
    if (!row || !row->check) {
        const struct figure_class *f = figure_class(m->neutral);
        audit_violate(a, m, RULE_TURN_SEQUENCE, "a %s moved, which this "
                      "game does not have", f ? f->name : "neutral figure");
        return;
    }
    if (slot_ok(a, row, m))
        row->check(a, m);
}


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
    a->draw_skip = 0;
    /* every unit's rows, whether the game has the unit or not (a log
     * may hold moves of one it lacks) */
    for (int e = 0; e < EXP__COUNT; e++)
        for (const struct move_class *c = expansion_units[e]->moves;
             c && c->name; c++)
            if (c->kind < AUDIT_MOVE_KINDS && c->neutral < FIG__COUNT)
                a->rows[c->kind][c->neutral] = c;
    memset(r, 0, sizeof *r);
    r->n_players = log->rules.n_players;
    a->g = game_new(&log->rules);
    for (int e = 0; e < EXP__COUNT; e++)
        if (expansion_units[e]->audit && game_in_play(a->g, e)) {
            const struct audit_unit *u = expansion_units[e]->audit;
            a->units[a->n_units++] = u;
            for (const struct round_class *rc = u->rounds; rc && rc->asked;
                 rc++)
                a->answers |= rc->answers | 1ull << MV_PASS;
        }
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
    /* after the last turn: the rounds' answers (a wagon's move, an
     * abbey declined) */
    if (a->log->end_turn >= 0 && a->turn >= a->log->end_turn &&
        a->phase == PH_IDLE && !a->commit_due && !round_after_end(a, m)) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "moves after the game's "
                      "last turn %d", a->log->end_turn);
        a->ended = true;
        return 1;
    }
    dispatch(a, m);
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
    const struct round_class *rc = claiming_round(a, m);
    if (rc && m->kind != MV_PASS && rc->meeple)
        return rc->meeple(a, m);
    const struct move_class *row = row_of(a, m);
    return row && row->meeple ? row->meeple(a, m) : -1;
}

/* Each flight's points: the events it counted in (score_event.flights),
 * where its owner was among those paid. */
static void credit_flights(struct report *r)
{
    for (size_t i = 0; i < r->n_flights; i++)
        r->flights[i].points = 0;
    for (size_t e = 0; e < r->n_events; e++) {
        const struct score_event *ev = &r->events[e];
        for (int k = 0; k < ev->n_flights; k++) {
            size_t i = (size_t)ev->flights[k] - 1;
            if (i < r->n_flights && r->flights[i].player >= 0 &&
                (ev->players >> r->flights[i].player) & 1u)
                r->flights[i].points += ev->points;
        }
    }
}

void audit_finish(struct audit *a, const struct audit_opts *o,
                  struct game **out_game)
{
    struct report *r = a->r;
    if (a->phase == PH_ROUND)
        audit_end_turn(a, NULL);
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
        audit_end_turn(a, NULL);
        if (a->phase == PH_ROUND) /* the log ends before the moves out */
            audit_end_turn(a, NULL);
        game_final_scoring(a->g);
    }
    memcpy(r->score, a->g->score, sizeof r->score);
    r->state_hash = game_hash(a->g);
    copy_events(r, a->g, out_game == NULL);
    credit_flights(r);
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

