/* jcz_replay.c - the replay message list of a .jcz save: each message
 * read by the rows of its type (jcz_move.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlog/mlog_int.h"

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

enum status jcz_read_replay(const cJSON *replay, double initial_random,
                            struct game_log *l, struct err *e)
{
    const cJSON *msg;
    uint32_t i = 0;
    /* JCloisterZone draws each turn's tile with the random number of the
     * previous COMMIT (initialRandom for the first draw). */
    double draw = initial_random;
    jcz_moves_init();
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
        const struct jcz_type *t = jcz_move_type(type);
        if (!t)
            return err_set(e, ST_UNSUPPORTED, "unsupported: message type "
                           "'%.40s' (replay[%u].type)", type, i);
        m = game_log_push(l);
        m->src = i;
        if (read_player(msg, i, l, m, e) ||
            jcz_move_read(t, payload, path, m, &draw, e))
            return e->code;
        i++;
    }
    /* the last COMMIT's, which no draw took; 0, what our writer puts there
     * when it does not know it, reads as unknown */
    l->end_draw = draw > 0 ? draw : -1.0;
    return ST_OK;
}
