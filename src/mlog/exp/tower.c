/* tower.c - The Tower in a flierlog turn entry: the action "tower" (a
 * floor) with its "capture" and the capture's "exchange", and "ransom"
 * before the action. */
#include "mlog/fl_turn.h"

/* The Tower (1.3): "ransom": "0.small.2", the player buys their follower
 * back before the action. */
static enum status read_ransom(const struct fl_entry *en, const cJSON *obj,
                               struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = mlog_get(obj, "ransom");
    struct move m = fl_blank();
    if (!v)
        return ST_OK;
    if (fl_get_meeple_id(en->c, v, fl_sub(s, en->path, "ransom"), &m, e))
        return e->code;
    fl_emit(en, MV_RANSOM, &m);
    return ST_OK;
}

/* The Tower (1.3): "tower": [x, y], a floor on the tower there, and
 * "capture": {"at": [x, y], "segment": ..., "meeple_id": ...}, the
 * follower it takes prisoner. */
static enum status read_tower(const struct fl_entry *en, const cJSON *obj,
                              const cJSON *v, const char *path,
                              const struct move *place,
                              const struct move *meeple, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH], t[FL_PATH];
    const cJSON *cap = mlog_get(obj, "capture");
    struct move m = fl_blank();
    (void)place, (void)meeple;
    if (fl_get_pos(c, v, path, &m.at, e))
        return e->code;
    m.feature = FEAT_TOWER;
    fl_emit(en, MV_TOWER, &m);
    if (!cap)
        return ST_OK;
    fl_sub(s, en->path, "capture");
    m = fl_blank();
    if (!cJSON_IsObject(cap))
        return fl_bad(c, e, s, "expected {\"at\", \"segment\", \"meeple_id\"}");
    if (fl_get_pos(c, mlog_get(cap, "at"), fl_sub(t, s, "at"), &m.at, e) ||
        fl_get_segment(c, mlog_get(cap, "segment"), fl_sub(t, s, "segment"),
                       &m.feature, &m.mask, e) ||
        fl_get_meeple_id(c, mlog_get(cap, "meeple_id"),
                         fl_sub(t, s, "meeple_id"), &m, e))
        return e->code;
    fl_emit(en, MV_CAPTURE, &m);
    if (!mlog_get(cap, "exchange"))
        return ST_OK;
    m = fl_blank(); /* the prisoner the capturer takes back for it */
    if (fl_get_meeple_id(c, mlog_get(cap, "exchange"), fl_sub(t, s, "exchange"),
                         &m, e))
        return e->code;
    fl_emit(en, MV_EXCHANGE, &m);
    return ST_OK;
}

/* The Tower: "tower": [x, y], its "capture" (a[1]) and the capture's
 * "exchange" (a[2]). */
static bool write_tower(const struct fl_ctx *ctx, cJSON *o,
                        const struct move *p, const struct move *a, size_t n)
{
    (void)ctx, (void)p;
    if (a[0].kind != MV_TOWER || n > 3 || (n >= 2 && a[1].kind != MV_CAPTURE) ||
        (n >= 2 && a[1].meeple_owner < 0) ||
        (n == 3 && (a[2].kind != MV_EXCHANGE || a[2].meeple_owner < 0)))
        return false;
    cJSON_AddItemToObject(o, "tower", fl_pos_json(a[0].at));
    if (n >= 2) {
        cJSON *c = cJSON_AddObjectToObject(o, "capture");
        cJSON_AddItemToObject(c, "at", fl_pos_json(a[1].at));
        cJSON_AddItemToObject(c, "segment",
                              fl_seg_json(a[1].feature, a[1].mask));
        cJSON_AddItemToObject(c, "meeple_id", fl_meeple_id_json(&a[1]));
        if (n == 3)
            cJSON_AddItemToObject(c, "exchange", fl_meeple_id_json(&a[2]));
    }
    return true;
}

/* "ransom" before the action: the moves' first, when it is one. */
static int write_ransom(cJSON *o, const struct move *a, size_t n)
{
    if (n < 1 || a[0].kind != MV_RANSOM)
        return 0;
    if (a[0].meeple_owner < 0)
        return -1;
    cJSON_AddItemToObject(o, "ransom", fl_meeple_id_json(&a[0]));
    return 1;
}

/* flierlog/1.3: a game of The Tower, or a move of its. */
static bool needs_1_3(const struct game_log *l)
{
    if (l->rules.flags & RF_TOWER)
        return true;
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_TOWER || l->moves[i].kind == MV_CAPTURE ||
            l->moves[i].kind == MV_RANSOM || l->moves[i].kind == MV_EXCHANGE)
            return true;
    return false;
}

static const struct fl_action actions[] = {
    {.key = "tower",
     .meeple = NULL,
     .noun = "a tower floor",
     .with = "capture",
     .read = read_tower,
     .write = write_tower},
    {.key = NULL},
};

static const char *const keys[] = {"capture", "ransom", NULL};

const struct fl_turn_unit fl_turn_tower = {
    .needs_1_3 = needs_1_3,
    .actions = actions,
    .keys = keys,
    .read_before = read_ransom,
    .write_before = write_ransom,
};
