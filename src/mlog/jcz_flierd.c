/* jcz_flierd.c - the "flierd" object of a .jcz save: what JCloisterZone's
 * format has no place for, so that a log survives a save unchanged.
 * JCloisterZone ignores top-level keys it does not know.
 *
 *   "flierd": {
 *     "version": 1,
 *     "colors":   ["red", ""],                       seat order, "" none
 *     "discards": [{"before": 17, "tile": "BA/CCG", "player": 0,
 *                   "draw": 0.31}],
 *     "draws":    [{"message": 18, "draw": null}],
 *     "meeples":  [{"message": 5, "owner": 0, "n": 0}],
 *     "claims":   [{"turn": 3, "players": [1], "feature": "city",
 *                   "points": 4}],
 *     "totals":   [{"turn": 3, "scores": [0, 4]}],   null: not claimed
 *     "notes":    [{"turn": 3, "time": "...", "text": "..."}]
 *   }
 *
 * "discards" are the log's MV_DISCARDs, each before the replay message
 * of index "before" (the replay's length: after the last), in order.
 * "draws" and "meeples" correct the message of that replay index where
 * the plain save reads differently from the log: a draw the messages
 * cannot carry (e.g. the tile drawn again after a discard, which the
 * save knows no number for) and a meeple the log leaves open (n 0: any
 * in supply), which the replay names as the auditor picks it. Turn -1 is
 * final scoring. Every key but "version" is optional. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/move.h"
#include "mlog/mlog_int.h"
#include "util/xalloc.h"

#define FLIERD_VERSION_NUM 1

/* ---- naming the open meeples -------------------------------------------- */

/* A move that names a meeple a log may leave open: its row's flierlog
 * fields have a "meeple" (core/move.h). */
static bool open_kind(const struct move *m)
{
    const struct move_class *row = move_class_of(m->kind, m->neutral);
    char key[16], arg[16];
    const char *p = row && row->fl_fields ? row->fl_fields : "";
    while (fl_next_key(&p, key, arg))
        if (strcmp(key, "meeple") == 0)
            return true;
    return false;
}

static bool open_meeple(const struct move *m)
{
    return open_kind(m) && m->meeple_n == 0;
}

struct move *jcz_named_meeples(const struct game_log *l)
{
    struct move *mv = xmalloc(sizeof *mv * (l->n_moves ? l->n_moves : 1));
    bool any = false;
    if (l->n_moves)
        memcpy(mv, l->moves, sizeof *mv * l->n_moves);
    for (size_t i = 0; i < l->n_moves; i++)
        any = any || open_meeple(&mv[i]);
    if (!any || l->rules.n_players < 1)
        return mv;
    struct report r;
    struct audit *a = audit_begin(l, &r);
    for (size_t i = 0; i < l->n_moves; i++) {
        /* the meeple the auditor takes for it, given the game before it
         * (the seat on turn's; a wagon's move, the wagon that waits) */
        int mi = open_meeple(&mv[i]) ? audit_meeple(a, &mv[i]) : -1;
        if (mi >= 0) {
            const struct meeple *k = &audit_game(a)->meeples[mi];
            mv[i].meeple_owner = (int8_t)k->owner;
            mv[i].meeple_n = k->n;
        }
        (void)audit_step(a, &l->moves[i]);
    }
    audit_finish(a, NULL, NULL);
    report_release(&r);
    return mv;
}

/* ---- writing ------------------------------------------------------------ */

static bool same_draw(double a, double b)
{
    return a == b || (a < 0 && b < 0);
}

static cJSON *draw_json(double d)
{
    return d >= 0 ? jcz_number(d) : cJSON_CreateNull();
}

static void add_colors(cJSON *o, const struct game_log *l)
{
    int n = l->rules.n_players, any = 0;
    for (int p = 0; p < n && p < GAME_MAX_PLAYERS; p++)
        any |= l->colors[p][0] != '\0';
    if (!any)
        return;
    cJSON *a = cJSON_AddArrayToObject(o, "colors");
    for (int p = 0; p < n && p < GAME_MAX_PLAYERS; p++)
        cJSON_AddItemToArray(a, cJSON_CreateString(l->colors[p]));
}

static void add_discards(cJSON *o, const struct game_log *l)
{
    cJSON *a = NULL;
    size_t before = 0;
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        if (m->kind != MV_DISCARD) {
            before++;
            continue;
        }
        if (!a)
            a = cJSON_AddArrayToObject(o, "discards");
        cJSON *d = cJSON_CreateObject();
        cJSON_AddNumberToObject(d, "before", (double)before);
        cJSON_AddStringToObject(d, "tile", m->tile_id);
        if (m->player >= 0)
            cJSON_AddNumberToObject(d, "player", m->player);
        if (m->draw >= 0)
            cJSON_AddItemToObject(d, "draw", jcz_number(m->draw));
        cJSON_AddItemToArray(a, d);
    }
}

static void add_fix(cJSON *o, const char *key, cJSON *item)
{
    cJSON *a = mlog_get(o, key);
    if (!a)
        a = cJSON_AddArrayToObject(o, key);
    cJSON_AddItemToArray(a, item);
}

/* Where the plain save reads other draws or meeples than l has. */
static void add_corrections(cJSON *o, const struct game_log *l,
                            const struct game_log *plain)
{
    size_t k = 0;
    for (size_t i = 0; i < l->n_moves; i++)
        k += l->moves[i].kind != MV_DISCARD;
    if (k != plain->n_moves)
        return; /* cannot happen: one message per move */
    k = 0;
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        if (m->kind == MV_DISCARD)
            continue;
        const struct move *b = &plain->moves[k];
        if (!same_draw(m->draw, b->draw)) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddNumberToObject(f, "message", (double)k);
            cJSON_AddItemToObject(f, "draw", draw_json(m->draw));
            add_fix(o, "draws", f);
        }
        if (open_kind(m) &&
            (m->meeple_owner != b->meeple_owner ||
             m->meeple_n != b->meeple_n)) {
            cJSON *f = cJSON_CreateObject();
            cJSON_AddNumberToObject(f, "message", (double)k);
            if (m->meeple_owner >= 0)
                cJSON_AddNumberToObject(f, "owner", m->meeple_owner);
            else
                cJSON_AddNullToObject(f, "owner");
            cJSON_AddNumberToObject(f, "n", m->meeple_n);
            add_fix(o, "meeples", f);
        }
        k++;
    }
}

static void add_lists(cJSON *o, const struct game_log *l)
{
    if (l->n_claims) {
        cJSON *a = cJSON_AddArrayToObject(o, "claims");
        for (size_t i = 0; i < l->n_claims; i++)
            cJSON_AddItemToArray(a, fl_claim_json(l, &l->claims[i], true,
                                                  true));
    }
    if (l->n_totals) {
        cJSON *a = cJSON_AddArrayToObject(o, "totals");
        for (size_t i = 0; i < l->n_totals; i++) {
            cJSON *t = cJSON_CreateObject();
            cJSON_AddNumberToObject(t, "turn", l->totals[i].turn);
            cJSON_AddItemToObject(t, "scores",
                                  fl_scores_json(l, &l->totals[i], true));
            cJSON_AddItemToArray(a, t);
        }
    }
    if (l->n_notes) {
        cJSON *a = cJSON_AddArrayToObject(o, "notes");
        for (size_t i = 0; i < l->n_notes; i++)
            cJSON_AddItemToArray(a, fl_note_json(&l->notes[i]));
    }
}

cJSON *jcz_flierd_json(const struct game_log *l, const struct game_log *plain)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "version", FLIERD_VERSION_NUM);
    add_colors(o, l);
    add_discards(o, l);
    if (plain)
        add_corrections(o, l, plain);
    add_lists(o, l);
    if (cJSON_GetArraySize(o) == 1) { /* the version alone */
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* ---- reading ------------------------------------------------------------ */

static const cJSON *get(const cJSON *o, const char *key)
{
    return mlog_get(o, key);
}

static enum status read_colors(const cJSON *v, struct game_log *l,
                               struct err *e)
{
    const cJSON *it;
    int p = 0;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) > l->rules.n_players)
        return err_set(e, ST_PARSE, "flierd.colors: expected an array of at "
                       "most one colour per player");
    cJSON_ArrayForEach(it, v) {
        if (!cJSON_IsString(it) ||
            strlen(it->valuestring) >= sizeof l->colors[p])
            return err_set(e, ST_PARSE, "flierd.colors[%d]: expected a "
                           "string of at most %zu bytes", p,
                           sizeof l->colors[p] - 1);
        snprintf(l->colors[p], sizeof l->colors[p], "%s", it->valuestring);
        p++;
    }
    return ST_OK;
}

static enum status read_draw(const cJSON *v, const char *path, double *out,
                             struct err *e)
{
    if (!v || cJSON_IsNull(v)) {
        *out = -1.0;
        return ST_OK;
    }
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1))
        return err_set(e, ST_PARSE, "%s: expected a number in [0, 1) or "
                       "null", path);
    *out = v->valuedouble;
    return ST_OK;
}

/* A correction: {"message": k, ...} with k < n. */
static enum status read_fix_index(const cJSON *f, const char *path, size_t n,
                                  int *k, struct err *e)
{
    char sub[96];
    snprintf(sub, sizeof sub, "%s.message", path);
    if (!cJSON_IsObject(f))
        return err_set(e, ST_PARSE, "%s: expected an object", path);
    if (n == 0)
        return err_set(e, ST_PARSE, "%s: the replay has no message", sub);
    return jcz_int(get(f, "message"), sub, 0, (int)(n - 1), k, e);
}

static enum status read_draws(const cJSON *v, struct game_log *l,
                              struct err *e)
{
    const cJSON *f;
    int i = 0, k;
    char path[64], sub[80];
    if (!cJSON_IsArray(v))
        return err_set(e, ST_PARSE, "flierd.draws: expected an array");
    cJSON_ArrayForEach(f, v) {
        snprintf(path, sizeof path, "flierd.draws[%d]", i++);
        snprintf(sub, sizeof sub, "%s.draw", path);
        if (read_fix_index(f, path, l->n_moves, &k, e) ||
            read_draw(get(f, "draw"), sub, &l->moves[k].draw, e))
            return e->code;
    }
    return ST_OK;
}

static enum status read_meeples(const cJSON *v, struct game_log *l,
                                struct err *e)
{
    const cJSON *f;
    int i = 0, k, owner = -1, n = 0;
    char path[64], sub[80];
    if (!cJSON_IsArray(v))
        return err_set(e, ST_PARSE, "flierd.meeples: expected an array");
    cJSON_ArrayForEach(f, v) {
        snprintf(path, sizeof path, "flierd.meeples[%d]", i++);
        if (read_fix_index(f, path, l->n_moves, &k, e))
            return e->code;
        const cJSON *o = get(f, "owner");
        snprintf(sub, sizeof sub, "%s.owner", path);
        owner = -1;
        if (!cJSON_IsNull(o) && jcz_int(o, sub, 0, 127, &owner, e))
            return e->code;
        snprintf(sub, sizeof sub, "%s.n", path);
        if (jcz_int(get(f, "n"), sub, 0, 255, &n, e))
            return e->code;
        l->moves[k].meeple_owner = (int8_t)owner;
        l->moves[k].meeple_n = (uint8_t)n;
    }
    return ST_OK;
}

static enum status read_discard(const cJSON *d, const char *path, size_t n,
                                int prev, int n_players, struct move *m,
                                int *before, struct err *e)
{
    char sub[80];
    const cJSON *v;
    if (!cJSON_IsObject(d))
        return err_set(e, ST_PARSE, "%s: expected an object", path);
    snprintf(sub, sizeof sub, "%s.before", path);
    if (jcz_int(get(d, "before"), sub, prev, (int)n, before, e))
        return e->code;
    v = get(d, "tile");
    if (!cJSON_IsString(v))
        return err_set(e, ST_PARSE, "%s.tile: expected a tile id", path);
    mlog_copy_text(m->tile_id, sizeof m->tile_id, v->valuestring);
    m->tile = (int16_t)(strlen(v->valuestring) < sizeof m->tile_id
                            ? tile_find(v->valuestring)
                            : -1);
    v = get(d, "player");
    if (v) {
        int p;
        snprintf(sub, sizeof sub, "%s.player", path);
        if (jcz_int(v, sub, 0, n_players - 1, &p, e))
            return e->code;
        m->player = (int8_t)p;
    }
    snprintf(sub, sizeof sub, "%s.draw", path);
    return read_draw(get(d, "draw"), sub, &m->draw, e);
}

/* Puts the discards back among the messages, each before its "before". */
static enum status read_discards(const cJSON *v, struct game_log *l,
                                 struct err *e)
{
    const cJSON *d;
    int i = 0, prev = 0, before;
    size_t n_msg = l->n_moves, k = 0;
    struct game_log merged;
    enum status st = ST_OK;
    char path[64];
    if (!cJSON_IsArray(v))
        return err_set(e, ST_PARSE, "flierd.discards: expected an array");
    game_log_init(&merged);
    cJSON_ArrayForEach(d, v) {
        struct move m;
        memset(&m, 0, sizeof m);
        m.kind = MV_DISCARD;
        m.player = -1;
        m.meeple_owner = -1;
        snprintf(path, sizeof path, "flierd.discards[%d]", i++);
        st = read_discard(d, path, n_msg, prev, l->rules.n_players, &m,
                          &before, e);
        if (st)
            goto out;
        while (k < (size_t)before)
            *game_log_push(&merged) = l->moves[k++];
        m.src = (uint32_t)before;
        *game_log_push(&merged) = m;
        prev = before;
    }
    while (k < n_msg)
        *game_log_push(&merged) = l->moves[k++];
    free(l->moves);
    l->moves = merged.moves;
    l->n_moves = merged.n_moves;
    l->cap_moves = merged.cap_moves;
    merged.moves = NULL;
out:
    game_log_release(&merged);
    return st;
}

enum status jcz_read_flierd(const cJSON *obj, struct game_log *l,
                            struct err *e)
{
    struct fl_ctx c = { .setup = l };
    const cJSON *v;
    int version = FLIERD_VERSION_NUM;
    if (!cJSON_IsObject(obj))
        return err_set(e, ST_PARSE, "flierd: expected an object");
    v = get(obj, "version");
    if (v && jcz_int(v, "flierd.version", 0, 1000000, &version, e))
        return e->code;
    if (version != FLIERD_VERSION_NUM)
        return err_set(e, ST_UNSUPPORTED, "unsupported: flierd.version %d "
                       "(this flierd reads %d)", version, FLIERD_VERSION_NUM);
    if (get(obj, "colors") && read_colors(get(obj, "colors"), l, e))
        return e->code;
    if (get(obj, "draws") && read_draws(get(obj, "draws"), l, e))
        return e->code;
    if (get(obj, "meeples") && read_meeples(get(obj, "meeples"), l, e))
        return e->code;
    v = get(obj, "claims");
    if (v && fl_read_claim_list(&c, v, "flierd.claims", l, e))
        return e->code;
    v = get(obj, "totals");
    if (v && fl_read_total_list(&c, v, "flierd.totals", l, e))
        return e->code;
    v = get(obj, "notes");
    if (v && fl_read_note_list(&c, v, "flierd.notes", l, e))
        return e->code;
    /* last: the corrections above index the replay's messages */
    if (get(obj, "discards") && read_discards(get(obj, "discards"), l, e))
        return e->code;
    return ST_OK;
}
