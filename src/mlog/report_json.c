/* report_json.c - the JSON audit report of `flierd audit --json`. The
 * keys documented in the README are a contract: add, never rename. */
#include <stdio.h>
#include <string.h>

#include "core/receipt.h"
#include "core/replay.h"
#include "core/whatif.h"
#include "mlog/mlog_int.h"

static cJSON *pos_json(struct pos p)
{
    int xy[2] = { p.x, p.y };
    return cJSON_CreateIntArray(xy, 2);
}

static cJSON *landing_json(int feature, uint8_t mask)
{
    char seg[40];
    cJSON *o = cJSON_CreateObject();
    seg_format(feature, mask, seg, sizeof seg);
    cJSON_AddStringToObject(o, "feature", feat_name(feature));
    cJSON_AddStringToObject(o, "segment", seg);
    return o;
}

/* {"Ada": 2, "Ben": 1} for the seats with a nonzero count. */
static cJSON *per_seat_json(const struct game_log *log, const uint8_t *n)
{
    cJSON *o = cJSON_CreateObject();
    for (int p = 0; p < log->rules.n_players; p++)
        if (n[p])
            cJSON_AddNumberToObject(o, log->names[p], n[p]);
    return o;
}

static cJSON *odds_json(const struct game_log *log, const struct flight *f)
{
    cJSON *o = cJSON_CreateObject(), *rolls = cJSON_CreateArray();
    int with = 0;
    for (int k = 0; k < 3; k++) {
        cJSON *ro = cJSON_CreateObject(), *ls = cJSON_CreateArray();
        cJSON_AddNumberToObject(ro, "roll", k + 1);
        cJSON_AddItemToObject(ro, "target", pos_json(f->by_roll_target[k]));
        for (int i = 0; i < f->n_by_roll[k]; i++) {
            const struct landing *l = &f->by_roll[k][i];
            cJSON *lo = landing_json(l->feature, l->mask);
            cJSON_AddItemToObject(lo, "occupants",
                                  per_seat_json(log, l->occupants));
            cJSON_AddItemToArray(ls, lo);
        }
        cJSON_AddItemToObject(ro, "landings", ls);
        cJSON_AddItemToArray(rolls, ro);
        with += f->n_by_roll[k] > 0;
    }
    cJSON_AddNumberToObject(o, "rolls_with_landing", with);
    cJSON_AddNumberToObject(o, "chance", with / 3.0);
    cJSON_AddItemToObject(o, "rolls", rolls);
    return o;
}

static cJSON *names_json(const struct game_log *log, unsigned mask)
{
    cJSON *a = cJSON_CreateArray();
    for (int p = 0; p < log->rules.n_players; p++)
        if (mask & (1u << p))
            cJSON_AddItemToArray(a, cJSON_CreateString(log->names[p]));
    return a;
}

static cJSON *player_or_null(const struct game_log *log, int seat)
{
    if (seat < 0 || seat >= log->rules.n_players)
        return cJSON_CreateNull();
    return cJSON_CreateString(log->names[seat]);
}

static cJSON *turn_or_null(int turn)
{
    return turn < 0 ? cJSON_CreateNull() : cJSON_CreateNumber(turn);
}

static cJSON *violation_json(const struct game_log *log,
                             const struct violation *v)
{
    cJSON *vo = cJSON_CreateObject();
    cJSON_AddItemToObject(vo, "turn", turn_or_null(v->turn));
    cJSON_AddItemToObject(vo, "player", player_or_null(log, v->player));
    cJSON_AddStringToObject(vo, "rule", rule_id(v->rule));
    cJSON_AddStringToObject(vo, "message", v->msg);
    cJSON_AddNumberToObject(vo, "move", v->src);
    if (v->has_at) {
        cJSON_AddItemToObject(vo, "at", pos_json(v->at));
        if (v->feature != FEAT_NONE) {
            char seg[40];
            seg_format(v->feature, v->mask, seg, sizeof seg);
            cJSON_AddStringToObject(vo, "segment", seg);
        }
    }
    return vo;
}

/* A figure by its JCloisterZone meeple id kind ("small", "big", ...). */
static const char *figure_kind(int fig)
{
    const struct figure_class *c = figure_class(fig);
    return c ? c->jcz : "?";
}

static cJSON *flight_json(const struct game_log *log, const struct flight *f)
{
    cJSON *o = cJSON_CreateObject(), *ls = cJSON_CreateArray();
    cJSON_AddNumberToObject(o, "turn", f->turn);
    cJSON_AddItemToObject(o, "player", player_or_null(log, f->player));
    cJSON_AddStringToObject(o, "figure", figure_kind(f->figure));
    cJSON_AddItemToObject(o, "from", pos_json(f->from));
    cJSON_AddStringToObject(o, "direction", dir_name(f->dir));
    cJSON_AddNumberToObject(o, "roll", f->roll);
    cJSON_AddItemToObject(o, "target", pos_json(f->target));
    cJSON_AddStringToObject(o, "outcome", f->landed    ? "landed"
                                          : f->pending ? "pending"
                                                       : "returned");
    if (f->landed)
        cJSON_AddStringToObject(o, "feature", feat_name(f->feature));
    else
        cJSON_AddNullToObject(o, "feature");
    cJSON_AddNumberToObject(o, "options", f->n_options);
    for (int i = 0; i < f->n_options; i++)
        cJSON_AddItemToArray(ls, landing_json(f->options[i].feature,
                                              f->options[i].mask));
    cJSON_AddItemToObject(o, "landings", ls);
    if (f->landed) {
        char seg[40];
        seg_format(f->feature, f->mask, seg, sizeof seg);
        cJSON_AddStringToObject(o, "segment", seg);
    }
    cJSON_AddItemToObject(o, "odds", odds_json(log, f));
    return o;
}

/* [[name, count | null, points], ...]: the terms of the points. */
static cJSON *items_json(const struct score_event *ev)
{
    cJSON *a = cJSON_CreateArray();
    for (int k = 0; k < ev->n_items && k < GAME_MAX_ITEMS; k++) {
        const struct score_item *it = &ev->items[k];
        cJSON *t = cJSON_CreateArray();
        cJSON_AddItemToArray(t, cJSON_CreateString(score_item_name(it->kind)));
        cJSON_AddItemToArray(t, it->count < 0 ? cJSON_CreateNull()
                                              : cJSON_CreateNumber(it->count));
        cJSON_AddItemToArray(t, cJSON_CreateNumber(it->points));
        cJSON_AddItemToArray(a, t);
    }
    return a;
}

static cJSON *event_json(const struct game_log *log, const struct report *r,
                         size_t i)
{
    const struct score_event *ev = &r->events[i];
    char receipt[600];
    cJSON *so = cJSON_CreateObject(), *tiles = cJSON_CreateArray();
    cJSON_AddItemToObject(so, "turn", turn_or_null(ev->turn));
    cJSON_AddItemToObject(so, "players", names_json(log, ev->players));
    cJSON_AddStringToObject(so, "feature", feat_name(ev->feature));
    cJSON_AddNumberToObject(so, "points", ev->points);
    char expr[48];
    score_expr_format(ev->feature, ev->expr, expr, sizeof expr);
    cJSON_AddStringToObject(so, "expr", expr);
    cJSON_AddItemToObject(so, "items", items_json(ev));
    cJSON_AddBoolToObject(so, "final", ev->turn < 0);
    cJSON_AddBoolToObject(so, "completed", ev->completed);
    if (ev->recall)
        cJSON_AddBoolToObject(so, "recall", true);
    cJSON_AddNumberToObject(so, "tiles_count", ev->tiles);
    if (ev->feature == FEAT_CITY)
        cJSON_AddNumberToObject(so, "pennants", ev->pennants);
    cJSON_AddItemToObject(so, "meeples", per_seat_json(log, ev->meeples));
    for (unsigned k = 0; k < ev->n_refs; k++) {
        const struct feature_ref *f = &r->refs[ev->ref0 + k];
        struct pos p = { f->x, f->y };
        if (ev->feature != FEAT_FIELD) {
            cJSON_AddItemToArray(tiles, pos_json(p));
            continue;
        }
        cJSON *c = cJSON_CreateObject();
        cJSON_AddItemToObject(c, "at", pos_json(p));
        cJSON_AddNumberToObject(c, "tiles", f->size);
        cJSON_AddItemToArray(tiles, c);
    }
    cJSON_AddItemToObject(so, ev->feature == FEAT_FIELD ? "cities" : "tiles",
                          tiles);
    /* the meeples' weight in the majority (a large follower: 2) */
    cJSON_AddItemToObject(so, "strength", per_seat_json(log, ev->strength));
    receipt_format(log, r, i, receipt, sizeof receipt);
    cJSON_AddStringToObject(so, "receipt", receipt);
    return so;
}

/* The elements in play (figures as counts, switches as true), by the
 * units' tables, and the units' ids ("base", "flier", ...). */
static void add_units(cJSON *o, const struct rules *ru)
{
    cJSON *els = cJSON_CreateObject(), *ids = cJSON_CreateArray();
    uint32_t units = game_rules_units(ru);
    for (int u = 0; u < EXP__COUNT; u++) {
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            int v = element_get(ru, el);
            if (v && el->kind != EL_FLAG)
                cJSON_AddNumberToObject(els, el->key, v);
            else if (v)
                cJSON_AddBoolToObject(els, el->key, true);
        }
        if (units >> u & 1)
            cJSON_AddItemToArray(ids,
                                 cJSON_CreateString(expansion_get(u)->id));
    }
    cJSON_AddItemToObject(o, "elements", els);
    cJSON_AddItemToObject(o, "expansions", ids);
}

static cJSON *rules_json(const struct rules *ru)
{
    cJSON *o = cJSON_CreateObject(), *sets = cJSON_CreateObject();
    for (int s = 0; s < tile_set_count(); s++)
        if (ru->set_copies[s])
            cJSON_AddNumberToObject(sets, tile_set_get(s)->id,
                                    ru->set_copies[s]);
    cJSON_AddItemToObject(o, "sets", sets);
    cJSON_AddNumberToObject(o, "followers", ru->figures[FIG_SMALL]);
    cJSON_AddBoolToObject(o, "farmers", (ru->flags & RF_FARMERS) != 0);
    cJSON_AddNumberToObject(o, "abbots", ru->figures[FIG_ABBOT]);
    cJSON_AddBoolToObject(o, "gardens", (ru->flags & RF_GARDENS) != 0);
    cJSON_AddNumberToObject(o, "tiny-city-scoring", ru->opt[OPT_TINY_CITY]);
    add_units(o, ru);
    return o;
}

static cJSON *scores_json(const struct game_log *log, const int *score)
{
    cJSON *o = cJSON_CreateObject();
    for (int p = 0; p < log->rules.n_players; p++)
        cJSON_AddNumberToObject(o, log->names[p], score[p]);
    return o;
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

static cJSON *divergence_json(const struct game_log *log,
                              const struct report *r)
{
    const struct divergence *d = &r->divergence;
    if (!d->found)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *claimed = cJSON_CreateObject(), *computed = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "turn", turn_or_null(d->turn));
    cJSON_AddItemToObject(o, "players", names_json(log, d->seats));
    for (int p = 0; p < log->rules.n_players; p++) {
        if (!(d->seats & (1u << p)))
            continue;
        cJSON_AddNumberToObject(claimed, log->names[p], d->claimed[p]);
        cJSON_AddNumberToObject(computed, log->names[p], d->computed[p]);
    }
    cJSON_AddItemToObject(o, "claimed", claimed);
    cJSON_AddItemToObject(o, "computed", computed);
    if (d->feature != FEAT_NONE)
        cJSON_AddStringToObject(o, "feature", feat_name(d->feature));
    else
        cJSON_AddNullToObject(o, "feature");
    cJSON_AddStringToObject(o, "message", d->msg);
    return o;
}

static void append_json(cJSON *o, struct buf *out)
{
    mlog_json_print(o, out);
    buf_puts(out, "\n");
    cJSON_Delete(o);
}

void mlog_report_json(const char *file, enum mlog_format fmt,
                      const struct game_log *log, const struct report *r,
                      struct buf *out)
{
    struct report_meta m = { file, fmt, NULL, NULL, NULL, NULL };
    mlog_report_json_meta(&m, log, r, out);
}

static void add_verdict(cJSON *o, const struct report_meta *m,
                        const struct game_log *log)
{
    if (m->engine)
        cJSON_AddStringToObject(o, "engine", m->engine);
    if (m->sha256)
        cJSON_AddStringToObject(o, "input_sha256", m->sha256);
    cJSON_AddItemToObject(o, "rules", rules_json(&log->rules));
}

static void add_variant(cJSON *o, const struct report_meta *m,
                        const struct game_log *log, const struct report *r)
{
    if (!m->variant || !m->variant_report)
        return;
    const struct report *v = m->variant_report;
    int n = log->rules.n_players;
    unsigned before = winners(n, r->score), after = winners(n, v->score);
    cJSON *vo = cJSON_CreateObject();
    cJSON_AddStringToObject(vo, "rule", m->variant);
    cJSON_AddItemToObject(vo, "scores", scores_json(log, v->score));
    cJSON_AddItemToObject(vo, "winners", names_json(log, after));
    cJSON_AddItemToObject(vo, "winners_before", names_json(log, before));
    cJSON_AddBoolToObject(vo, "winner_changes", before != after);
    cJSON_AddItemToObject(o, "variant", vo);
}

void mlog_report_json_meta(const struct report_meta *m,
                           const struct game_log *log, const struct report *r,
                           struct buf *out)
{
    cJSON *o = cJSON_CreateObject(), *a;
    cJSON_AddStringToObject(o, "file", m->file);
    cJSON_AddStringToObject(o, "format", mlog_format_name(m->format));
    cJSON_AddBoolToObject(o, "valid", r->valid);
    cJSON_AddBoolToObject(o, "finished", r->finished);
    cJSON_AddNumberToObject(o, "turns", r->turns);
    cJSON_AddNumberToObject(o, "tiles_left", r->tiles_left);
    add_verdict(o, m, log);
    if (r->halted)
        cJSON_AddStringToObject(o, "halted", r->halt_msg);
    a = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < log->rules.n_players; p++) {
        cJSON *pl = cJSON_CreateObject();
        cJSON_AddStringToObject(pl, "name", log->names[p]);
        cJSON_AddNumberToObject(pl, "score", r->score[p]);
        if (log->colors[p][0])
            cJSON_AddStringToObject(pl, "color", log->colors[p]);
        cJSON_AddItemToArray(a, pl);
    }
    cJSON_AddItemToObject(o, "winners",
                          names_json(log, r->finished
                                              ? winners(log->rules.n_players,
                                                        r->score)
                                              : 0));
    a = cJSON_AddArrayToObject(o, "violations");
    for (size_t i = 0; i < r->n_violations; i++)
        cJSON_AddItemToArray(a, violation_json(log, &r->violations[i]));
    a = cJSON_AddArrayToObject(o, "flights");
    for (size_t i = 0; i < r->n_flights; i++)
        cJSON_AddItemToArray(a, flight_json(log, &r->flights[i]));
    a = cJSON_AddArrayToObject(o, "discards");
    for (size_t i = 0; i < r->n_discards; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddNumberToObject(d, "turn", r->discards[i].turn);
        cJSON_AddStringToObject(d, "tile", tile_get(r->discards[i].tile)->id);
        cJSON_AddBoolToObject(d, "logged", r->discards[i].logged);
        cJSON_AddItemToArray(a, d);
    }
    if (r->draw_note[0])
        cJSON_AddStringToObject(o, "draw_note", r->draw_note);
    a = cJSON_AddArrayToObject(o, "scores");
    for (size_t i = 0; i < r->n_events; i++)
        cJSON_AddItemToArray(a, event_json(log, r, i));
    a = cJSON_AddArrayToObject(o, "running");
    for (size_t t = 0; t < r->n_running; t++)
        cJSON_AddItemToArray(a, cJSON_CreateIntArray(r->running[t],
                                                      log->rules.n_players));
    if (r->has_claims)
        cJSON_AddItemToObject(o, "first_divergence", divergence_json(log, r));
    add_variant(o, m, log, r);
    append_json(o, out);
}

void mlog_whatif_json(const char *file, const struct game_log *log, int turn,
                      int roll, const struct whatif_result *res,
                      const struct report *before, const struct report *after,
                      const bool *is_new, struct buf *out)
{
    cJSON *o = cJSON_CreateObject(), *a;
    int n = log->rules.n_players;
    unsigned wb = winners(n, before->score), wa = winners(n, after->score);
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddNumberToObject(o, "turn", turn);
    cJSON_AddNumberToObject(o, "roll", roll);
    cJSON_AddNumberToObject(o, "logged_roll", res->old_roll);
    cJSON_AddItemToObject(o, "target", pos_json(res->target));
    cJSON_AddNumberToObject(o, "options", res->n_options);
    if (res->lands) {
        char seg[40];
        seg_format(res->feature, res->mask, seg, sizeof seg);
        cJSON_AddStringToObject(o, "landing", seg);
    } else {
        cJSON_AddNullToObject(o, "landing");
    }
    a = cJSON_AddArrayToObject(o, "new_violations");
    for (size_t i = 0; i < after->n_violations; i++) {
        const struct violation *v = &after->violations[i];
        if (!is_new[i])
            continue;
        cJSON *vo = cJSON_CreateObject();
        cJSON_AddItemToObject(vo, "turn", turn_or_null(v->turn));
        cJSON_AddItemToObject(vo, "player", player_or_null(log, v->player));
        cJSON_AddStringToObject(vo, "rule", rule_id(v->rule));
        cJSON_AddStringToObject(vo, "message", v->msg);
        cJSON_AddItemToArray(a, vo);
    }
    a = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < n; p++) {
        cJSON *po = cJSON_CreateObject();
        cJSON_AddStringToObject(po, "name", log->names[p]);
        cJSON_AddNumberToObject(po, "before", before->score[p]);
        cJSON_AddNumberToObject(po, "after", after->score[p]);
        cJSON_AddNumberToObject(po, "difference",
                                after->score[p] - before->score[p]);
        cJSON_AddItemToArray(a, po);
    }
    cJSON_AddItemToObject(o, "winners_before", names_json(log, wb));
    cJSON_AddItemToObject(o, "winners_after", names_json(log, wa));
    cJSON_AddBoolToObject(o, "winner_changes", wb != wa);
    append_json(o, out);
}

/* Segment attributes by bit (enum seg_attr_bit): "inn", "cathedral". */
static const char *const seg_attr_names[SA__COUNT] = {
#define X(id, name) name,
    SEG_ATTRS(X)
#undef X
};

/* The geometry of tile kind t in its own frame, for drawing: every
 * segment, the river's too, with its attributes. */
static cJSON *tile_def_json(int t)
{
    const struct tile_def *d = tile_get(t);
    cJSON *o = cJSON_CreateObject(), *segs = cJSON_CreateArray();
    if (d->flier_dir == NO_FLIER)
        cJSON_AddNullToObject(o, "flier");
    else
        cJSON_AddStringToObject(o, "flier", dir_name(d->flier_dir));
    for (int i = 0; i < d->n_seg; i++) {
        const struct seg_def *sd = &d->seg[i];
        char name[40];
        seg_format(sd->kind, sd->mask, name, sizeof name);
        cJSON *so = cJSON_CreateObject();
        cJSON_AddStringToObject(so, "feature", feat_name(sd->kind));
        cJSON_AddStringToObject(so, "segment", name);
        if (sd->pennants)
            cJSON_AddNumberToObject(so, "pennants", sd->pennants);
        if (sd->kind == FEAT_FIELD && sd->cities) {
            seg_format(FEAT_CITY, sd->cities, name, sizeof name);
            cJSON_AddStringToObject(so, "cities", name + 5); /* "city:" */
        }
        for (int a = 0; a < SA__COUNT; a++)
            if (sd->attrs >> a & 1)
                cJSON_AddBoolToObject(so, seg_attr_names[a], true);
        cJSON_AddItemToArray(segs, so);
    }
    cJSON_AddItemToObject(o, "segments", segs);
    return o;
}

static bool same_meeple(const struct replay_meeple *a,
                        const struct replay_meeple *b)
{
    return a->owner == b->owner && a->kind == b->kind &&
           a->feature == b->feature && a->mask == b->mask &&
           a->flew == b->flew && a->at.x == b->at.x && a->at.y == b->at.y;
}

static cJSON *meeple_json(const struct game_log *log,
                          const struct replay_meeple *m, int id)
{
    char seg[40];
    cJSON *mo = cJSON_CreateObject();
    seg_format(m->feature, m->mask, seg, sizeof seg);
    cJSON_AddNumberToObject(mo, "id", id);
    cJSON_AddItemToObject(mo, "player", player_or_null(log, m->owner));
    cJSON_AddStringToObject(mo, "kind", figure_kind(m->kind));
    cJSON_AddItemToObject(mo, "at", pos_json(m->at));
    cJSON_AddStringToObject(mo, "segment", seg);
    if (m->flew)
        cJSON_AddBoolToObject(mo, "flew", true);
    return mo;
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
static void meeple_delta(const struct game_log *log, const struct replay *rp,
                         const struct replay_turn *t, size_t prev0,
                         struct meeple_ids *ids, cJSON *o)
{
    cJSON *placed = cJSON_CreateArray(), *removed = cJSON_CreateArray();
    bool used[GAME_MAX_MEEPLES] = { false };
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
            cJSON_AddItemToArray(placed, meeple_json(log, m, ids->cur[k]));
        }
    }
    for (size_t j = 0; j < ids->n_prev; j++)
        if (!used[j])
            cJSON_AddItemToArray(removed, cJSON_CreateNumber(ids->prev[j]));
    cJSON_AddItemToObject(o, "placed", placed);
    cJSON_AddItemToObject(o, "removed", removed);
    int *swap = ids->prev;
    ids->prev = ids->cur;
    ids->cur = swap;
    ids->n_prev = t->n_meeples < GAME_MAX_MEEPLES ? t->n_meeples
                                                   : GAME_MAX_MEEPLES;
}

static cJSON *replay_turn_json(const struct game_log *log,
                               const struct replay *rp, size_t i,
                               struct meeple_ids *ids)
{
    const struct replay_turn *t = &rp->turns[i];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "turn", turn_or_null(t->turn));
    cJSON_AddItemToObject(o, "player", player_or_null(log, t->player));
    if (t->tile >= 0) {
        cJSON_AddStringToObject(o, "tile", tile_get(t->tile)->id);
        cJSON_AddItemToObject(o, "at", pos_json(t->at));
        cJSON_AddNumberToObject(o, "rotation", 90 * t->rot);
    }
    meeple_delta(log, rp, t, i ? rp->turns[i - 1].meeple0 : 0, ids, o);
    if (t->count_mask) { /* the count, in a quarter of the City */
        char seg[40];
        seg_format(FEAT_QUARTER, t->count_mask, seg, sizeof seg);
        cJSON *c = cJSON_AddObjectToObject(o, "count");
        cJSON_AddItemToObject(c, "at", pos_json(t->count_at));
        cJSON_AddStringToObject(c, "segment", seg);
    }
    cJSON_AddItemToObject(o, "scores", cJSON_CreateIntArray(
                                           t->score, log->rules.n_players));
    return o;
}

void mlog_replay_json(const struct game_log *log, const struct report *r,
                      const struct replay *rp, struct buf *out)
{
    cJSON *o = cJSON_CreateObject(), *a, *defs = cJSON_CreateObject();
    bool used[TILE_KINDS] = { false };
    a = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < log->rules.n_players; p++) {
        cJSON *pl = cJSON_CreateObject();
        cJSON_AddStringToObject(pl, "name", log->names[p]);
        if (log->colors[p][0])
            cJSON_AddStringToObject(pl, "color", log->colors[p]);
        cJSON_AddItemToArray(a, pl);
    }
    if (rp->n_starts > 1) { /* several start tiles: the City's twelve */
        a = cJSON_AddArrayToObject(o, "start");
        for (int i = 0; i < rp->n_starts; i++) {
            cJSON *st = cJSON_CreateObject();
            const struct start_place *sp = &rp->starts[i];
            cJSON_AddStringToObject(st, "tile", tile_get(sp->tile)->id);
            cJSON_AddItemToObject(st, "at", pos_json(sp->at));
            cJSON_AddNumberToObject(st, "rotation", 90 * (sp->rot & 3));
            cJSON_AddItemToArray(a, st);
            if (sp->tile >= 0 && sp->tile < TILE_KINDS)
                used[sp->tile] = true;
        }
    }
    a = cJSON_AddArrayToObject(o, "turns");
    struct meeple_ids ids;
    ids.prev = ids.a;
    ids.cur = ids.b;
    ids.n_prev = 0;
    ids.next = 1;
    for (size_t i = 0; i < rp->n_turns; i++) {
        cJSON_AddItemToArray(a, replay_turn_json(log, rp, i, &ids));
        if (rp->turns[i].tile >= 0)
            used[rp->turns[i].tile] = true;
    }
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (used[t])
            cJSON_AddItemToObject(defs, tile_get(t)->id, tile_def_json(t));
    cJSON_AddItemToObject(o, "tiles", defs);
    a = cJSON_AddArrayToObject(o, "flights");
    for (size_t i = 0; i < r->n_flights; i++)
        cJSON_AddItemToArray(a, flight_json(log, &r->flights[i]));
    a = cJSON_AddArrayToObject(o, "events");
    for (size_t i = 0; i < r->n_events; i++)
        cJSON_AddItemToArray(a, event_json(log, r, i));
    a = cJSON_AddArrayToObject(o, "violations");
    for (size_t i = 0; i < r->n_violations; i++)
        cJSON_AddItemToArray(a, violation_json(log, &r->violations[i]));
    append_json(o, out);
}

void mlog_live_turn_json(const struct game_log *log, const struct report *r,
                         int turn, struct buf *out)
{
    cJSON *o = cJSON_CreateObject(), *a;
    cJSON_AddNumberToObject(o, "turn", turn);
    cJSON_AddItemToObject(o, "scores", scores_json(log, r->score));
    a = cJSON_AddArrayToObject(o, "events");
    for (size_t i = 0; i < r->n_events; i++)
        if (r->events[i].turn == turn)
            cJSON_AddItemToArray(a, event_json(log, r, i));
    cJSON *fl = NULL;
    for (size_t i = 0; i < r->n_flights; i++)
        if (r->flights[i].turn == turn)
            fl = flight_json(log, &r->flights[i]);
    cJSON_AddItemToObject(o, "flight", fl ? fl : cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "valid", r->valid);
    append_json(o, out);
}

void mlog_unsupported_json(const char *file, enum mlog_format fmt,
                           const char *msg, struct buf *out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "format", mlog_format_name(fmt));
    cJSON_AddStringToObject(o, "unsupported", msg);
    append_json(o, out);
}

void mlog_error_json(const char *file, const char *error, struct buf *out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "error", error);
    append_json(o, out);
}
