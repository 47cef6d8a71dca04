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

static cJSON *seat_json(const struct game_log *l, int seat, bool by_number)
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
            cJSON_AddItemToArray(who, seat_json(l, p, seats_by_number));
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
    bool uses_1_3;          /* an entry says "fairy", "princess", "dragon",
                               or spells one of them out */
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

/* Is l written as flierlog/1.3: The Tower's floors, captures, ransoms? */
/* flierlog/1.3: a game of The Tower, several start tiles (the City of
 * Carcassonne), a move of 1.3's (The Tower's, the neutral figures', the
 * princess's) or a follower sent into a quarter of the City. */
static bool needs_1_3(const struct game_log *l)
{
    if ((l->rules.flags & RF_TOWER) || game_log_n_starts(l) > 1)
        return true;
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind >= MV_TOWER ||
            (l->moves[i].kind == MV_DEPLOY &&
             l->moves[i].feature == FEAT_QUARTER))
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
        if (r->opt[k] == option_default(k) || !name)
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

static cJSON *pos_json(struct pos p)
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
            cJSON_AddItemToObject(s, "at", pos_json(sp.at));
            cJSON_AddNumberToObject(s, "rot", 90 * (sp.rot & 3));
            cJSON_AddItemToArray(a, s);
        }
    } else if (l->start_tile >= 0 &&
        (l->start_tile != start || l->start_at.x || l->start_at.y ||
         l->start_rot)) {
        cJSON *s = cJSON_AddObjectToObject(o, "start");
        cJSON_AddStringToObject(s, "tile", tile_get(l->start_tile)->id);
        cJSON_AddItemToObject(s, "at", pos_json(l->start_at));
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
static cJSON *header_json(const struct wr *w, bool final)
{
    const struct game_log *l = w->l;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "format", needs_1_3(l) || w->uses_1_3
                                             ? "flierlog/1.3"
                                         : w->uses_1_2 ? "flierlog/1.2"
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
    add_lists(o, w);
    return o;
}

/* ---- turn entries ------------------------------------------------------- */

static cJSON *seg_json(int kind, uint8_t mask)
{
    char s[48];
    seg_format(feat_logged(kind), mask, s, sizeof s); /* as read back */
    return cJSON_CreateString(s);
}

/* "meeple" and "meeple_id" where they differ from what the reader
 * assumes without them. */
static void add_meeple(cJSON *o, const struct move *m, int kind, int owner,
                       int n)
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

static void add_draw(cJSON *o, const char *key, double d)
{
    if (d >= 0 && d < 1)
        cJSON_AddNumberToObject(o, key, d);
}

static cJSON *fly_json(const struct move *place, const struct move *f,
                       const struct move *land)
{
    cJSON *o = cJSON_CreateObject();
    struct pos t;
    cJSON_AddNumberToObject(o, "roll", f->roll);
    if (f->draw >= 0 && f->draw < 1 && mlog_roll_of(f->draw) == f->roll)
        cJSON_AddNumberToObject(o, "random", f->draw);
    if (!land) {
        cJSON_AddStringToObject(o, "land", "returned");
    } else if (fl_flight_target(place, f->roll, &t) && t.x == land->at.x &&
               t.y == land->at.y) {
        cJSON_AddItemToObject(o, "land", seg_json(land->feature, land->mask));
    } else {
        cJSON *l = cJSON_AddObjectToObject(o, "land");
        cJSON_AddItemToObject(l, "at", pos_json(land->at));
        cJSON_AddItemToObject(l, "segment", seg_json(land->feature,
                                                     land->mask));
    }
    return o;
}

static cJSON *recall_json(const struct wr *w, const struct move *m)
{
    uint8_t kind, mask;
    fl_recall_segment(&w->c, m->at, &kind, &mask);
    if (kind == m->feature && mask == m->mask)
        return pos_json(m->at);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "at", pos_json(m->at));
    cJSON_AddItemToObject(o, "segment", seg_json(m->feature, m->mask));
    return o;
}

/* "<seat>.<kind>.<n>" of m's meeple. */
static cJSON *meeple_id_json(const struct move *m)
{
    char id[40];
    snprintf(id, sizeof id, "%d.%s.%d", m->meeple_owner,
             figure_class(m->meeple)->jcz, m->meeple_n);
    return cJSON_CreateString(id);
}

/* The Tower: "tower": [x, y], its "capture" (a[1]) and the capture's
 * "exchange" (a[2]). */
static bool add_tower(cJSON *o, const struct move *a, size_t n)
{
    if (n > 3 || (n >= 2 && a[1].kind != MV_CAPTURE) ||
        (n >= 2 && a[1].meeple_owner < 0) ||
        (n == 3 && (a[2].kind != MV_EXCHANGE || a[2].meeple_owner < 0)))
        return false;
    cJSON_AddItemToObject(o, "tower", pos_json(a[0].at));
    if (n >= 2) {
        cJSON *c = cJSON_AddObjectToObject(o, "capture");
        cJSON_AddItemToObject(c, "at", pos_json(a[1].at));
        cJSON_AddItemToObject(c, "segment", seg_json(a[1].feature,
                                                     a[1].mask));
        cJSON_AddItemToObject(c, "meeple_id", meeple_id_json(&a[1]));
        if (n == 3)
            cJSON_AddItemToObject(c, "exchange", meeple_id_json(&a[2]));
    }
    return true;
}

/* "dragon": the dragon's steps a[0..steps), when there are; true. */
static bool add_dragon(cJSON *o, const struct move *a, size_t steps)
{
    if (!steps)
        return true;
    cJSON *d = cJSON_AddArrayToObject(o, "dragon");
    for (size_t k = 0; k < steps; k++)
        cJSON_AddItemToArray(d, pos_json(a[k].at));
    return true;
}

/* The action between PLACE and COMMIT (a[0..n)); false if it has no
 * short form. */
static bool add_action(const struct wr *w, cJSON *o, const struct move *p,
                       const struct move *a, size_t n)
{
    int owner = fl_default_seat(&w->c, p->player, w->c.turns + 1);
    if (n >= 1 && a[0].kind == MV_RANSOM) { /* The Tower: before it */
        if (a[0].meeple_owner < 0)
            return false;
        cJSON_AddItemToObject(o, "ransom", meeple_id_json(&a[0]));
        a++;
        n--;
    }
    /* the dragon's steps close the turn, naming no player */
    size_t steps = 0;
    while (steps < n && a[n - 1 - steps].kind == MV_NEUTRAL &&
           a[n - 1 - steps].neutral == FIG_DRAGON &&
           a[n - 1 - steps].player < 0)
        steps++;
    n -= steps;
    bool pass = n >= 2 && a[n - 1].kind == MV_PASS;
    n -= pass;
    if (n == 0) {
        cJSON_AddBoolToObject(o, "pass", false);
        return !pass && add_dragon(o, &a[n], steps);
    }
    if (n == 1 && a[0].kind == MV_PASS)
        return !pass && add_dragon(o, &a[n], steps);
    if (a[0].kind == MV_DEPLOY && a[0].feature != FEAT_FLIER && n == 1) {
        if (a[0].at.x == p->at.x && a[0].at.y == p->at.y) {
            cJSON_AddItemToObject(o, "deploy",
                                  seg_json(a[0].feature, a[0].mask));
        } else { /* a barn's corner, or a deployment off the tile */
            cJSON *d = cJSON_AddObjectToObject(o, "deploy");
            cJSON_AddItemToObject(d, "at", pos_json(a[0].at));
            cJSON_AddItemToObject(d, "segment",
                                  seg_json(a[0].feature, a[0].mask));
        }
        add_meeple(o, &a[0], FIG_SMALL, owner, 0);
    } else if (a[0].kind == MV_DEPLOY && a[0].feature == FEAT_FLIER &&
               (n == 1 || (n == 2 && a[1].kind == MV_DEPLOY))) {
        cJSON_AddItemToObject(o, "fly", fly_json(p, &a[0],
                                                 n == 2 ? &a[1] : NULL));
        add_meeple(o, &a[0], FIG_SMALL, owner, 0);
    } else if (a[0].kind == MV_RECALL && n == 1) {
        cJSON_AddItemToObject(o, "recall", recall_json(w, &a[0]));
        add_meeple(o, &a[0], FIG_ABBOT, owner, 1);
    } else if (a[0].kind == MV_TOWER) {
        if (!add_tower(o, a, n))
            return false;
    } else if (n == 1 && (a[0].kind == MV_PRINCESS ||
                          (a[0].kind == MV_NEUTRAL &&
                           a[0].neutral == FIG_FAIRY))) {
        bool princess = a[0].kind == MV_PRINCESS;
        cJSON *b = cJSON_AddObjectToObject(o, princess ? "princess"
                                                       : "fairy");
        cJSON_AddItemToObject(b, "at", pos_json(a[0].at));
        cJSON_AddItemToObject(b, "segment",
                              seg_json(a[0].feature, a[0].mask));
        add_meeple(o, &a[0], FIG_SMALL, princess ? -1 : owner, 0);
    } else {
        return false;
    }
    if (pass)
        cJSON_AddBoolToObject(o, "pass", true);
    return add_dragon(o, &a[n + pass], steps);
}

static void add_player(const struct wr *w, cJSON *o, const struct move *m)
{
    if (m->player >= 0)
        cJSON_AddItemToObject(o, "player", seat_json(w->l, m->player,
                                                     w->by_number));
}

/* Is the move at k a turn's, or one between turns of that role? */
static bool role_is(const struct wr *w, size_t k, enum step_role role)
{
    return w->role[k] == role;
}

/* Does the entry at i open with the abbey declined before the draw (its
 * PASS and COMMIT)? */
static bool declined_first(const struct wr *w, size_t i, size_t j)
{
    const struct move *mv = w->l->moves;
    return i + 1 < j && mv[i].kind == MV_PASS && mv[i + 1].kind == MV_COMMIT &&
           role_is(w, i, STEP_ABBEY_DECLINED) &&
           role_is(w, i + 1, STEP_ABBEY_DECLINED);
}

/* "wagons" of the moves [k, j) after a turn's COMMIT: each a wagon's move
 * or stay; the COMMITs between are the reader's to make. False when
 * something else is there. */
static bool add_wagons(const struct wr *w, cJSON *o, size_t k, size_t j)
{
    const struct move *mv = w->l->moves;
    cJSON *list = NULL;
    for (; k < j; k++) {
        const struct move *m = &mv[k];
        if (m->kind == MV_COMMIT && role_is(w, k, STEP_WAGON_MOVE))
            continue;
        bool moves = m->kind == MV_DEPLOY && role_is(w, k, STEP_WAGON_MOVE);
        bool stays = m->kind == MV_PASS && role_is(w, k, STEP_WAGON_STAYS);
        if (!moves && !stays)
            return false;
        if (!list)
            list = cJSON_AddArrayToObject(o, "wagons");
        cJSON *it = cJSON_CreateObject();
        if (m->player >= 0)
            cJSON_AddItemToObject(it, "player",
                                  seat_json(w->l, m->player, w->by_number));
        if (stays) {
            cJSON_AddBoolToObject(it, "stays", true);
        } else {
            cJSON_AddItemToObject(it, "at", pos_json(m->at));
            cJSON_AddItemToObject(it, "segment",
                                  seg_json(m->feature, m->mask));
            add_meeple(it, m, FIG_WAGON, m->player, 0);
        }
        cJSON_AddItemToArray(list, it);
    }
    return true;
}

/* The short form of moves [i, j), or NULL: [the abbey declined,] the
 * tile, its action, the wagons after it; or an abbey declined in the
 * last round, alone. */
static cJSON *regular_json(const struct wr *w, size_t i, size_t j)
{
    const struct move *mv = w->l->moves;
    size_t k = declined_first(w, i, j) ? i + 2 : i;
    const struct move *p = &mv[k < j ? k : i];
    cJSON *o = cJSON_CreateObject();
    if (k == i && j == i + 1 && p->kind == MV_PASS &&
        (role_is(w, i, STEP_ABBEY_LAST) ||
         role_is(w, i, STEP_ABBEY_DECLINED))) {
        add_player(w, o, p);
        cJSON_AddStringToObject(o, "abbey", "declined");
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
    if (k > i)
        cJSON_AddStringToObject(o, "abbey", "declined");
    cJSON_AddStringToObject(o, "tile", p->tile_id);
    if (p->kind == MV_DISCARD) {
        cJSON_AddBoolToObject(o, "discard", true);
        add_draw(o, "draw", p->draw);
        return o;
    }
    cJSON_AddItemToObject(o, "at", pos_json(p->at));
    cJSON_AddNumberToObject(o, "rot", 90 * (p->rot & 3));
    add_draw(o, "draw", p->draw);
    size_t c = k + 1; /* the turn's COMMIT */
    while (c < j && mv[c].kind != MV_COMMIT)
        c++;
    if (c >= j || !add_action(w, o, p, &mv[k + 1], c - k - 1) ||
        !add_wagons(w, o, c + 1, j)) {
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

/* One move of a "moves" list; its "player" only where it is not the
 * entry's (entry_player, -1 when the entry names none). */
static cJSON *move_json(const struct wr *w, const struct move *m,
                        int entry_player)
{
    static const char *const names[] = { "place",  "discard", "deploy",
                                         "pass",   "recall",  "commit",
                                         "tower",  "capture", "ransom",
                                         "exchange" };
    cJSON *o = cJSON_CreateObject();
    bool recall = m->kind == MV_RECALL;
    bool beside = m->kind == MV_PRINCESS ||
                  (m->kind == MV_NEUTRAL && m->neutral == FIG_FAIRY);
    const char *name = m->kind <= MV_EXCHANGE ? names[m->kind]
                       : m->kind == MV_PRINCESS ? "princess"
                       : m->neutral == FIG_DRAGON ? "dragon"
                       : m->neutral == FIG_FAIRY  ? "fairy"
                       : m->neutral == FIG_COUNT  ? "count"
                                                  : "place";
    cJSON_AddStringToObject(o, "move", name);
    if (m->player != entry_player)
        add_player(w, o, m);
    if (m->kind == MV_NEUTRAL && m->neutral == FIG_DRAGON)
        cJSON_AddItemToObject(o, "at", pos_json(m->at));
    if (beside) {
        cJSON_AddItemToObject(o, "at", pos_json(m->at));
        cJSON_AddItemToObject(o, "segment", seg_json(m->feature, m->mask));
        add_meeple(o, m, FIG_SMALL, m->player, 0);
    }
    if (m->kind == MV_PLACE || m->kind == MV_DISCARD) {
        cJSON_AddStringToObject(o, "tile", m->tile_id);
        if (m->kind == MV_PLACE) {
            cJSON_AddItemToObject(o, "at", pos_json(m->at));
            cJSON_AddNumberToObject(o, "rot", 90 * (m->rot & 3));
        }
        add_draw(o, "draw", m->draw);
    } else if (m->kind == MV_TOWER) {
        cJSON_AddItemToObject(o, "at", pos_json(m->at));
    } else if (m->kind == MV_CAPTURE || m->kind == MV_RANSOM ||
               m->kind == MV_EXCHANGE) {
        if (m->kind == MV_CAPTURE) {
            cJSON_AddItemToObject(o, "at", pos_json(m->at));
            cJSON_AddItemToObject(o, "segment", seg_json(m->feature,
                                                         m->mask));
        }
        cJSON_AddItemToObject(o, "meeple_id", meeple_id_json(m));
    } else if (m->kind == MV_NEUTRAL && m->neutral == FIG_COUNT) {
        cJSON_AddItemToObject(o, "at", pos_json(m->at));
        cJSON_AddItemToObject(o, "segment", seg_json(m->feature, m->mask));
    } else if (m->kind == MV_DEPLOY || recall) {
        cJSON_AddItemToObject(o, "at", pos_json(m->at));
        cJSON_AddItemToObject(o, "segment", seg_json(m->feature, m->mask));
        add_meeple(o, m, recall ? FIG_ABBOT : FIG_SMALL, m->player,
                   recall ? 1 : 0);
        if (!recall && m->feature == FEAT_FLIER) {
            cJSON_AddNumberToObject(o, "roll", m->roll);
            if (m->draw >= 0 && m->draw < 1 &&
                mlog_roll_of(m->draw) == m->roll)
                cJSON_AddNumberToObject(o, "random", m->draw);
        }
    }
    return o;
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
        cJSON_AddItemToObject(o, "player", seat_json(w->l, player,
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
 * At each tile (but the one drawn after the abbey declined that opens
 * the entry), at an abbey declined: the moves between a turn's COMMIT
 * and the next tile are the wagons of the turn before. */
static bool starts_entry(const struct wr *w, size_t i, size_t k, size_t n)
{
    const struct move *m = &w->l->moves[k];
    if (m->kind == MV_PLACE || m->kind == MV_DISCARD)
        return !(k == i + 2 && declined_first(w, i, n));
    return m->kind == MV_PASS && (role_is(w, k, STEP_ABBEY_DECLINED) ||
                                  role_is(w, k, STEP_ABBEY_LAST));
}

/* Did the entry o take a key of flierlog/1.3 (The Princess & the
 * Dragon), or spell one of its moves out? */
static bool keys_1_3(const cJSON *o)
{
    const cJSON *moves = mlog_get(o, "moves"), *m;
    cJSON_ArrayForEach(m, moves) {
        const cJSON *k = mlog_get(m, "move");
        if (cJSON_IsString(k) && (strcmp(k->valuestring, "dragon") == 0 ||
                                  strcmp(k->valuestring, "fairy") == 0 ||
                                  strcmp(k->valuestring, "princess") == 0))
            return true;
    }
    return mlog_get(o, "fairy") ||
           mlog_get(o, "princess") ||
           mlog_get(o, "dragon");
}

/* Did the entry o take a key of flierlog/1.2, or a deployment off the
 * tile? */
static bool keys_1_2(const cJSON *o)
{
    return mlog_get(o, "abbey") ||
           mlog_get(o, "wagons") ||
           mlog_get(o, "part") ||
           cJSON_IsObject(mlog_get(o, "deploy"));
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
        w->uses_1_3 = w->uses_1_3 || keys_1_3(o);
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
