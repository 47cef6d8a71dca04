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

#include "mlog/mlog_int.h"
#include "util/xalloc.h"

#define FL_COORD_MAX 1000000 /* as the .jcz reader: far beyond any board */
#define FL_NUM_MAX 1000000   /* rolls, points, turns */
#define FL_PATH 160
#define N_KEYS(a) (sizeof(a) / sizeof *(a))

/* ---- errors and small readers ------------------------------------------- */

static enum status bad(const struct fl_ctx *c, struct err *e,
                       const char *path, const char *fmt, ...)
    PRINTF_LIKE(4, 5);
static enum status unsupported(const struct fl_ctx *c, struct err *e,
                               const char *path, const char *fmt, ...)
    PRINTF_LIKE(4, 5);

static enum status bad(const struct fl_ctx *c, struct err *e,
                       const char *path, const char *fmt, ...)
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
static const char *sub(char *out, const char *path, const char *key)
{
    if (snprintf(out, FL_PATH, "%s%s%s", path, path[0] ? "." : "", key) >=
        FL_PATH)
        memcpy(out + FL_PATH - 4, "...", 4); /* a path of no sane file */
    return out;
}

static const char *nth(char *out, const char *path, int i)
{
    if (snprintf(out, FL_PATH, "%s[%d]", path, i) >= FL_PATH)
        memcpy(out + FL_PATH - 4, "...", 4);
    return out;
}

static enum status get_int(const struct fl_ctx *c, const cJSON *v,
                           const char *path, int lo, int hi, int *out,
                           struct err *e)
{
    if (!v)
        return bad(c, e, path, "missing");
    if (!cJSON_IsNumber(v))
        return bad(c, e, path, "expected an integer in %d..%d", lo, hi);
    /* never cast what an int cannot hold (1e20, 1e999 read as inf) */
    if (v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return bad(c, e, path, "expected an integer in %d..%d, not %.17g", lo,
                   hi, v->valuedouble);
    *out = (int)v->valuedouble;
    return ST_OK;
}

static enum status get_str(const struct fl_ctx *c, const cJSON *v,
                           const char *path, const char **out, struct err *e)
{
    *out = "";
    if (!v)
        return bad(c, e, path, "missing");
    if (!cJSON_IsString(v))
        return bad(c, e, path, "expected a string");
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
        return bad(c, e, path, "expected true or false");
    *out = cJSON_IsTrue(v);
    return ST_OK;
}

static enum status get_pos(const struct fl_ctx *c, const cJSON *v,
                           const char *path, struct pos *p, struct err *e)
{
    char s[FL_PATH];
    if (!v)
        return bad(c, e, path, "missing");
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2)
        return bad(c, e, path, "expected [x, y]");
    if (get_int(c, cJSON_GetArrayItem(v, 0), nth(s, path, 0), -FL_COORD_MAX,
                FL_COORD_MAX, &p->x, e))
        return e->code;
    return get_int(c, cJSON_GetArrayItem(v, 1), nth(s, path, 1),
                   -FL_COORD_MAX, FL_COORD_MAX, &p->y, e);
}

static enum status get_rot(const struct fl_ctx *c, const cJSON *v,
                           const char *path, uint8_t *rot, struct err *e)
{
    int deg = 0;
    if (!v)
        return ST_OK; /* 0 */
    if (get_int(c, v, path, 0, 270, &deg, e))
        return e->code;
    if (deg % 90)
        return bad(c, e, path, "expected 0, 90, 180 or 270");
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
        return bad(c, e, path, "expected a number in [0, 1)");
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
        return bad(c, e, path, "no player is named '%.40s'", name);
    if (n > 1)
        return bad(c, e, path, "'%.40s' names more than one seat; give the "
                   "seat number", name);
    *seat = found;
    return ST_OK;
}

/* A seat: a player's name (unique) or the seat number. */
static enum status get_seat(const struct fl_ctx *c, const cJSON *v,
                            const char *path, int *seat, struct err *e)
{
    if (cJSON_IsNumber(v))
        return get_int(c, v, path, 0, c->setup->rules.n_players - 1, seat, e);
    if (!cJSON_IsString(v))
        return bad(c, e, path, "expected a player's name or seat number");
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
static enum status get_segment(const struct fl_ctx *c, const cJSON *v,
                               const char *path, uint8_t *kind,
                               uint8_t *mask, struct err *e)
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
        return bad(c, e, path, "'%.40s': no figure stands on a %s", s,
                   feat_name(f));
    bool inner = feat_shape(f) == SHAPE_INNER;
    if ((!colon && !inner) || (colon && !loc_parse(f, colon + 1, mask)))
        return bad(c, e, path, "'%.40s' is no segment (e.g. city:NE, "
                   "road:WE, field:NL.NR, monastery)", s);
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

/* What the moves of one entry share. */
struct entry {
    const struct fl_ctx *c;
    const char *path;
    uint32_t src;
    int player;             /* seat the entry names, -1 */
    struct game_log *into;
};

static struct move *push(const struct entry *en, int kind, int player)
{
    struct move *m = game_log_push(en->into);
    m->kind = (uint8_t)kind;
    m->player = (int8_t)player;
    m->src = en->src;
    return m;
}

/* A move as game_log_push() starts one: nothing known. */
static struct move blank(void)
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
static void emit(const struct entry *en, int kind, const struct move *m)
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

/* "meeple" and "meeple_id" of obj onto m, over the defaults given. */
static enum status get_meeple(const struct fl_ctx *c, const cJSON *obj,
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
        if (get_str(c, k, sub(s, path, "meeple"), &name, e))
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
    if (get_str(c, id, sub(s, path, "meeple_id"), &name, e))
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
        return bad(c, e, s, "'%.40s' is not the %s \"meeple\" says", name,
                   figure_class(m->meeple)->name);
    *m = w;
    return ST_OK;
}

static enum status read_land(const struct entry *en, const cJSON *land,
                             const char *path, const struct move *place,
                             const struct move *flight, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *flight;
    m.roll = 0;
    m.draw = -1.0;
    if (cJSON_IsString(land)) {
        if (!fl_flight_target(place, flight->roll, &m.at))
            return bad(c, e, path, "%s %s no flying machine to aim with; "
                       "write {\"at\": [x, y], \"segment\": ...}",
                       place->tile_id, place->tile < 0 ? "is unknown, so"
                                                       : "has");
        if (get_segment(c, land, path, &m.feature, &m.mask, e))
            return e->code;
    } else if (cJSON_IsObject(land)) {
        if (get_pos(c, get(land, "at"), sub(s, path, "at"), &m.at, e) ||
            get_segment(c, get(land, "segment"), sub(s, path, "segment"),
                        &m.feature, &m.mask, e))
            return e->code;
    } else {
        return bad(c, e, path, "expected a segment, {\"at\": [x, y], "
                   "\"segment\": ...}, null or \"returned\"");
    }
    emit(en, MV_DEPLOY, &m);
    return ST_OK;
}

/* "fly": {"roll": R, "random"?: r, "land": ...}. */
static enum status read_fly(const struct entry *en, const cJSON *fly,
                            const char *path, const struct move *place,
                            const struct move *meeple, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    const cJSON *rnd, *land;
    if (!cJSON_IsObject(fly))
        return bad(c, e, path, "expected {\"roll\": R, \"land\": ...}");
    if (get_int(c, get(fly, "roll"), sub(s, path, "roll"), -FL_NUM_MAX,
                FL_NUM_MAX, &m.roll, e))
        return e->code;
    rnd = get(fly, "random");
    if (rnd) {
        if (!cJSON_IsNumber(rnd) || !mlog_random_ok(rnd->valuedouble))
            return bad(c, e, sub(s, path, "random"), "expected a die's "
                       "random number (JCloisterZone's are in [0, 1))");
        if (mlog_roll_of(rnd->valuedouble) != m.roll)
            return bad(c, e, sub(s, path, "random"), "%.17g rolls %d, not %d",
                       rnd->valuedouble, mlog_roll_of(rnd->valuedouble),
                       m.roll);
        m.draw = mlog_flight_draw(rnd->valuedouble, m.roll);
    }
    m.at = place->at;
    m.feature = FEAT_FLIER;
    m.mask = 0;
    emit(en, MV_DEPLOY, &m);
    land = get(fly, "land");
    if (!land || cJSON_IsNull(land) ||
        (cJSON_IsString(land) && strcmp(land->valuestring, "returned") == 0))
        return ST_OK; /* the meeple went back to supply */
    return read_land(en, land, sub(s, path, "land"), place, &m, e);
}

/* "recall": [x, y] or {"at": [x, y], "segment"?: ...}. */
static enum status read_recall(const struct entry *en, const cJSON *v,
                               const char *path, const struct move *meeple,
                               struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    const cJSON *seg = NULL;
    if (cJSON_IsArray(v)) {
        if (get_pos(c, v, path, &m.at, e))
            return e->code;
    } else if (cJSON_IsObject(v)) {
        if (get_pos(c, get(v, "at"), sub(s, path, "at"), &m.at, e))
            return e->code;
        seg = get(v, "segment");
    } else {
        return bad(c, e, path, "expected [x, y] or {\"at\": [x, y], "
                   "\"segment\": ...}");
    }
    if (seg) {
        if (get_segment(c, seg, sub(s, path, "segment"), &m.feature, &m.mask,
                        e))
            return e->code;
    } else {
        fl_recall_segment(c, m.at, &m.feature, &m.mask);
    }
    emit(en, MV_RECALL, &m);
    return ST_OK;
}

/* A meeple id alone ("0.small.2"), onto m. */
static enum status get_meeple_id(const struct fl_ctx *c, const cJSON *v,
                                 const char *path, struct move *m,
                                 struct err *e)
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

/* The Tower (1.3): "ransom": "0.small.2", the player buys their follower
 * back before the action. */
static enum status read_ransom(const struct entry *en, const cJSON *obj,
                               struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = get(obj, "ransom");
    struct move m = blank();
    if (!v)
        return ST_OK;
    if (get_meeple_id(en->c, v, sub(s, en->path, "ransom"), &m, e))
        return e->code;
    emit(en, MV_RANSOM, &m);
    return ST_OK;
}

/* The Tower (1.3): "tower": [x, y], a floor on the tower there, and
 * "capture": {"at": [x, y], "segment": ..., "meeple_id": ...}, the
 * follower it takes prisoner. */
static enum status read_tower(const struct entry *en, const cJSON *obj,
                              struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH], t[FL_PATH];
    const cJSON *cap = get(obj, "capture");
    struct move m = blank();
    if (get_pos(c, get(obj, "tower"), sub(s, en->path, "tower"), &m.at, e))
        return e->code;
    m.feature = FEAT_TOWER;
    emit(en, MV_TOWER, &m);
    if (!cap)
        return ST_OK;
    sub(s, en->path, "capture");
    m = blank();
    if (!cJSON_IsObject(cap))
        return bad(c, e, s, "expected {\"at\", \"segment\", \"meeple_id\"}");
    if (get_pos(c, get(cap, "at"), sub(t, s, "at"), &m.at, e) ||
        get_segment(c, get(cap, "segment"), sub(t, s, "segment"), &m.feature,
                    &m.mask, e) ||
        get_meeple_id(c, get(cap, "meeple_id"), sub(t, s, "meeple_id"), &m,
                      e))
        return e->code;
    emit(en, MV_CAPTURE, &m);
    if (!get(cap, "exchange"))
        return ST_OK;
    m = blank(); /* the prisoner the capturer takes back for it */
    if (get_meeple_id(c, get(cap, "exchange"), sub(t, s, "exchange"), &m, e))
        return e->code;
    emit(en, MV_EXCHANGE, &m);
    return ST_OK;
}

static const char *const actions[] = { "deploy", "fly", "recall", "tower",
                                       "fairy", "princess" };
#define N_ACTIONS (int)(sizeof actions / sizeof *actions)

/* "fairy" (the fairy beside the entry's player's follower) or "princess"
 * (she sends a knight home): {"at": [x, y], "segment": ...}, the meeple
 * named as for a deployment. */
static enum status read_beside(const struct entry *en, const cJSON *v,
                               const char *path, bool princess,
                               const struct move *meeple, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    if (!cJSON_IsObject(v))
        return bad(c, e, path, "expected {\"at\": [x, y], \"segment\": "
                   "...}");
    if (get_pos(c, get(v, "at"), sub(s, path, "at"), &m.at, e) ||
        get_segment(c, get(v, "segment"), sub(s, path, "segment"),
                    &m.feature, &m.mask, e))
        return e->code;
    m.neutral = princess ? 0 : FIG_FAIRY;
    emit(en, princess ? MV_PRINCESS : MV_NEUTRAL, &m);
    return ST_OK;
}

/* "dragon": the dragon's steps after the action, [[x, y], ...]; the
 * players who move it are the auditor's to know (from the one on turn,
 * in seat order). */
static enum status read_dragon(const struct entry *en, const cJSON *v,
                               const char *path, struct err *e)
{
    char s[FL_PATH];
    const cJSON *p;
    int i = 0;
    if (!cJSON_IsArray(v))
        return bad(en->c, e, path, "expected an array of [x, y]");
    cJSON_ArrayForEach(p, v) {
        struct pos at;
        if (get_pos(en->c, p, nth(s, path, i++), &at, e))
            return e->code;
        struct move *m = push(en, MV_NEUTRAL, -1);
        m->at = at;
        m->neutral = FIG_DRAGON;
    }
    return ST_OK;
}

/* The action of a placement entry, its pass and its COMMIT. */
static enum status read_action(const struct entry *en, const cJSON *obj,
                               const struct move *place, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    int which = -1, n = 0;
    struct move m;
    for (int i = 0; i < N_ACTIONS; i++)
        if (get(obj, actions[i])) {
            which = i;
            n++;
        }
    if (n > 1)
        return bad(c, e, en->path, "deploy, fly, recall, tower, fairy and "
                   "princess exclude each other (write the turn as a "
                   "\"moves\" list)");
    if (get(obj, "capture") && which != 3)
        return bad(c, e, sub(s, en->path, "capture"), "a capture follows a "
                   "tower floor (\"tower\")");
    if (read_ransom(en, obj, e))
        return e->code;
    if (which < 0 && (get(obj, "meeple") || get(obj, "meeple_id")))
        return bad(c, e, sub(s, en->path, get(obj, "meeple") ? "meeple"
                                                            : "meeple_id"),
                   "no deploy, fly, recall, fairy or princess to go with "
                   "it");
    /* the princess's knight may be anyone's: the auditor finds it */
    int owner = which == 5 ? -1 : fl_default_seat(c, en->player,
                                                   c->turns + 1);
    m = blank();
    bool pass = which < 0;
    if (get_bool(c, get(obj, "pass"), sub(s, en->path, "pass"), &pass, e))
        return e->code;
    if (which == 3 && (get(obj, "meeple") || get(obj, "meeple_id")))
        return bad(c, e, sub(s, en->path, get(obj, "meeple") ? "meeple"
                                                            : "meeple_id"),
                   "a tower floor moves no meeple");
    if (which >= 0 && which != 3 &&
        get_meeple(c, obj, en->path, which == 2 ? FIG_ABBOT : FIG_SMALL, owner,
                   which == 2 ? 1 : 0, &m, e))
        return e->code;
    const cJSON *v = which >= 0 ? get(obj, actions[which]) : NULL;
    sub(s, en->path, which >= 0 ? actions[which] : "");
    if (which == 0) {
        /* a segment of the tile placed, or {"at", "segment"} elsewhere
         * (a barn stands on the tile south-east of its corner) */
        char t[FL_PATH];
        m.at = place->at;
        if (cJSON_IsObject(v)) {
            if (get_pos(c, get(v, "at"), sub(t, s, "at"), &m.at, e) ||
                get_segment(c, get(v, "segment"), sub(t, s, "segment"),
                            &m.feature, &m.mask, e))
                return e->code;
        } else if (get_segment(c, v, s, &m.feature, &m.mask, e)) {
            return e->code;
        }
        emit(en, MV_DEPLOY, &m);
    } else if (which == 1 && read_fly(en, v, s, place, &m, e)) {
        return e->code;
    } else if (which == 2 && read_recall(en, v, s, &m, e)) {
        return e->code;
    } else if (which == 3 && read_tower(en, obj, e)) {
        return e->code;
    } else if (which >= 4 && read_beside(en, v, s, which == 5, &m, e)) {
        return e->code;
    }
    if (pass)
        push(en, MV_PASS, en->player);
    const cJSON *dragon = get(obj, "dragon");
    if (dragon && read_dragon(en, dragon, sub(s, en->path, "dragon"), e))
        return e->code;
    push(en, MV_COMMIT, en->player);
    return ST_OK;
}

static const char *const not_on_discard[] = {
    "at", "rot", "deploy", "fly", "recall", "pass", "meeple", "meeple_id",
    "wagons", "part", "tower", "capture", "ransom",
    "fairy", "princess", "dragon",
};

static enum status read_discard(const struct entry *en, const cJSON *obj,
                                struct err *e)
{
    char s[FL_PATH];
    struct move m;
    for (size_t i = 0; i < sizeof not_on_discard / sizeof *not_on_discard;
         i++)
        if (get(obj, not_on_discard[i]))
            return bad(en->c, e, sub(s, en->path, not_on_discard[i]),
                       "a discarded tile is not placed");
    memset(&m, 0, sizeof m);
    if (get_tile(en->c, get(obj, "tile"), sub(s, en->path, "tile"), &m, e) ||
        get_draw(en->c, get(obj, "draw"), sub(s, en->path, "draw"), &m.draw,
                 e))
        return e->code;
    struct move *d = push(en, MV_DISCARD, en->player);
    snprintf(d->tile_id, sizeof d->tile_id, "%s", m.tile_id);
    d->tile = m.tile;
    d->draw = m.draw;
    return ST_OK;
}

/* "wagons": the wagons the turn's scoring sent back, in the order their
 * owners chose: {"at", "segment"} moves one (a DEPLOY; "meeple" is the
 * wagon, its owner the item's "player" unless "meeple_id" says), and a
 * COMMIT follows once its owner has no other wagon to move next;
 * {"stays": true} leaves one in supply (a PASS). */
static enum status read_wagon(const struct entry *en, const cJSON *o,
                              const char *path, struct move *m, bool *stays,
                              struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    int player = -1;
    *m = blank();
    *stays = false;
    if (!cJSON_IsObject(o))
        return bad(c, e, path, "expected {\"at\": [x, y], \"segment\": ...} "
                   "or {\"stays\": true}");
    if (get(o, "player") &&
        get_seat(c, get(o, "player"), sub(s, path, "player"), &player, e))
        return e->code;
    m->player = (int8_t)player;
    if (get(o, "stays")) {
        if (!cJSON_IsTrue(get(o, "stays")))
            return bad(c, e, sub(s, path, "stays"), "expected true (a wagon "
                       "that moves has \"at\" and \"segment\")");
        static const char *const moving[] = { "at", "segment", "meeple",
                                              "meeple_id" };
        for (size_t i = 0; i < sizeof moving / sizeof *moving; i++)
            if (get(o, moving[i]))
                return bad(c, e, sub(s, path, moving[i]), "a wagon that "
                           "stays goes nowhere");
        m->kind = MV_PASS;
        *stays = true;
        return ST_OK;
    }
    m->kind = MV_DEPLOY;
    if (get_pos(c, get(o, "at"), sub(s, path, "at"), &m->at, e) ||
        get_segment(c, get(o, "segment"), sub(s, path, "segment"),
                    &m->feature, &m->mask, e) ||
        get_meeple(c, o, path, FIG_WAGON, player, 0, m, e))
        return e->code;
    m->kind = MV_DEPLOY;
    m->player = (int8_t)player;
    return ST_OK;
}

static enum status read_wagons(const struct entry *en, const cJSON *list,
                               struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *o;
    int i = 0;
    sub(s, en->path, "wagons");
    if (!cJSON_IsArray(list))
        return bad(en->c, e, s, "expected an array of wagons");
    for (o = list->child; o; o = o->next, i++) {
        struct move m, next;
        bool stays, next_stays, same_owner = false;
        if (read_wagon(en, o, nth(t, s, i), &m, &stays, e))
            return e->code;
        if (o->next && !stays) {
            if (read_wagon(en, o->next, nth(t, s, i + 1), &next, &next_stays,
                           e))
                return e->code;
            same_owner = !next_stays && m.meeple_owner >= 0 &&
                         next.meeple_owner == m.meeple_owner;
        }
        struct move *to = game_log_push(en->into);
        *to = m;
        to->src = en->src;
        if (!stays && !same_owner) /* the owner's last move: a COMMIT */
            push(en, MV_COMMIT, m.player);
    }
    return ST_OK;
}

/* "abbey": "declined": the player on turn declined the abbey before
 * drawing (a PASS and a COMMIT before the tile), or, on an entry with no
 * tile, in the last round of abbeys (a PASS alone). */
static enum status read_declined(const struct entry *en, const cJSON *obj,
                                 bool *declined, struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = get(obj, "abbey");
    *declined = false;
    if (!v)
        return ST_OK;
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "declined") != 0)
        return bad(en->c, e, sub(s, en->path, "abbey"), "expected "
                   "\"declined\" (an abbey is placed as the tile AM/A)");
    *declined = true;
    return ST_OK;
}

static const char *const not_on_declined[] = {
    "at", "rot", "draw", "deploy", "fly", "recall", "pass", "meeple",
    "meeple_id", "wagons", "part", "discard", "tower", "capture", "ransom",
    "fairy", "princess", "dragon",
};

/* An entry with "abbey": "declined" and no tile: the last round. */
static enum status read_last_declined(const struct entry *en,
                                      const cJSON *obj, struct err *e)
{
    char s[FL_PATH];
    for (size_t i = 0; i < sizeof not_on_declined / sizeof *not_on_declined;
         i++)
        if (get(obj, not_on_declined[i]))
            return bad(en->c, e, sub(s, en->path, not_on_declined[i]),
                       "an abbey declined with no tile after it is all the "
                       "entry says (give \"tile\" for the one drawn)");
    push(en, MV_PASS, en->player);
    return ST_OK;
}

/* "part": 1, or 2 for a builder's second tile; for readers: the auditor
 * judges the builder's right. */
static enum status check_part(const struct entry *en, const cJSON *obj,
                              struct err *e)
{
    char s[FL_PATH];
    int part = 1;
    const cJSON *v = get(obj, "part");
    return v ? get_int(en->c, v, sub(s, en->path, "part"), 1, 2, &part, e)
             : ST_OK;
}

static enum status read_regular(const struct entry *en, const cJSON *obj,
                                struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    bool discard = false, declined = false;
    struct move p;
    if (read_declined(en, obj, &declined, e))
        return e->code;
    if (declined && !get(obj, "tile"))
        return read_last_declined(en, obj, e);
    if (get_bool(c, get(obj, "discard"), sub(s, en->path, "discard"),
                 &discard, e))
        return e->code;
    if (declined) { /* before the draw */
        push(en, MV_PASS, en->player);
        push(en, MV_COMMIT, en->player);
    }
    if (discard)
        return read_discard(en, obj, e);
    if (check_part(en, obj, e))
        return e->code;
    memset(&p, 0, sizeof p);
    if (get_tile(c, get(obj, "tile"), sub(s, en->path, "tile"), &p, e) ||
        get_pos(c, get(obj, "at"), sub(s, en->path, "at"), &p.at, e) ||
        get_rot(c, get(obj, "rot"), sub(s, en->path, "rot"), &p.rot, e) ||
        get_draw(c, get(obj, "draw"), sub(s, en->path, "draw"), &p.draw, e))
        return e->code;
    struct move *m = push(en, MV_PLACE, en->player);
    snprintf(m->tile_id, sizeof m->tile_id, "%s", p.tile_id);
    m->tile = p.tile;
    m->at = p.at;
    m->rot = p.rot;
    m->draw = p.draw;
    p = *m; /* m moves when the log grows */
    if (read_action(en, obj, &p, e))
        return e->code;
    const cJSON *wagons = get(obj, "wagons");
    return wagons ? read_wagons(en, wagons, e) : ST_OK;
}

/* ---- the "moves" form --------------------------------------------------- */

/* What a "move" names: its kind and, for a neutral figure's move, which
 * figure. The order is the one the error message lists. */
static const struct move_name {
    const char *name;
    uint8_t kind, neutral;
} move_names[] = {
    { "place", MV_PLACE, 0 },         { "discard", MV_DISCARD, 0 },
    { "deploy", MV_DEPLOY, 0 },       { "pass", MV_PASS, 0 },
    { "recall", MV_RECALL, 0 },       { "commit", MV_COMMIT, 0 },
    { "tower", MV_TOWER, 0 },         { "capture", MV_CAPTURE, 0 },
    { "ransom", MV_RANSOM, 0 },       { "exchange", MV_EXCHANGE, 0 },
    { "dragon", MV_NEUTRAL, FIG_DRAGON }, { "fairy", MV_NEUTRAL, FIG_FAIRY },
    { "princess", MV_PRINCESS, 0 },   { "count", MV_NEUTRAL, FIG_COUNT },
};

static enum status read_move_meeple(const struct entry *en, const cJSON *o,
                                    const char *path, struct move *m,
                                    struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    bool recall = m->kind == MV_RECALL;
    const cJSON *seg = get(o, "segment"), *roll = get(o, "roll");
    uint8_t kind = m->kind;
    int8_t player = m->player;
    if (get_pos(c, get(o, "at"), sub(s, path, "at"), &m->at, e) ||
        /* a move naming no player leaves the figure's owner open (the
         * auditor's default: the seat on turn, or the waiting wagon) */
        get_meeple(c, o, path, recall ? FIG_ABBOT : FIG_SMALL, m->player,
                   recall ? 1 : 0, m, e))
        return e->code;
    m->kind = kind;
    m->player = player;
    if (recall && !seg)
        fl_recall_segment(c, m->at, &m->feature, &m->mask);
    else if (get_segment(c, seg, sub(s, path, "segment"), &m->feature,
                         &m->mask, e))
        return e->code;
    if (m->feature != FEAT_FLIER || recall) {
        if (roll || get(o, "random"))
            return bad(c, e, sub(s, path, roll ? "roll" : "random"),
                       "only a flight (segment \"flier\") has a roll");
        return ST_OK;
    }
    if (roll && get_int(c, roll, sub(s, path, "roll"), -FL_NUM_MAX,
                        FL_NUM_MAX, &m->roll, e))
        return e->code;
    const cJSON *rnd = get(o, "random");
    if (!rnd)
        return ST_OK;
    if (!cJSON_IsNumber(rnd) || !mlog_random_ok(rnd->valuedouble) ||
        mlog_roll_of(rnd->valuedouble) != m->roll)
        return bad(c, e, sub(s, path, "random"), "expected a number that "
                   "rolls %d", m->roll);
    m->draw = mlog_flight_draw(rnd->valuedouble, m->roll);
    return ST_OK;
}

static enum status read_move(const struct entry *en, const cJSON *o,
                             const char *path, int *turns, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    const char *name;
    struct move m;
    int k;
    if (!cJSON_IsObject(o))
        return bad(c, e, path, "expected an object");
    if (get_str(c, get(o, "move"), sub(s, path, "move"), &name, e))
        return e->code;
    const struct move_name *mn = move_names;
    while (mn < move_names + N_KEYS(move_names) && strcmp(name, mn->name) != 0)
        mn++;
    if (mn == move_names + N_KEYS(move_names))
        return bad(c, e, s, "'%.40s' is not place, discard, deploy, "
                   "pass, recall, commit, tower, capture, ransom, "
                   "exchange, dragon, fairy, princess or count", name);
    k = mn->kind;
    int neutral = mn->neutral;
    m = blank();
    m.kind = mn->kind;
    m.neutral = mn->neutral;
    int player = en->player;
    if (get(o, "player") &&
        get_seat(c, get(o, "player"), sub(s, path, "player"), &player, e))
        return e->code;
    m.player = (int8_t)player;
    if (k == MV_PLACE || k == MV_DISCARD) {
        if (get_tile(c, get(o, "tile"), sub(s, path, "tile"), &m, e) ||
            get_draw(c, get(o, "draw"), sub(s, path, "draw"), &m.draw, e))
            return e->code;
        if (k == MV_PLACE &&
            (get_pos(c, get(o, "at"), sub(s, path, "at"), &m.at, e) ||
             get_rot(c, get(o, "rot"), sub(s, path, "rot"), &m.rot, e)))
            return e->code;
        *turns += k == MV_PLACE;
    } else if ((k == MV_DEPLOY || k == MV_RECALL || k == MV_PRINCESS ||
                (k == MV_NEUTRAL && neutral == FIG_FAIRY)) &&
               read_move_meeple(en, o, path, &m, e)) {
        return e->code;
    } else if (k == MV_TOWER) {
        if (get_pos(c, get(o, "at"), sub(s, path, "at"), &m.at, e))
            return e->code;
        m.feature = FEAT_TOWER;
    } else if (k == MV_CAPTURE &&
               (get_pos(c, get(o, "at"), sub(s, path, "at"), &m.at, e) ||
                get_segment(c, get(o, "segment"), sub(s, path, "segment"),
                            &m.feature, &m.mask, e) ||
                get_meeple_id(c, get(o, "meeple_id"),
                              sub(s, path, "meeple_id"), &m, e))) {
        return e->code;
    } else if ((k == MV_RANSOM || k == MV_EXCHANGE) &&
               get_meeple_id(c, get(o, "meeple_id"),
                             sub(s, path, "meeple_id"), &m, e)) {
        return e->code;
    } else if (k == MV_NEUTRAL && neutral == FIG_DRAGON &&
               get_pos(c, get(o, "at"), sub(s, path, "at"), &m.at, e)) {
        return e->code;
    } else if (k == MV_NEUTRAL && neutral == FIG_COUNT &&
               (get_pos(c, get(o, "at"), sub(s, path, "at"), &m.at, e) ||
                get_segment(c, get(o, "segment"), sub(s, path, "segment"),
                            &m.feature, &m.mask, e))) {
        return e->code;
    }
    struct move *to = push(en, k, player);
    m.src = to->src;
    *to = m;
    return ST_OK;
}

static enum status read_moves(const struct entry *en, const cJSON *list,
                              struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *o;
    int i = 0, turns = en->c->turns;
    sub(s, en->path, "moves");
    if (!cJSON_IsArray(list))
        return bad(en->c, e, s, "expected an array of moves");
    cJSON_ArrayForEach(o, list) {
        if (read_move(en, o, nth(t, s, i++), &turns, e))
            return e->code;
    }
    return ST_OK;
}

/* "turn", if given, is the running count of placements. */
static enum status check_turn(const struct entry *en, const cJSON *obj,
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
    sub(s, en->path, "turn");
    if (!placed && !get(obj, "moves"))
        return bad(en->c, e, s, get(obj, "tile") ? "a discarded tile is not "
                   "a turn" : "an abbey declined is not a turn");
    if (get_int(en->c, v, s, 0, FL_NUM_MAX, &got, e))
        return e->code;
    if (got != want)
        return bad(en->c, e, s, "%d, but the placements so far make this "
                   "turn %d", got, want);
    return ST_OK;
}

enum status fl_entry_moves(const struct fl_ctx *c, const cJSON *obj,
                           const char *path, uint32_t src,
                           struct game_log *into, struct err *e)
{
    char s[FL_PATH];
    struct entry en = { c, path, src, -1, into };
    size_t first = into->n_moves;
    const cJSON *moves = get(obj, "moves");
    if (!cJSON_IsObject(obj))
        return bad(c, e, path, "expected an object");
    if (get(obj, "player") &&
        get_seat(c, get(obj, "player"), sub(s, path, "player"), &en.player,
                 e))
        return e->code;
    static const char *const not_with_moves[] = { "tile", "abbey",
                                                  "wagons" };
    for (size_t i = 0; moves && i < N_KEYS(not_with_moves); i++)
        if (get(obj, not_with_moves[i]))
            return bad(c, e, path, "\"moves\" and \"%s\" exclude each other",
                       not_with_moves[i]);
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

/* "road, city, field, monastery, garden, ...": the kinds that score. */
static const char *claimable_names(char *out, size_t len)
{
    size_t n = 0;
    int last = 0, k = 0;
    for (int f = 1; f < FEAT__COUNT; f++)
        if (scores(f))
            last = f;
    out[0] = '\0';
    for (int f = 1; f < FEAT__COUNT && n < len; f++)
        if (scores(f))
            n += (size_t)snprintf(out + n, len - n, "%s%s",
                                  k++ == 0 ? "" : f == last ? " or " : ", ",
                                  feat_name(f));
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
        return bad(c, e, path, "expected {\"players\", \"feature\", "
                   "\"points\"}");
    who = get(o, "players");
    sub(s, path, "players");
    if (!cJSON_IsArray(who))
        return bad(c, e, s, who ? "expected an array" : "missing");
    cJSON_ArrayForEach(it, who) {
        if (get_seat(c, it, nth(t, s, i++), &seat, e))
            return e->code;
        players |= (uint8_t)(1u << seat);
    }
    if (get_str(c, get(o, "feature"), sub(s, path, "feature"), &feat, e))
        return e->code;
    int f = feat_by_name(feat, strlen(feat));
    if (!scores(f)) {
        char kinds[FL_PATH];
        return bad(c, e, s, "'%.40s' is not %s", feat,
                   claimable_names(kinds, sizeof kinds));
    }
    if (get_int(c, get(o, "points"), sub(s, path, "points"), -FL_NUM_MAX,
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
        return bad(c, e, path, "expected an array of claims");
    cJSON_ArrayForEach(o, v) {
        if (read_claim(c, o, nth(s, path, i++), turn, src, l, e))
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
                get_int(c, it, nth(s, path, seat), -FL_NUM_MAX, FL_NUM_MAX,
                        &t.score[seat], e))
                return e->code;
            t.seats |= (uint8_t)(!cJSON_IsNull(it) << seat);
            seat++;
        }
    } else if (cJSON_IsObject(v)) {
        cJSON_ArrayForEach(it, v) {
            sub(s, path, it->string);
            if (seat_by_name(c, it->string, s, &seat, e) ||
                get_int(c, it, s, -FL_NUM_MAX, FL_NUM_MAX, &t.score[seat], e))
                return e->code;
            t.seats |= (uint8_t)(1u << seat);
        }
    } else {
        return bad(c, e, path, "expected {\"<name>\": points, ...} or one "
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
    if ((tv && get_str(c, tv, sub(s, path, "time"), &time, e)) ||
        (xv && get_str(c, xv, sub(s, path, text_key), &text, e)))
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
    if (v && read_claims(c, v, sub(s, path, "claims"), turn, src, l, e))
        return e->code;
    v = get(o, "totals");
    if (v && read_totals(c, v, sub(s, path, "totals"), turn, src, l, e))
        return e->code;
    return read_note(c, o, path, "note", turn, l, e);
}

/* A list whose items name their turn: {"turn": t, ...}, -1 = final. */
static enum status list_turn(const struct fl_ctx *c, const cJSON *o,
                             const char *path, int *turn, struct err *e)
{
    char s[FL_PATH];
    if (!cJSON_IsObject(o))
        return bad(c, e, path, "expected an object");
    return get_int(c, get(o, "turn"), sub(s, path, "turn"), -1, FL_NUM_MAX,
                   turn, e);
}

enum status fl_read_claim_list(const struct fl_ctx *c, const cJSON *v,
                               const char *path, struct game_log *l,
                               struct err *e)
{
    char s[FL_PATH];
    const cJSON *o;
    int i = 0, turn = 0;
    if (!cJSON_IsArray(v))
        return bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        nth(s, path, i);
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
        return bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        nth(s, path, i);
        if (list_turn(c, o, s, &turn, e))
            return e->code;
        if (!get(o, "scores"))
            return bad(c, e, sub(t, s, "scores"), "missing");
        if (read_totals(c, get(o, "scores"), sub(t, s, "scores"), turn,
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
        return bad(c, e, path, "expected an array");
    cJSON_ArrayForEach(o, v) {
        nth(s, path, i++);
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
        return bad(c, e, "sets", "expected {\"<set id>\": copies}");
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
        if (get_int(c, it, sub(s, "sets", it->string), 0, GAME_MAX_SET_COPIES,
                    &n, e))
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
        return bad(c, e, "rules", "expected an object");
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
            return unsupported(c, e, sub(s, "rules", it->string),
                               "value of rule '%s'; expected %s",
                               option_key(o), fl_option_values(o, values,
                                                               sizeof values));
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
    sub(s, "elements", k);
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
            return bad(c, e, s, "\"%s\" says the same; give one of them",
                       legacy_keys[i][0]);
    if (cJSON_IsBool(it))
        n = cJSON_IsTrue(it);
    else if (el->kind == EL_FLAG && !(cJSON_IsNumber(it) &&
                                      (it->valuedouble == 0 ||
                                       it->valuedouble == 1)))
        return bad(c, e, s, "expected true or false (or 1 or 0)");
    else if (get_int(c, it, s, 0, el->max, &n, e))
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
        return bad(c, e, "elements", "expected {\"<element>\": count, "
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
        return bad(c, e, "edition", "missing (\"C2\" or \"C3\")");
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
         get_int(c, get(root, "followers"), "followers", 0,
                 GAME_MAX_FOLLOWERS, &followers, e)) ||
        get_bool(c, get(root, "farmers"), "farmers", &farmers, e) ||
        get_bool(c, get(root, "gardens"), "gardens", &gardens, e) ||
        (get(root, "rules") && read_rules(c, get(root, "rules"), r, e)))
        return e->code;
    v = get(root, "abbot"); /* true / false, or JCloisterZone's 0 / 1 */
    if (cJSON_IsNumber(v)) {
        if (get_int(c, v, "abbot", 0, 1, &abbots, e))
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
    return read_elements(c, root, r, e);
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
        return bad(c, e, path, "expected {\"tile\", \"at\", \"rot\"}");
    if (get_str(c, get(v, "tile"), sub(s, path, "tile"), &id, e))
        return e->code;
    sp->tile = (int16_t)tile_find(id);
    if (sp->tile < 0)
        return unsupported(c, e, s, "start tile '%.40s'", id);
    if (get(v, "at") &&
        get_pos(c, get(v, "at"), sub(s, path, "at"), &sp->at, e))
        return e->code;
    if (sp->at.x < -100 || sp->at.x > 100 || sp->at.y < -100 ||
        sp->at.y > 100)
        return bad(c, e, sub(s, path, "at"), "expected x and y in -100..100");
    if (get_rot(c, get(v, "rot"), sub(s, path, "rot"), &rot, e))
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
        return bad(c, e, "start", "expected 1 to %d start tiles",
                   LOG_MAX_STARTS);
    for (int i = 0; i < n; i++) {
        struct start_place sp;
        const cJSON *t = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, i) : v;
        if (read_start_tile(c, t, cJSON_IsArray(v) ? nth(s, "start", i)
                                                  : "start", &sp, e))
            return e->code;
        for (int k = 0; k < i; k++) {
            struct start_place o = game_log_start(l, k);
            if (o.at.x == sp.at.x && o.at.y == sp.at.y)
                return bad(c, e, s, "(%d,%d) already holds a start tile",
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
        return bad(c, e, "players", "missing");
    if (!cJSON_IsArray(v))
        return bad(c, e, "players", "expected an array of {\"name\"}");
    int n = cJSON_GetArraySize(v);
    if (n < 1 || n > GAME_MAX_PLAYERS)
        return unsupported(c, e, "players", "%d players (flierd audits games "
                           "of 1 to %d)", n, GAME_MAX_PLAYERS);
    l->rules.n_players = n;
    cJSON_ArrayForEach(pl, v) {
        nth(s, "players", i);
        if (!cJSON_IsObject(pl))
            return bad(c, e, s, "expected {\"name\": ...}");
        if (get_str(c, get(pl, "name"), sub(t, s, "name"), &name, e))
            return e->code;
        if (strlen(name) >= sizeof l->names[i])
            return bad(c, e, t, "longer than %zu bytes",
                       sizeof l->names[i] - 1);
        snprintf(l->names[i], sizeof l->names[i], "%s", name);
        if (get(pl, "color")) {
            if (get_str(c, get(pl, "color"), sub(t, s, "color"), &color, e))
                return e->code;
            if (strlen(color) >= sizeof l->colors[i])
                return bad(c, e, t, "longer than %zu bytes",
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

/* "end_turn" if given (null: none), else the end "final" implies. */
static enum status read_end(const struct fl_ctx *c, const cJSON *root,
                            bool final, struct game_log *l, struct err *e)
{
    const cJSON *v = get(root, "end_turn");
    l->end_turn = final ? c->turns : -1;
    if (!v)
        return ST_OK;
    if (cJSON_IsNull(v)) {
        l->end_turn = -1;
        return ST_OK;
    }
    return get_int(c, v, "end_turn", 0, FL_NUM_MAX, &l->end_turn, e);
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
        return bad(c, e, "final", "expected an object");
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
        st = bad(&c, e, "turns", "expected an array of turn entries");
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
        return bad(c, e, "$", "expected the flierlog header object");
    if (get(h, "turns") || get(h, "final"))
        return bad(c, e, get(h, "turns") ? "turns" : "final",
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
            st = bad(c, e, "final", "nothing may follow the final line");
        else if (!cJSON_IsObject(rec))
            st = bad(c, e, "$", "expected a turn entry or {\"final\": ...}");
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
