/* jcz.c - JCloisterZone .jcz saves -> struct game_log.
 *
 * A save is one JSON object: setup (sets, elements, rules, start), players
 * in seat order and the replay message list. We map each message to a
 * struct move one to one, keeping its index for error messages; rule
 * checking is the auditor's job, so an illegal but well-formed message is
 * never a parse error here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mlog/mlog_int.h"

static enum status need(const cJSON *obj, const char *key, const char *path,
                        cJSON **out, struct err *e)
{
    *out = mlog_get(obj, key);
    if (!*out)
        return err_set(e, ST_PARSE, "%s.%s: missing", path, key);
    return ST_OK;
}

enum status jcz_int(const cJSON *v, const char *path, int lo, int hi,
                    int *out, struct err *e)
{
    if (!cJSON_IsNumber(v))
        return err_set(e, ST_PARSE, "%s: expected an integer in %d..%d", path,
                       lo, hi);
    /* never cast what an int cannot hold (1e20, 1e999 read as inf) */
    if (v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return err_set(e, ST_PARSE, "%s: expected an integer in %d..%d, not "
                       "%.17g", path, lo, hi, v->valuedouble);
    *out = (int)v->valuedouble;
    return ST_OK;
}

static enum status read_sets(const cJSON *sets, struct rules *r, struct err *e)
{
    const cJSON *it;
    if (!cJSON_IsObject(sets))
        return err_set(e, ST_PARSE, "setup.sets: expected an object");
    cJSON_ArrayForEach(it, sets) {
        int idx = tile_set_find(it->string), n = 0;
        char path[96];
        if (idx < 0) {
            const char *name = expansion_unsupported(it->string);
            if (name)
                return err_set(e, ST_UNSUPPORTED, "unsupported: %s (tile set "
                               "'%.40s' in setup.sets) is not audited yet",
                               name, it->string);
            return err_set(e, ST_UNSUPPORTED, "unsupported: tile set '%.40s' "
                           "(setup.sets) belongs to an expansion flierd does "
                           "not know", it->string);
        }
        snprintf(path, sizeof path, "setup.sets.%s", it->string);
        if (jcz_int(it, path, 0, GAME_MAX_SET_COPIES, &n, e))
            return e->code;
        r->set_copies[idx] = (uint8_t)n;
    }
    if (game_pack_size(r) > GAME_MAX_TILES - 1)
        return err_set(e, ST_LIMIT, "setup.sets: %d tiles is more than the "
                       "%d a game may hold", game_pack_size(r),
                       GAME_MAX_TILES - 1);
    return ST_OK;
}

static bool truthy(const cJSON *v)
{
    return cJSON_IsTrue(v) || (cJSON_IsNumber(v) && v->valuedouble != 0);
}

/* One element of setup.elements, by the units' tables: a number of
 * figures per player (true counts 1) or a switch. */
static enum status read_element(const cJSON *it, struct rules *r,
                                struct err *e)
{
    char path[96];
    const char *k = it->string;
    const struct element *el = element_find(k, NULL);
    snprintf(path, sizeof path, "setup.elements.%.60s", k);
    if (!el) {
        const char *name = expansion_unsupported(k);
        if (!truthy(it) && !cJSON_IsString(it) && !cJSON_IsObject(it))
            return ST_OK; /* switched off: nothing to model */
        if (name)
            return err_set(e, ST_UNSUPPORTED, "unsupported: %s (game element "
                           "'%.60s' in setup.elements) is not audited yet",
                           name, k);
        return err_set(e, ST_UNSUPPORTED, "unsupported: game element '%.60s' "
                       "(setup.elements) belongs to an expansion flierd does "
                       "not model", k);
    }
    if (el->kind == EL_FLAG) {
        element_set(r, el, truthy(it));
        return ST_OK;
    }
    int n = 0;
    if (cJSON_IsBool(it))
        n = cJSON_IsTrue(it);
    else if (jcz_int(it, path, 0, el->max, &n, e))
        return e->code;
    element_set(r, el, n);
    return ST_OK;
}

static enum status read_elements(const cJSON *els, struct rules *r,
                                 struct err *e)
{
    const cJSON *it;
    r->figures[FIG_SMALL] = 7; /* JCloisterZone's default */
    if (!els)
        return ST_OK;
    if (!cJSON_IsObject(els))
        return err_set(e, ST_PARSE, "setup.elements: expected an object");
    cJSON_ArrayForEach(it, els) {
        if (read_element(it, r, e))
            return e->code;
    }
    return ST_OK;
}

/* setup.rules: the variants flierd models, by the options table; a
 * value is the option's number as a string ("2") or a number. */
static enum status read_rules(const cJSON *rules, struct rules *r,
                              struct err *e)
{
    const cJSON *it;
    if (!rules || cJSON_IsNull(rules))
        return ST_OK;
    if (!cJSON_IsObject(rules))
        return err_set(e, ST_PARSE, "setup.rules: expected an object");
    cJSON_ArrayForEach(it, rules) {
        int o = option_find(it->string);
        if (o < 0)
            return err_set(e, ST_UNSUPPORTED,
                           "unsupported: rule '%.60s' (setup.rules)",
                           it->string);
        const char *v = cJSON_IsString(it) ? it->valuestring : NULL;
        int value = v ? option_parse(o, v) : -1;
        if (value < 0)
            return err_set(e, ST_UNSUPPORTED, "unsupported: value of rule "
                           "'%s' (setup.rules)", option_key(o));
        r->opt[o] = value;
    }
    return ST_OK;
}

static enum status read_rotation_num(const cJSON *v, const char *path,
                                     int *rot, struct err *e)
{
    int deg = 0;
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (strcmp(s, "R0") == 0) { *rot = 0; return ST_OK; }
        if (strcmp(s, "R90") == 0) { *rot = 1; return ST_OK; }
        if (strcmp(s, "R180") == 0) { *rot = 2; return ST_OK; }
        if (strcmp(s, "R270") == 0) { *rot = 3; return ST_OK; }
        return err_set(e, ST_PARSE, "%s: expected R0, R90, R180 or R270",
                       path);
    }
    if (jcz_int(v, path, 0, 270, &deg, e))
        return e->code;
    if (deg % 90 != 0)
        return err_set(e, ST_PARSE, "%s: rotation must be 0, 90, 180 or 270",
                       path);
    *rot = deg / 90;
    return ST_OK;
}

/* One entry of setup.start: the tile, where, turned how. */
static enum status read_start_tile(const cJSON *s0, int i, int *tile,
                                   struct pos *at, int *rot, struct err *e)
{
    char path[64];
    const cJSON *v = mlog_get(s0, "tile");
    snprintf(path, sizeof path, "setup.start[%d].tile", i);
    if (!cJSON_IsString(v))
        return err_set(e, ST_PARSE, "%s: expected a tile id", path);
    *tile = tile_find(v->valuestring);
    if (*tile < 0)
        return err_set(e, ST_UNSUPPORTED, "unsupported: start tile '%.40s' "
                       "(%s)", v->valuestring, path);
    snprintf(path, sizeof path, "setup.start[%d].x", i);
    if (jcz_int(mlog_get(s0, "x"), path, -100, 100,
                &at->x, e))
        return e->code;
    snprintf(path, sizeof path, "setup.start[%d].y", i);
    if (jcz_int(mlog_get(s0, "y"), path, -100, 100,
                &at->y, e))
        return e->code;
    v = mlog_get(s0, "rotation");
    *rot = 0;
    if (!v)
        return ST_OK;
    snprintf(path, sizeof path, "setup.start[%d].rotation", i);
    return read_rotation_num(v, path, rot, e);
}

/* setup.start: one start tile, or several (the City of Carcassonne),
 * each on its own square. */
static enum status read_start(const cJSON *start, struct game_log *l,
                              struct err *e)
{
    if (!start) { /* JCloisterZone's default */
        l->start_tile = tile_find("BA/RCr");
        return ST_OK;
    }
    int n = cJSON_IsArray(start) ? cJSON_GetArraySize(start) : 0;
    if (n < 1 || n > LOG_MAX_STARTS)
        return err_set(e, ST_UNSUPPORTED, "unsupported: setup.start must hold "
                       "1 to %d start tiles", LOG_MAX_STARTS);
    for (int i = 0; i < n; i++) {
        int tile = -1, rot = 0;
        struct pos at = { 0, 0 };
        if (read_start_tile(cJSON_GetArrayItem(start, i), i, &tile, &at,
                            &rot, e))
            return e->code;
        for (int k = 0; k < i; k++) {
            struct start_place o = game_log_start(l, k);
            if (o.at.x == at.x && o.at.y == at.y)
                return err_set(e, ST_PARSE, "setup.start[%d]: (%d,%d) "
                               "already holds a start tile", i, at.x, at.y);
        }
        if (i == 0) {
            l->start_tile = tile;
            l->start_at = at;
            l->start_rot = rot;
        } else {
            l->more_starts[l->n_more_starts++] = (struct start_place){
                (int16_t)tile, (uint8_t)rot, at };
        }
    }
    return ST_OK;
}

static enum status read_players(const cJSON *players, struct game_log *l,
                                struct err *e)
{
    int n;
    if (!cJSON_IsArray(players))
        return err_set(e, ST_PARSE, "players: expected an array");
    n = cJSON_GetArraySize(players);
    if (n < 1 || n > GAME_MAX_PLAYERS)
        return err_set(e, ST_UNSUPPORTED, "unsupported: %d players (flierd "
                       "audits games of 1 to %d)", n, GAME_MAX_PLAYERS);
    l->rules.n_players = n;
    for (int i = 0; i < n; i++) {
        const cJSON *name = mlog_get(
            cJSON_GetArrayItem(players, i), "name");
        /* a name cut short could merge two players or split a character */
        if (cJSON_IsString(name) &&
            strlen(name->valuestring) >= sizeof l->names[i])
            return err_set(e, ST_PARSE, "players[%d].name: longer than %zu "
                           "bytes", i, sizeof l->names[i] - 1);
        if (cJSON_IsString(name))
            snprintf(l->names[i], sizeof l->names[i], "%s", name->valuestring);
        else
            snprintf(l->names[i], sizeof l->names[i], "Player %d", i + 1);
    }
    return ST_OK;
}

enum status jcz_read(const cJSON *root, struct game_log *l, struct err *e)
{
    cJSON *setup, *v;
    if (need(root, "setup", "$", &setup, e) ||
        need(setup, "sets", "setup", &v, e) || read_sets(v, &l->rules, e) ||
        read_elements(mlog_get(setup, "elements"),
                      &l->rules, e) ||
        read_rules(mlog_get(setup, "rules"), &l->rules,
                   e) ||
        read_start(mlog_get(setup, "start"), l, e) ||
        need(root, "players", "$", &v, e) || read_players(v, l, e))
        return e->code;
    v = mlog_get(
        mlog_get(root, "gameAnnotations"), "endTurn");
    if (v && jcz_int(v, "gameAnnotations.endTurn", 0, 100000, &l->end_turn, e))
        return e->code;
    if (need(root, "replay", "$", &v, e))
        return e->code;
    const cJSON *ir = mlog_get(root, "initialRandom");
    double initial = -1.0; /* unknown */
    if (ir && !cJSON_IsNull(ir)) {
        if (!cJSON_IsNumber(ir) || !(ir->valuedouble >= 0 &&
                                     ir->valuedouble < 1))
            return err_set(e, ST_PARSE, "initialRandom: expected a number in "
                           "[0, 1) (the random number of the first draw)");
        initial = ir->valuedouble;
    }
    if (jcz_read_replay(v, initial, l, e))
        return e->code;
    /* Test scenarios force their tiles with drawOrder: no draw to follow;
     * the numbers, which drew nothing, stay what the generator holds. */
    if (mlog_get(
            mlog_get(root, "gameAnnotations"),
            "drawOrder"))
        for (size_t i = 0; i < l->n_moves; i++)
            if (l->moves[i].kind == MV_PLACE) /* a flight keeps its die */
                l->moves[i].draw = log_forced_draw(l->moves[i].draw);
    v = mlog_get(root, "flierd");
    if (v && jcz_read_flierd(v, l, e))
        return e->code;
    /* a discard after the last COMMIT took its number */
    for (size_t i = l->n_moves; i-- > 0 && l->moves[i].kind != MV_COMMIT;)
        if (l->moves[i].kind == MV_DISCARD || l->moves[i].kind == MV_PLACE)
            l->end_draw = -1.0;
    return ST_OK;
}
