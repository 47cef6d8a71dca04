/* report_json.c - the JSON audit report of `flierd audit --json`. The
 * keys documented in the README are a contract: add, never rename. */
#include <stdio.h>
#include <string.h>

#include "core/receipt.h"
#include "core/replay.h"
#include "core/whatif.h"
#include "mlog/mlog_int.h"

static void pos_json(struct jw *w, const char *key, struct pos p)
{
    jw_array(w, key);
    jw_int(w, NULL, p.x);
    jw_int(w, NULL, p.y);
    jw_end(w, ']');
}

static void ints_json(struct jw *w, const char *key, const int *v, int n)
{
    jw_array(w, key);
    for (int i = 0; i < n; i++)
        jw_int(w, NULL, v[i]);
    jw_end(w, ']');
}

/* Opens the landing's object: its feature and segment. */
static void landing_open(struct jw *w, int feature, uint8_t mask)
{
    char seg[40];
    seg_format(feature, mask, seg, sizeof seg);
    jw_object(w, NULL);
    jw_string(w, "feature", feat_name(feature));
    jw_string(w, "segment", seg);
}

/* {"Ada": 2, "Ben": 1} for the seats with a nonzero count. */
static void per_seat_json(struct jw *w, const char *key,
                          const struct game_log *log, const uint8_t *n)
{
    jw_object(w, key);
    for (int p = 0; p < log->rules.n_players; p++)
        if (n[p])
            jw_int(w, log->names[p], n[p]);
    jw_end(w, '}');
}

static void odds_json(struct jw *w, const struct game_log *log,
                      const struct flight *f)
{
    int with = 0;
    for (int k = 0; k < 3; k++)
        with += f->n_by_roll[k] > 0;
    jw_object(w, "odds");
    jw_int(w, "rolls_with_landing", with);
    jw_number(w, "chance", with / 3.0);
    jw_array(w, "rolls");
    for (int k = 0; k < 3; k++) {
        jw_object(w, NULL);
        jw_int(w, "roll", k + 1);
        pos_json(w, "target", f->by_roll_target[k]);
        jw_array(w, "landings");
        for (int i = 0; i < f->n_by_roll[k]; i++) {
            const struct landing *l = &f->by_roll[k][i];
            landing_open(w, l->feature, l->mask);
            per_seat_json(w, "occupants", log, l->occupants);
            jw_end(w, '}');
        }
        jw_end(w, ']');
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_end(w, '}');
}

static void names_json(struct jw *w, const char *key,
                       const struct game_log *log, unsigned mask)
{
    jw_array(w, key);
    for (int p = 0; p < log->rules.n_players; p++)
        if (mask & (1u << p))
            jw_string(w, NULL, log->names[p]);
    jw_end(w, ']');
}

static void player_or_null(struct jw *w, const char *key,
                           const struct game_log *log, int seat)
{
    jw_string(w, key, seat < 0 || seat >= log->rules.n_players
                          ? NULL : log->names[seat]);
}

static void turn_or_null(struct jw *w, const char *key, int turn)
{
    if (turn < 0)
        jw_null(w, key);
    else
        jw_int(w, key, turn);
}

static void violation_json(struct jw *w, const struct game_log *log,
                           const struct violation *v)
{
    jw_object(w, NULL);
    turn_or_null(w, "turn", v->turn);
    player_or_null(w, "player", log, v->player);
    jw_string(w, "rule", rule_id(v->rule));
    jw_string(w, "message", v->msg);
    jw_int(w, "move", v->src);
    if (v->has_at) {
        pos_json(w, "at", v->at);
        if (v->feature != FEAT_NONE) {
            char seg[40];
            seg_format(v->feature, v->mask, seg, sizeof seg);
            jw_string(w, "segment", seg);
        }
    }
    jw_end(w, '}');
}

/* A figure by its JCloisterZone meeple id kind ("small", "big", ...). */
static const char *figure_kind(int fig)
{
    const struct figure_class *c = figure_class(fig);
    return c ? c->jcz : "?";
}

static void flight_json(struct jw *w, const char *key,
                        const struct game_log *log, const struct flight *f)
{
    jw_object(w, key);
    jw_int(w, "turn", f->turn);
    player_or_null(w, "player", log, f->player);
    jw_string(w, "figure", figure_kind(f->figure));
    pos_json(w, "from", f->from);
    jw_string(w, "direction", dir_name(f->dir));
    jw_int(w, "roll", f->roll);
    pos_json(w, "target", f->target);
    jw_string(w, "outcome", f->landed    ? "landed"
                            : f->pending ? "pending"
                                         : "returned");
    jw_string(w, "feature", f->landed ? feat_name(f->feature) : NULL);
    jw_int(w, "options", f->n_options);
    jw_array(w, "landings");
    for (int i = 0; i < f->n_options; i++) {
        landing_open(w, f->options[i].feature, f->options[i].mask);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    if (f->landed) {
        char seg[40];
        seg_format(f->feature, f->mask, seg, sizeof seg);
        jw_string(w, "segment", seg);
    }
    jw_int(w, "points", f->points);
    odds_json(w, log, f);
    jw_end(w, '}');
}

/* [[name, count | null, points], ...]: the terms of the points. */
static void items_json(struct jw *w, const struct score_event *ev)
{
    jw_array(w, "items");
    for (int k = 0; k < ev->n_items && k < GAME_MAX_ITEMS; k++) {
        const struct score_item *it = &ev->items[k];
        jw_array(w, NULL);
        jw_string(w, NULL, score_item_name(it->kind));
        if (it->count < 0)
            jw_null(w, NULL);
        else
            jw_int(w, NULL, it->count);
        jw_int(w, NULL, it->points);
        jw_end(w, ']');
    }
    jw_end(w, ']');
}

static void event_json(struct jw *w, const struct game_log *log,
                       const struct report *r, size_t i)
{
    const struct score_event *ev = &r->events[i];
    char receipt[600], expr[48];
    jw_object(w, NULL);
    turn_or_null(w, "turn", ev->turn);
    names_json(w, "players", log, ev->players);
    jw_string(w, "feature", feat_name(ev->feature));
    jw_int(w, "points", ev->points);
    score_expr_format(ev->feature, ev->expr, expr, sizeof expr);
    jw_string(w, "expr", expr);
    items_json(w, ev);
    jw_bool(w, "final", ev->turn < 0);
    jw_bool(w, "completed", ev->completed);
    if (ev->recall)
        jw_bool(w, "recall", true);
    jw_int(w, "tiles_count", ev->tiles);
    if (ev->feature == FEAT_CITY)
        jw_int(w, "pennants", ev->pennants);
    per_seat_json(w, "meeples", log, ev->meeples);
    jw_array(w, ev->feature == FEAT_FIELD ? "cities" : "tiles");
    for (unsigned k = 0; k < ev->n_refs; k++) {
        const struct feature_ref *f = &r->refs[ev->ref0 + k];
        struct pos p = { f->x, f->y };
        if (ev->feature != FEAT_FIELD) {
            pos_json(w, NULL, p);
            continue;
        }
        jw_object(w, NULL);
        pos_json(w, "at", p);
        jw_int(w, "tiles", f->size);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    /* the meeples' weight in the majority (a large follower: 2) */
    per_seat_json(w, "strength", log, ev->strength);
    if (ev->xfer.with) { /* a ransom: from whom or to whom, for whom */
        char id[32];
        jw_object(w, "transfer");
        player_or_null(w, "with", log, ev->xfer.with - 1);
        snprintf(id, sizeof id, "%d.%s.%d", ev->xfer.owner,
                 figure_class(ev->xfer.kind)->jcz, ev->xfer.n);
        jw_string(w, "meeple", id);
        jw_end(w, '}');
    }
    receipt_format(log, r, i, receipt, sizeof receipt);
    jw_string(w, "receipt", receipt);
    jw_end(w, '}');
}

/* The elements in play (figures as counts, switches as true), by the
 * units' tables, and the units' ids ("base", "flier", ...). */
static void add_units(struct jw *w, const struct rules *ru)
{
    uint64_t units = game_rules_units(ru);
    jw_object(w, "elements");
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            int v = element_get(ru, el);
            if (v && el->kind != EL_FLAG)
                jw_int(w, el->key, v);
            else if (v)
                jw_bool(w, el->key, true);
        }
    jw_end(w, '}');
    jw_array(w, "expansions");
    for (int u = 0; u < EXP__COUNT; u++)
        if (units >> u & 1)
            jw_string(w, NULL, expansion_get(u)->id);
    jw_end(w, ']');
}

static void rules_json(struct jw *w, const struct rules *ru)
{
    jw_object(w, "rules");
    jw_object(w, "sets");
    for (int s = 0; s < tile_set_count(); s++)
        if (ru->set_copies[s])
            jw_int(w, tile_set_get(s)->id, ru->set_copies[s]);
    jw_end(w, '}');
    jw_int(w, "followers", ru->figures[FIG_SMALL]);
    jw_bool(w, "farmers", (ru->flags & RF_FARMERS) != 0);
    jw_int(w, "abbots", ru->figures[FIG_ABBOT]);
    jw_bool(w, "gardens", (ru->flags & RF_GARDENS) != 0);
    jw_int(w, "tiny-city-scoring", ru->opt[OPT_TINY_CITY]);
    add_units(w, ru);
    jw_end(w, '}');
}

static void scores_json(struct jw *w, const char *key,
                        const struct game_log *log, const int *score)
{
    jw_object(w, key);
    for (int p = 0; p < log->rules.n_players; p++)
        jw_int(w, log->names[p], score[p]);
    jw_end(w, '}');
}

static unsigned winners(int n, const int *score)
{
    unsigned w = 0;
    int best = 0;
    for (int p = 0; p < n; p++)
        if (score[p] > best)
            best = score[p];
    for (int p = 0; p < n; p++)
        if (score[p] == best)
            w |= 1u << p;
    return w;
}

static void divergence_json(struct jw *w, const struct game_log *log,
                            const struct report *r)
{
    const struct divergence *d = &r->divergence;
    if (!d->found) {
        jw_null(w, "first_divergence");
        return;
    }
    jw_object(w, "first_divergence");
    turn_or_null(w, "turn", d->turn);
    names_json(w, "players", log, d->seats);
    for (int side = 0; side < 2; side++) {
        jw_object(w, side ? "computed" : "claimed");
        for (int p = 0; p < log->rules.n_players; p++)
            if (d->seats & (1u << p))
                jw_int(w, log->names[p],
                       side ? d->computed[p] : d->claimed[p]);
        jw_end(w, '}');
    }
    jw_string(w, "feature", d->feature != FEAT_NONE ? feat_name(d->feature)
                                                    : NULL);
    jw_string(w, "message", d->msg);
    jw_end(w, '}');
}

/* Starts a report: one JSON object, one line. */
static void report_begin(struct jw *w, struct buf *out)
{
    jw_init(w, out);
    jw_object(w, NULL);
}

static void report_end(struct jw *w)
{
    jw_end(w, '}');
    buf_append(w->out, "\n", 1);
}

void mlog_report_json(const char *file, enum mlog_format fmt,
                      const struct game_log *log, const struct report *r,
                      struct buf *out)
{
    struct report_meta m = { file, fmt, NULL, NULL, NULL, NULL };
    mlog_report_json_meta(&m, log, r, out);
}

static void add_verdict(struct jw *w, const struct report_meta *m,
                        const struct game_log *log)
{
    if (m->engine)
        jw_string(w, "engine", m->engine);
    if (m->sha256)
        jw_string(w, "input_sha256", m->sha256);
    rules_json(w, &log->rules);
}

static void add_variant(struct jw *w, const struct report_meta *m,
                        const struct game_log *log, const struct report *r)
{
    if (!m->variant || !m->variant_report)
        return;
    const struct report *v = m->variant_report;
    int n = log->rules.n_players;
    unsigned before = winners(n, r->score), after = winners(n, v->score);
    jw_object(w, "variant");
    jw_string(w, "rule", m->variant);
    scores_json(w, "scores", log, v->score);
    names_json(w, "winners", log, after);
    names_json(w, "winners_before", log, before);
    jw_bool(w, "winner_changes", before != after);
    if (v->n_violations != r->n_violations)
        jw_int(w, "violations", (int)v->n_violations);
    jw_end(w, '}');
}

void mlog_report_json_meta(const struct report_meta *m,
                           const struct game_log *log, const struct report *r,
                           struct buf *out)
{
    struct jw w;
    report_begin(&w, out);
    jw_string(&w, "file", m->file);
    jw_string(&w, "format", mlog_format_name(m->format));
    jw_bool(&w, "valid", r->valid);
    jw_bool(&w, "finished", r->finished);
    jw_int(&w, "turns", r->turns);
    jw_int(&w, "tiles_left", r->tiles_left);
    add_verdict(&w, m, log);
    if (r->halted)
        jw_string(&w, "halted", r->halt_msg);
    jw_array(&w, "players");
    for (int p = 0; p < log->rules.n_players; p++) {
        jw_object(&w, NULL);
        jw_string(&w, "name", log->names[p]);
        jw_int(&w, "score", r->score[p]);
        if (log->colors[p][0])
            jw_string(&w, "color", log->colors[p]);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    names_json(&w, "winners", log,
               r->finished ? winners(log->rules.n_players, r->score) : 0);
    jw_array(&w, "violations");
    for (size_t i = 0; i < r->n_violations; i++)
        violation_json(&w, log, &r->violations[i]);
    jw_end(&w, ']');
    jw_array(&w, "flights");
    for (size_t i = 0; i < r->n_flights; i++)
        flight_json(&w, NULL, log, &r->flights[i]);
    jw_end(&w, ']');
    jw_array(&w, "discards");
    for (size_t i = 0; i < r->n_discards; i++) {
        jw_object(&w, NULL);
        jw_int(&w, "turn", r->discards[i].turn);
        jw_string(&w, "tile", tile_get(r->discards[i].tile)->id);
        jw_bool(&w, "logged", r->discards[i].logged);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    if (r->draw_note[0])
        jw_string(&w, "draw_note", r->draw_note);
    if (r->rule_note[0])
        jw_string(&w, "rule_note", r->rule_note);
    jw_array(&w, "scores");
    for (size_t i = 0; i < r->n_events; i++)
        event_json(&w, log, r, i);
    jw_end(&w, ']');
    jw_array(&w, "running");
    for (size_t t = 0; t < r->n_running; t++)
        ints_json(&w, NULL, r->running[t], log->rules.n_players);
    jw_end(&w, ']');
    if (r->has_claims)
        divergence_json(&w, log, r);
    add_variant(&w, m, log, r);
    report_end(&w);
}

void mlog_whatif_json(const char *file, const struct game_log *log, int turn,
                      int roll, const struct whatif_result *res,
                      const struct report *before, const struct report *after,
                      const bool *is_new, struct buf *out)
{
    struct jw w;
    int n = log->rules.n_players;
    unsigned wb = winners(n, before->score), wa = winners(n, after->score);
    report_begin(&w, out);
    jw_string(&w, "file", file);
    jw_int(&w, "turn", turn);
    jw_int(&w, "roll", roll);
    jw_int(&w, "logged_roll", res->old_roll);
    pos_json(&w, "target", res->target);
    jw_int(&w, "options", res->n_options);
    if (res->lands) {
        char seg[40];
        seg_format(res->feature, res->mask, seg, sizeof seg);
        jw_string(&w, "landing", seg);
    } else {
        jw_null(&w, "landing");
    }
    jw_array(&w, "new_violations");
    for (size_t i = 0; i < after->n_violations; i++) {
        const struct violation *v = &after->violations[i];
        if (!is_new[i])
            continue;
        jw_object(&w, NULL);
        turn_or_null(&w, "turn", v->turn);
        player_or_null(&w, "player", log, v->player);
        jw_string(&w, "rule", rule_id(v->rule));
        jw_string(&w, "message", v->msg);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    jw_array(&w, "players");
    for (int p = 0; p < n; p++) {
        jw_object(&w, NULL);
        jw_string(&w, "name", log->names[p]);
        jw_int(&w, "before", before->score[p]);
        jw_int(&w, "after", after->score[p]);
        jw_int(&w, "difference", after->score[p] - before->score[p]);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    names_json(&w, "winners_before", log, wb);
    names_json(&w, "winners_after", log, wa);
    jw_bool(&w, "winner_changes", wb != wa);
    report_end(&w);
}

/* Segment attributes by bit (enum seg_attr_bit): "inn", "cathedral". */
static const char *const seg_attr_names[SA__COUNT] = {
#define ATTR(id, name, feature, receipt) name,
#include "core/exp/units.def"
#undef ATTR
};

/* The geometry of tile kind t in its own frame, for drawing: every
 * segment, the river's too, with its attributes. */
void mlog_tile_def_json(struct jw *w, int t)
{
    const struct tile_def *d = tile_get(t);
    jw_object(w, d->id);
    jw_string(w, "flier", d->flier_dir == NO_FLIER ? NULL
                                                   : dir_name(d->flier_dir));
    jw_array(w, "segments");
    for (int i = 0; i < d->n_seg; i++) {
        const struct seg_def *sd = &d->seg[i];
        char name[40];
        seg_format(sd->kind, sd->mask, name, sizeof name);
        jw_object(w, NULL);
        jw_string(w, "feature", feat_name(sd->kind));
        jw_string(w, "segment", name);
        if (sd->pennants)
            jw_int(w, "pennants", sd->pennants);
        if (sd->kind == FEAT_FIELD && sd->cities) {
            seg_format(FEAT_CITY, sd->cities, name, sizeof name);
            jw_string(w, "cities", name + 5); /* "city:" */
        }
        for (int a = 0; a < SA__COUNT; a++)
            if (sd->attrs >> a & 1)
                jw_bool(w, seg_attr_names[a], true);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    static const char *const mark_names[] = {
#define MARK(id, name) name,
#include "core/exp/units.def"
#undef MARK
    };
    bool marks = false;
    for (size_t k = 0; k < sizeof mark_names / sizeof *mark_names; k++)
        if (d->marks >> k & 1) {
            if (!marks)
                jw_array(w, "marks");
            marks = true;
            jw_string(w, NULL, mark_names[k]);
        }
    if (marks)
        jw_end(w, ']');
    jw_end(w, '}');
}

static bool same_meeple(const struct replay_meeple *a,
                        const struct replay_meeple *b)
{
    return a->owner == b->owner && a->kind == b->kind &&
           a->feature == b->feature && a->mask == b->mask &&
           a->flew == b->flew && a->at.x == b->at.x && a->at.y == b->at.y;
}

static void meeple_json(struct jw *w, const struct game_log *log,
                        const struct replay_meeple *m, int id)
{
    char seg[40];
    seg_format(m->feature, m->mask, seg, sizeof seg);
    jw_object(w, NULL);
    jw_int(w, "id", id);
    player_or_null(w, "player", log, m->owner);
    jw_string(w, "kind", figure_kind(m->kind));
    pos_json(w, "at", m->at);
    jw_string(w, "segment", seg);
    if (m->flew)
        jw_bool(w, "flew", true);
    jw_end(w, '}');
}

/* Meeple ids of the board after the previous turn, parallel to its list.
 * A turn lists only the meeples that came and went: sending every turn's
 * whole board made the replay ~120 KB of a ~15 KB game. */
struct meeple_ids {
    int a[GAME_MAX_MEEPLES], b[GAME_MAX_MEEPLES];
    int *prev, *cur;
    size_t n_prev;
    int next;
};

/* Matches t's meeples against the previous board (a multiset: two equal
 * meeples may share a segment after a landing); the unmatched new ones
 * are "placed" with fresh ids, the unmatched old ones "removed". */
static void meeple_delta(struct jw *w, const struct game_log *log,
                         const struct replay *rp, const struct replay_turn *t,
                         size_t prev0, struct meeple_ids *ids)
{
    bool used[GAME_MAX_MEEPLES] = { false };
    jw_array(w, "placed");
    for (size_t k = 0; k < t->n_meeples && k < GAME_MAX_MEEPLES; k++) {
        const struct replay_meeple *m = &rp->meeples[t->meeple0 + k];
        size_t j = 0;
        while (j < ids->n_prev &&
               (used[j] || !same_meeple(&rp->meeples[prev0 + j], m)))
            j++;
        if (j < ids->n_prev) {
            used[j] = true;
            ids->cur[k] = ids->prev[j];
        } else {
            ids->cur[k] = ids->next++;
            meeple_json(w, log, m, ids->cur[k]);
        }
    }
    jw_end(w, ']');
    jw_array(w, "removed");
    for (size_t j = 0; j < ids->n_prev; j++)
        if (!used[j])
            jw_int(w, NULL, ids->prev[j]);
    jw_end(w, ']');
    int *swap = ids->prev;
    ids->prev = ids->cur;
    ids->cur = swap;
    ids->n_prev = t->n_meeples < GAME_MAX_MEEPLES ? t->n_meeples
                                                   : GAME_MAX_MEEPLES;
}

static bool same_item(const struct replay_item *a,
                      const struct replay_item *b)
{
    return a->kind == b->kind && a->unit == b->unit &&
           a->feature == b->feature && a->mask == b->mask &&
           a->seat == b->seat && a->at.x == b->at.x && a->at.y == b->at.y &&
           a->value == b->value && strcmp(a->name, b->name) == 0;
}

/* The next item of kind k among t's from its j-th on (j then past it),
 * or NULL. */
static const struct replay_item *next_item(const struct replay *rp,
                                           const struct replay_turn *t,
                                           int k, size_t *j)
{
    while (t && *j < t->n_items) {
        const struct replay_item *it = &rp->items[t->item0 + (*j)++];
        if (it->kind == k)
            return it;
    }
    return NULL;
}

/* Do turns t and p (NULL: before the first) list the same items of
 * kind k? */
static bool same_items(const struct replay *rp, const struct replay_turn *t,
                       const struct replay_turn *p, int k)
{
    size_t a = 0, b = 0;
    for (;;) {
        const struct replay_item *x = next_item(rp, t, k, &a);
        const struct replay_item *y = next_item(rp, p, k, &b);
        if (!x || !y)
            return x == y;
        if (!same_item(x, y))
            return false;
    }
}

static void item_json(struct jw *w, const struct game_log *log,
                      const struct replay_item *it, bool at, bool value)
{
    const struct expansion *u = expansion_get(it->unit);
    jw_object(w, NULL);
    jw_string(w, "unit", u ? u->id : "?");
    jw_string(w, "name", it->name);
    if (at)
        pos_json(w, "at", it->at);
    if (it->feature != FEAT_NONE) {
        char seg[40];
        seg_format(it->feature, it->mask, seg, sizeof seg);
        jw_string(w, "segment", seg);
    }
    if (it->seat >= 0)
        player_or_null(w, "player", log, it->seat);
    if (value)
        jw_int(w, "value", it->value);
    jw_end(w, '}');
}

/* What the units show besides tiles and meeples (towers' heights, the
 * dragon, prisoners held): per kind of item, the whole list on a turn
 * that changed it (turn 0: when it has any). */
static void add_items(struct jw *w, const struct game_log *log,
                      const struct replay *rp, size_t i)
{
    static const struct {
        const char *key;
        bool at, value;
    } kinds[] = {
#define X(id, key, at, value) { key, at, value },
        REPLAY_ITEM_KINDS(X)
#undef X
    };
    const struct replay_turn *t = &rp->turns[i], *p = i ? t - 1 : NULL;
    for (int k = 0; k < REPLAY__KINDS; k++) {
        if (same_items(rp, t, p, k))
            continue;
        jw_array(w, kinds[k].key);
        const struct replay_item *it;
        for (size_t j = 0; (it = next_item(rp, t, k, &j)) != NULL;)
            item_json(w, log, it, kinds[k].at, kinds[k].value);
        jw_end(w, ']');
    }
}

static void replay_turn_json(struct jw *w, const struct game_log *log,
                             const struct replay *rp, size_t i,
                             struct meeple_ids *ids)
{
    const struct replay_turn *t = &rp->turns[i];
    jw_object(w, NULL);
    turn_or_null(w, "turn", t->turn);
    player_or_null(w, "player", log, t->player);
    if (t->tile >= 0) {
        jw_string(w, "tile", tile_get(t->tile)->id);
        pos_json(w, "at", t->at);
        jw_int(w, "rotation", 90 * t->rot);
    }
    meeple_delta(w, log, rp, t, i ? rp->turns[i - 1].meeple0 : 0, ids);
    ints_json(w, "scores", t->score, log->rules.n_players);
    add_items(w, log, rp, i);
    jw_end(w, '}');
}

void mlog_replay_json(const struct game_log *log, const struct report *r,
                      const struct replay *rp, struct buf *out)
{
    struct jw w;
    bool used[TILE_KINDS] = { false };
    report_begin(&w, out);
    jw_array(&w, "players");
    for (int p = 0; p < log->rules.n_players; p++) {
        jw_object(&w, NULL);
        jw_string(&w, "name", log->names[p]);
        if (log->colors[p][0])
            jw_string(&w, "color", log->colors[p]);
        jw_end(&w, '}');
    }
    jw_end(&w, ']');
    if (rp->n_starts > 1) { /* several start tiles: the City's twelve */
        jw_array(&w, "start");
        for (int i = 0; i < rp->n_starts; i++) {
            const struct start_place *sp = &rp->starts[i];
            jw_object(&w, NULL);
            jw_string(&w, "tile", tile_get(sp->tile)->id);
            pos_json(&w, "at", sp->at);
            jw_int(&w, "rotation", 90 * (sp->rot & 3));
            jw_end(&w, '}');
            if (sp->tile >= 0 && sp->tile < TILE_KINDS)
                used[sp->tile] = true;
        }
        jw_end(&w, ']');
    }
    jw_array(&w, "turns");
    struct meeple_ids ids;
    ids.prev = ids.a;
    ids.cur = ids.b;
    ids.n_prev = 0;
    ids.next = 1;
    for (size_t i = 0; i < rp->n_turns; i++) {
        replay_turn_json(&w, log, rp, i, &ids);
        if (rp->turns[i].tile >= 0)
            used[rp->turns[i].tile] = true;
    }
    jw_end(&w, ']');
    jw_object(&w, "tiles");
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (used[t])
            mlog_tile_def_json(&w, t);
    jw_end(&w, '}');
    jw_array(&w, "flights");
    for (size_t i = 0; i < r->n_flights; i++)
        flight_json(&w, NULL, log, &r->flights[i]);
    jw_end(&w, ']');
    jw_array(&w, "events");
    for (size_t i = 0; i < r->n_events; i++)
        event_json(&w, log, r, i);
    jw_end(&w, ']');
    jw_array(&w, "violations");
    for (size_t i = 0; i < r->n_violations; i++)
        violation_json(&w, log, &r->violations[i]);
    jw_end(&w, ']');
    report_end(&w);
}

void mlog_live_turn_json(const struct game_log *log, const struct report *r,
                         int turn, struct buf *out)
{
    struct jw w;
    const struct flight *fl = NULL;
    report_begin(&w, out);
    jw_int(&w, "turn", turn);
    scores_json(&w, "scores", log, r->score);
    jw_array(&w, "events");
    for (size_t i = 0; i < r->n_events; i++)
        if (r->events[i].turn == turn)
            event_json(&w, log, r, i);
    jw_end(&w, ']');
    for (size_t i = 0; i < r->n_flights; i++) /* the turn's last one */
        if (r->flights[i].turn == turn)
            fl = &r->flights[i];
    if (fl)
        flight_json(&w, "flight", log, fl);
    else
        jw_null(&w, "flight");
    jw_bool(&w, "valid", r->valid);
    report_end(&w);
}

void mlog_unsupported_json(const char *file, enum mlog_format fmt,
                           const char *msg, struct buf *out)
{
    struct jw w;
    report_begin(&w, out);
    jw_string(&w, "file", file);
    jw_string(&w, "format", mlog_format_name(fmt));
    jw_string(&w, "unsupported", msg);
    report_end(&w);
}

void mlog_error_json(const char *file, const char *error, struct buf *out)
{
    struct jw w;
    report_begin(&w, out);
    jw_string(&w, "file", file);
    jw_string(&w, "error", error);
    report_end(&w);
}
