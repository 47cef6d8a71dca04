/* c3.c - the third edition's action in a flierlog turn entry: "recall",
 * the abbot taken back and scored: [x, y] (the monastery or garden of the
 * tile there) or {"at": [x, y], "segment"?: ...}. */
#include "mlog/fl_turn.h"

/* "recall": [x, y] or {"at": [x, y], "segment"?: ...}. */
static enum status read_recall(const struct fl_entry *en, const cJSON *obj,
                               const cJSON *v, const char *path,
                               const struct move *place,
                               const struct move *meeple, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    const cJSON *seg = NULL;
    (void)obj, (void)place;
    if (cJSON_IsArray(v)) {
        if (fl_get_pos(c, v, path, &m.at, e))
            return e->code;
    } else if (cJSON_IsObject(v)) {
        if (fl_get_pos(c, mlog_get(v, "at"), fl_sub(s, path, "at"), &m.at, e))
            return e->code;
        seg = mlog_get(v, "segment");
    } else {
        return fl_bad(c, e, path,
                      "expected [x, y] or {\"at\": [x, y], "
                      "\"segment\": ...}");
    }
    if (seg) {
        if (fl_get_segment(c, seg, fl_sub(s, path, "segment"), &m.feature,
                           &m.mask, e))
            return e->code;
    } else {
        fl_recall_segment(c, m.at, &m.feature, &m.mask);
    }
    fl_emit(en, MV_RECALL, &m);
    return ST_OK;
}

/* [x, y] when the reader finds the segment from the board, else
 * {"at", "segment"}. */
static cJSON *recall_json(const struct fl_ctx *c, const struct move *m)
{
    uint8_t kind, mask;
    fl_recall_segment(c, m->at, &kind, &mask);
    if (kind == m->feature && mask == m->mask)
        return fl_pos_json(m->at);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "at", fl_pos_json(m->at));
    cJSON_AddItemToObject(o, "segment", fl_seg_json(m->feature, m->mask));
    return o;
}

static bool write_recall(const struct fl_ctx *c, cJSON *o, const struct move *p,
                         const struct move *a, size_t n)
{
    (void)p;
    if (n != 1 || a[0].kind != MV_RECALL)
        return false;
    cJSON_AddItemToObject(o, "recall", recall_json(c, &a[0]));
    return true;
}

static const struct fl_action actions[] = {
    {.key = "recall",
     .meeple = "abbot.1",
     .noun = "a recall",
     .read = read_recall,
     .write = write_recall},
    {.key = NULL},
};

const struct fl_turn_unit fl_turn_c3 = {.actions = actions};
