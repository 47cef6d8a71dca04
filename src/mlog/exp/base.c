/* base.c - the base game's action in a flierlog turn entry: "deploy", a
 * segment of the tile placed, or {"at": [x, y], "segment": ...} off it
 * (a barn stands on the tile south-east of its corner; the magic
 * portal). */
#include "mlog/fl_turn.h"

static enum status read_deploy(const struct fl_entry *en, const cJSON *obj,
                               const cJSON *v, const char *path,
                               const struct move *place,
                               const struct move *meeple, struct err *e)
{
    char t[FL_PATH];
    struct move m = *meeple;
    (void)obj;
    m.at = place->at;
    if (cJSON_IsObject(v)) {
        if (fl_get_pos(en->c, mlog_get(v, "at"), fl_sub(t, path, "at"), &m.at,
                       e) ||
            fl_get_segment(en->c, mlog_get(v, "segment"),
                           fl_sub(t, path, "segment"), &m.feature, &m.mask, e))
            return e->code;
    } else if (fl_get_segment(en->c, v, path, &m.feature, &m.mask, e)) {
        return e->code;
    }
    fl_emit(en, MV_DEPLOY, &m);
    return ST_OK;
}

static bool write_deploy(const struct fl_ctx *c, cJSON *o, const struct move *p,
                         const struct move *a, size_t n)
{
    (void)c;
    if (n != 1 || a[0].kind != MV_DEPLOY || a[0].feature == FEAT_FLIER)
        return false;
    if (a[0].at.x == p->at.x && a[0].at.y == p->at.y) {
        cJSON_AddItemToObject(o, "deploy",
                              fl_seg_json(a[0].feature, a[0].mask));
    } else { /* a barn's corner, or a deployment off the tile */
        cJSON *d = cJSON_AddObjectToObject(o, "deploy");
        cJSON_AddItemToObject(d, "at", fl_pos_json(a[0].at));
        cJSON_AddItemToObject(d, "segment",
                              fl_seg_json(a[0].feature, a[0].mask));
    }
    return true;
}

static const struct fl_action actions[] = {
    {.key = "deploy",
     .meeple = "",
     .noun = "a deployment",
     .read = read_deploy,
     .write = write_deploy},
    {.key = NULL},
};

const struct fl_turn_unit fl_turn_base = {.actions = actions};
