/* options_json.c - the options of a live game's next turn as JSON
 * (GET /api/live/{id}/options; docs/api.md). A page draws from it: the
 * catalogue with each kind's geometry, the squares a chosen tile may go
 * to with their rotations, the actions once it is placed. */
#include <string.h>

#include <cjson/cJSON.h>

#include "core/options.h"
#include "mlog/fl_turn.h"
#include "mlog/mlog.h"
#include "mlog/mlog_int.h"

static const char *const stage_names[] = {
    [OPTS_TILE] = "tile",     [OPTS_PLACE] = "place",
    [OPTS_ACTION] = "action", [OPTS_LAND] = "land",
    [OPTS_AFTER] = "after",   [OPTS_OVER] = "over",
    [OPTS_ROUND] = "round",   [OPTS_ANSWERED] = "answered",
};

static void at_json(struct jw *w, const char *key, struct pos p)
{
    jw_array(w, key);
    jw_int(w, NULL, p.x);
    jw_int(w, NULL, p.y);
    jw_end(w, ']');
}

static const char *figure_kind(int fig)
{
    const struct figure_class *c = figure_class(fig);
    return c ? c->jcz : "?";
}

/* {"at", "segment"} of a segment, as a flierlog turn names it. */
static void seg_json(struct jw *w, const struct seg_place *s)
{
    char name[40];
    seg_format(s->feature, s->mask, name, sizeof name);
    jw_object(w, NULL);
    at_json(w, "at", s->at);
    jw_string(w, "segment", name);
    jw_end(w, '}');
}

static void tiles_json(struct jw *w, const struct turn_options *o,
                       const struct options_query *q)
{
    jw_array(w, "tiles");
    for (int i = 0; i < o->n_tiles; i++) {
        const struct tile_offer *t = &o->tiles[i];
        jw_object(w, NULL);
        jw_string(w, "tile", tile_get(t->tile)->id);
        jw_int(w, "left", t->left);
        jw_bool(w, "drawable", t->drawable);
        jw_bool(w, "fits", t->fits);
        if (t->held)
            jw_bool(w, "held", true);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    /* the geometry of what the page may draw: the catalogue's kinds, or
     * the chosen tile once there is one */
    jw_object(w, "geometry");
    if (q->tile >= 0)
        mlog_tile_def_json(w, q->tile);
    for (int i = 0; q->tile < 0 && i < o->n_tiles; i++)
        mlog_tile_def_json(w, o->tiles[i].tile);
    jw_end(w, '}');
}

/* The squares, each with its rotations (degrees): the engine lists
 * placements square by square, rotations in order. */
static void places_json(struct jw *w, const struct turn_options *o)
{
    jw_array(w, "places");
    for (int i = 0; i < o->n_places;) {
        struct pos at = o->places[i].at;
        jw_object(w, NULL);
        at_json(w, "at", at);
        jw_array(w, "rotations");
        for (; i < o->n_places && o->places[i].at.x == at.x &&
               o->places[i].at.y == at.y;
             i++)
            jw_int(w, NULL, 90 * o->places[i].rot);
        jw_end(w, ']');
        jw_end(w, '}');
    }
    jw_end(w, ']');
}

static void landings_json(struct jw *w, const struct seg_place *s, int n)
{
    jw_array(w, "landings");
    for (int i = 0; i < n; i++)
        seg_json(w, &s[i]);
    jw_end(w, ']');
}

static void actions_json(struct jw *w, const struct turn_options *o)
{
    jw_array(w, "deploys");
    for (int i = 0; i < o->n_deploys; i++) {
        const struct deploy_offer *d = &o->deploys[i];
        char name[40];
        seg_format(d->on.feature, d->on.mask, name, sizeof name);
        jw_object(w, NULL);
        jw_string(w, "meeple", figure_kind(d->figure));
        at_json(w, "at", d->on.at);
        jw_string(w, "segment", name);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_array(w, "flights");
    for (int i = 0; i < o->n_flights; i++) {
        const struct flight_offer *f = &o->flights[i];
        jw_object(w, NULL);
        jw_string(w, "meeple", figure_kind(f->figure));
        jw_array(w, "rolls");
        for (int r = 0; r < 3; r++) {
            jw_object(w, NULL);
            jw_int(w, "roll", r + 1);
            at_json(w, "target", f->target[r]);
            landings_json(w, f->land[r], f->n[r]);
            jw_end(w, '}');
        }
        jw_end(w, ']');
        jw_end(w, '}');
    }
    jw_end(w, ']');
    jw_bool(w, "pass", o->may_pass);
}

/* The units' moves, each as a "moves" list item of a turn entry: the
 * page sends back the one chosen as it is, the player on turn's unless
 * it names another (a dragon's step). */
static void moves_json(struct jw *w, const struct game_log *log,
                       const struct turn_options *o)
{
    struct buf b = BUF_INIT;
    jw_array(w, "moves");
    for (int i = 0; i < o->n_moves; i++) {
        cJSON *m = fl_move_json(log, false, &o->moves[i], -1);
        b.len = 0;
        fl_print(m, &b);
        cJSON_Delete(m);
        jw_raw(w, NULL, b.p, b.len);
    }
    jw_end(w, ']');
    buf_release(&b);
}

void mlog_options_json(int64_t game, const struct game_log *log,
                       const struct options_query *q,
                       const struct turn_options *o, struct buf *out)
{
    struct jw w;
    jw_init(&w, out);
    jw_object(&w, NULL);
    jw_int(&w, "game", game);
    jw_string(&w, "stage", stage_names[o->stage]);
    jw_int(&w, "turn", o->turn);
    jw_string(&w, "player", o->seat >= 0 && o->seat < log->rules.n_players
                                ? log->names[o->seat] : NULL);
    jw_int(&w, "seat", o->seat);
    jw_int(&w, "part", o->part);
    jw_int(&w, "tiles_left", o->tiles_left);
    if (o->stage == OPTS_OVER)
        jw_string(&w, "over", o->over);
    if (o->stage == OPTS_ROUND || (o->stage == OPTS_TILE && o->round)) {
        jw_string(&w, "round", o->round);
        jw_bool(&w, "pass", o->may_pass);
    }
    jw_object(&w, "query");
    if (q->tile >= 0)
        jw_string(&w, "tile", tile_get(q->tile)->id);
    if (q->placed) {
        at_json(&w, "at", q->at);
        jw_int(&w, "rot", 90 * q->rot);
    }
    if (q->fly >= 0)
        jw_string(&w, "fly", figure_kind(q->fly));
    if (q->roll)
        jw_int(&w, "roll", q->roll);
    jw_end(&w, '}');
    if (o->stage != OPTS_OVER && o->stage != OPTS_ROUND &&
        o->stage != OPTS_ANSWERED)
        tiles_json(&w, o, q);
    if (o->stage == OPTS_PLACE)
        places_json(&w, o);
    if (o->stage == OPTS_ACTION || o->stage == OPTS_LAND ||
        o->stage == OPTS_AFTER)
        actions_json(&w, o);
    if (o->stage == OPTS_LAND) {
        jw_object(&w, "landing");
        jw_string(&w, "meeple", figure_kind(o->flier));
        jw_int(&w, "roll", o->roll);
        at_json(&w, "target", o->target);
        landings_json(&w, o->landings, o->n_landings);
        jw_end(&w, '}');
    }
    moves_json(&w, log, o);
    jw_array(&w, "unit_moves");
    for (int i = 0; i < o->n_unit_moves; i++)
        jw_string(&w, NULL, o->unit_moves[i]);
    jw_end(&w, ']');
    jw_end(&w, '}');
    buf_append(out, "\n", 1);
}
