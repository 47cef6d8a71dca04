/* siege.c - the siege of Cult, Siege & Creativity as a unit, as
 * JCloisterZone plays it: the Cathars (set siege/cathars) and the
 * Besiegers (siege/besiegers), ten tiles (siege.tiles) whose one city is
 * under siege.
 * - A besieged city (the element "siege"; one siege tile makes the whole
 *   city besieged, however many it has) scores its tiles and pennants
 *   once less: 1 each completed, nothing unfinished at the end (the event
 *   is still there, for 0), nothing as a tiny city. JCloisterZone lists
 *   the loss as its own term, "besieged", after tiles and pennants.
 * - For farmers a completed besieged city counts twice: the term
 *   "besieged" repeats the cities' rate for each such city the field
 *   touches.
 * - The escape (the element "escape"): after a turn's scoring, and the
 *   moves between turns that come before it (the wagons', the City's),
 *   the player who just played may take one of their followers out of a
 *   besieged city that has a cloister on one of its tiles or on a tile
 *   around one (the variant "siege-tile": around one of its siege tiles),
 *   back to supply, for nothing; or decline (a PASS). No COMMIT follows.
 *   Only one follower escapes a turn.
 * A cloister is a monastery (the abbey's tile included), not a garden. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/siege.h"
#include "core/game_int.h"
#include "core/move.h"

struct siege_state {
    int8_t asked; /* 1 + the seat asked for its escape (the one who just
                     played), 0: nobody (zeroed state asks nobody) */
};
UNIT_STATE_FITS(struct siege_state);

static struct siege_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_SIEGE, struct siege_state);
}

static const struct siege_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_SIEGE, struct siege_state);
}

/* Is a tile of these feature kinds a cloister for the escape?
 * JCloisterZone's Monastery: a monastery or a kind of one (a shrine), not
 * a garden. */
static bool cloister_kinds(uint32_t kinds)
{
    for (int f = 1; f < FEAT__COUNT; f++)
        if ((kinds >> f & 1) && feat_is(f, FEAT_MONASTERY))
            return true;
    return false;
}

/* ---- scoring ---------------------------------------------------------- */

/* The rate a completed city gives the field's farmers in this event
 * (3; 1 joined to a barn): its term "cities"' points per city. */
static int cities_rate(const struct score_event *ev)
{
    for (int i = 0; i < ev->n_items; i++)
        if (ev->items[i].kind == SI_CITIES && ev->items[i].count > 0)
            return ev->items[i].points / ev->items[i].count;
    return 0;
}

/* A besieged city loses a point a tile and a pennant; a field counts
 * each completed besieged city it touches twice. A city that already
 * scores nothing (a cathedral's, unfinished: Inns & Cathedrals scored it
 * first) loses nothing: no corpus has both, and a city never scores
 * below 0. */
static void score(const struct rules *r, struct score_event *ev)
{
    if (!(r->flags & RF_SIEGE))
        return;
    if (ev->feature == FEAT_CITY && ev->attrs[SA_BIT_BESIEGED] &&
        ev->points > 0) {
        int less = ev->tiles + ev->pennants;
        score_add_item(ev, SI_BESIEGED, -1, -less);
        ev->points -= less;
    } else if (ev->feature == FEAT_FIELD &&
               ev->city_attrs[SA_BIT_BESIEGED]) {
        int n = ev->city_attrs[SA_BIT_BESIEGED], more = n * cities_rate(ev);
        score_add_item(ev, SI_BESIEGED, n, more);
        ev->points += more;
    }
}

/* ---- the escape ------------------------------------------------------- */

static void start(struct game *g)
{
    st(g)->asked = 0;
}

/* What the log left undone lapses with the next tile. */
static void placed(struct game *g, int tile)
{
    (void)tile;
    st(g)->asked = 0;
}

/* After the turn's scoring its player is asked (whether there is
 * anything to escape is seen when the question comes: a wagon may move
 * first). */
static void turn_done(struct game *g)
{
    if (g->rules.flags & RF_ESCAPE)
        st(g)->asked = (int8_t)(g->seat + 1);
}

bool game_besieged(const struct game *g, int seg)
{
    if (seg < 0 || seg >= g->n_segs || g->segs[seg].kind != FEAT_CITY ||
        !(g->rules.flags & RF_SIEGE))
        return false;
    int root = game_root(g, seg), s = root;
    do {
        if (g->segs[s].attrs & SA_BESIEGED)
            return true;
        s = g->segs[s].next;
    } while (s != root);
    return false;
}

/* Does tile t or a tile around it hold a cloister? */
static bool cloister_near(const struct game *g, int t)
{
    struct pos p = game_tile_pos(g, t);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int n = game_tile_at(g, (struct pos){ p.x + dx, p.y + dy });
            if (n >= 0 && cloister_kinds(tile_get(g->tiles[n].def)->kinds))
                return true;
        }
    return false;
}

/* Is the feature of seg a besieged city with a cloister on or next to
 * one of its tiles (the siege-tile variant: of its siege tiles)? */
static bool escape_city(const struct game *g, int seg)
{
    if (!game_besieged(g, seg))
        return false;
    bool siege_only = g->rules.opt[OPT_ESCAPE_VARIANT] == ESCAPE_SIEGE_TILE;
    int root = game_root(g, seg), s = root;
    do {
        const struct seg *sp = &g->segs[s];
        if ((!siege_only || (sp->attrs & SA_BESIEGED)) &&
            cloister_near(g, sp->tile))
            return true;
        s = sp->next;
    } while (s != root);
    return false;
}

bool game_escapable(const struct game *g, int m)
{
    if (m < 0 || m >= g->n_meeples || g->meeples[m].seg < 0)
        return false;
    const struct figure_class *c = figure_class(g->meeples[m].kind);
    return c && c->follower && escape_city(g, g->meeples[m].seg);
}

/* Has seat p a follower that may escape? */
static bool has_escape(const struct game *g, int p)
{
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].owner == p && game_escapable(g, i))
            return true;
    return false;
}

int game_escape_seat(const struct game *g)
{
    /* a builder's second tile comes first: JCloisterZone ends the turn's
     * part before its escape phase and starts the next part from there
     * (its phase order; no corpus has both) */
    if (!game_in_play(g, EXP_SIEGE) || cst(g)->asked <= 0 || g->part > 1)
        return -1;
    int p = cst(g)->asked - 1;
    return has_escape(g, p) ? p : -1;
}

enum rule game_check_escape(const struct game *g, int player, int m,
                            char *why, size_t why_len)
{
    int seat = game_escape_seat(g);
    if (seat < 0 || player != seat) {
        snprintf(why, why_len, "no escape now: only right after a turn, "
                 "by its player, from a besieged city with a cloister on "
                 "or next to it, once");
        return RULE_SIEGE_ESCAPE;
    }
    if (m < 0 || g->meeples[m].owner != player || g->meeples[m].seg < 0) {
        snprintf(why, why_len, "that player has no such figure on the "
                 "board");
        return RULE_SIEGE_ESCAPE;
    }
    if (!figure_class(g->meeples[m].kind)->follower) {
        snprintf(why, why_len, "a %s is no follower",
                 figure_class(g->meeples[m].kind)->name);
        return RULE_SIEGE_ESCAPE;
    }
    if (!game_escapable(g, m)) {
        snprintf(why, why_len, "it is not in a besieged city with a "
                 "cloister on or next to %s",
                 g->rules.opt[OPT_ESCAPE_VARIANT] == ESCAPE_SIEGE_TILE
                     ? "a siege tile of it"
                     : "one of its tiles");
        return RULE_SIEGE_ESCAPE;
    }
    return RULE_OK;
}

void game_escape(struct game *g, int m)
{
    if (m >= 0 && g->meeples[m].seg >= 0)
        game_put(g, m, MEEPLE_SUPPLY);
    st(g)->asked = 0;
}

static const struct element elements[] = {
    { "siege", EL_FLAG, RFB_SIEGE, 1, false },
    { "escape", EL_FLAG, RFB_ESCAPE, 1, false },
    { NULL, 0, 0, 0, false },
};

/* ---- the auditor's side: the escape, its round ------------------------ */

/* The seat that takes a follower out: the log's, else the one asked,
 * else the player of the last turn. */
static int escape_player(const struct audit *a, const struct move *m)
{
    if (m->player >= 0)
        return m->player;
    int seat = game_escape_seat(a->g);
    return seat >= 0 ? seat : a->player;
}

/* The follower an escape names: by its id, else the one of its kind of
 * that seat on the feature the move names. */
static int resolve_escape(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int owner = m->meeple_owner >= 0 ? m->meeple_owner : escape_player(a, m);
    if (owner < 0 || owner >= a->log->rules.n_players)
        return -1;
    if (m->meeple_n > 0)
        return game_meeple(g, owner, m->meeple, m->meeple_n);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    for (int i = 0; seg >= 0 && i < g->n_meeples; i++)
        if (g->meeples[i].owner == owner && g->meeples[i].kind == m->meeple &&
            g->meeples[i].seg == seg)
            return i;
    return -1;
}

/* Judges an escape and applies it as logged (a follower of the board
 * goes home, even out of place: the log goes on without it); between
 * turns the offer is over either way. */
static bool escape_answer(struct audit *a, const struct move *m)
{
    char why[200], nm[80];
    struct game *g = a->g;
    int mi = resolve_escape(a, m);
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    enum rule rule = game_check_escape(g, escape_player(a, m), mi, why,
                                       sizeof why);
    if (a->phase != PH_IDLE) {
        rule = RULE_SIEGE_ESCAPE;
        snprintf(why, sizeof why, "a follower escapes only between turns, "
                 "after the turn's scoring");
    } else if (rule == RULE_OK && (seg < 0 || g->meeples[mi].seg != seg)) {
        rule = RULE_SIEGE_ESCAPE;
        snprintf(why, sizeof why, "that follower does not stand on the %s "
                 "at (%d,%d)", feat_name(m->feature), m->at.x, m->at.y);
    }
    if (rule != RULE_OK)
        audit_violate(a, m, rule, "%s escaped from (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), m->at.x, m->at.y,
                      why);
    if (a->phase == PH_IDLE)
        game_escape(g, mi);
    else if (mi >= 0 && g->meeples[mi].seg >= 0)
        game_put(g, mi, MEEPLE_SUPPLY);
    return false;
}

/* An escape no round asks for: out of place (judged as one). */
static void check_escape(struct audit *a, const struct move *m)
{
    a->role = STEP_ESCAPE;
    (void)escape_answer(a, m);
}

static bool escape_pass(struct audit *a, const struct move *m)
{
    (void)m;
    game_escape(a->g, -1);
    return false;
}

static int escape_asked(const struct game *g)
{
    return game_escape_seat(g);
}

/* Each follower of the seat asked that may escape now. */
static int escape_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    int seat = game_escape_seat(g), n = 0;
    for (int mi = 0; seat >= 0 && mi < g->n_meeples && n < max; mi++) {
        int seg = g->meeples[mi].seg;
        if (seg < 0 || g->meeples[mi].owner != seat ||
            game_check_escape(g, seat, mi, why, sizeof why) != RULE_OK)
            continue;
        out[n] = audit_option(MV_ESCAPE);
        audit_option_on(&out[n], g, seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

static const struct round_class rounds[] = {
    { /* after the scoring: the turn's player, one follower out */
      .what = "the escape from a besieged city",
      .role = STEP_ESCAPE, .pass_role = STEP_ESCAPE, .from = ROUND_ONLY_TURN,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_CLAIMED,
      .answers = 1ull << MV_ESCAPE, .asked = escape_asked,
      .answer = escape_answer, .pass = escape_pass, .meeple = resolve_escape,
      .options = escape_options },
    { .asked = NULL },
};

static const struct audit_unit audit = {
    .rounds = rounds,
};

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_ESCAPE,
        .slot = SLOT_BETWEEN,
        .at = AT_FEATURE,
        .what = "a follower escaped",
        .check = check_escape,
        .meeple = resolve_escape,
        .name = "escape",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"SIEGE_ESCAPE\"}",
        .fl_fields = "at segment meeple",
    },
    { .name = NULL },
};

const struct expansion expansion_siege = {
    .id = "siege",
    .name = "The Siege (Cathars, Besiegers)",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .turn_done = turn_done,
    .score = score,
};
