/* flierlog.c - flierlog/1, our own game log format -> struct game_log.
 *
 * docs/log-format.md is the reference. In short: one JSON object with
 * the setup ("format", "edition", "players" and optional overrides),
 * "turns" (one entry per drawn tile: its placement and what followed, or
 * its discard) and "final"; or the same as a stream (NDJSON): the setup
 * on line 1, one turn entry per line, {"final": {...}} last.
 *
 * An entry becomes MV_PLACE (or MV_DISCARD), its action (MV_DEPLOY, a
 * flight and its landing, MV_RECALL, MV_PASS) and MV_COMMIT, each with
 * src = the entry's index in "turns", so that the auditor can name
 * "turns[12]". flierlog/1.2 adds what comes between turns: "abbey":
 * "declined" is MV_PASS and MV_COMMIT before the tile (or MV_PASS alone
 * on an entry with no tile: the last round of abbeys), "wagons" the
 * wagons' moves (MV_DEPLOY, MV_COMMIT once per owner) and stays (MV_PASS)
 * after the turn's COMMIT; "part" is for readers. An entry may instead spell its moves out one by one
 * ("moves"): the form the writer falls back to for what the short form
 * cannot say (moves out of order, a turn left open, ...).
 *
 * Rule checking is the auditor's: a well-formed entry that breaks a rule
 * (an unknown tile, a roll of 7, a landing on a field) is read as
 * written. Parse errors name the JSON path (and the line, streaming);
 * keys a reader does not know are ignored, since minor versions (1.x)
 * only add optional keys. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/move.h"
#include "mlog/fl_turn.h"
#include "mlog/mlog_int.h"
#include "util/xalloc.h"

#define FL_COORD_MAX 1000000 /* as the .jcz reader: far beyond any board */
#define N_KEYS(a) (sizeof(a) / sizeof *(a))

/* ---- errors and small readers ------------------------------------------- */

static enum status unsupported(const struct fl_ctx *c, struct err *e,
                               const char *path, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

enum status fl_bad(const struct fl_ctx *c, struct err *e, const char *path,
                   const char *fmt, ...)
{
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c && c->line > 0)
        return err_set(e, ST_PARSE, "line %d: %s: %s", c->line, path, msg);
    return err_set(e, ST_PARSE, "%s: %s", path, msg);
}

/* "unsupported: <what> (<path>)": the message starts with what it is. */
static enum status unsupported(const struct fl_ctx *c, struct err *e,
                               const char *path, const char *fmt, ...)
{
    char msg[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c && c->line > 0)
        return err_set(e, ST_UNSUPPORTED, "unsupported: %s (line %d: %s)",
                       msg, c->line, path);
    return err_set(e, ST_UNSUPPORTED, "unsupported: %s (%s)", msg, path);
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return mlog_get(o, key);
}

/* path.key (or key alone at the top) */
const char *fl_sub(char *out, const char *path, const char *key)
{
    if (snprintf(out, FL_PATH, "%s%s%s", path, path[0] ? "." : "", key) >=
        FL_PATH)
        memcpy(out + FL_PATH - 4, "...", 4); /* a path of no sane file */
    return out;
}

const char *fl_nth(char *out, const char *path, int i)
{
    if (snprintf(out, FL_PATH, "%s[%d]", path, i) >= FL_PATH)
        memcpy(out + FL_PATH - 4, "...", 4);
    return out;
}

enum status fl_get_int(const struct fl_ctx *c, const cJSON *v, const char *path,
                       int lo, int hi, int *out, struct err *e)
{
    if (!v)
        return fl_bad(c, e, path, "missing");
    if (!cJSON_IsNumber(v))
        return fl_bad(c, e, path, "expected an integer in %d..%d", lo, hi);
    /* never cast what an int cannot hold (1e20, 1e999 read as inf) */
    if (v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return fl_bad(c, e, path, "expected an integer in %d..%d, not %.17g",
                      lo, hi, v->valuedouble);
    *out = (int)v->valuedouble;
    return ST_OK;
}

static enum status get_str(const struct fl_ctx *c, const cJSON *v,
                           const char *path, const char **out, struct err *e)
{
    *out = "";
    if (!v)
        return fl_bad(c, e, path, "missing");
    if (!cJSON_IsString(v))
        return fl_bad(c, e, path, "expected a string");
    *out = v->valuestring;
    return ST_OK;
}

/* An optional boolean (absent: *out unchanged). */
static enum status get_bool(const struct fl_ctx *c, const cJSON *v,
                            const char *path, bool *out, struct err *e)
{
    if (!v)
        return ST_OK;
    if (!cJSON_IsBool(v))
        return fl_bad(c, e, path, "expected true or false");
    *out = cJSON_IsTrue(v);
    return ST_OK;
}

enum status fl_get_pos(const struct fl_ctx *c, const cJSON *v, const char *path,
                       struct pos *p, struct err *e)
{
    char s[FL_PATH];
    if (!v)
        return fl_bad(c, e, path, "missing");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
        return fl_bad(c, e, path, "expected [x, y]");
    if (fl_get_int(c, cJSON_GetArrayItem(v, 0), fl_nth(s, path, 0),
                   -FL_COORD_MAX, FL_COORD_MAX, &p->x, e))
        return e->code;
    return fl_get_int(c, cJSON_GetArrayItem(v, 1), fl_nth(s, path, 1),
                      -FL_COORD_MAX, FL_COORD_MAX, &p->y, e);
}

static enum status get_rot(const struct fl_ctx *c, const cJSON *v,
                           const char *path, uint8_t *rot, struct err *e)
{
    int deg = 0;
    if (!v)
        return ST_OK; /* 0 */
    if (fl_get_int(c, v, path, 0, 270, &deg, e))
        return e->code;
    if (deg % 90)
        return fl_bad(c, e, path, "expected 0, 90, 180 or 270");
    *rot = (uint8_t)(deg / 90);
    return ST_OK;
}

/* A draw: JCloisterZone's random number in [0, 1); absent: unknown. */
static enum status get_draw(const struct fl_ctx *c, const cJSON *v,
                            const char *path, double *out, struct err *e)
{
    *out = -1.0;
    if (!v)
        return ST_OK;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1))
        return fl_bad(c, e, path, "expected a number in [0, 1)");
    *out = v->valuedouble;
    return ST_OK;
}

static enum status seat_by_name(const struct fl_ctx *c, const char *name,
                                const char *path, int *seat, struct err *e)
{
    const struct game_log *l = c->setup;
    int found = -1, n = 0;
    for (int p = 0; p < l->rules.n_players; p++) {
        if (strcmp(l->names[p], name) == 0) {
            found = found < 0 ? p : found;
            n++;
        }
    }
    if (n == 0)
        return fl_bad(c, e, path, "no player is named '%.40s'", name);
    if (n > 1)
        return fl_bad(c, e, path,
                      "'%.40s' names more than one seat; give the "
                      "seat number",
                      name);
    *seat = found;
    return ST_OK;
}

/* A seat: a player's name (unique) or the seat number. */
enum status fl_get_seat(const struct fl_ctx *c, const cJSON *v,
                            const char *path, int *seat, struct err *e)
{
    if (cJSON_IsNumber(v))
        return fl_get_int(c, v, path, 0, c->setup->rules.n_players - 1, seat,
                          e);
    if (!cJSON_IsString(v))
        return fl_bad(c, e, path, "expected a player's name or seat number");
    return seat_by_name(c, v->valuestring, path, seat, e);
}

static int feat_by_name(const char *s, size_t len)
{
    for (int f = FEAT_ROAD; f < FEAT__COUNT; f++) {
        const char *name = feat_name((enum feat)f);
        if (strlen(name) == len && strncmp(name, s, len) == 0)
            return f;
    }
    return FEAT_NONE;
}

/* Our notation: "city:NE", "road:WE", "field:NL.NR", "monastery",
 * "garden", "flier" (board orientation). Only a feature a save can point
 * at (one with a JCloisterZone name): nothing stands on a river. */
enum status fl_get_segment(const struct fl_ctx *c, const cJSON *v,
                           const char *path, uint8_t *kind, uint8_t *mask,
                           struct err *e)
{
    const char *s, *colon;
    if (get_str(c, v, path, &s, e))
        return e->code;
    colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    int f = feat_by_name(s, n);
    if (f == FEAT_NONE)
        return unsupported(c, e, path, "feature '%.*s'", (int)(n < 40 ? n : 40),
                           s);
    if (!feature_class(f)->jcz)
        return fl_bad(c, e, path, "'%.40s': no figure stands on a %s", s,
                      feat_name(f));
    bool inner = feat_shape(f) == SHAPE_INNER;
    if ((!colon && !inner) || (colon && !loc_parse(f, colon + 1, mask)))
        return fl_bad(c, e, path,
                      "'%.40s' is no segment (e.g. city:NE, "
                      "road:WE, field:NL.NR, monastery)",
                      s);
    *kind = (uint8_t)feat_logged(f); /* "shrine": a monastery there */
    if (!colon)
        *mask = 0;
    return ST_OK;
}

/* ---- the board as far as the reader needs it ---------------------------- */

static int cell(struct pos p)
{
    int h = BOARD_SPAN / 2;
    if (p.x < -h || p.x >= h || p.y < -h || p.y >= h)
        return -1;
    return (p.y + h) * BOARD_SPAN + (p.x + h);
}

void fl_ctx_init(struct fl_ctx *c, const struct game_log *setup)
{
    memset(c, 0, sizeof *c);
    c->setup = setup;
    c->grid = xcalloc((size_t)BOARD_SPAN * BOARD_SPAN, sizeof *c->grid);
    for (int i = 0; i < game_log_n_starts(setup); i++) {
        struct start_place sp = game_log_start(setup, i);
        int k = cell(sp.at);
        if (sp.tile >= 0 && k >= 0)
            c->grid[k] = (uint16_t)(sp.tile + 1);
    }
}

void fl_ctx_release(struct fl_ctx *c)
{
    free(c->grid);
    c->grid = NULL;
}

void fl_ctx_apply(struct fl_ctx *c, const struct move *m)
{
    if (m->kind != MV_PLACE)
        return;
    c->turns++;
    int k = cell(m->at);
    if (c->grid && m->tile >= 0 && k >= 0 && c->grid[k] == 0)
        c->grid[k] = (uint16_t)(m->tile + 1);
}

void fl_recall_segment(const struct fl_ctx *c, struct pos p, uint8_t *kind,
                       uint8_t *mask)
{
    int k = cell(p);
    *kind = FEAT_MONASTERY;
    *mask = 0;
    if (!c->grid || k < 0 || c->grid[k] == 0)
        return;
    const struct tile_def *t = tile_get(c->grid[k] - 1);
    for (int i = 0; i < t->n_seg; i++) {
        if (t->seg[i].kind == FEAT_MONASTERY || t->seg[i].kind == FEAT_GARDEN) {
            *kind = t->seg[i].kind;
            return;
        }
    }
}

bool fl_flight_target(const struct move *place, int roll, struct pos *out)
{
    if (place->tile < 0)
        return false;
    const struct tile_def *t = tile_get(place->tile);
    if (t->flier_dir == NO_FLIER)
        return false;
    int dir = (t->flier_dir + 2 * place->rot) % 8; /* turns with the tile */
    *out = game_flight_target(place->at, dir, roll);
    return true;
}

int fl_default_seat(const struct fl_ctx *c, int player, int turns)
{
    if (player >= 0)
        return player;
    if (turns > 0 && c->setup->rules.n_players > 0)
        return (turns - 1) % c->setup->rules.n_players;
    return -1;
}

/* ---- one turn entry ----------------------------------------------------- */

struct move *fl_push(const struct fl_entry *en, int kind, int player)
{
    struct move *m = game_log_push(en->into);
    m->kind = (uint8_t)kind;
    m->player = (int8_t)player;
    m->src = en->src;
    return m;
}

/* A move as game_log_push() starts one: nothing known. */
struct move fl_blank(void)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.player = -1;
    m.tile = -1;
    m.meeple_owner = -1;
    m.draw = -1.0;
    return m;
}

/* Appends m as a move of kind by the entry's player. */
void fl_emit(const struct fl_entry *en, int kind, const struct move *m)
{
    struct move *to = game_log_push(en->into);
    *to = *m;
    to->kind = (uint8_t)kind;
    to->player = (int8_t)en->player;
    to->src = en->src;
}

static enum status get_tile(const struct fl_ctx *c, const cJSON *v,
                            const char *path, struct move *m, struct err *e)
{
    const char *id;
    if (get_str(c, v, path, &id, e))
        return e->code;
    mlog_copy_text(m->tile_id, sizeof m->tile_id, id);
    /* an unknown tile is the auditor's TILE_UNKNOWN */
    m->tile = (int16_t)(strlen(id) < sizeof m->tile_id ? tile_find(id) : -1);
    return ST_OK;
}

int fl_figure_find(const char *name)
{
    return strcmp(name, "follower") == 0 ? FIG_SMALL : figure_find(name);
}

const char *fl_figure_name(int fig)
{
    return fig == FIG_SMALL ? "follower" : figure_class(fig)->jcz;
}

enum status fl_get_meeple(const struct fl_ctx *c, const cJSON *obj,
                              const char *path, int kind, int owner, int n,
                              struct move *m, struct err *e)
{
    char s[FL_PATH], where[FL_PATH];
    const cJSON *k = get(obj, "meeple"), *id = get(obj, "meeple_id");
    const char *name;
    m->meeple = (uint8_t)kind;
    m->meeple_owner = (int8_t)owner;
    m->meeple_n = (uint8_t)n;
    if (k) {
        if (get_str(c, k, fl_sub(s, path, "meeple"), &name, e))
            return e->code;
        int fig = fl_figure_find(name);
        const char *exp = fig < 0 ? expansion_unsupported(name) : NULL;
        if (exp)
            return unsupported(c, e, s, "meeple '%.40s' belongs to %s, not "
                               "audited yet", name, exp);
        if (fig < 0)
            return unsupported(c, e, s, "meeple '%.40s'", name);
        m->meeple = (uint8_t)fig;
    }
    if (!id)
        return ST_OK;
    struct move w = *m;
    if (get_str(c, id, fl_sub(s, path, "meeple_id"), &name, e))
        return e->code;
    if (c->line <= 0 || snprintf(where, sizeof where, "line %d: %s", c->line,
                                 s) >= (int)sizeof where)
        memcpy(where, s, sizeof where); /* both are FL_PATH long */
    if (mlog_meeple_id(name, where, &w, e))
        return e->code;
    /* "<seat>.<kind>.0": that seat's meeple, any one in supply (a .jcz
     * id counts from 1, so there 0 names no meeple) */
    if (strlen(name) >= 2 && strcmp(name + strlen(name) - 2, ".0") == 0)
        w.meeple_n = 0;
    if (k && w.meeple != m->meeple)
        return fl_bad(c, e, s, "'%.40s' is not the %s \"meeple\" says", name,
                      figure_class(m->meeple)->name);
    *m = w;
    return ST_OK;
}

/* A meeple id alone ("0.small.2"), onto m. */
enum status fl_get_meeple_id(const struct fl_ctx *c, const cJSON *v,
                             const char *path, struct move *m, struct err *e)
{
    const char *id;
    char where[FL_PATH];
    if (get_str(c, v, path, &id, e))
        return e->code;
    if (c->line <= 0 || snprintf(where, sizeof where, "line %d: %s", c->line,
                                 path) >= (int)sizeof where)
        snprintf(where, sizeof where, "%s", path);
    return mlog_meeple_id(id, where, m, e);
}

/* ---- the units' keys (fl_turn.h) ---------------------------------------- */

/* The units' actions, in turn (i = 0, 1, ... until NULL). */
static const struct fl_action *action_at(int i)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        for (const struct fl_action *a = (*u)->actions; a && a->key; a++)
            if (i-- == 0)
                return a;
    return NULL;
}

/* The action keys as a message lists them, "deploy, fly or recall" (and
 * for "and"), those that move a meeple only if meeples. */
static const char *action_list(char *out, size_t len, const char *and,
                               bool meeples)
{
    const char *last = NULL;
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; action_at(i); i++) {
        const struct fl_action *a = action_at(i);
        if (meeples && !a->meeple)
            continue;
        if (last && n < len)
            n +=
                (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", last);
        last = a->key;
    }
    if (last && n < len)
        snprintf(out + n, len - n, "%s%s", n ? and : "", last);
    return out;
}

/* The entry's action, NULL if none; false when it has two. Another
 * action's own key ("capture") without that action is an error too. */
static enum status find_action(const struct fl_entry *en, const cJSON *obj,
                               const struct fl_action **out, struct err *e)
{
    char s[FL_PATH], list[160];
    int n = 0;
    *out = NULL;
    for (int i = 0; action_at(i); i++)
        if (get(obj, action_at(i)->key)) {
            *out = action_at(i);
            n++;
        }
    if (n > 1)
        return fl_bad(en->c, e, en->path,
                      "%s exclude each other (write the "
                      "turn as a \"moves\" list)",
                      action_list(list, sizeof list, " and ", false));
    for (int i = 0; action_at(i); i++) {
        const struct fl_action *a = action_at(i);
        if (a->with && get(obj, a->with) && *out != a)
            return fl_bad(en->c, e, fl_sub(s, en->path, a->with),
                          "a %s "
                          "follows %s (\"%s\")",
                          a->with, a->noun, a->key);
    }
    return ST_OK;
}

/* The units' keys before the action (a ransom), or after it. */
static enum status read_around(const struct fl_entry *en, const cJSON *obj,
                               bool after, struct err *e)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++) {
        enum status (*read)(const struct fl_entry *, const cJSON *,
                            struct err *) =
            after ? (*u)->read_after : (*u)->read_before;
        if (read && read(en, obj, e))
            return e->code;
    }
    return ST_OK;
}

/* The meeple the entry names for action a ("meeple", "meeple_id", by
 * the action's defaults), onto m. */
static enum status action_meeple(const struct fl_entry *en, const cJSON *obj,
                                 const struct fl_action *a, struct move *m,
                                 struct err *e)
{
    const struct fl_ctx *c = en->c;
    /* the princess's knight may be anyone's: the auditor finds it */
    int owner = a->anyones ? -1 : fl_default_seat(c, en->player, c->turns + 1);
    int kind, n;
    fl_meeple_default(a->meeple, &kind, &n);
    return fl_get_meeple(c, obj, en->path, kind, owner, n, m, e);
}

/* The action of a placement entry, its pass and its COMMIT. */
static enum status read_action(const struct fl_entry *en, const cJSON *obj,
                               const struct move *place, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH], list[160];
    const struct fl_action *a;
    struct move m = fl_blank();
    if (find_action(en, obj, &a, e) || read_around(en, obj, false, e))
        return e->code;
    const char *key = get(obj, "meeple")      ? "meeple"
                      : get(obj, "meeple_id") ? "meeple_id"
                                              : NULL;
    if (!a && key)
        return fl_bad(c, e, fl_sub(s, en->path, key), "no %s to go with it",
                      action_list(list, sizeof list, " or ", true));
    bool pass = !a;
    if (get_bool(c, get(obj, "pass"), fl_sub(s, en->path, "pass"), &pass, e))
        return e->code;
    if (a && !a->meeple && key)
        return fl_bad(c, e, fl_sub(s, en->path, key), "%s moves no meeple",
                      a->noun);
    if (a && a->meeple && action_meeple(en, obj, a, &m, e))
        return e->code;
    if (a && a->read(en, obj, get(obj, a->key), fl_sub(s, en->path, a->key),
                     place, &m, e))
        return e->code;
    if (pass)
        fl_push(en, MV_PASS, en->player);
    if (read_around(en, obj, true, e))
        return e->code;
    fl_push(en, MV_COMMIT, en->player);
    return ST_OK;
}

/* The first key of a placement that obj has: of the list (up to NULL),
 * then the units' (their actions' and other keys); NULL when none. */
const char *fl_placement_key(const cJSON *obj, const char *const *list)
{
    for (; *list; list++)
        if (get(obj, *list))
            return *list;
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++) {
        for (const struct fl_action *a = (*u)->actions; a && a->key; a++)
            if (get(obj, a->key))
                return a->key;
        for (const char *const *k = (*u)->keys; k && *k; k++)
            if (get(obj, *k))
                return *k;
    }
    return NULL;
}

static const char *const not_on_discard[] = {
    "at", "rot", "pass", "meeple", "meeple_id", "part", NULL,
};

static enum status read_discard(const struct fl_entry *en, const cJSON *obj,
                                struct err *e)
{
    char s[FL_PATH];
    struct move m;
    const char *key = fl_placement_key(obj, not_on_discard);
    if (key)
        return fl_bad(en->c, e, fl_sub(s, en->path, key),
                      "a discarded tile is not placed");
    memset(&m, 0, sizeof m);
    if (get_tile(en->c, get(obj, "tile"), fl_sub(s, en->path, "tile"), &m, e) ||
        get_draw(en->c, get(obj, "draw"), fl_sub(s, en->path, "draw"), &m.draw,
                 e))
        return e->code;
    struct move *d = fl_push(en, MV_DISCARD, en->player);
    snprintf(d->tile_id, sizeof d->tile_id, "%s", m.tile_id);
    d->tile = m.tile;
    d->draw = m.draw;
    return ST_OK;
}




/* "part": 1, or 2 for a builder's second tile; for readers: the auditor
 * judges the builder's right. */
static enum status check_part(const struct fl_entry *en, const cJSON *obj,
                              struct err *e)
{
    char s[FL_PATH];
    int part = 1;
    const cJSON *v = get(obj, "part");
    return v ? fl_get_int(en->c, v, fl_sub(s, en->path, "part"), 1, 2, &part, e)
             : ST_OK;
}

static enum status read_regular(const struct fl_entry *en, const cJSON *obj,
                                struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    bool discard = false, alone = false;
    struct move p;
    /* the units' moves before the draw, or all the entry says */
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        if ((*u)->read_pre && (*u)->read_pre(en, obj, &alone, e))
            return e->code;
    if (alone)
        return ST_OK;
    if (get_bool(c, get(obj, "discard"), fl_sub(s, en->path, "discard"),
                 &discard, e))
        return e->code;
    if (discard)
        return read_discard(en, obj, e);
    if (check_part(en, obj, e))
        return e->code;
    memset(&p, 0, sizeof p);
    if (get_tile(c, get(obj, "tile"), fl_sub(s, en->path, "tile"), &p, e) ||
        fl_get_pos(c, get(obj, "at"), fl_sub(s, en->path, "at"), &p.at, e) ||
        get_rot(c, get(obj, "rot"), fl_sub(s, en->path, "rot"), &p.rot, e) ||
        get_draw(c, get(obj, "draw"), fl_sub(s, en->path, "draw"), &p.draw, e))
        return e->code;
    struct move *m = fl_push(en, MV_PLACE, en->player);
    snprintf(m->tile_id, sizeof m->tile_id, "%s", p.tile_id);
    m->tile = p.tile;
    m->at = p.at;
    m->rot = p.rot;
    m->draw = p.draw;
    p = *m; /* m moves when the log grows */
    if (read_action(en, obj, &p, e))
        return e->code;
    /* the units' moves after the COMMIT, before the next tile */
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        if ((*u)->read_between && (*u)->read_between(en, obj, e))
            return e->code;
    return ST_OK;
}

/* ---- the "moves" form --------------------------------------------------- */

/* The rows' names as a message lists them: "place, ..., exchange or
 * count". */
static const char *move_names(char *out, size_t len)
{
    const char *last = NULL;
    size_t n = 0;
    out[0] = '\0';
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct move_class *c = expansion_get(u)->moves; c && c->name;
             c++) {
            if (last)
                n += (size_t)snprintf(out + (n < len ? n : len),
                                      n < len ? len - n : 0, "%s%s",
                                      n ? ", " : "", last);
            last = c->name;
        }
    if (last)
        snprintf(out + (n < len ? n : len), n < len ? len - n : 0, "%s%s",
                 n ? " or " : "", last);
    return out;
}

bool fl_next_key(const char **p, char key[16], char arg[16])
{
    size_t k = 0, a = 0;
    while (**p == ' ')
        (*p)++;
    if (!**p)
        return false;
    for (; **p && **p != ' ' && **p != '='; (*p)++)
        if (k < 15)
            key[k++] = **p;
    if (**p == '=')
        for ((*p)++; **p && **p != ' '; (*p)++)
            if (a < 15)
                arg[a++] = **p;
    key[k] = arg[a] = '\0';
    return true;
}

void fl_meeple_default(const char *arg, int *kind, int *n)
{
    char name[16];
    const char *dot = strchr(arg, '.');
    size_t len = dot ? (size_t)(dot - arg) : strlen(arg);
    *kind = FIG_SMALL;
    *n = 0;
    if (!len || len >= sizeof name)
        return;
    memcpy(name, arg, len);
    name[len] = '\0';
    int fig = fl_figure_find(name);
    *kind = fig >= 0 ? fig : FIG_SMALL;
    *n = dot ? (int)strtol(dot + 1, NULL, 10) : 0;
}
/* What reading one "moves" item gathers. */
struct fields {
    const struct fl_entry *en;
    const cJSON *o;
    const char *path;
    struct move *m;
    bool meeple, roll; /* the row has a "meeple", a "roll" */
};

static enum status fd_tile(struct fields *f, const char *arg, struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return get_tile(f->en->c, get(f->o, "tile"), fl_sub(s, f->path, "tile"),
                    f->m, e);
}

static enum status fd_at(struct fields *f, const char *arg, struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return fl_get_pos(f->en->c, get(f->o, "at"), fl_sub(s, f->path, "at"),
                      &f->m->at, e);
}

static enum status fd_rot(struct fields *f, const char *arg, struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return get_rot(f->en->c, get(f->o, "rot"), fl_sub(s, f->path, "rot"),
                   &f->m->rot, e);
}

static enum status fd_draw(struct fields *f, const char *arg, struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return get_draw(f->en->c, get(f->o, "draw"), fl_sub(s, f->path, "draw"),
                    &f->m->draw, e);
}

static enum status fd_small(struct fields *f, const char *key, int16_t *out,
                           struct err *e)
{
    char s[FL_PATH];
    int v = 0;
    enum status st = fl_get_int(f->en->c, get(f->o, key),
                                fl_sub(s, f->path, key), 0, 10000, &v, e);
    *out = (int16_t)v;
    return st;
}

static enum status fd_index(struct fields *f, const char *arg, struct err *e)
{
    (void)arg;
    return fd_small(f, "index", &f->m->index, e);
}

static enum status fd_amount(struct fields *f, const char *arg, struct err *e)
{
    (void)arg;
    return fd_small(f, "amount", &f->m->amount, e);
}

static enum status fd_segment(struct fields *f, const char *arg, struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return fl_get_segment(f->en->c, get(f->o, "segment"),
                          fl_sub(s, f->path, "segment"), &f->m->feature,
                          &f->m->mask, e);
}

/* "segment?": absent, the monastery or garden of the tile at "at". */
static enum status fd_segment_opt(struct fields *f, const char *arg,
                                  struct err *e)
{
    if (get(f->o, "segment"))
        return fd_segment(f, arg, e);
    fl_recall_segment(f->en->c, f->m->at, &f->m->feature, &f->m->mask);
    return ST_OK;
}

/* A move naming no player leaves the figure's owner open (the auditor's
 * default: the seat on turn, or the waiting wagon). */
static enum status fd_meeple(struct fields *f, const char *arg, struct err *e)
{
    int kind, n;
    struct move *m = f->m;
    uint8_t k = m->kind;
    int8_t player = m->player;
    fl_meeple_default(arg, &kind, &n);
    f->meeple = true;
    if (fl_get_meeple(f->en->c, f->o, f->path, kind, m->player, n, m, e))
        return e->code;
    m->kind = k;
    m->player = player;
    return ST_OK;
}

static enum status fd_meeple_id(struct fields *f, const char *arg,
                                struct err *e)
{
    char s[FL_PATH];
    (void)arg;
    return fl_get_meeple_id(f->en->c, get(f->o, "meeple_id"),
                            fl_sub(s, f->path, "meeple_id"), f->m, e);
}

static enum status fd_roll(struct fields *f, const char *arg, struct err *e)
{
    (void)arg, (void)e;
    f->roll = true;
    return ST_OK;
}

/* A flight's "roll" and "random", after the other fields: only a move
 * that may fly, onto the flying machine, has them. */
static enum status fd_flight(struct fields *f, struct err *e)
{
    const struct fl_ctx *c = f->en->c;
    char s[FL_PATH];
    struct move *m = f->m;
    const cJSON *roll = get(f->o, "roll"), *rnd = get(f->o, "random");
    if (!f->meeple && !f->roll)
        return ST_OK;
    if (!f->roll || m->feature != FEAT_FLIER) {
        if (roll || rnd)
            return fl_bad(c, e, fl_sub(s, f->path, roll ? "roll" : "random"),
                          "only a flight (segment \"flier\") has a roll");
        return ST_OK;
    }
    if (roll && fl_get_int(c, roll, fl_sub(s, f->path, "roll"), -FL_NUM_MAX,
                           FL_NUM_MAX, &m->roll, e))
        return e->code;
    if (!rnd)
        return ST_OK;
    if (!cJSON_IsNumber(rnd) || !mlog_random_ok(rnd->valuedouble) ||
        mlog_roll_of(rnd->valuedouble) != m->roll)
        return fl_bad(c, e, fl_sub(s, f->path, "random"),
                      "expected a number that "
                      "rolls %d",
                      m->roll);
    m->draw = mlog_flight_draw(rnd->valuedouble, m->roll);
    return ST_OK;
}

/* The keys a row's fields may have (core/move.h). */
static const struct field_key {
    const char *key;
    enum status (*read)(struct fields *f, const char *arg, struct err *e);
} field_keys[] = {
    {"tile", fd_tile},       {"at", fd_at},
    {"rot", fd_rot},         {"draw", fd_draw},
    {"segment", fd_segment}, {"segment?", fd_segment_opt},
    {"meeple", fd_meeple},   {"meeple_id", fd_meeple_id},
    {"roll", fd_roll},       {"index", fd_index},
    {"amount", fd_amount},
};

/* The fields of o by the row's keys, onto m. */
static enum status read_fields(const struct fl_entry *en, const cJSON *o,
                               const char *path, const struct move_class *row,
                               struct move *m, struct err *e)
{
    struct fields f = {en, o, path, m, false, false};
    char key[16], arg[16];
    const char *p = row->fl_fields ? row->fl_fields : "";
    while (fl_next_key(&p, key, arg)) {
        size_t k = 0;
        while (k < N_KEYS(field_keys) && strcmp(field_keys[k].key, key) != 0)
            k++;
        if (k == N_KEYS(field_keys))
            abort(); /* a row's key no reader knows: test_moves names it */
        if (field_keys[k].read(&f, arg, e))
            return e->code;
    }
    return fd_flight(&f, e);
}

static enum status read_move(const struct fl_entry *en, const cJSON *o,
                             const char *path, int *turns, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH], names[320];
    const char *name;
    if (!cJSON_IsObject(o))
        return fl_bad(c, e, path, "expected an object");
    if (get_str(c, get(o, "move"), fl_sub(s, path, "move"), &name, e))
        return e->code;
    const struct move_class *row = move_class_named(name);
    if (!row)
        return fl_bad(c, e, s, "'%.40s' is not %s", name,
                      move_names(names, sizeof names));
    struct move m = fl_blank();
    m.kind = row->kind;
    m.neutral = row->neutral;
    m.feature = row->feature;
    int player = en->player;
    if (get(o, "player") &&
        fl_get_seat(c, get(o, "player"), fl_sub(s, path, "player"), &player, e))
        return e->code;
    m.player = (int8_t)player;
    if (read_fields(en, o, path, row, &m, e))
        return e->code;
    *turns += m.kind == MV_PLACE;
    struct move *to = fl_push(en, m.kind, player);
    m.src = to->src;
    *to = m;
    return ST_OK;
}

static enum status read_moves(const struct fl_entry *en, const cJSON *list,
                              struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *o;
    int i = 0, turns = en->c->turns;
    fl_sub(s, en->path, "moves");
    if (!cJSON_IsArray(list))
        return fl_bad(en->c, e, s, "expected an array of moves");
    cJSON_ArrayForEach(o, list) {
        if (read_move(en, o, fl_nth(t, s, i++), &turns, e))
            return e->code;
    }
    return ST_OK;
}

/* What an entry of a unit's without a tile is called ("an abbey
 * declined"). */
static const char *alone_name(const cJSON *obj)
{
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        for (const char *const *k = (*u)->entry_keys; k && *k; k++)
            if ((*u)->alone && get(obj, *k))
                return (*u)->alone;
    return "an entry without a tile";
}

/* "tile", or a unit's key of an entry between turns, if obj has one: a
 * "moves" list says them itself. */
static const char *between_key(const cJSON *obj)
{
    if (get(obj, "tile"))
        return "tile";
    for (const struct fl_turn_unit *const *u = fl_turn_units; *u; u++)
        for (const char *const *k = (*u)->entry_keys; k && *k; k++)
            if (get(obj, *k))
                return *k;
    return NULL;
}

/* "turn", if given, is the running count of placements. */
static enum status check_turn(const struct fl_entry *en, const cJSON *obj,
                              size_t first, struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = get(obj, "turn");
    int want = en->c->turns, got = 0;
    bool placed = false;
    if (!v)
        return ST_OK;
    for (size_t i = first; i < en->into->n_moves; i++) {
        want += en->into->moves[i].kind == MV_PLACE;
        placed |= en->into->moves[i].kind == MV_PLACE;
    }
    fl_sub(s, en->path, "turn");
    if (!placed && !get(obj, "moves") && get(obj, "tile"))
        return fl_bad(en->c, e, s, "a discarded tile is not a turn");
    if (!placed && !get(obj, "moves"))
        return fl_bad(en->c, e, s, "%s is not a turn", alone_name(obj));
    if (fl_get_int(en->c, v, s, 0, FL_NUM_MAX, &got, e))
        return e->code;
    if (got != want)
        return fl_bad(en->c, e, s,
                      "%d, but the placements so far make this "
                      "turn %d",
                      got, want);
    return ST_OK;
}

enum status fl_entry_moves(const struct fl_ctx *c, const cJSON *obj,
                           const char *path, uint32_t src,
                           struct game_log *into, struct err *e)
{
    char s[FL_PATH];
    struct fl_entry en = {c, path, src, -1, into};
    size_t first = into->n_moves;
    const cJSON *moves = get(obj, "moves");
    if (!cJSON_IsObject(obj))
        return fl_bad(c, e, path, "expected an object");
    if (get(obj, "player") &&
        fl_get_seat(c, get(obj, "player"), fl_sub(s, path, "player"), &en.player,
                 e))
        return e->code;
    const char *key = moves ? between_key(obj) : NULL;
    if (key)
        return fl_bad(c, e, path, "\"moves\" and \"%s\" exclude each other",
                      key);
    if (moves && check_part(&en, obj, e))
        return e->code;
    if (moves ? read_moves(&en, moves, e) : read_regular(&en, obj, e))
        return e->code;
    return check_turn(&en, obj, first, e);
}

/* ---- claims, totals, notes ---------------------------------------------- */

/* Does a score event of kind f exist (its class scores or explains a
 * score: a tower, a flying machine, a river never score)? */
static bool scores(int f)
{
    return feature_class(f)->score || feature_class(f)->explain;
}

/* "road, city, field, monastery, garden, ...": the kinds that score, as
 * many as leave the message room for its path (an error message holds
 * ERR_MSG_MAX bytes, and every unit may add kinds): "..." ends a list cut
 * short, between names, never inside one. */
enum { CLAIMABLE_ROOM = 170 };
static const char *claimable_names(char *out, size_t len)
{
    size_t n = 0, room = len < CLAIMABLE_ROOM ? len : CLAIMABLE_ROOM;
    int last = 0, k = 0;
    for (int f = 1; f < FEAT__CLASSES; f++)
        if (scores(f))
            last = f;
    out[0] = '\0';
    for (int f = 1; f < FEAT__CLASSES; f++) {
        if (!scores(f))
            continue;
        const char *sep = k++ == 0 ? "" : f == last ? " or " : ", ";
        if (n + strlen(sep) + strlen(feat_name(f)) + 5 >= room) {
            snprintf(out + n, len - n, ", ...");
            break;
        }
        n += (size_t)snprintf(out + n, len - n, "%s%s", sep, feat_name(f));
    }
    return out;
}

static enum status read_claim(const struct fl_ctx *c, const cJSON *o,
                              const char *path, int turn, uint32_t src,
                              struct game_log *l, struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *who, *it;
    const char *feat;
    int seat, i = 0, points = 0;
    uint8_t players = 0;
    if (!cJSON_IsObject(o))
        return fl_bad(c, e, path,
                      "expected {\"players\", \"feature\", "
                      "\"points\"}");
    who = get(o, "players");
    fl_sub(s, path, "players");
    if (!cJSON_IsArray(who))
        return fl_bad(c, e, s, who ? "expected an array" : "missing");
    cJSON_ArrayForEach(it, who) {
        if (fl_get_seat(c, it, fl_nth(t, s, i++), &seat, e))
            return e->code;
        players |= (uint8_t)(1u << seat);
    }
    if (get_str(c, get(o, "feature"), fl_sub(s, path, "feature"), &feat, e))
        return e->code;
    int f = feat_by_name(feat, strlen(feat));
    for (int k = FEAT__COUNT; f == FEAT_NONE && k < FEAT__CLASSES; k++)
        if (strcmp(feat_name(k), feat) == 0)
            f = k; /* a score class: what players hold, scored at the end */
    if (!scores(f)) {
        char kinds[FL_PATH];
        return fl_bad(c, e, s, "'%.40s' is not %s", feat,
                      claimable_names(kinds, sizeof kinds));
    }
    if (fl_get_int(c, get(o, "points"), fl_sub(s, path, "points"), -FL_NUM_MAX,
                   FL_NUM_MAX, &points, e))
        return e->code;
    struct claim_event *ce = game_log_push_claim(l);
    *ce = (struct claim_event){ turn, players, (uint8_t)f, points, src };
    return ST_OK;
}

static enum status read_claims(const struct fl_ctx *c, const cJSON *v,
                               const char *path, int turn, uint32_t src,
                               struct game_log *l, struct err *e)
{
    char s[FL_PATH];
    const cJSON *o;
    int i = 0;
    if (!cJSON_IsArray(v))
        return fl_bad(c, e, path, "expected an array of claims");
    cJSON_ArrayForEach(o, v) {
        if (read_claim(c, o, fl_nth(s, path, i++), turn, src, l, e))
            return e->code;
    }
    return ST_OK;
}

/* {"Ada": 12, "Ben": 9} or [12, 9] in seat order (null: not claimed). */
static enum status read_totals(const struct fl_ctx *c, const cJSON *v,
                               const char *path, int turn, uint32_t src,
                               struct game_log *l, struct err *e)
{
    char s[FL_PATH];
    const cJSON *it;
    struct claim_total t = { .turn = turn, .src = src };
    int seat = 0;
    if (cJSON_IsArray(v) && cJSON_GetArraySize(v) <= l->rules.n_players) {
        cJSON_ArrayForEach(it, v) {
            if (!cJSON_IsNull(it) &&
                fl_get_int(c, it, fl_nth(s, path, seat), -FL_NUM_MAX,
                           FL_NUM_MAX, &t.score[seat], e))
                return e->code;
            t.seats |= (uint8_t)(!cJSON_IsNull(it) << seat);
            seat++;
        }
    } else if (cJSON_IsObject(v)) {
        cJSON_ArrayForEach(it, v) {
            fl_sub(s, path, it->string);
            if (seat_by_name(c, it->string, s, &seat, e) ||
                fl_get_int(c, it, s, -FL_NUM_MAX, FL_NUM_MAX, &t.score[seat],
                           e))
                return e->code;
            t.seats |= (uint8_t)(1u << seat);
        }
    } else {
        return fl_bad(c, e, path,
                      "expected {\"<name>\": points, ...} or one "
                      "number (or null) per seat");
    }
    *game_log_push_total(l) = t;
    return ST_OK;
}

/* "time" and "note" of an entry, or "time" and "text" of an item of a
 * note list (which is a note even with neither). */
static enum status read_note(const struct fl_ctx *c, const cJSON *o,
                             const char *path, const char *text_key,
                             int turn, struct game_log *l, struct err *e)
{
    bool listed = strcmp(text_key, "text") == 0;
    char s[FL_PATH];
    const char *time = NULL, *text = NULL;
    const cJSON *tv = get(o, "time"), *xv = get(o, text_key);
    if ((tv && get_str(c, tv, fl_sub(s, path, "time"), &time, e)) ||
        (xv && get_str(c, xv, fl_sub(s, path, text_key), &text, e)))
        return e->code;
    if (time || text || listed)
        game_log_add_note(l, turn, time, text);
    return ST_OK;
}

static enum status read_extras(const struct fl_ctx *c, const cJSON *o,
                               const char *path, int turn, uint32_t src,
                               struct game_log *l, struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = get(o, "claims");
    if (v && read_claims(c, v, fl_sub(s, path, "claims"), turn, src, l, e))
        return e->code;
    v = get(o, "totals");
    if (v && read_totals(c, v, fl_sub(s, path, "totals"), turn, src, l, e))
        return e->code;
    return read_note(c, o, path, "note", turn, l, e);
}

/* A list whose items name their turn: {"turn": t, ...}, -1 = final. */
static enum status list_turn(const struct fl_ctx *c, const cJSON *o,
                             const char *path, int *turn, struct err *e)
{
    char s[FL_PATH];
    if (!cJSON_IsObject(o))
        return fl_bad(c, e, path, "expected an object");
    return fl_get_int(c, get(o, "turn"), fl_sub(s, path, "turn"), -1,
                      FL_NUM_MAX, turn, e);
}

enum status fl_read_claim_list(const struct fl_ctx *c, const cJSON *v,
                               const char *path, struct game_log *l,
                               struct err *e)
{
    char s[FL_PATH];
    const cJSON *o;
    int i = 0, turn = 0;
    if (!cJSON_IsArray(v))
        return fl_bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        fl_nth(s, path, i);
        if (list_turn(c, o, s, &turn, e) ||
            read_claim(c, o, s, turn, (uint32_t)i, l, e))
            return e->code;
        i++;
    }
    return ST_OK;
}

enum status fl_read_total_list(const struct fl_ctx *c, const cJSON *v,
                               const char *path, struct game_log *l,
                               struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *o;
    int i = 0, turn = 0;
    if (!cJSON_IsArray(v))
        return fl_bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        fl_nth(s, path, i);
        if (list_turn(c, o, s, &turn, e))
            return e->code;
        if (!get(o, "scores"))
            return fl_bad(c, e, fl_sub(t, s, "scores"), "missing");
        if (read_totals(c, get(o, "scores"), fl_sub(t, s, "scores"), turn,
                        (uint32_t)i, l, e))
            return e->code;
        i++;
    }
    return ST_OK;
}

enum status fl_read_note_list(const struct fl_ctx *c, const cJSON *v,
                              const char *path, struct game_log *l,
                              struct err *e)
{
    char s[FL_PATH];
    const cJSON *o;
    int i = 0, turn = 0;
    if (!cJSON_IsArray(v))
        return fl_bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        fl_nth(s, path, i++);
        if (list_turn(c, o, s, &turn, e) ||
            read_note(c, o, s, "text", turn, l, e))
            return e->code;
    }
    return ST_OK;
}

/* ---- the setup ---------------------------------------------------------- */

/* "flierlog/1" or "flierlog/1.<minor>". */
static enum status read_format(const struct fl_ctx *c, const cJSON *root,
                               struct err *e)
{
    const char *s;
    char *end;
    if (get_str(c, get(root, "format"), "format", &s, e))
        return e->code;
    if (strncmp(s, "flierlog/", 9) != 0 || s[9] < '0' || s[9] > '9')
        return err_set(e, ST_UNSUPPORTED, "unsupported: format '%.40s' (this "
                       "flierd reads flierlog/1)", s);
    long major = strtol(s + 9, &end, 10);
    if (*end == '.' && end[1] != '\0') /* a minor version: 1.2, 1.x */
        end += strlen(end);
    if (*end != '\0' || major != 1)
        return err_set(e, ST_UNSUPPORTED, "unsupported: %.40s (this flierd "
                       "reads flierlog/1)", s);
    return ST_OK;
}

void fl_edition_rules(bool c3, struct rules *r)
{
    memset(r->set_copies, 0, sizeof r->set_copies);
    memset(r->figures, 0, sizeof r->figures);
    memset(r->counts, 0, sizeof r->counts);
    r->set_copies[tile_set_find(c3 ? "basic:2" : "basic:1")] = 1;
    r->set_copies[tile_set_find(c3 ? "flier:2" : "flier:1")] = 1;
    r->figures[FIG_SMALL] = 7;
    r->figures[FIG_ABBOT] = c3;
    r->flags = RF_FARMERS | (c3 ? RF_GARDENS : 0);
    for (int o = 0; o < OPT__COUNT; o++)
        r->opt[o] = option_default(o);
}

static enum status read_sets(const struct fl_ctx *c, const cJSON *sets,
                             struct rules *r, struct err *e)
{
    char s[FL_PATH];
    const cJSON *it;
    if (!cJSON_IsObject(sets))
        return fl_bad(c, e, "sets", "expected {\"<set id>\": copies}");
    memset(r->set_copies, 0, sizeof r->set_copies);
    cJSON_ArrayForEach(it, sets) {
        int idx = tile_set_find(it->string), n = 0;
        const char *name = idx < 0 ? expansion_unsupported(it->string)
                                   : NULL;
        if (name)
            return unsupported(c, e, "sets", "%s (tile set '%.40s') is not "
                               "audited yet", name, it->string);
        if (idx < 0)
            return unsupported(c, e, "sets", "tile set '%.40s' belongs to an "
                               "expansion flierd does not know", it->string);
        if (fl_get_int(c, it, fl_sub(s, "sets", it->string), 0,
                       GAME_MAX_SET_COPIES, &n, e))
            return e->code;
        r->set_copies[idx] = (uint8_t)n;
    }
    if (game_pack_size(r) > GAME_MAX_TILES - 1)
        return err_set(e, ST_LIMIT, "sets: %d tiles is more than the %d a "
                       "game may hold", game_pack_size(r), GAME_MAX_TILES - 1);
    return ST_OK;
}

/* "2 or 4", "\"C1\" or \"C2\"": the values option o may take, as
 * read_rules() reads them (a name that is a number without quotes). */
static const char *fl_option_values(int o, char *out, size_t len)
{
    const char *names[16];
    int n = 0;
    size_t k = 0;
    for (int v = 0; v < 16; v++)
        if (option_value_name(o, v))
            names[n++] = option_value_name(o, v);
    out[0] = '\0';
    for (int i = 0; i < n && k < len; i++) {
        bool number = names[i][strspn(names[i], "0123456789")] == '\0';
        k += (size_t)snprintf(out + k, len - k, "%s%s%s%s",
                              i == 0 ? "" : i == n - 1 ? " or " : ", ",
                              number ? "" : "\"", names[i],
                              number ? "" : "\"");
    }
    return out;
}

/* "rules": the variants of the options table, each as JCloisterZone's
 * value ("C1") or, for a value that is a number ("2"), that number. */
static enum status read_rules(const struct fl_ctx *c, const cJSON *v,
                              struct rules *r, struct err *e)
{
    char s[FL_PATH], num[24], values[48];
    const cJSON *it;
    if (!cJSON_IsObject(v))
        return fl_bad(c, e, "rules", "expected an object");
    cJSON_ArrayForEach(it, v) {
        int o = option_find(it->string), n = -1;
        if (o < 0)
            return unsupported(c, e, "rules", "rule '%.60s'", it->string);
        if (cJSON_IsString(it))
            n = option_parse(o, it->valuestring);
        else if (cJSON_IsNumber(it) && it->valuedouble >= -1e6 &&
                 it->valuedouble <= 1e6 &&
                 it->valuedouble == (int)it->valuedouble) {
            snprintf(num, sizeof num, "%d", (int)it->valuedouble);
            n = option_parse(o, num);
        }
        if (n < 0)
            return unsupported(c, e, fl_sub(s, "rules", it->string),
                               "value of rule '%s'; expected %s", option_key(o),
                               fl_option_values(o, values, sizeof values));
        r->opt[o] = n;
    }
    return ST_OK;
}

/* flierlog/1.0's keys for elements, and the elements they stand for. */
static const char *const legacy_keys[][2] = {
    { "followers", "small-follower" },
    { "farmers", "farmers" },
    { "abbot", "abbot" },
    { "gardens", "garden" },
};

const char *fl_legacy_key(int i, const char **element)
{
    if (i < 0 || (size_t)i >= sizeof legacy_keys / sizeof legacy_keys[0])
        return NULL;
    *element = legacy_keys[i][1];
    return legacy_keys[i][0];
}

bool fl_figure_in_1_0(int fig)
{
    return fig == FIG_SMALL || fig == FIG_ABBOT;
}

/* Switched off: false, 0 or null (an element flierd need not know). */
static bool element_off(const cJSON *v)
{
    return cJSON_IsFalse(v) || cJSON_IsNull(v) ||
           (cJSON_IsNumber(v) && v->valuedouble == 0);
}

/* One member of "elements", by the units' element tables: a number of
 * figures per player (true: 1, false: 0) or a switch (true / false, or
 * JCloisterZone's 1 / 0). */
static enum status read_element(const struct fl_ctx *c, const cJSON *root,
                                const cJSON *it, struct rules *r,
                                struct err *e)
{
    char s[FL_PATH];
    const char *k = it->string;
    const struct element *el = element_find(k, NULL);
    const char *other = el ? NULL : expansion_unsupported(k);
    int n = 0;
    fl_sub(s, "elements", k);
    if (!el && element_off(it))
        return ST_OK; /* switched off: nothing to model */
    if (other)
        return unsupported(c, e, s, "%s (game element '%.40s') is not "
                           "audited yet", other, k);
    if (!el)
        return unsupported(c, e, s, "game element '%.40s' belongs to an "
                           "expansion flierd does not model", k);
    for (size_t i = 0; i < sizeof legacy_keys / sizeof legacy_keys[0]; i++)
        if (strcmp(legacy_keys[i][1], k) == 0 && get(root, legacy_keys[i][0]))
            return fl_bad(c, e, s, "\"%s\" says the same; give one of them",
                          legacy_keys[i][0]);
    if (cJSON_IsBool(it))
        n = cJSON_IsTrue(it);
    else if (el->kind == EL_FLAG && !(cJSON_IsNumber(it) &&
                                      (it->valuedouble == 0 ||
                                       it->valuedouble == 1)))
        return fl_bad(c, e, s, "expected true or false (or 1 or 0)");
    else if (fl_get_int(c, it, s, 0, el->max, &n, e))
        return e->code;
    element_set(r, el, n);
    return ST_OK;
}

static enum status read_elements(const struct fl_ctx *c, const cJSON *root,
                                 struct rules *r, struct err *e)
{
    const cJSON *v = get(root, "elements"), *it;
    if (!v)
        return ST_OK;
    if (!cJSON_IsObject(v))
        return fl_bad(c, e, "elements",
                      "expected {\"<element>\": count, "
                      "\"<switch>\": true, ...}");
    cJSON_ArrayForEach(it, v) {
        if (read_element(c, root, it, r, e))
            return e->code;
    }
    return ST_OK;
}

static enum status read_edition(const struct fl_ctx *c, const cJSON *root,
                                struct rules *r, struct err *e)
{
    const char *ed;
    const cJSON *v = get(root, "edition");
    if (!v)
        return fl_bad(c, e, "edition", "missing (\"C2\" or \"C3\")");
    if (get_str(c, v, "edition", &ed, e))
        return e->code;
    if (strcmp(ed, "C2") != 0 && strcmp(ed, "C3") != 0)
        return unsupported(c, e, "edition", "edition '%.20s'; flierd knows "
                           "C2 and C3", ed);
    fl_edition_rules(ed[1] == '3', r);
    int followers = r->figures[FIG_SMALL], abbots = r->figures[FIG_ABBOT];
    bool farmers = (r->flags & RF_FARMERS) != 0;
    bool gardens = (r->flags & RF_GARDENS) != 0;
    if ((get(root, "sets") && read_sets(c, get(root, "sets"), r, e)) ||
        (get(root, "followers") &&
         fl_get_int(c, get(root, "followers"), "followers", 0,
                    GAME_MAX_FOLLOWERS, &followers, e)) ||
        get_bool(c, get(root, "farmers"), "farmers", &farmers, e) ||
        get_bool(c, get(root, "gardens"), "gardens", &gardens, e) ||
        (get(root, "rules") && read_rules(c, get(root, "rules"), r, e)))
        return e->code;
    v = get(root, "abbot"); /* true / false, or JCloisterZone's 0 / 1 */
    if (cJSON_IsNumber(v)) {
        if (fl_get_int(c, v, "abbot", 0, 1, &abbots, e))
            return e->code;
    } else {
        bool abbot = abbots != 0;
        if (get_bool(c, v, "abbot", &abbot, e))
            return e->code;
        abbots = abbot;
    }
    r->figures[FIG_SMALL] = (uint8_t)followers;
    r->figures[FIG_ABBOT] = (uint8_t)abbots;
    r->flags = (r->flags & ~(uint32_t)(RF_FARMERS | RF_GARDENS)) |
               (farmers ? RF_FARMERS : 0) | (gardens ? RF_GARDENS : 0);
    if (read_elements(c, root, r, e))
        return e->code;
    /* the variants it does not name: as the rule pages have them */
    for (int o = 0; o < OPT__COUNT; o++)
        if (!get(get(root, "rules"), option_key(o)))
            r->opt[o] = option_log_default(r, o);
    return ST_OK;
}

/* One start tile {"tile", "at", "rot"} at path. */
static enum status read_start_tile(const struct fl_ctx *c, const cJSON *v,
                                   const char *path, struct start_place *sp,
                                   struct err *e)
{
    char s[FL_PATH];
    const char *id;
    uint8_t rot = 0;
    sp->at = (struct pos){ 0, 0 };
    if (!cJSON_IsObject(v))
        return fl_bad(c, e, path, "expected {\"tile\", \"at\", \"rot\"}");
    if (get_str(c, get(v, "tile"), fl_sub(s, path, "tile"), &id, e))
        return e->code;
    sp->tile = (int16_t)tile_find(id);
    if (sp->tile < 0)
        return unsupported(c, e, s, "start tile '%.40s'", id);
    if (get(v, "at") &&
        fl_get_pos(c, get(v, "at"), fl_sub(s, path, "at"), &sp->at, e))
        return e->code;
    if (sp->at.x < -100 || sp->at.x > 100 || sp->at.y < -100 ||
        sp->at.y > 100)
        return fl_bad(c, e, fl_sub(s, path, "at"),
                      "expected x and y in -100..100");
    if (get_rot(c, get(v, "rot"), fl_sub(s, path, "rot"), &rot, e))
        return e->code;
    sp->rot = rot;
    return ST_OK;
}

/* "start": one tile, or (1.3) a list of them, each on its own square
 * (the City of Carcassonne's twelve). */
static enum status read_start(const struct fl_ctx *c, const cJSON *v,
                              struct game_log *l, struct err *e)
{
    char s[FL_PATH];
    l->start_tile = tile_find("BA/RCr");
    l->start_at = (struct pos){ 0, 0 };
    l->start_rot = 0;
    if (!v)
        return ST_OK;
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : 1;
    if (n < 1 || n > LOG_MAX_STARTS)
        return fl_bad(c, e, "start", "expected 1 to %d start tiles",
                      LOG_MAX_STARTS);
    for (int i = 0; i < n; i++) {
        struct start_place sp;
        const cJSON *t = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, i) : v;
        if (read_start_tile(c, t,
                            cJSON_IsArray(v) ? fl_nth(s, "start", i) : "start",
                            &sp, e))
            return e->code;
        for (int k = 0; k < i; k++) {
            struct start_place o = game_log_start(l, k);
            if (o.at.x == sp.at.x && o.at.y == sp.at.y)
                return fl_bad(c, e, s, "(%d,%d) already holds a start tile",
                              sp.at.x, sp.at.y);
        }
        if (i == 0) {
            l->start_tile = sp.tile;
            l->start_at = sp.at;
            l->start_rot = sp.rot;
        } else {
            l->more_starts[l->n_more_starts++] = sp;
        }
    }
    return ST_OK;
}

static enum status read_players(const struct fl_ctx *c, const cJSON *v,
                                struct game_log *l, struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *pl;
    const char *name, *color;
    int i = 0;
    if (!v)
        return fl_bad(c, e, "players", "missing");
    if (!cJSON_IsArray(v))
        return fl_bad(c, e, "players", "expected an array of {\"name\"}");
    int n = cJSON_GetArraySize(v);
    if (n < 1 || n > GAME_MAX_PLAYERS)
        return unsupported(c, e, "players", "%d players (flierd audits games "
                           "of 1 to %d)", n, GAME_MAX_PLAYERS);
    l->rules.n_players = n;
    cJSON_ArrayForEach(pl, v) {
        fl_nth(s, "players", i);
        if (!cJSON_IsObject(pl))
            return fl_bad(c, e, s, "expected {\"name\": ...}");
        if (get_str(c, get(pl, "name"), fl_sub(t, s, "name"), &name, e))
            return e->code;
        if (strlen(name) >= sizeof l->names[i])
            return fl_bad(c, e, t, "longer than %zu bytes",
                          sizeof l->names[i] - 1);
        snprintf(l->names[i], sizeof l->names[i], "%s", name);
        if (get(pl, "color")) {
            if (get_str(c, get(pl, "color"), fl_sub(t, s, "color"), &color, e))
                return e->code;
            if (strlen(color) >= sizeof l->colors[i])
                return fl_bad(c, e, t, "longer than %zu bytes",
                              sizeof l->colors[i] - 1);
            snprintf(l->colors[i], sizeof l->colors[i], "%s", color);
        }
        i++;
    }
    return ST_OK;
}

/* Everything but the entries: the setup and the fallback lists. */
static enum status read_header(struct fl_ctx *c, const cJSON *root,
                               struct game_log *l, struct err *e)
{
    const cJSON *v;
    if (read_format(c, root, e) || read_edition(c, root, &l->rules, e) ||
        read_players(c, get(root, "players"), l, e) ||
        read_start(c, get(root, "start"), l, e))
        return e->code;
    v = get(root, "claims");
    if (v && fl_read_claim_list(c, v, "claims", l, e))
        return e->code;
    v = get(root, "totals");
    if (v && fl_read_total_list(c, v, "totals", l, e))
        return e->code;
    v = get(root, "notes");
    if (v && fl_read_note_list(c, v, "notes", l, e))
        return e->code;
    return ST_OK;
}

/* "end_turn" if given (null: none), else the end "final" implies; and
 * "end_draw", the random number the last COMMIT of a .jcz save handed
 * on, which no tile's "draw" keeps. */
static enum status read_end(const struct fl_ctx *c, const cJSON *root,
                            bool final, struct game_log *l, struct err *e)
{
    if (get_draw(c, get(root, "end_draw"), "end_draw", &l->end_draw, e))
        return e->code;
    const cJSON *v = get(root, "end_turn");
    l->end_turn = final ? c->turns : -1;
    if (!v)
        return ST_OK;
    if (cJSON_IsNull(v)) {
        l->end_turn = -1;
        return ST_OK;
    }
    return fl_get_int(c, v, "end_turn", 0, FL_NUM_MAX, &l->end_turn, e);
}

/* One entry: its moves into l, the board, then its claims and notes. */
static enum status read_entry(struct fl_ctx *c, const cJSON *o, uint32_t i,
                              struct game_log *l, struct err *e)
{
    char path[FL_PATH];
    size_t first = l->n_moves;
    snprintf(path, sizeof path, "turns[%u]", i);
    if (fl_entry_moves(c, o, path, i, l, e))
        return e->code;
    for (size_t k = first; k < l->n_moves; k++)
        fl_ctx_apply(c, &l->moves[k]);
    return read_extras(c, o, path, c->turns, i, l, e);
}

static enum status read_final(const struct fl_ctx *c, const cJSON *v,
                              uint32_t src, struct game_log *l,
                              struct err *e)
{
    if (!cJSON_IsObject(v))
        return fl_bad(c, e, "final", "expected an object");
    return read_extras(c, v, "final", -1, src, l, e);
}

enum status flierlog_read(const cJSON *root, struct game_log *l,
                          struct err *e)
{
    struct fl_ctx c = { .setup = l };
    const cJSON *turns, *o, *final;
    uint32_t i = 0;
    enum status st = read_header(&c, root, l, e);
    if (st)
        return st;
    fl_ctx_init(&c, l);
    turns = get(root, "turns");
    if (turns && !cJSON_IsArray(turns)) {
        st = fl_bad(&c, e, "turns", "expected an array of turn entries");
        goto out;
    }
    cJSON_ArrayForEach(o, turns) {
        st = read_entry(&c, o, i++, l, e);
        if (st)
            goto out;
    }
    final = get(root, "final");
    if (final && !cJSON_IsNull(final)) {
        st = read_final(&c, final, i, l, e);
        if (st)
            goto out;
    }
    st = read_end(&c, root, final && !cJSON_IsNull(final), l, e);
out:
    fl_ctx_release(&c);
    return st;
}

/* ---- the streaming form ------------------------------------------------- */

struct cursor {
    const char *data;
    size_t len, pos;
    int line;
};

/* The next record (one JSON value on a line of its own) or NULL at the
 * end; *line is where it starts. */
static enum status next_record(struct cursor *cu, cJSON **out, int *line,
                               struct err *e)
{
    const char *end = NULL;
    *out = NULL;
    while (cu->pos < cu->len && strchr(" \t\r\n", cu->data[cu->pos])) {
        cu->line += cu->data[cu->pos] == '\n';
        cu->pos++;
    }
    if (cu->pos >= cu->len)
        return ST_OK;
    *line = cu->line;
    const char *start = cu->data + cu->pos;
    *out = cJSON_ParseWithLengthOpts(start, cu->len - cu->pos, &end, 0);
    if (!*out) {
        size_t off = end && end >= start ? (size_t)(end - cu->data) : cu->pos;
        int at = cu->line;
        size_t bol = cu->pos;
        while (bol > 0 && cu->data[bol - 1] != '\n')
            bol--;
        for (size_t k = cu->pos; k < off; k++)
            if (cu->data[k] == '\n') {
                at++;
                bol = k + 1;
            }
        /* a live log's last record, cut while it was being written */
        if (!memchr(start, '\n', cu->len - cu->pos) &&
            mlog_json_ends_open(start, cu->len - cu->pos))
            return err_set(e, ST_PARSE, "line %d: the file ends early at "
                           "byte %zu, inside this record: was it cut short, "
                           "or saved while still being written?", at,
                           cu->len);
        return err_set(e, ST_PARSE, "line %d: not valid JSON at byte offset "
                       "%zu (column %zu)%s", at, off, off - bol + 1,
                       mlog_json_hint(cu->data, cu->len, off));
    }
    if (memchr(start, '\n', (size_t)(end - start)))
        return err_set(e, ST_PARSE, "line %d: a record of a streaming "
                       "flierlog must be on one line", cu->line);
    cu->pos = (size_t)(end - cu->data);
    while (cu->pos < cu->len && strchr(" \t\r", cu->data[cu->pos]))
        cu->pos++;
    if (cu->pos < cu->len && cu->data[cu->pos] != '\n')
        return err_set(e, ST_PARSE, "line %d: more than one JSON value on the "
                       "line (byte offset %zu)", cu->line, cu->pos);
    return ST_OK;
}

static enum status read_stream_header(struct fl_ctx *c, const cJSON *h,
                                      struct game_log *l, struct err *e)
{
    if (!cJSON_IsObject(h))
        return fl_bad(c, e, "$", "expected the flierlog header object");
    if (get(h, "turns") || get(h, "final"))
        return fl_bad(c, e, get(h, "turns") ? "turns" : "final",
                      "the header of a streaming flierlog holds no turns; one "
                      "entry follows per line");
    return read_header(c, h, l, e);
}

/* After the header: entries, then at most one {"final": ...}, last. */
static enum status read_stream_body(struct fl_ctx *c, struct cursor *cu,
                                    const cJSON *header, struct game_log *l,
                                    struct err *e)
{
    cJSON *rec = NULL;
    uint32_t i = 0;
    bool final = false;
    enum status st = ST_OK;
    for (;;) {
        int line = 0;
        st = next_record(cu, &rec, &line, e);
        if (st || !rec)
            break;
        c->line = line;
        if (final)
            st = fl_bad(c, e, "final", "nothing may follow the final line");
        else if (!cJSON_IsObject(rec))
            st = fl_bad(c, e, "$", "expected a turn entry or {\"final\": ...}");
        else if (get(rec, "final"))
            st = read_final(c, get(rec, "final"), i, l, e);
        else
            st = read_entry(c, rec, i++, l, e);
        final = final || (cJSON_IsObject(rec) && get(rec, "final"));
        cJSON_Delete(rec);
        rec = NULL;
        if (st)
            break;
    }
    cJSON_Delete(rec);
    if (st == ST_OK) {
        c->line = 1;
        st = read_end(c, header, final, l, e);
    }
    return st;
}

enum status flierlog_read_ndjson(const char *data, size_t len,
                                 struct game_log *l, struct err *e)
{
    struct cursor cu = { data, len, 0, 1 };
    struct fl_ctx c = { .setup = l };
    cJSON *header = NULL;
    int line = 1;
    enum status st = next_record(&cu, &header, &line, e);
    if (st == ST_OK && !header)
        st = err_set(e, ST_PARSE, "empty input");
    if (st)
        goto out;
    c.line = line;
    st = read_stream_header(&c, header, l, e);
    if (st)
        goto out;
    fl_ctx_init(&c, l);
    st = read_stream_body(&c, &cu, header, l, e);
    fl_ctx_release(&c);
out:
    cJSON_Delete(header);
    return st;
}
