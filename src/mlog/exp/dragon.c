/* dragon.c - The Princess & the Dragon in a flierlog turn entry: the
 * actions "fairy" and "princess", and the dragon's steps after the
 * action ("dragon"). */
#include "mlog/fl_turn.h"

/* "fairy" (the fairy beside the entry's player's follower) or "princess"
 * (she sends a knight home): {"at": [x, y], "segment": ...}, the meeple
 * named as for a deployment. */
static enum status read_beside(const struct fl_entry *en, const cJSON *v,
                               const char *path, bool princess,
                               const struct move *meeple, struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    struct move m = *meeple;
    if (!cJSON_IsObject(v))
        return fl_bad(c, e, path,
                      "expected {\"at\": [x, y], \"segment\": "
                      "...}");
    if (fl_get_pos(c, mlog_get(v, "at"), fl_sub(s, path, "at"), &m.at, e) ||
        fl_get_segment(c, mlog_get(v, "segment"), fl_sub(s, path, "segment"),
                       &m.feature, &m.mask, e))
        return e->code;
    m.neutral = princess ? 0 : FIG_FAIRY;
    fl_emit(en, princess ? MV_PRINCESS : MV_NEUTRAL, &m);
    return ST_OK;
}

static enum status read_fairy(const struct fl_entry *en, const cJSON *obj,
                              const cJSON *v, const char *path,
                              const struct move *place,
                              const struct move *meeple, struct err *e)
{
    (void)obj, (void)place;
    return read_beside(en, v, path, false, meeple, e);
}

static enum status read_princess(const struct fl_entry *en, const cJSON *obj,
                                 const cJSON *v, const char *path,
                                 const struct move *place,
                                 const struct move *meeple, struct err *e)
{
    (void)obj, (void)place;
    return read_beside(en, v, path, true, meeple, e);
}

/* "dragon": the dragon's steps after the action, [[x, y], ...]; the
 * players who move it are the auditor's to know (from the one on turn,
 * in seat order). */
static enum status read_dragon(const struct fl_entry *en, const cJSON *obj,
                               struct err *e)
{
    char s[FL_PATH], path[FL_PATH];
    const cJSON *v = mlog_get(obj, "dragon");
    const cJSON *p;
    int i = 0;
    if (!v)
        return ST_OK;
    fl_sub(path, en->path, "dragon");
    if (!cJSON_IsArray(v))
        return fl_bad(en->c, e, path, "expected an array of [x, y]");
    cJSON_ArrayForEach(p, v)
    {
        struct pos at;
        if (fl_get_pos(en->c, p, fl_nth(s, path, i++), &at, e))
            return e->code;
        struct move *m = fl_push(en, MV_NEUTRAL, -1);
        m->at = at;
        m->neutral = FIG_DRAGON;
    }
    return ST_OK;
}

/* {"at", "segment"} of the one move a[0] of kind (and neutral). */
static bool write_beside(cJSON *o, const char *key, int kind, int neutral,
                         const struct move *a, size_t n)
{
    if (n != 1 || a[0].kind != kind || a[0].neutral != neutral)
        return false;
    cJSON *b = cJSON_AddObjectToObject(o, key);
    cJSON_AddItemToObject(b, "at", fl_pos_json(a[0].at));
    cJSON_AddItemToObject(b, "segment", fl_seg_json(a[0].feature, a[0].mask));
    return true;
}

static bool write_fairy(const struct fl_ctx *c, cJSON *o, const struct move *p,
                        const struct move *a, size_t n)
{
    (void)c, (void)p;
    return write_beside(o, "fairy", MV_NEUTRAL, FIG_FAIRY, a, n);
}

static bool write_princess(const struct fl_ctx *c, cJSON *o,
                           const struct move *p, const struct move *a, size_t n)
{
    (void)c, (void)p;
    return write_beside(o, "princess", MV_PRINCESS, 0, a, n);
}

/* The dragon's steps close the turn, naming no player. */
static size_t count_steps(const struct move *a, size_t n)
{
    size_t steps = 0;
    while (steps < n && a[n - 1 - steps].kind == MV_NEUTRAL &&
           a[n - 1 - steps].neutral == FIG_DRAGON &&
           a[n - 1 - steps].player < 0)
        steps++;
    return steps;
}

/* "dragon": the dragon's steps a[0..steps), when there are. */
static void write_steps(cJSON *o, const struct move *a, size_t steps)
{
    if (!steps)
        return;
    cJSON *d = cJSON_AddArrayToObject(o, "dragon");
    for (size_t k = 0; k < steps; k++)
        cJSON_AddItemToArray(d, fl_pos_json(a[k].at));
}

/* flierlog/1.3: a move of the dragon's, the fairy's, the princess's. */
static bool needs_1_3(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_PRINCESS ||
            (l->moves[i].kind == MV_NEUTRAL &&
             l->moves[i].neutral != FIG_COUNT))
            return true;
    return false;
}

static const struct fl_action actions[] = {
    {.key = "fairy",
     .meeple = "",
     .noun = "the fairy",
     .read = read_fairy,
     .write = write_fairy},
    {.key = "princess",
     .meeple = "",
     .anyones = true,
     .noun = "the princess",
     .read = read_princess,
     .write = write_princess},
    {.key = NULL},
};

static const char *const keys[] = {"dragon", NULL};

const struct fl_turn_unit fl_turn_dragon = {
    .needs_1_3 = needs_1_3,
    .actions = actions,
    .keys = keys,
    .read_after = read_dragon,
    .n_after = count_steps,
    .write_after = write_steps,
};
