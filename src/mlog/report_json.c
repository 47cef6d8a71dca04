/* report_json.c - the JSON audit report of `flierd audit --json`. The
 * keys documented in the README are a contract: add, never rename. */
#include <stdio.h>
#include <string.h>

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

static cJSON *flight_json(const struct game_log *log, const struct flight *f)
{
    cJSON *o = cJSON_CreateObject(), *ls = cJSON_CreateArray();
    cJSON_AddNumberToObject(o, "turn", f->turn);
    cJSON_AddItemToObject(o, "player", player_or_null(log, f->player));
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
    return o;
}

static void append_json(cJSON *o, struct buf *out)
{
    char *s = cJSON_PrintUnformatted(o);
    if (s) {
        buf_puts(out, s);
        buf_puts(out, "\n");
        cJSON_free(s);
    }
    cJSON_Delete(o);
}

void mlog_report_json(const char *file, enum mlog_format fmt,
                      const struct game_log *log, const struct report *r,
                      struct buf *out)
{
    cJSON *o = cJSON_CreateObject(), *a;
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "format", mlog_format_name(fmt));
    cJSON_AddBoolToObject(o, "valid", r->valid);
    cJSON_AddBoolToObject(o, "finished", r->finished);
    cJSON_AddNumberToObject(o, "turns", r->turns);
    cJSON_AddNumberToObject(o, "tiles_left", r->tiles_left);
    if (r->halted)
        cJSON_AddStringToObject(o, "halted", r->halt_msg);
    a = cJSON_AddArrayToObject(o, "players");
    for (int p = 0; p < log->rules.n_players; p++) {
        cJSON *pl = cJSON_CreateObject();
        cJSON_AddStringToObject(pl, "name", log->names[p]);
        cJSON_AddNumberToObject(pl, "score", r->score[p]);
        cJSON_AddItemToArray(a, pl);
    }
    a = cJSON_AddArrayToObject(o, "violations");
    for (size_t i = 0; i < r->n_violations; i++) {
        const struct violation *v = &r->violations[i];
        cJSON *vo = cJSON_CreateObject();
        cJSON_AddItemToObject(vo, "turn", turn_or_null(v->turn));
        cJSON_AddItemToObject(vo, "player", player_or_null(log, v->player));
        cJSON_AddStringToObject(vo, "rule", rule_id(v->rule));
        cJSON_AddStringToObject(vo, "message", v->msg);
        cJSON_AddNumberToObject(vo, "move", v->src);
        cJSON_AddItemToArray(a, vo);
    }
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
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        cJSON *so = cJSON_CreateObject();
        cJSON_AddItemToObject(so, "turn", turn_or_null(ev->turn));
        cJSON_AddItemToObject(so, "players", names_json(log, ev->players));
        cJSON_AddStringToObject(so, "feature", feat_name(ev->feature));
        cJSON_AddNumberToObject(so, "points", ev->points);
        cJSON_AddItemToArray(a, so);
    }
    append_json(o, out);
}

void mlog_error_json(const char *file, const char *error, struct buf *out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", file);
    cJSON_AddStringToObject(o, "error", error);
    append_json(o, out);
}
