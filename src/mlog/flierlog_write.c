/* flierlog_write.c - struct game_log -> flierlog/1, readable (one JSON
 * document, a turn entry per line) or streaming (NDJSON).
 *
 * The writer gives each turn its short form ("deploy", "fly", "recall",
 * ...) only when flierlog.c reads that form back to the very moves of the
 * log; anything else (moves out of order, a turn without its COMMIT, a
 * landing by another meeple than the flight's, two actions in a turn as
 * the Phantom makes them) is spelt out as a "moves" list, so
 * mlog_parse(mlog_write_flierlog(l)) == l but for src. Claims, totals and
 * notes go onto the entries of their turns, or into top-level lists when
 * their order would not survive that.
 *
 * A log whose elements flierlog/1.0's keys ("followers", "farmers",
 * "abbot", "gardens") can say is written with them, as before; one that
 * needs another element gets flierlog/1.1's "elements" instead, holding
 * every element that differs from the edition.
 *
 * Entries follow the game, which the writer replays through the auditor:
 * each placement takes the abbey declined before it ("abbey"), its
 * action and the wagons its scoring sent on ("wagons"), and says when it
 * is a builder's second tile ("part"); an abbey declined in the last
 * round is an entry of its own. The reader makes the same moves whatever
 * the auditor says, so a log the auditor misreads (a forgery) still
 * reads back to itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/move.h"
#include "mlog/fl_turn.h"
#include "mlog/mlog_int.h"

/* ---- printing ----------------------------------------------------------- */

static void print_string(const char *s, struct buf *out)
{
    mlog_json_string(s, out);
}

/* The shortest form that reads back to exactly d. */
static void print_number(double d, struct buf *out)
{
    char s[40];
    if (!isfinite(d)) {
        buf_puts(out, "null");
        return;
    }
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(s, sizeof s, "%lld", (long long)d);
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(s, sizeof s, "%.*g", prec, d);
            if (strtod(s, NULL) == d)
                break;
        }
    }
    buf_puts(out, s);
}

void fl_print(const cJSON *v, struct buf *out)
{
    const cJSON *it;
    bool first = true;
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        bool obj = cJSON_IsObject(v);
        buf_puts(out, obj ? "{" : "[");
        cJSON_ArrayForEach(it, v) {
            buf_puts(out, first ? "" : ", ");
            first = false;
            if (obj) {
                print_string(it->string, out);
                buf_puts(out, ": ");
            }
            fl_print(it, out);
        }
        buf_puts(out, obj ? "}" : "]");
    } else if (cJSON_IsString(v)) {
        print_string(v->valuestring, out);
    } else if (cJSON_IsNumber(v)) {
        print_number(v->valuedouble, out);
    } else if (cJSON_IsRaw(v)) {
        buf_puts(out, v->valuestring);
    } else {
        buf_puts(out, cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ? "false"
                                                                  : "null");
    }
}

/* ---- claims, totals, notes ---------------------------------------------- */

cJSON *fl_seat_json(const struct game_log *l, int seat, bool by_number)
{
    if (by_number || seat < 0 || seat >= l->rules.n_players ||
        seat >= GAME_MAX_PLAYERS)
        return cJSON_CreateNumber(seat);
    return cJSON_CreateString(l->names[seat]);
}

cJSON *fl_claim_json(const struct game_log *l, const struct claim_event *c,
                     bool with_turn, bool seats_by_number)
{
    cJSON *o = cJSON_CreateObject();
    if (with_turn)
        cJSON_AddNumberToObject(o, "turn", c->turn);
    cJSON *who = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < l->rules.n_players && p < 8; p++)
        if (c->players & (1u << p))
            cJSON_AddItemToArray(who, fl_seat_json(l, p, seats_by_number));
    cJSON_AddStringToObject(o, "feature", feat_name((enum feat)c->feature));
    cJSON_AddNumberToObject(o, "points", c->points);
    return o;
}

cJSON *fl_scores_json(const struct game_log *l, const struct claim_total *t,
                      bool by_number)
{
    int n = l->rules.n_players < GAME_MAX_PLAYERS ? l->rules.n_players
                                                  : GAME_MAX_PLAYERS;
    if (by_number) {
        cJSON *a = cJSON_CreateArray();
        for (int p = 0; p < n; p++)
            cJSON_AddItemToArray(a, t->seats & (1u << p)
                                        ? cJSON_CreateNumber(t->score[p])
                                        : cJSON_CreateNull());
        return a;
    }
    cJSON *o = cJSON_CreateObject();
    for (int p = 0; p < n; p++)
        if (t->seats & (1u << p))
            cJSON_AddNumberToObject(o, l->names[p], t->score[p]);
    return o;
}

cJSON *fl_note_json(const struct turn_note *n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "turn", n->turn);
    if (n->time)
        cJSON_AddStringToObject(o, "time", n->time);
    if (n->text)
        cJSON_AddStringToObject(o, "text", n->text);
    return o;
}

/* ---- the writer's state ------------------------------------------------- */

struct wr {
    const struct game_log *l;
    struct fl_ctx c;
    bool by_number;         /* two seats share a name: seats by number */
    int n_turns;            /* placements in the log */
    bool inline_claims, inline_totals, inline_notes;
    size_t ci, ti, ni;      /* next claim, total, note to attach */
    uint8_t *role;          /* enum step_role of each move, as the auditor
                               takes it */
    uint8_t *part;          /* a placement's turn part (1, 2) */
    bool uses_1_2;          /* an entry says "abbey", "wagons" or "part",
                               or deploys off its tile */
};

/* What each move is to the auditor (a turn's, or one between turns: an
 * abbey declined, a wagon's move) and each placement's turn part, so
 * that the entries say it: the reader makes the same moves of either
 * reading, but a person reads what happened. */
static void classify(struct wr *w)
{
    const struct game_log *l = w->l;
    size_t n = l->n_moves ? l->n_moves : 1;
    w->role = calloc(n, 1);
    w->part = calloc(n, 1);
    if (!w->role || !w->part)
        abort();
    if (l->rules.n_players < 1)
        return;
    struct report r;
    struct audit *a = audit_begin(l, &r);
    for (size_t i = 0; i < l->n_moves; i++) {
        (void)audit_step(a, &l->moves[i]);
        w->role[i] = (uint8_t)audit_step_role(a);
        w->part[i] = (uint8_t)audit_turn_part(a);
    }
    audit_finish(a, NULL, NULL);
    report_release(&r);
}

static long turn_key(int t)
{
    return t < 0 ? 1L << 40 : t;
}

static bool turn_has_entry(int t, int n_turns)
{
    return t == -1 || (t >= 1 && t <= n_turns);
}

/* Can the items (turns given by turn_at) sit on their entries and keep
 * their order? strict: at most one per turn. */
static bool attachable(const struct wr *w, size_t n, int (*turn_at)(
                           const struct game_log *, size_t), bool strict)
{
    long prev = -1;
    for (size_t i = 0; i < n; i++) {
        int t = turn_at(w->l, i);
        long k = turn_key(t);
        if (!turn_has_entry(t, w->n_turns) || k < prev ||
            (strict && k == prev))
            return false;
        prev = k;
    }
    return true;
}

static int claim_turn(const struct game_log *l, size_t i)
{
    return l->claims[i].turn;
}

static int total_turn(const struct game_log *l, size_t i)
{
    return l->totals[i].turn;
}

static int note_turn(const struct game_log *l, size_t i)
{
    const struct turn_note *n = &l->notes[i];
    return n->time || n->text ? n->turn : -2; /* an empty note: a list */
}

static void wr_init(struct wr *w, const struct game_log *l)
{
    memset(w, 0, sizeof *w);
    w->l = l;
    for (int p = 0; p < l->rules.n_players; p++)
        for (int q = 0; q < p; q++)
            if (strcmp(l->names[p], l->names[q]) == 0)
                w->by_number = true;
    for (size_t i = 0; i < l->n_moves; i++)
        w->n_turns += l->moves[i].kind == MV_PLACE;
    w->inline_claims = attachable(w, l->n_claims, claim_turn, false);
    w->inline_totals = attachable(w, l->n_totals, total_turn, true);
    w->inline_notes = attachable(w, l->n_notes, note_turn, true);
    fl_ctx_init(&w->c, l);
    classify(w);
}

static void wr_release(struct wr *w)
{
    fl_ctx_release(&w->c);
    free(w->role);
    free(w->part);
}

/* Is there anything for "final" (turn -1) on the entries' side? */
static bool final_items(const struct wr *w)
{
    const struct game_log *l = w->l;
    for (size_t i = 0; w->inline_claims && i < l->n_claims; i++)
        if (l->claims[i].turn == -1)
            return true;
    for (size_t i = 0; w->inline_totals && i < l->n_totals; i++)
        if (l->totals[i].turn == -1)
            return true;
    for (size_t i = 0; w->inline_notes && i < l->n_notes; i++)
        if (l->notes[i].turn == -1)
            return true;
    return false;
}

/* ---- the header --------------------------------------------------------- */

/* The value of element el under r: a figure count, or 0 / 1. */
static int element_value(const struct element *el, const struct rules *r)
{
    return element_get(r, el);
}

/* Does flierlog/1.0 have a key for element el ("followers", ...)? */
static bool legacy_element(const struct element *el)
{
    const char *key;
    for (int i = 0; fl_legacy_key(i, &key); i++)
        if (strcmp(key, el->key) == 0)
            return true;
    return false;
}

/* The edition a log is written with, and its defaults. */
static bool edition_rules(const struct rules *r, struct rules *d)
{
    bool c3 = r->set_copies[tile_set_find("basic:2")] > 0;
    *d = *r;
    fl_edition_rules(c3, d);
    return c3;
}

/* Does an element without a flierlog/1.0 key differ from the edition's?
 * Then the setup needs flierlog/1.1's "elements". */
static bool needs_elements(const struct rules *r)
{
    struct rules d;
    edition_rules(r, &d);
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++)
            if (element_value(el, r) != element_value(el, &d) &&
                !legacy_element(el))
                return true;
    return false;
}

/* Is l written as flierlog/1.1: "elements", or a figure flierlog/1.0
 * does not know? */
static bool needs_1_1(const struct game_log *l)
{
    if (needs_elements(&l->rules))
        return true;
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        if ((m->kind == MV_DEPLOY || m->kind == MV_RECALL) &&
            !fl_figure_in_1_0(m->meeple))
            return true;
    }
    return false;
}

/* Is l written as flierlog/1.3: does a unit of 1.3's say so (its game,
 * its moves)? */
static bool needs_1_3(const struct game_log *l)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        if ((*u)->needs_1_3 && (*u)->needs_1_3(l))
            return true;
    return false;
}

/* Every element whose value differs from the edition's d, as an
 * "elements" object. */
static void add_elements(cJSON *o, const struct rules *r,
                         const struct rules *d)
{
    cJSON *els = cJSON_AddObjectToObject(o, "elements");
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            int v = element_value(el, r);
            if (v == element_value(el, d))
                continue;
            if (el->number)
                cJSON_AddNumberToObject(els, el->key, v);
            else
                cJSON_AddBoolToObject(els, el->key, v != 0);
        }
}

/* The elements flierlog/1.0 has keys for, where they differ from d. */
static void add_legacy(cJSON *o, const struct rules *r,
                       const struct rules *d)
{
    bool farmers = (r->flags & RF_FARMERS) != 0;
    bool gardens = (r->flags & RF_GARDENS) != 0;
    if (r->figures[FIG_SMALL] != d->figures[FIG_SMALL])
        cJSON_AddNumberToObject(o, "followers", r->figures[FIG_SMALL]);
    if (farmers != ((d->flags & RF_FARMERS) != 0))
        cJSON_AddBoolToObject(o, "farmers", farmers);
    if ((r->figures[FIG_ABBOT] != 0) != (d->figures[FIG_ABBOT] != 0))
        cJSON_AddBoolToObject(o, "abbot", r->figures[FIG_ABBOT] != 0);
    if (gardens != ((d->flags & RF_GARDENS) != 0))
        cJSON_AddBoolToObject(o, "gardens", gardens);
}

/* The variants ("rules"): each option off its default, by JCloisterZone's
 * value, a number where the value is one ("tiny-city-scoring": 2). */
static void add_rules(cJSON *o, const struct rules *r)
{
    cJSON *rules = NULL;
    for (int k = 0; k < OPT__COUNT; k++) {
        const char *name = option_value_name(k, r->opt[k]);
        if (r->opt[k] == option_log_default(r, k) || !name)
            continue;
        if (!rules)
            rules = cJSON_AddObjectToObject(o, "rules");
        if (name[strspn(name, "0123456789")] == '\0')
            cJSON_AddNumberToObject(rules, option_key(k),
                                    (double)strtol(name, NULL, 10));
        else
            cJSON_AddStringToObject(rules, option_key(k), name);
    }
}

static void add_setup(cJSON *o, const struct game_log *l)
{
    const struct rules *r = &l->rules;
    struct rules d;
    bool c3 = edition_rules(r, &d);
    cJSON_AddStringToObject(o, "edition", c3 ? "C3" : "C2");
    if (memcmp(d.set_copies, r->set_copies, sizeof d.set_copies) != 0) {
        cJSON *sets = cJSON_AddObjectToObject(o, "sets");
        for (int s = 0; s < tile_set_count(); s++)
            if (r->set_copies[s])
                cJSON_AddNumberToObject(sets, tile_set_get(s)->id,
                                        r->set_copies[s]);
    }
    if (needs_elements(r))
        add_elements(o, r, &d);
    else
        add_legacy(o, r, &d);
    add_rules(o, r);
}

cJSON *fl_pos_json(struct pos p)
{
    int xy[2] = { p.x, p.y };
    return cJSON_CreateIntArray(xy, 2);
}

static void add_start_players(cJSON *o, const struct game_log *l)
{
    int start = tile_find("BA/RCr");
    if (game_log_n_starts(l) > 1) { /* 1.3: the list */
        cJSON *a = cJSON_AddArrayToObject(o, "start");
        for (int i = 0; i < game_log_n_starts(l); i++) {
            struct start_place sp = game_log_start(l, i);
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "tile", tile_get(sp.tile)->id);
            cJSON_AddItemToObject(s, "at", fl_pos_json(sp.at));
            cJSON_AddNumberToObject(s, "rot", 90 * (sp.rot & 3));
            cJSON_AddItemToArray(a, s);
        }
    } else if (l->start_tile >= 0 &&
        (l->start_tile != start || l->start_at.x || l->start_at.y ||
         l->start_rot)) {
        cJSON *s = cJSON_AddObjectToObject(o, "start");
        cJSON_AddStringToObject(s, "tile", tile_get(l->start_tile)->id);
        cJSON_AddItemToObject(s, "at", fl_pos_json(l->start_at));
        cJSON_AddNumberToObject(s, "rot", 90 * (l->start_rot & 3));
    }
    cJSON *pl = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < l->rules.n_players && p < GAME_MAX_PLAYERS; p++) {
        cJSON *one = cJSON_CreateObject();
        cJSON_AddStringToObject(one, "name", l->names[p]);
        if (l->colors[p][0])
            cJSON_AddStringToObject(one, "color", l->colors[p]);
        cJSON_AddItemToArray(pl, one);
    }
}

/* Claims, totals or notes that cannot sit on their entries. */
static void add_lists(cJSON *o, const struct wr *w)
{
    const struct game_log *l = w->l;
    if (!w->inline_claims) {
        cJSON *a = cJSON_AddArrayToObject(o, "claims");
        for (size_t i = 0; i < l->n_claims; i++)
            cJSON_AddItemToArray(a, fl_claim_json(l, &l->claims[i], true,
                                                  w->by_number));
    }
    if (!w->inline_totals) {
        cJSON *a = cJSON_AddArrayToObject(o, "totals");
        for (size_t i = 0; i < l->n_totals; i++) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddNumberToObject(t, "turn", l->totals[i].turn);
            cJSON_AddItemToObject(t, "scores", fl_scores_json(
                                                   l, &l->totals[i],
                                                   w->by_number));
            cJSON_AddItemToArray(a, t);
        }
    }
    if (!w->inline_notes) {
        cJSON *a = cJSON_AddArrayToObject(o, "notes");
        for (size_t i = 0; i < l->n_notes; i++)
            cJSON_AddItemToArray(a, fl_note_json(&l->notes[i]));
    }
}

/* flierlog/1.3: several start tiles, or the City of Carcassonne's moves
 * (a neutral figure, a follower into or out of a quarter). */
static void add_draw(cJSON *o, const char *key, double d)
{
    if (d >= 0 && d < 1)
        cJSON_AddNumberToObject(o, key, d);
}

static cJSON *header_json(const struct wr *w, bool final)
{
    const struct game_log *l = w->l;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format",
                            needs_1_3(l)   ? "flierlog/1.3"
                            : w->uses_1_2  ? "flierlog/1.2"
                            : needs_1_1(l) ? "flierlog/1.1"
                                           : "flierlog/1");
    add_setup(o, l);
    add_start_players(o, l);
    int implied = final ? w->n_turns : -1;
    if (l->end_turn != implied) {
        if (l->end_turn >= 0)
            cJSON_AddNumberToObject(o, "end_turn", l->end_turn);
        else
            cJSON_AddNullToObject(o, "end_turn");
    }
    add_draw(o, "end_draw", l->end_draw);
    add_lists(o, w);
    return o;
}

/* ---- turn entries ------------------------------------------------------- */

cJSON *fl_seg_json(int kind, uint8_t mask)
{
    char s[48];
    seg_format(feat_logged(kind), mask, s, sizeof s); /* as read back */
    return cJSON_CreateString(s);
}

/* "meeple" and "meeple_id" where they differ from what the reader
 * assumes without them. */
void fl_add_meeple(cJSON *o, const struct move *m, int kind, int owner, int n)
{
    char id[40];
    if (m->meeple != kind)
        cJSON_AddStringToObject(o, "meeple", fl_figure_name(m->meeple));
    if ((m->meeple_owner == owner && m->meeple_n == n) || m->meeple_owner < 0)
        return;
    snprintf(id, sizeof id, "%d.%s.%d", m->meeple_owner,
             figure_class(m->meeple)->jcz, m->meeple_n);
    cJSON_AddStringToObject(o, "meeple_id", id);
}

/* "<seat>.<kind>.<n>" of m's meeple. */
cJSON *fl_meeple_id_json(const struct move *m)
{
    char id[40];
    snprintf(id, sizeof id, "%d.%s.%d", m->meeple_owner,
             figure_class(m->meeple)->jcz, m->meeple_n);
    return cJSON_CreateString(id);
}

/* The units' parts of the turn before its action, when the moves a[0..n)
 * start with them: how many (-1: they have no short form). */
static int add_before(cJSON *o, const struct move *a, size_t n)
{
    size_t k = 0;
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++) {
        int took = (*u)->write_before ? (*u)->write_before(o, a + k, n - k) : 0;
        if (took < 0)
            return -1;
        k += (size_t)took;
    }
    return (int)k;
}

#define MAX_UNITS 16

/* The units' parts after the action and its pass at the end of a[0..n):
 * how many of the moves each takes, in at[]; their total. */
static size_t n_after(const struct move *a, size_t n, size_t at[MAX_UNITS])
{
    size_t u = 0, total = 0;
    while (fl_turn_units[u] && u < MAX_UNITS)
        u++;
    while (u-- > 0) { /* from the end, the last unit's first */
        const struct fl_turn_unit *t = fl_turn_units[u];
        at[u] = t->n_after ? t->n_after(a, n - total) : 0;
        total += at[u];
    }
    return total;
}

static bool add_after(cJSON *o, const struct move *a, const size_t at[])
{
    for (size_t u = 0; fl_turn_units[u] && u < MAX_UNITS; u++) {
        if (fl_turn_units[u]->write_after && at[u])
            fl_turn_units[u]->write_after(o, a, at[u]);
        a += at[u];
    }
    return true;
}

/* The one action the moves a[0..n) are, with its meeple; false if they
 * are none. */
static bool add_one_action(const struct wr *w, cJSON *o, const struct move *p,
                           const struct move *a, size_t n)
{
    int owner = fl_default_seat(&w->c, p->player, w->c.turns + 1);
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        for (const struct fl_action *t = (*u)->actions; t && t->key; t++) {
            if (!t->write(&w->c, o, p, a, n))
                continue;
            if (t->meeple) {
                int kind, k;
                fl_meeple_default(t->meeple, &kind, &k);
                fl_add_meeple(o, &a[0], kind, t->anyones ? -1 : owner, k);
            }
            return true;
        }
    return false;
}

/* The action between PLACE and COMMIT (a[0..n)); false if it has no
 * short form. */
static bool add_action(const struct wr *w, cJSON *o, const struct move *p,
                       const struct move *a, size_t n)
{
    size_t at[MAX_UNITS] = {0};
    int before = add_before(o, a, n);
    if (before < 0)
        return false;
    a += before;
    n -= (size_t)before;
    n -= n_after(a, n, at);
    bool pass = n >= 2 && a[n - 1].kind == MV_PASS;
    n -= pass;
    if (n == 0) {
        cJSON_AddBoolToObject(o, "pass", false);
        return !pass && add_after(o, &a[n], at);
    }
    if (n == 1 && a[0].kind == MV_PASS)
        return !pass && add_after(o, &a[n], at);
    if (!add_one_action(w, o, p, a, n))
        return false;
    if (pass)
        cJSON_AddBoolToObject(o, "pass", true);
    return add_after(o, &a[n + pass], at);
}

static void add_player(const struct wr *w, cJSON *o, const struct move *m)
{
    if (m->player >= 0)
        cJSON_AddItemToObject(o, "player", fl_seat_json(w->l, m->player,
                                                     w->by_number));
}




/* How many moves from i (before j) are a unit's before a tile (the
 * abbey declined), and whose. */
static size_t n_pre(const struct wr *w, size_t i, size_t j,
                    const struct fl_turn_unit **unit)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++) {
        size_t n = (*u)->n_pre ? (*u)->n_pre(&w->l->moves[i], &w->role[i],
                                             j - i)
                               : 0;
        if (n) {
            *unit = *u;
            return n;
        }
    }
    return 0;
}

/* The unit whose entry of its own the move at k is, or NULL. */
static const struct fl_turn_unit *alone_unit(const struct wr *w, size_t k)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        if ((*u)->is_alone && (*u)->is_alone(&w->l->moves[k], w->role[k]))
            return *u;
    return NULL;
}

/* The units' moves [k, j) after a turn's COMMIT (the wagons), onto o;
 * false when something else is there. */
static bool add_between(const struct wr *w, cJSON *o, size_t k, size_t j)
{
    while (k < j) {
        size_t took = 0;
        for (const struct fl_turn_unit *const *u = fl_turn_units;
             *u && !took; u++)
            if ((*u)->write_between)
                took = (*u)->write_between(o, w->l, w->by_number,
                                           &w->l->moves[k], &w->role[k],
                                           j - k);
        if (!took)
            return false;
        k += took;
    }
    return true;
}

/* The short form of moves [i, j), or NULL: [a unit's moves before the
 * tile,] the tile, its action, the units' moves after it; or a unit's
 * entry of its own (an abbey declined in the last round). */
static cJSON *regular_json(const struct wr *w, size_t i, size_t j)
{
    const struct move *mv = w->l->moves;
    const struct fl_turn_unit *pre = NULL;
    size_t k = i + n_pre(w, i, j, &pre);
    const struct move *p = &mv[k < j ? k : i];
    const struct fl_turn_unit *alone = k == i && j == i + 1
                                           ? alone_unit(w, i)
                                           : NULL;
    cJSON *o = cJSON_CreateObject();
    if (alone) {
        add_player(w, o, p);
        alone->write_pre(o);
        return o;
    }
    if (k >= j || (p->kind != MV_PLACE && p->kind != MV_DISCARD)) {
        cJSON_Delete(o);
        return NULL;
    }
    if (p->kind == MV_PLACE)
        cJSON_AddNumberToObject(o, "turn", w->c.turns + 1);
    if (p->kind == MV_PLACE && w->part[k] == 2)
        cJSON_AddNumberToObject(o, "part", 2);
    add_player(w, o, p);
    if (pre)
        pre->write_pre(o);
    cJSON_AddStringToObject(o, "tile", p->tile_id);
    if (p->kind == MV_DISCARD) {
        cJSON_AddBoolToObject(o, "discard", true);
        add_draw(o, "draw", p->draw);
        return o;
    }
    cJSON_AddItemToObject(o, "at", fl_pos_json(p->at));
    cJSON_AddNumberToObject(o, "rot", 90 * (p->rot & 3));
    add_draw(o, "draw", p->draw);
    size_t c = k + 1; /* the turn's COMMIT */
    while (c < j && mv[c].kind != MV_COMMIT)
        c++;
    if (c >= j || !add_action(w, o, p, &mv[k + 1], c - k - 1) ||
        !add_between(w, o, c + 1, j)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static bool same_move(const struct move *a, const struct move *b)
{
    return a->kind == b->kind && a->player == b->player &&
           a->tile == b->tile && strcmp(a->tile_id, b->tile_id) == 0 &&
           a->at.x == b->at.x && a->at.y == b->at.y && a->rot == b->rot &&
           a->feature == b->feature && a->mask == b->mask &&
           a->meeple == b->meeple && a->meeple_n == b->meeple_n &&
           a->meeple_owner == b->meeple_owner && a->roll == b->roll &&
           a->neutral == b->neutral &&
           (a->draw == b->draw || (a->draw < 0 && b->draw < 0));
}

/* Does the reader make moves [i, j) of the entry o? */
static bool reads_back(const struct wr *w, const cJSON *o, size_t i, size_t j,
                       uint32_t idx)
{
    struct game_log s;
    struct err e;
    char path[32];
    snprintf(path, sizeof path, "turns[%u]", idx);
    game_log_init(&s);
    bool ok = fl_entry_moves(&w->c, o, path, idx, &s, &e) == ST_OK &&
              s.n_moves == j - i;
    for (size_t k = 0; ok && k < s.n_moves; k++)
        ok = same_move(&s.moves[k], &w->l->moves[i + k]);
    game_log_release(&s);
    return ok;
}

/* The fields of a move under its row's keys (core/move.h; flierlog.c
 * reads them), each key's default after '=' in arg. */
static void wf_tile(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddStringToObject(o, "tile", m->tile_id);
}

static void wf_at(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddItemToObject(o, "at", fl_pos_json(m->at));
}

static void wf_rot(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddNumberToObject(o, "rot", 90 * (m->rot & 3));
}

static void wf_draw(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    add_draw(o, "draw", m->draw);
}

/* "segment" and "segment?" alike: the writer always says it. */
static void wf_segment(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddItemToObject(o, "segment", fl_seg_json(m->feature, m->mask));
}

static void wf_meeple(cJSON *o, const struct move *m, const char *arg)
{
    int kind, n;
    fl_meeple_default(arg, &kind, &n);
    fl_add_meeple(o, m, kind, m->player, n);
}

static void wf_meeple_id(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddItemToObject(o, "meeple_id", fl_meeple_id_json(m));
}

/* A flight's roll, and its random number when the log keeps one. */
static void wf_roll(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    if (m->feature != FEAT_FLIER)
        return;
    cJSON_AddNumberToObject(o, "roll", m->roll);
    if (m->draw >= 0 && m->draw < 1 && mlog_roll_of(m->draw) == m->roll)
        cJSON_AddNumberToObject(o, "random", m->draw);
}

static void wf_index(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddNumberToObject(o, "index", m->index);
}

static void wf_amount(cJSON *o, const struct move *m, const char *arg)
{
    (void)arg;
    cJSON_AddNumberToObject(o, "amount", m->amount);
}

static const struct {
    const char *key;
    void (*write)(cJSON *o, const struct move *m, const char *arg);
} field_keys[] = {
    {"tile", wf_tile},       {"at", wf_at},
    {"rot", wf_rot},         {"draw", wf_draw},
    {"segment", wf_segment}, {"segment?", wf_segment},
    {"meeple", wf_meeple},   {"meeple_id", wf_meeple_id},
    {"roll", wf_roll},       {"index", wf_index},
    {"amount", wf_amount},
};

static void add_field(cJSON *o, const struct move *m, const char *key,
                      const char *arg)
{
    for (size_t k = 0; k < sizeof field_keys / sizeof *field_keys; k++)
        if (strcmp(field_keys[k].key, key) == 0)
            field_keys[k].write(o, m, arg);
}

cJSON *fl_move_json(const struct game_log *l, bool by_number,
                    const struct move *m, int entry_player)
{
    const struct move_class *row = move_class_of(m->kind, m->neutral);
    cJSON *o = cJSON_CreateObject();
    char key[16], arg[16];
    const char *p = row && row->fl_fields ? row->fl_fields : "";
    cJSON_AddStringToObject(o, "move", row ? row->name : "place");
    if (m->player != entry_player && m->player >= 0)
        cJSON_AddItemToObject(o, "player", fl_seat_json(l, m->player,
                                                     by_number));
    while (fl_next_key(&p, key, arg))
        add_field(o, m, key, arg);
    return o;
}

/* One move of a "moves" list, by its row; its "player" only where it is
 * not the entry's (entry_player, -1 when the entry names none). */
static cJSON *move_json(const struct wr *w, const struct move *m,
                        int entry_player)
{
    return fl_move_json(w->l, w->by_number, m, entry_player);
}

/* The long form: every move spelt out; a player all of them name is
 * said once, on the entry. */
static cJSON *moves_json(const struct wr *w, size_t i, size_t j)
{
    const struct move *mv = w->l->moves;
    cJSON *o = cJSON_CreateObject();
    int turns = w->c.turns, places = 0, player = mv[i].player, part = 1;
    for (size_t k = i; k < j; k++) {
        places += mv[k].kind == MV_PLACE;
        part = mv[k].kind == MV_PLACE ? w->part[k] : part;
        player = mv[k].player == player ? player : -1;
    }
    if (places)
        cJSON_AddNumberToObject(o, "turn", turns + places);
    if (places == 1 && part == 2)
        cJSON_AddNumberToObject(o, "part", 2);
    if (player >= 0)
        cJSON_AddItemToObject(o, "player", fl_seat_json(w->l, player,
                                                     w->by_number));
    cJSON *a = cJSON_AddArrayToObject(o, "moves");
    for (size_t k = i; k < j; k++) {
        turns += mv[k].kind == MV_PLACE;
        cJSON_AddItemToArray(a, move_json(w, &mv[k], player));
    }
    return o;
}

/* Claims, totals and a note of turn t onto o. */
static void add_extras(struct wr *w, cJSON *o, int t)
{
    const struct game_log *l = w->l;
    cJSON *a = NULL;
    while (w->inline_claims && w->ci < l->n_claims &&
           l->claims[w->ci].turn == t) {
        if (!a)
            a = cJSON_AddArrayToObject(o, "claims");
        cJSON_AddItemToArray(a, fl_claim_json(l, &l->claims[w->ci++], false,
                                              w->by_number));
    }
    if (w->inline_totals && w->ti < l->n_totals &&
        l->totals[w->ti].turn == t)
        cJSON_AddItemToObject(o, "totals", fl_scores_json(
                                               l, &l->totals[w->ti++],
                                               w->by_number));
    if (w->inline_notes && w->ni < l->n_notes && l->notes[w->ni].turn == t) {
        const struct turn_note *n = &l->notes[w->ni++];
        if (n->time)
            cJSON_AddStringToObject(o, "time", n->time);
        if (n->text)
            cJSON_AddStringToObject(o, "note", n->text);
    }
}

/* Does an entry start at move k, the entry before having started at i?
 * At each tile (but the one drawn after a unit's moves that open the
 * entry), at a unit's entry of its own: the moves between a turn's COMMIT
 * and the next tile are the turn before's. */
static bool starts_entry(const struct wr *w, size_t i, size_t k, size_t n)
{
    const struct move *m = &w->l->moves[k];
    const struct fl_turn_unit *pre = NULL;
    if (m->kind == MV_PLACE || m->kind == MV_DISCARD)
        return k != i + n_pre(w, i, n, &pre);
    return alone_unit(w, k) != NULL;
}

/* Did the entry o take a key of flierlog/1.2 (a unit's between turns,
 * "part"), or a deployment off the tile? */
static bool keys_1_2(const cJSON *o)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        for (const char *const *k = (*u)->entry_keys; k && *k; k++)
            if (mlog_get(o, *k))
                return true;
    return mlog_get(o, "part") || cJSON_IsObject(mlog_get(o, "deploy"));
}

/* The entries: a placement with what follows it (the abbey declined
 * before it, its action, the wagons after it), a discard, an abbey
 * declined in the last round; moves before the first of them make an
 * entry of their own. */
static cJSON *entries_json(struct wr *w)
{
    const struct game_log *l = w->l;
    cJSON *arr = cJSON_CreateArray();
    uint32_t idx = 0;
    for (size_t i = 0, j; i < l->n_moves; i = j, idx++) {
        bool placed = false;
        for (j = i + 1; j < l->n_moves; j++)
            if (starts_entry(w, i, j, l->n_moves))
                break;
        cJSON *o = regular_json(w, i, j);
        if (o && !reads_back(w, o, i, j, idx)) {
            cJSON_Delete(o);
            o = NULL;
        }
        if (!o)
            o = moves_json(w, i, j);
        w->uses_1_2 = w->uses_1_2 || keys_1_2(o);
        for (size_t k = i; k < j; k++) {
            placed = placed || l->moves[k].kind == MV_PLACE;
            fl_ctx_apply(&w->c, &l->moves[k]);
        }
        if (placed)
            add_extras(w, o, w->c.turns);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* ---- the document ------------------------------------------------------- */

struct doc {
    cJSON *header, *turns, *final; /* final: NULL when absent */
};

static void build(const struct game_log *l, struct doc *d)
{
    struct wr w;
    wr_init(&w, l);
    bool final = l->end_turn == w.n_turns || final_items(&w);
    d->turns = entries_json(&w); /* first: they tell the minor version */
    d->header = header_json(&w, final);
    d->final = NULL;
    if (final) {
        d->final = cJSON_CreateObject();
        add_extras(&w, d->final, -1);
    }
    wr_release(&w);
}

static void doc_release(struct doc *d)
{
    cJSON_Delete(d->header);
    cJSON_Delete(d->turns);
    cJSON_Delete(d->final);
}

void mlog_write_flierlog(const struct game_log *l, struct buf *out)
{
    struct doc d;
    const cJSON *it;
    build(l, &d);
    buf_puts(out, "{\n");
    cJSON_ArrayForEach(it, d.header) {
        buf_puts(out, "  ");
        print_string(it->string, out);
        buf_puts(out, ": ");
        fl_print(it, out);
        buf_puts(out, ",\n");
    }
    buf_puts(out, "  \"turns\": [");
    cJSON_ArrayForEach(it, d.turns) {
        buf_puts(out, it == d.turns->child ? "\n    " : ",\n    ");
        fl_print(it, out);
    }
    buf_puts(out, d.turns->child ? "\n  ]" : "]");
    if (d.final) {
        buf_puts(out, ",\n  \"final\": ");
        fl_print(d.final, out);
    }
    buf_puts(out, "\n}\n");
    doc_release(&d);
}

void mlog_write_flierlog_ndjson(const struct game_log *l, struct buf *out)
{
    struct doc d;
    const cJSON *it;
    build(l, &d);
    fl_print(d.header, out);
    buf_puts(out, "\n");
    cJSON_ArrayForEach(it, d.turns) {
        fl_print(it, out);
        buf_puts(out, "\n");
    }
    if (d.final) {
        buf_puts(out, "{\"final\": ");
        fl_print(d.final, out);
        buf_puts(out, "}\n");
    }
    doc_release(&d);
}
