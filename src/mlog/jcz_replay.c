/* jcz_replay.c - the replay message list of a .jcz save. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlog/mlog_int.h"

/* A coordinate as JCloisterZone writes it: an integer, well inside an
 * int. */
static bool coord_ok(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
           v->valuedouble >= -1000000 && v->valuedouble <= 1000000;
}

/* [x, y] at path + suffix (".position"); the path is spelled out only
 * for a message, since every move has a position or two. */
static enum status read_pos(const cJSON *v, const char *path,
                            const char *suffix, struct pos *p, struct err *e)
{
    char at[96], sub[104];
    const cJSON *x = cJSON_IsArray(v) ? v->child : NULL;
    const cJSON *y = x ? x->next : NULL;
    if (y && !y->next && coord_ok(x) && coord_ok(y)) {
        p->x = (int)x->valuedouble;
        p->y = (int)y->valuedouble;
        return ST_OK;
    }
    mlog_path(at, sizeof at, path, suffix);
    if (!y || y->next)
        return err_set(e, ST_PARSE, "%s: expected [x, y]", at);
    mlog_path(sub, sizeof sub, at, "[0]");
    if (jcz_int(x, sub, -1000000, 1000000, &p->x, e))
        return e->code;
    mlog_path(sub, sizeof sub, at, "[1]");
    return jcz_int(y, sub, -1000000, 1000000, &p->y, e);
}

static const char *str_at(const cJSON *obj, const char *key)
{
    const cJSON *v = mlog_get(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "<seat>.<kind>.<n>": seat and n are kept as written (an id beyond the
 * supply is the auditor's MEEPLE_NONE_LEFT, not a parse error). */
/* Up to `most` decimal digits at *p: their value, *p moved past them; -1
 * if there are none. */
static int digits(const char **p, int most)
{
    int v = 0, k = 0;
    for (; k < most && **p >= '0' && **p <= '9'; k++, (*p)++)
        v = v * 10 + (**p - '0');
    return k ? v : -1;
}

enum status mlog_meeple_id(const char *id, const char *path, struct move *m,
                           struct err *e)
{
    char kind[16];
    size_t k = 0;
    const char *p = id;
    int seat = digits(&p, 3), n = -1;
    if (seat >= 0 && *p == '.') {
        for (p++; k < 15 && *p >= 'a' && *p <= 'z'; p++)
            kind[k++] = *p;
        kind[k] = '\0';
        if (k > 0 && *p == '.') {
            p++;
            n = digits(&p, 3);
        }
    }
    if (n < 0 || *p != '\0') /* "<1-3 digits>.<a-z, 1-15>.<1-3 digits>" */
        return err_set(e, ST_PARSE, "%s: '%.40s' is not <seat>.<kind>.<n>",
                       path, id);
    int fig = figure_find(kind);
    if (fig < 0) {
        const char *name = expansion_unsupported(kind);
        if (name)
            return err_set(e, ST_UNSUPPORTED, "unsupported: meeple kind '%s' "
                           "(%s) belongs to %s, not audited yet", kind, path,
                           name);
        return err_set(e, ST_UNSUPPORTED, "unsupported: meeple kind '%s' "
                       "(%s) belongs to another expansion", kind, path);
    }
    m->meeple = (uint8_t)fig;
    m->meeple_owner = (int8_t)(seat < GAME_MAX_PLAYERS ? seat : 127);
    m->meeple_n = (uint8_t)(n >= 1 && n < 255 ? n : 255); /* 255: no such */
    return ST_OK;
}

static enum status read_meeple_id(const cJSON *payload, const char *path,
                                  struct move *m, struct err *e)
{
    char sub[112];
    const char *id = str_at(payload, "meepleId");
    mlog_path(sub, sizeof sub, path, ".meepleId");
    if (!id)
        return err_set(e, ST_PARSE, "%s: expected a string", sub);
    return mlog_meeple_id(id, sub, m, e);
}

static enum status read_pointer(const cJSON *ptr, const char *path,
                                struct move *m, struct err *e)
{
    const char *feat, *loc;
    if (!cJSON_IsObject(ptr))
        return err_set(e, ST_PARSE, "%s: expected an object", path);
    if (read_pos(mlog_get(ptr, "position"), path, ".position", &m->at, e))
        return e->code;
    feat = str_at(ptr, "feature");
    loc = str_at(ptr, "location");
    if (!feat || !loc)
        return err_set(e, ST_PARSE, "%s: expected feature and location",
                       path);
    int kind = feat_find_jcz(feat);
    if (kind < 0)
        return err_set(e, ST_UNSUPPORTED, "unsupported: feature '%.40s' "
                       "(%s.feature)", feat, path);
    m->feature = (uint8_t)kind;
    if (!loc_parse(m->feature, loc, &m->mask))
        return err_set(e, ST_PARSE, "%s.location: '%.40s' is no location of "
                       "a %s", path, loc, feat);
    return ST_OK;
}

int mlog_roll_of(double r)
{
    /* JCloisterZone: (int)(random * 3) + 1, in doubles as written */
    double x = r * 3.0;
    if (!isfinite(x) || x >= MLOG_ROLL_MAX || x < -MLOG_ROLL_MAX - 1)
        return 1000000;
    return (int)floor(x) + 1;
}

bool mlog_random_ok(double r)
{
    double x = r * 3.0;
    return isfinite(x) && x < MLOG_ROLL_MAX && x >= -MLOG_ROLL_MAX - 1;
}

double mlog_roll_random(int roll)
{
    return (roll - 1) / 3.0 + 1.0 / 6.0;
}

double mlog_flight_draw(double random, int roll)
{
    if (!(random >= 0 && random < 1) || mlog_roll_of(random) != roll ||
        random == mlog_roll_random(roll))
        return -1.0;
    return random;
}

static enum status read_place(const cJSON *p, const char *path,
                              struct move *m, struct err *e)
{
    const char *id = str_at(p, "tileId"), *rot = str_at(p, "rotation");
    m->kind = MV_PLACE;
    if (!id)
        return err_set(e, ST_PARSE, "%s.tileId: expected a string", path);
    mlog_copy_text(m->tile_id, sizeof m->tile_id, id);
    m->tile = (int16_t)(strlen(id) < sizeof m->tile_id ? tile_find(id) : -1);
    if (!rot)
        return err_set(e, ST_PARSE, "%s.rotation: expected R0..R270", path);
    static const char *const rots[4] = { "R0", "R90", "R180", "R270" };
    int r = 0;
    while (r < 4 && !mlog_same(rots[r], rot))
        r++;
    if (r == 4)
        return err_set(e, ST_PARSE, "%s.rotation: '%.20s' is not R0, R90, "
                       "R180 or R270", path, rot);
    m->rot = (uint8_t)r;
    return read_pos(mlog_get(p, "position"), path, ".position", &m->at, e);
}

static enum status read_deploy(const cJSON *p, const char *path,
                               struct move *m, struct err *e)
{
    char sub[96];
    const cJSON *rnd;
    m->kind = MV_DEPLOY;
    mlog_path(sub, sizeof sub, path, ".pointer");
    if (read_pointer(mlog_get(p, "pointer"), sub, m, e)
        || read_meeple_id(p, path, m, e))
        return e->code;
    rnd = mlog_get(p, "random");
    /* Without a random number a FlyingMachine deploy is no roll at all:
     * the auditor judges it (a landing on the machine, or a bad roll). */
    if (m->feature == FEAT_FLIER && rnd) {
        if (!cJSON_IsNumber(rnd))
            return err_set(e, ST_PARSE, "%s.random: expected a number", path);
        if (!mlog_random_ok(rnd->valuedouble))
            return err_set(e, ST_PARSE, "%s.random: %g is no die's random "
                           "number (JCloisterZone's are in [0, 1))", path,
                           rnd->valuedouble);
        m->roll = mlog_roll_of(rnd->valuedouble);
        /* the die's own number, when the writer would not give it back */
        m->draw = mlog_flight_draw(rnd->valuedouble, m->roll);
    }
    return ST_OK;
}

static enum status read_return(const cJSON *p, const char *path,
                               struct move *m, struct err *e)
{
    char sub[96];
    const char *src = str_at(p, "source");
    const cJSON *ptr = mlog_get(p, "pointer");
    m->kind = MV_RECALL;
    if (src && strcmp(src, "PRINCESS") == 0)
        m->kind = MV_PRINCESS;
    else if (!src || strcmp(src, "ABBOT_RETURN") != 0)
        return err_set(e, ST_UNSUPPORTED, "unsupported: RETURN_MEEPLE source "
                       "'%.40s' (%s.source)", src ? src : "(none)", path);
    mlog_path(sub, sizeof sub, path, ".pointer.featurePointer");
    if (read_pointer(mlog_get(ptr, "featurePointer"),
                     sub, m, e))
        return e->code;
    mlog_path(sub, sizeof sub, path, ".pointer");
    return read_meeple_id(ptr, sub, m, e);
}

/* The Tower: PLACE_TOKEN {token: TOWER_PIECE, pointer: the tower's
 * feature pointer}, a floor. */
static enum status read_token(const cJSON *p, const char *path,
                              struct move *m, struct err *e)
{
    char sub[96];
    const char *token = str_at(p, "token");
    m->kind = MV_TOWER;
    if (!token || strcmp(token, "TOWER_PIECE") != 0)
        return err_set(e, ST_UNSUPPORTED, "unsupported: PLACE_TOKEN token "
                       "'%.40s' (%s.token)", token ? token : "(none)", path);
    snprintf(sub, sizeof sub, "%s.pointer", path);
    if (read_pointer(mlog_get(p, "pointer"), sub, m,
                     e))
        return e->code;
    if (m->feature != FEAT_TOWER)
        return err_set(e, ST_PARSE, "%s.feature: a tower piece goes on a "
                       "Tower", sub);
    return ST_OK;
}

/* The Tower: CAPTURE_FOLLOWER {pointer: {featurePointer, meepleId}}. */
static enum status read_capture(const cJSON *p, const char *path,
                                struct move *m, struct err *e)
{
    char sub[96];
    const cJSON *ptr = mlog_get(p, "pointer");
    m->kind = MV_CAPTURE;
    snprintf(sub, sizeof sub, "%s.pointer.featurePointer", path);
    if (read_pointer(mlog_get(ptr, "featurePointer"),
                     sub, m, e))
        return e->code;
    snprintf(sub, sizeof sub, "%s.pointer", path);
    return read_meeple_id(ptr, sub, m, e);
}

/* MOVE_NEUTRAL_FIGURE: {figureId, to}. "dragon.1" steps to a position
 * [x, y]; "fairy.1" goes beside a follower, to {featurePointer,
 * meepleId}; "count.1" to a quarter of Carcassonne, {position, location,
 * feature}. */
static enum status read_neutral(const cJSON *p, const char *path,
                                struct move *m, struct err *e)
{
    char sub[112];
    const char *id = str_at(p, "figureId");
    const cJSON *to = mlog_get(p, "to");
    m->kind = MV_NEUTRAL;
    snprintf(sub, sizeof sub, "%s.to", path);
    if (!id)
        return err_set(e, ST_PARSE, "%s.figureId: expected a string", path);
    if (strcmp(id, "dragon.1") == 0) {
        m->neutral = FIG_DRAGON;
        return read_pos(to, sub, "", &m->at, e);
    }
    if (strcmp(id, "fairy.1") == 0) {
        m->neutral = FIG_FAIRY;
        if (!cJSON_IsObject(to))
            return err_set(e, ST_PARSE, "%s: expected an object", sub);
        snprintf(sub, sizeof sub, "%s.to.featurePointer", path);
        if (read_pointer(mlog_get(to,
                                                          "featurePointer"),
                         sub, m, e))
            return e->code;
        snprintf(sub, sizeof sub, "%s.to", path);
        return read_meeple_id(to, sub, m, e);
    }
    int fig = strncmp(id, "count.", 6) == 0 ? figure_find("count") : -1;
    if (fig >= 0) {
        m->neutral = (uint8_t)fig;
        return read_pointer(to, sub, m, e);
    }
    return err_set(e, ST_UNSUPPORTED, "unsupported: neutral figure "
                   "'%.40s' (%s.figureId)", id, path);
}

/* "player": a seat number, or absent (null). A seat outside the players
 * array names nobody (the auditor takes the player on turn); a number
 * that is no seat at all (0.5, 1e20) is malformed. */
static enum status read_player(const cJSON *msg, uint32_t i,
                               const struct game_log *l, struct move *m,
                               struct err *e)
{
    const cJSON *v = mlog_get(msg, "player");
    if (!v || cJSON_IsNull(v))
        return ST_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        v->valuedouble < -1e6 || v->valuedouble > 1e6)
        return err_set(e, ST_PARSE, "replay[%u].player: expected a seat "
                       "number (0..%d)", i, l->rules.n_players - 1);
    if (v->valuedouble >= 0 && v->valuedouble < l->rules.n_players)
        m->player = (int8_t)v->valuedouble;
    return ST_OK;
}

/* A COMMIT's random number draws the next tile: in [0, 1), or absent
 * (null) when the save does not know it (-1). */
static enum status read_commit(const cJSON *payload, const char *path,
                               double *draw, struct err *e)
{
    const cJSON *r = mlog_get(payload, "random");
    *draw = -1.0;
    if (!r || cJSON_IsNull(r))
        return ST_OK;
    if (!cJSON_IsNumber(r) || !(r->valuedouble >= 0 && r->valuedouble < 1))
        return err_set(e, ST_PARSE, "%s.random: expected a number in [0, 1) "
                       "(the random number of the next draw)", path);
    *draw = r->valuedouble;
    return ST_OK;
}

/* "replay[i].payload", for messages: made for each of a save's thousands
 * of messages, so without strlen or printf. */
static void msg_path(char path[48], uint32_t i)
{
    char digits[10];
    int n = 0;
    char *p = path + 7;
    memcpy(path, "replay[", 7);
    do {
        digits[n++] = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    while (n)
        *p++ = digits[--n];
    memcpy(p, "].payload", 10);
}

/* The replay's message types, each with its reader (one signature for
 * all: the draw is the number that draws the next tile). */
typedef enum status (*msg_reader)(const cJSON *payload, const char *path,
                                  struct move *m, double *draw,
                                  struct err *e);

static enum status msg_place(const cJSON *p, const char *path, struct move *m,
                             double *draw, struct err *e)
{
    if (read_place(p, path, m, e))
        return e->code;
    m->draw = *draw;
    *draw = -1.0;
    return ST_OK;
}

static enum status msg_pass(const cJSON *p, const char *path, struct move *m,
                            double *draw, struct err *e)
{
    (void)p, (void)path, (void)draw, (void)e;
    m->kind = MV_PASS;
    return ST_OK;
}

static enum status msg_commit(const cJSON *p, const char *path,
                              struct move *m, double *draw, struct err *e)
{
    m->kind = MV_COMMIT;
    return read_commit(p, path, draw, e);
}

static enum status msg_ransom(const cJSON *p, const char *path,
                              struct move *m, double *draw, struct err *e)
{
    (void)draw;
    m->kind = MV_RANSOM;
    return read_meeple_id(p, path, m, e);
}

static enum status msg_exchange(const cJSON *p, const char *path,
                                struct move *m, double *draw, struct err *e)
{
    (void)draw;
    m->kind = MV_EXCHANGE; /* The Tower: the prisoner taken back */
    return read_meeple_id(p, path, m, e);
}

#define MSG_ONLY(name, reader)                                                \
    static enum status name(const cJSON *p, const char *path, struct move *m, \
                            double *draw, struct err *e)                      \
    {                                                                         \
        (void)draw;                                                           \
        return reader(p, path, m, e);                                         \
    }
MSG_ONLY(msg_deploy, read_deploy)
MSG_ONLY(msg_neutral, read_neutral)
MSG_ONLY(msg_return, read_return)
MSG_ONLY(msg_token, read_token)
MSG_ONLY(msg_capture, read_capture)
#undef MSG_ONLY

static const struct msg_type {
    const char *type;
    size_t len;
    msg_reader read;
} msg_types[] = {
#define T(s, f) { s, sizeof s - 1, f }
    T("PLACE_TILE", msg_place),
    T("DEPLOY_MEEPLE", msg_deploy),
    T("COMMIT", msg_commit),
    T("PASS", msg_pass),
    T("MOVE_NEUTRAL_FIGURE", msg_neutral),
    T("RETURN_MEEPLE", msg_return),
    T("PLACE_TOKEN", msg_token),
    T("CAPTURE_FOLLOWER", msg_capture),
    T("PAY_RANSOM", msg_ransom),
    T("EXCHANGE_FOLLOWER", msg_exchange),
#undef T
};

/* By length and first byte before the whole name: a save has thousands of
 * messages, and a strcmp per type tried was a few percent of reading. */
static msg_reader msg_find(const char *type)
{
    size_t n = strlen(type);
    for (size_t k = 0; k < sizeof msg_types / sizeof *msg_types; k++) {
        const struct msg_type *t = &msg_types[k];
        if (t->len == n && t->type[0] == type[0] &&
            memcmp(t->type, type, n) == 0)
            return t->read;
    }
    return NULL;
}

enum status jcz_read_replay(const cJSON *replay, double initial_random,
                            struct game_log *l, struct err *e)
{
    const cJSON *msg;
    uint32_t i = 0;
    /* JCloisterZone draws each turn's tile with the random number of the
     * previous COMMIT (initialRandom for the first draw). */
    double draw = initial_random;
    if (!cJSON_IsArray(replay))
        return err_set(e, ST_PARSE, "replay: expected an array");
    cJSON_ArrayForEach(msg, replay) {
        char path[48];
        const char *type = str_at(msg, "type");
        const cJSON *payload = mlog_get(msg, "payload");
        struct move *m;
        msg_path(path, i);
        if (!type)
            return err_set(e, ST_PARSE, "replay[%u].type: expected a string",
                           i);
        if (!cJSON_IsObject(payload))
            return err_set(e, ST_PARSE, "%s: expected an object", path);
        if (strcmp(type, "UNDO") == 0) {
            /* takes the player's last message of the turn back */
            if (l->n_moves == 0 || l->moves[l->n_moves - 1].kind == MV_COMMIT)
                return err_set(e, ST_PARSE, "replay[%u]: UNDO with nothing "
                               "of the turn to undo", i);
            if (l->moves[l->n_moves - 1].kind == MV_PLACE)
                draw = l->moves[l->n_moves - 1].draw;
            l->n_moves--;
            i++;
            continue;
        }
        msg_reader read = msg_find(type);
        if (!read)
            return err_set(e, ST_UNSUPPORTED, "unsupported: message type "
                           "'%.40s' (replay[%u].type)", type, i);
        m = game_log_push(l);
        m->src = i;
        if (read_player(msg, i, l, m, e) || read(payload, path, m, &draw, e))
            return e->code;
        i++;
    }
    return ST_OK;
}
