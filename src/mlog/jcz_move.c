/* jcz_move.c - the moves of a .jcz replay, read and written by the move
 * classes' payload templates (core/move.h).
 *
 * A template is a JSON object: its "$field" strings are the move's
 * fields, read and written by the codecs below (the only format knowledge
 * here), its other values constants that tell the rows of one message
 * type apart. Every template is parsed once, at the first use, and kept
 * for the life of the process; its string items carry their codec in
 * valueint (the trees are ours and never printed). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/move.h"
#include "mlog/mlog_int.h"

/* ---- the codecs ------------------------------------------------------ */

/* What reading one payload gathers beside the move. */
struct rd {
    const struct move_class *row;
    struct move *m;
    double *draw; /* the running draw (jcz_move_read()) */
    bool pointer; /* the template has a "$pointer" (before any "$random") */
};

/* The JSON path of an item, spelled out only for a message (a save has
 * thousands of messages): the root ("replay[3].payload") where up is
 * NULL, else a key below up. */
struct jpath {
    const struct jpath *up;
    const char *s;
};

#define PATH_MAX_LEN 112

static const char *spell(const struct jpath *p, char *buf)
{
    if (!p->up) {
        mlog_copy_text(buf, PATH_MAX_LEN, p->s);
        return buf;
    }
    spell(p->up, buf);
    size_t n = strlen(buf);
    if (n + 2 < PATH_MAX_LEN) {
        buf[n] = '.';
        mlog_copy_text(buf + n + 1, PATH_MAX_LEN - n - 1, p->s);
    }
    return buf;
}

/* A coordinate as JCloisterZone writes it: an integer, well inside an
 * int. */
static bool coord_ok(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
           v->valuedouble >= -1000000 && v->valuedouble <= 1000000;
}

/* [x, y] at jp. */
static enum status read_pos(const cJSON *v, const struct jpath *jp,
                            struct pos *p, struct err *e)
{
    char path[PATH_MAX_LEN], sub[PATH_MAX_LEN + 8];
    const cJSON *x = cJSON_IsArray(v) ? v->child : NULL;
    const cJSON *y = x ? x->next : NULL;
    if (y && !y->next && coord_ok(x) && coord_ok(y)) {
        p->x = (int)x->valuedouble;
        p->y = (int)y->valuedouble;
        return ST_OK;
    }
    spell(jp, path);
    if (!y || y->next)
        return err_set(e, ST_PARSE, "%s: expected [x, y]", path);
    mlog_path(sub, sizeof sub, path, "[0]");
    if (jcz_int(x, sub, -1000000, 1000000, &p->x, e))
        return e->code;
    mlog_path(sub, sizeof sub, path, "[1]");
    return jcz_int(y, sub, -1000000, 1000000, &p->y, e);
}

static const char *str_at(const cJSON *obj, const char *key)
{
    const cJSON *v = mlog_get(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static enum status rd_position(const cJSON *v, const struct jpath *jp,
                               struct rd *r, struct err *e)
{
    return read_pos(v, jp, &r->m->at, e);
}

/* {position, feature, location}; on the row's feature, if it has one. */
static enum status rd_pointer(const cJSON *ptr, const struct jpath *jp,
                              struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    struct move *m = r->m;
    struct jpath pos = { jp, "position" };
    if (!cJSON_IsObject(ptr))
        return err_set(e, ST_PARSE, "%s: expected an object",
                       spell(jp, path));
    if (read_pos(mlog_get(ptr, "position"), &pos, &m->at, e))
        return e->code;
    const char *feat = str_at(ptr, "feature"), *loc = str_at(ptr, "location");
    if (!feat || !loc)
        return err_set(e, ST_PARSE, "%s: expected feature and location",
                       spell(jp, path));
    int kind = feat_find_jcz_loc(feat, loc, &m->mask);
    if (kind == -1)
        return err_set(e, ST_UNSUPPORTED, "unsupported: feature '%.40s' "
                       "(%s.feature)", feat, spell(jp, path));
    if (kind < 0)
        return err_set(e, ST_PARSE, "%s.location: '%.40s' is no location of "
                       "a %s", spell(jp, path), loc, feat);
    m->feature = (uint8_t)kind;
    if (r->row->feature && m->feature != r->row->feature)
        return err_set(e, ST_PARSE, "%s.feature: a %s goes on a %s",
                       spell(jp, path), r->row->name,
                       feature_class(r->row->feature)->jcz);
    return ST_OK;
}

static enum status rd_meeple(const cJSON *v, const struct jpath *jp,
                             struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    if (!cJSON_IsString(v))
        return err_set(e, ST_PARSE, "%s: expected a string", spell(jp, path));
    enum status st = mlog_meeple_id(v->valuestring, "", r->m, e);
    if (st != ST_OK) /* again, with the path for the message */
        st = mlog_meeple_id(v->valuestring, spell(jp, path), r->m, e);
    return st;
}

/* The tile drawn takes the running draw. */
static enum status rd_tile(const cJSON *v, const struct jpath *jp,
                           struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    struct move *m = r->m;
    if (!cJSON_IsString(v))
        return err_set(e, ST_PARSE, "%s: expected a string", spell(jp, path));
    const char *id = v->valuestring;
    mlog_copy_text(m->tile_id, sizeof m->tile_id, id);
    m->tile = (int16_t)(strlen(id) < sizeof m->tile_id ? tile_find(id) : -1);
    m->draw = *r->draw;
    *r->draw = -1.0;
    return ST_OK;
}

static const char *const rots[4] = { "R0", "R90", "R180", "R270" };

static enum status rd_rotation(const cJSON *v, const struct jpath *jp,
                               struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    if (!cJSON_IsString(v))
        return err_set(e, ST_PARSE, "%s: expected R0..R270", spell(jp, path));
    int k = 0;
    while (k < 4 && !mlog_same(rots[k], v->valuestring))
        k++;
    if (k == 4)
        return err_set(e, ST_PARSE, "%s: '%.20s' is not R0, R90, R180 or "
                       "R270", spell(jp, path), v->valuestring);
    r->m->rot = (uint8_t)k;
    return ST_OK;
}

/* The random number of the next draw: in [0, 1), or absent (null) when
 * the save does not know it. */
static enum status next_draw(const cJSON *v, const struct jpath *jp,
                             struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    *r->draw = -1.0;
    if (!v || cJSON_IsNull(v))
        return ST_OK;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1))
        return err_set(e, ST_PARSE, "%s: expected a number in [0, 1) (the "
                       "random number of the next draw)", spell(jp, path));
    *r->draw = v->valuedouble;
    return ST_OK;
}

/* "$random" in a payload with a pointer (which comes first) is the
 * die's, which only a flight (onto the flying machine) has; in one
 * without, the random number of the next draw. */
static enum status rd_random(const cJSON *v, const struct jpath *jp,
                             struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    struct move *m = r->m;
    if (!r->pointer)
        return next_draw(v, jp, r, e);
    /* Without a random number a flight is no roll at all: the auditor
     * judges it (a landing on the machine, or a bad roll). */
    if (m->feature != FEAT_FLIER || !v)
        return ST_OK;
    if (!cJSON_IsNumber(v))
        return err_set(e, ST_PARSE, "%s: expected a number", spell(jp, path));
    if (!mlog_random_ok(v->valuedouble))
        return err_set(e, ST_PARSE, "%s: %g is no die's random number "
                       "(JCloisterZone's are in [0, 1))", spell(jp, path),
                       v->valuedouble);
    m->roll = mlog_roll_of(v->valuedouble);
    /* the die's own number, when the writer would not give it back */
    m->draw = mlog_flight_draw(v->valuedouble, m->roll);
    return ST_OK;
}

/* ---- writing ---------------------------------------------------------- */

static cJSON *pos_json(struct pos p)
{
    int xy[2] = {p.x, p.y};
    return cJSON_CreateIntArray(xy, 2);
}

static cJSON *wr_position(const struct move *m, double draw)
{
    (void)draw;
    return pos_json(m->at);
}

/* JCloisterZone's name of a feature kind, from its class; "None" for
 * one a save cannot point at (no reader makes such a move). */
static const char *jcz_feature(int kind)
{
    const char *jcz = feature_class(kind)->jcz;
    return jcz ? jcz : "None";
}

/* JCZ location of (kind, mask): our notation without its "feature:"
 * prefix ("city:NE" -> "NE"); "I" for inner features; a spot's name. */
static void jcz_location(int kind, uint8_t mask, char *out, size_t len)
{
    char seg[48];
    const char *colon;
    if (feat_shape(kind) == SHAPE_SPOTS && mask) {
        snprintf(out, len, "%s", tile_spot_jcz(__builtin_ctz(mask)));
        return;
    }
    seg_format(kind, mask, seg, sizeof seg);
    colon = strchr(seg, ':');
    snprintf(out, len, "%s", colon ? colon + 1 : "I");
}

static cJSON *wr_pointer(const struct move *m, double draw)
{
    char loc[48];
    cJSON *o = cJSON_CreateObject();
    (void)draw;
    jcz_location(m->feature, m->mask, loc, sizeof loc);
    cJSON_AddItemToObject(o, "position", pos_json(m->at));
    cJSON_AddStringToObject(o, "feature", jcz_feature(m->feature));
    cJSON_AddStringToObject(o, "location", loc);
    return o;
}

/* A meeple no seat names is the mover's (the first seat's, if none). */
static cJSON *wr_meeple(const struct move *m, double draw)
{
    char id[32];
    int owner = m->meeple_owner >= 0 ? m->meeple_owner
                                     : (m->player >= 0 ? m->player : 0);
    (void)draw;
    snprintf(id, sizeof id, "%d.%s.%d", owner, figure_class(m->meeple)->jcz,
             (int)m->meeple_n);
    return cJSON_CreateString(id);
}

static cJSON *wr_tile(const struct move *m, double draw)
{
    const struct tile_def *t = m->tile >= 0 ? tile_get(m->tile) : NULL;
    (void)draw;
    return cJSON_CreateString(m->tile_id[0] || !t ? m->tile_id : t->id);
}

static cJSON *wr_rotation(const struct move *m, double draw)
{
    (void)draw;
    return cJSON_CreateString(rots[m->rot & 3]);
}

/* The die's random number (rd_random_done()): the one the log keeps
 * (mlog_flight_draw()), else the middle of the roll's third, which no
 * rounding can move; or the next draw's. NULL: the key is left out. */
static cJSON *wr_random(const struct move *m, double draw, bool pointer)
{
    if (!pointer)
        return draw >= 0 ? jcz_number(draw) : NULL;
    if (m->feature != FEAT_FLIER)
        return NULL;
    if (m->draw >= 0 && m->draw < 1 && mlog_roll_of(m->draw) == m->roll)
        return jcz_number(m->draw);
    return jcz_number(mlog_roll_random(m->roll));
}

/* A small integer the move keeps (an index, an amount of points). */
static enum status rd_int(const cJSON *v, const struct jpath *jp,
                          int16_t *out, struct err *e)
{
    char path[PATH_MAX_LEN];
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < 0 || v->valuedouble > 10000)
        return err_set(e, ST_PARSE, "%s: expected an integer in 0..10000",
                       spell(jp, path));
    *out = (int16_t)v->valuedouble;
    return ST_OK;
}

static enum status rd_index(const cJSON *v, const struct jpath *jp,
                            struct rd *r, struct err *e)
{
    return rd_int(v, jp, &r->m->index, e);
}

static enum status rd_amount(const cJSON *v, const struct jpath *jp,
                             struct rd *r, struct err *e)
{
    return rd_int(v, jp, &r->m->amount, e);
}

static cJSON *wr_index(const struct move *m, double draw)
{
    (void)draw;
    return cJSON_CreateNumber(m->index);
}

static cJSON *wr_amount(const struct move *m, double draw)
{
    (void)draw;
    return cJSON_CreateNumber(m->amount);
}

/* A random number the move itself uses (a token drawn from a bag), in
 * [0, 1): m->draw; absent when the save does not know it. */
static enum status rd_own_random(const cJSON *v, const struct jpath *jp,
                                 struct rd *r, struct err *e)
{
    char path[PATH_MAX_LEN];
    r->m->draw = -1.0;
    if (!v || cJSON_IsNull(v))
        return ST_OK;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 1))
        return err_set(e, ST_PARSE, "%s: expected a number in [0, 1) (the "
                       "move's random number)", spell(jp, path));
    r->m->draw = v->valuedouble;
    return ST_OK;
}

static cJSON *wr_own_random(const struct move *m, double draw)
{
    (void)draw;
    return m->draw >= 0 && m->draw < 1 ? jcz_number(m->draw) : NULL;
}

/* ---- the codec table --------------------------------------------------- */

enum { C_CONST, C_POSITION, C_POINTER, C_MEEPLE, C_TILE, C_ROTATION, C_RANDOM,
       C_INDEX, C_AMOUNT, C_OWN_RANDOM };

static const struct codec {
    const char *name;
    enum status (*read)(const cJSON *v, const struct jpath *jp, struct rd *r,
                        struct err *e);
    cJSON *(*write)(const struct move *m, double draw); /* NULL: random */
} codecs[] = {
    [C_POSITION] = {"$position", rd_position, wr_position},
    [C_POINTER] = {"$pointer", rd_pointer, wr_pointer},
    [C_MEEPLE] = {"$meeple", rd_meeple, wr_meeple},
    [C_TILE] = {"$tile", rd_tile, wr_tile},
    [C_ROTATION] = {"$rotation", rd_rotation, wr_rotation},
    [C_RANDOM] = {"$random", rd_random, NULL},
    [C_INDEX] = {"$index", rd_index, wr_index},
    [C_AMOUNT] = {"$amount", rd_amount, wr_amount},
    [C_OWN_RANDOM] = {"$own_random", rd_own_random, wr_own_random},
};
#define N_CODECS (int)(sizeof codecs / sizeof *codecs)

/* A template item's codec: C_CONST for a constant or an object. */
static int codec_of(const cJSON *t)
{
    return cJSON_IsString(t) ? t->valueint : C_CONST;
}

/* ---- the templates ----------------------------------------------------- */

#define MAX_ROWS 64

/* The rows with a .jcz message, grouped by type: a type's rows follow
 * each other, in the units' order. */
struct jcz_type {
    const struct move_class *row;
    cJSON *tmpl;
    size_t len;   /* strlen(row->jcz) */
    bool pointer; /* the template has a "$pointer" */
    bool consts;  /* ... a constant */
    int rows;     /* the first row of a type: how many the type has */
};

static struct jcz_type types[MAX_ROWS];
static int n_types;
static pthread_once_t types_once = PTHREAD_ONCE_INIT;

/* Marks the codec of each "$field" in t (valueint), and whether the row
 * has a pointer, a constant; false for an unknown field, or a "$random"
 * before the pointer (rd_random() reads the pointer's feature). */
static bool compile(cJSON *t, struct jcz_type *row, bool *random)
{
    for (cJSON *c = t->child; c; c = c->next) {
        if (cJSON_IsObject(c) && !compile(c, row, random))
            return false;
        if (!cJSON_IsString(c) || c->valuestring[0] != '$') {
            if (cJSON_IsString(c))
                c->valueint = C_CONST;
            row->consts = row->consts || !cJSON_IsObject(c);
            continue;
        }
        int k = 1;
        while (k < N_CODECS && strcmp(codecs[k].name, c->valuestring) != 0)
            k++;
        if (k == N_CODECS || (k == C_POINTER && *random))
            return false;
        c->valueint = k;
        row->pointer = row->pointer || k == C_POINTER;
        *random = *random || k == C_RANDOM;
    }
    return true;
}

static void add_row(const struct move_class *row)
{
    if (n_types == MAX_ROWS)
        abort(); /* raise MAX_ROWS */
    struct jcz_type *t = &types[n_types++];
    t->row = row;
    t->len = strlen(row->jcz);
    bool random = false;
    t->pointer = t->consts = false;
    t->rows = 0;
    t->tmpl = cJSON_Parse(row->jcz_payload);
    if (!t->tmpl || !cJSON_IsObject(t->tmpl) ||
        !compile(t->tmpl, t, &random))
        abort(); /* a unit's template is broken: test_moves says which */
}

static void load_types(void)
{
    /* the trees outlive any parse: from the heap, not a parse's arena */
    bool parsing = mlog_alloc_pause();
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct move_class *c = expansion_get(u)->moves; c && c->name;
             c++) {
            bool seen = false;
            for (int k = 0; k < n_types; k++)
                seen = seen ||
                       strcmp(types[k].row->jcz, c->jcz ? c->jcz : "") == 0;
            if (!c->jcz || !c->jcz_payload || seen)
                continue;
            /* this type's rows, all units' */
            int first = n_types;
            for (int v = u; v < EXP__COUNT; v++)
                for (const struct move_class *d = expansion_get(v)->moves;
                     d && d->name; d++)
                    if (d->jcz && d->jcz_payload && strcmp(d->jcz, c->jcz) == 0)
                        add_row(d);
            types[first].rows = n_types - first;
        }
    mlog_alloc_resume(parsing);
}

void jcz_moves_init(void)
{
    pthread_once(&types_once, load_types);
}

/* By length and first byte before the whole name: a save has thousands of
 * messages. */
const struct jcz_type *jcz_move_type(const char *type)
{
    size_t n = strlen(type);
    for (int k = 0; k < n_types; k += types[k].rows) {
        const struct jcz_type *t = &types[k];
        if (t->len == n && t->row->jcz[0] == type[0] &&
            memcmp(t->row->jcz, type, n) == 0)
            return t;
    }
    return NULL;
}

/* ---- matching ------------------------------------------------------------ */

static bool const_equal(const cJSON *t, const cJSON *v)
{
    if (cJSON_IsString(t))
        return cJSON_IsString(v) && mlog_same(t->valuestring, v->valuestring);
    if (cJSON_IsNull(t)) /* nothing there: null, or the key left out */
        return !v || cJSON_IsNull(v);
    return v && cJSON_Compare(t, v, true);
}

/* Does v carry every constant of the template object t? */
static bool consts_match(const cJSON *t, const cJSON *v)
{
    for (const cJSON *c = t->child; c; c = c->next) {
        if (codec_of(c) != C_CONST)
            continue;
        const cJSON *x = mlog_get(v, c->string);
        if (cJSON_IsObject(c) ? !consts_match(c, x) : !const_equal(c, x))
            return false;
    }
    return true;
}

/* dst = path + "." + key, cut to size. */
static void join(char *dst, size_t size, const char *path, const char *key)
{
    size_t n = strlen(path);
    if (n + 2 > size)
        n = size - 2;
    memcpy(dst, path, n);
    dst[n] = '.';
    mlog_copy_text(dst + n + 1, size - n - 1, key);
}

/* The first constant of t that v lacks, as an unsupported message. */
static enum status mismatch(const char *type, const cJSON *t, const cJSON *v,
                            const char *path, struct err *e)
{
    char sub[112];
    for (const cJSON *c = t->child; c; c = c->next) {
        if (codec_of(c) != C_CONST)
            continue;
        const cJSON *x = mlog_get(v, c->string);
        join(sub, sizeof sub, path, c->string);
        if (cJSON_IsObject(c) && !consts_match(c, x))
            return mismatch(type, c, x, sub, e);
        if (!cJSON_IsObject(c) && !const_equal(c, x))
            return err_set(e, ST_UNSUPPORTED,
                           "unsupported: %s %s '%.40s' "
                           "(%s)",
                           type, c->string,
                           cJSON_IsString(x) ? x->valuestring : "(none)", sub);
    }
    return err_set(e, ST_UNSUPPORTED, "unsupported: %s (%s)", type, path);
}

/* The fields of template object t from v onto the move. */
static enum status read_fields(const cJSON *t, const cJSON *v,
                               const struct jpath *jp, struct rd *r,
                               struct err *e)
{
    char path[PATH_MAX_LEN];
    if (!cJSON_IsObject(v))
        return err_set(e, ST_PARSE, "%s: expected an object",
                       spell(jp, path));
    for (const cJSON *c = t->child; c; c = c->next) {
        int k = codec_of(c);
        if (k == C_CONST && !cJSON_IsObject(c))
            continue; /* matched before */
        struct jpath sub = { jp, c->string };
        const cJSON *x = mlog_get(v, c->string);
        if (k == C_CONST ? read_fields(c, x, &sub, r, e)
                         : codecs[k].read(x, &sub, r, e))
            return e->code;
    }
    return ST_OK;
}

enum status jcz_move_read(const struct jcz_type *t, const cJSON *payload,
                          const char *path, struct move *m, double *draw,
                          struct err *e)
{
    const struct jcz_type *first = t, *end = t + t->rows;
    while (t < end && t->consts && !consts_match(t->tmpl, payload))
        t++;
    if (t == end)
        return mismatch(first->row->jcz, first->tmpl, payload, path, e);
    struct rd r = { .row = t->row, .m = m, .draw = draw,
                    .pointer = t->pointer };
    struct jpath root = { NULL, path };
    m->kind = t->row->kind;
    m->neutral = t->row->neutral;
    return read_fields(t->tmpl, payload, &root, &r, e);
}

/* ---- writing by the template ------------------------------------------- */

static cJSON *write_fields(const cJSON *t, const struct move *m, double draw,
                           bool pointer)
{
    cJSON *o = cJSON_CreateObject();
    for (const cJSON *c = t->child; c; c = c->next) {
        int k = codec_of(c);
        cJSON *v = k == C_RANDOM       ? wr_random(m, draw, pointer)
                   : k != C_CONST      ? codecs[k].write(m, draw)
                   : cJSON_IsObject(c) ? write_fields(c, m, draw, pointer)
                                       : cJSON_Duplicate(c, true);
        if (v)
            cJSON_AddItemToObject(o, c->string, v);
    }
    return o;
}

cJSON *jcz_move_payload(const struct move *m, double draw, const char **type)
{
    const struct move_class *row = move_class_of(m->kind, m->neutral);
    jcz_moves_init();
    for (int k = 0; row && k < n_types; k++)
        if (types[k].row == row) {
            *type = row->jcz;
            return write_fields(types[k].tmpl, m, draw, types[k].pointer);
        }
    return NULL;
}
