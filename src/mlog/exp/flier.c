/* flier.c - The Flier's action in a flierlog turn entry: "fly": {"roll":
 * R, "random"?: r, "land": ...}, the flight from the tile's flying
 * machine and where the figure lands (a segment of the tile the roll
 * aims at, {"at", "segment"} anywhere, or null / "returned"). */
#include <string.h>

#include "mlog/fl_turn.h"

static enum status read_land(const struct fl_entry *en, const cJSON *land,
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
            return fl_bad(c, e, path,
                          "%s %s no flying machine to aim with; "
                          "write {\"at\": [x, y], \"segment\": ...}",
                          place->tile_id,
                          place->tile < 0 ? "is unknown, so" : "has");
        if (fl_get_segment(c, land, path, &m.feature, &m.mask, e))
            return e->code;
    } else if (cJSON_IsObject(land)) {
        if (fl_get_pos(c, mlog_get(land, "at"), fl_sub(s, path, "at"), &m.at,
                       e) ||
            fl_get_segment(c, mlog_get(land, "segment"),
                           fl_sub(s, path, "segment"), &m.feature, &m.mask, e))
            return e->code;
    } else {
        return fl_bad(c, e, path,
                      "expected a segment, {\"at\": [x, y], "
                      "\"segment\": ...}, null or \"returned\"");
    }
    fl_emit(en, MV_DEPLOY, &m);
    return ST_OK;
}

static enum status read_fly(const struct fl_entry *en, const cJSON *obj,
                            const cJSON *fly, const char *path,
                            const struct move *place, const struct move *meeple,
                            struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    const cJSON *rnd, *land;
    (void)obj;
    if (!cJSON_IsObject(fly))
        return fl_bad(c, e, path, "expected {\"roll\": R, \"land\": ...}");
    if (fl_get_int(c, mlog_get(fly, "roll"), fl_sub(s, path, "roll"),
                   -FL_NUM_MAX, FL_NUM_MAX, &m.roll, e))
        return e->code;
    rnd = mlog_get(fly, "random");
    if (rnd) {
        if (!cJSON_IsNumber(rnd) || !mlog_random_ok(rnd->valuedouble))
            return fl_bad(c, e, fl_sub(s, path, "random"),
                          "expected a die's "
                          "random number (JCloisterZone's are in [0, 1))");
        if (mlog_roll_of(rnd->valuedouble) != m.roll)
            return fl_bad(c, e, fl_sub(s, path, "random"),
                          "%.17g rolls %d, not %d", rnd->valuedouble,
                          mlog_roll_of(rnd->valuedouble), m.roll);
        m.draw = mlog_flight_draw(rnd->valuedouble, m.roll);
    }
    m.at = place->at;
    m.feature = FEAT_FLIER;
    m.mask = 0;
    fl_emit(en, MV_DEPLOY, &m);
    land = mlog_get(fly, "land");
    if (!land || cJSON_IsNull(land) ||
        (cJSON_IsString(land) && strcmp(land->valuestring, "returned") == 0))
        return ST_OK; /* the meeple went back to supply */
    return read_land(en, land, fl_sub(s, path, "land"), place, &m, e);
}

static cJSON *fly_json(const struct move *place, const struct move *f,
                       const struct move *land)
{
    cJSON *o = cJSON_CreateObject();
    struct pos t;
    cJSON_AddNumberToObject(o, "roll", f->roll);
    if (f->draw >= 0 && f->draw < 1 && mlog_roll_of(f->draw) == f->roll)
        cJSON_AddNumberToObject(o, "random", f->draw);
    if (!land) {
        cJSON_AddStringToObject(o, "land", "returned");
    } else if (fl_flight_target(place, f->roll, &t) && t.x == land->at.x &&
               t.y == land->at.y) {
        cJSON_AddItemToObject(o, "land",
                              fl_seg_json(land->feature, land->mask));
    } else {
        cJSON *l = cJSON_AddObjectToObject(o, "land");
        cJSON_AddItemToObject(l, "at", fl_pos_json(land->at));
        cJSON_AddItemToObject(l, "segment",
                              fl_seg_json(land->feature, land->mask));
    }
    return o;
}

static bool write_fly(const struct fl_ctx *c, cJSON *o, const struct move *p,
                      const struct move *a, size_t n)
{
    (void)c;
    if (a[0].kind != MV_DEPLOY || a[0].feature != FEAT_FLIER ||
        !(n == 1 || (n == 2 && a[1].kind == MV_DEPLOY)))
        return false;
    cJSON_AddItemToObject(o, "fly", fly_json(p, &a[0], n == 2 ? &a[1] : NULL));
    return true;
}

static const struct fl_action actions[] = {
    {.key = "fly",
     .meeple = "",
     .noun = "a flight",
     .read = read_fly,
     .write = write_fly},
    {.key = NULL},
};

const struct fl_turn_unit fl_turn_flier = {.actions = actions};
