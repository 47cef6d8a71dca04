/* abbey.c - Abbey & Mayor between the turns of a flierlog: "abbey":
 * "declined" before the tile (or alone, in the last round of abbeys) and
 * the "wagons" the turn's scoring sent on, after its COMMIT. */
#include <string.h>

#include "core/audit.h"
#include "mlog/fl_turn.h"

/* "wagons": the wagons the turn's scoring sent back, in the order their
 * owners chose: {"at", "segment"} moves one (a DEPLOY; "meeple" is the
 * wagon, its owner the item's "player" unless "meeple_id" says), and a
 * COMMIT follows once its owner has no other wagon to move next;
 * {"stays": true} leaves one in supply (a PASS). */
static enum status read_wagon(const struct fl_entry *en, const cJSON *o,
                              const char *path, struct move *m, bool *stays,
                              struct err *e)
{
    const struct fl_ctx *c = en->c;
    char s[FL_PATH];
    int player = -1;
    *m = fl_blank();
    *stays = false;
    if (!cJSON_IsObject(o))
        return fl_bad(c, e, path,
                      "expected {\"at\": [x, y], \"segment\": ...} "
                      "or {\"stays\": true}");
    if (mlog_get(o, "player") &&
        fl_get_seat(c, mlog_get(o, "player"), fl_sub(s, path, "player"),
                    &player, e))
        return e->code;
    m->player = (int8_t)player;
    if (mlog_get(o, "stays")) {
        if (!cJSON_IsTrue(mlog_get(o, "stays")))
            return fl_bad(c, e, fl_sub(s, path, "stays"),
                          "expected true (a wagon "
                          "that moves has \"at\" and \"segment\")");
        static const char *const moving[] = {"at", "segment", "meeple",
                                             "meeple_id"};
        for (size_t i = 0; i < sizeof moving / sizeof *moving; i++)
            if (mlog_get(o, moving[i]))
                return fl_bad(c, e, fl_sub(s, path, moving[i]),
                              "a wagon that "
                              "stays goes nowhere");
        m->kind = MV_PASS;
        *stays = true;
        return ST_OK;
    }
    m->kind = MV_DEPLOY;
    if (fl_get_pos(c, mlog_get(o, "at"), fl_sub(s, path, "at"), &m->at, e) ||
        fl_get_segment(c, mlog_get(o, "segment"), fl_sub(s, path, "segment"),
                       &m->feature, &m->mask, e) ||
        fl_get_meeple(c, o, path, FIG_WAGON, player, 0, m, e))
        return e->code;
    m->kind = MV_DEPLOY;
    m->player = (int8_t)player;
    return ST_OK;
}

static enum status read_wagons(const struct fl_entry *en, const cJSON *list,
                               struct err *e)
{
    char s[FL_PATH], t[FL_PATH];
    const cJSON *o;
    int i = 0;
    fl_sub(s, en->path, "wagons");
    if (!cJSON_IsArray(list))
        return fl_bad(en->c, e, s, "expected an array of wagons");
    for (o = list->child; o; o = o->next, i++) {
        struct move m, next;
        bool stays, next_stays, same_owner = false;
        if (read_wagon(en, o, fl_nth(t, s, i), &m, &stays, e))
            return e->code;
        if (o->next && !stays) {
            if (read_wagon(en, o->next, fl_nth(t, s, i + 1), &next, &next_stays,
                           e))
                return e->code;
            same_owner = !next_stays && m.meeple_owner >= 0 &&
                         next.meeple_owner == m.meeple_owner;
        }
        struct move *to = game_log_push(en->into);
        *to = m;
        to->src = en->src;
        if (!stays && !same_owner) /* the owner's last move: a COMMIT */
            fl_push(en, MV_COMMIT, m.player);
    }
    return ST_OK;
}

/* "abbey": "declined": the player on turn declined the abbey before
 * drawing (a PASS and a COMMIT before the tile), or, on an entry with no
 * tile, in the last round of abbeys (a PASS alone). */
static enum status read_declined(const struct fl_entry *en, const cJSON *obj,
                                 bool *declined, struct err *e)
{
    char s[FL_PATH];
    const cJSON *v = mlog_get(obj, "abbey");
    *declined = false;
    if (!v)
        return ST_OK;
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "declined") != 0)
        return fl_bad(en->c, e, fl_sub(s, en->path, "abbey"),
                      "expected "
                      "\"declined\" (an abbey is placed as the tile AM/A)");
    *declined = true;
    return ST_OK;
}

static const char *const not_on_declined[] = {
    "at", "rot", "draw", "pass", "meeple", "meeple_id", "part", "discard", NULL,
};

/* An entry with "abbey": "declined" and no tile: the last round (the
 * units' placement keys are not for it either). */
static enum status read_last_declined(const struct fl_entry *en,
                                      const cJSON *obj, struct err *e)
{
    char s[FL_PATH];
    const char *key = fl_placement_key(obj, not_on_declined);
    if (key)
        return fl_bad(en->c, e, fl_sub(s, en->path, key),
                      "an abbey declined with no tile after it is all the "
                      "entry says (give \"tile\" for the one drawn)");
    fl_push(en, MV_PASS, en->player);
    return ST_OK;
}

static enum status read_pre(const struct fl_entry *en, const cJSON *obj,
                            bool *alone, struct err *e)
{
    bool declined;
    if (read_declined(en, obj, &declined, e))
        return e->code;
    if (!declined)
        return ST_OK;
    if (!mlog_get(obj, "tile")) {
        *alone = true;
        return read_last_declined(en, obj, e);
    }
    fl_push(en, MV_PASS, en->player); /* before the draw */
    fl_push(en, MV_COMMIT, en->player);
    return ST_OK;
}

static enum status read_between(const struct fl_entry *en, const cJSON *obj,
                                struct err *e)
{
    const cJSON *wagons = mlog_get(obj, "wagons");
    return wagons ? read_wagons(en, wagons, e) : ST_OK;
}

/* ---- writing ------------------------------------------------------------ */

/* The abbey declined before the draw: its PASS and COMMIT. */
static size_t n_pre(const struct move *mv, const uint8_t *role, size_t n)
{
    return n >= 2 && mv[0].kind == MV_PASS && mv[1].kind == MV_COMMIT &&
                   role[0] == STEP_ABBEY_DECLINED &&
                   role[1] == STEP_ABBEY_DECLINED
               ? 2
               : 0;
}

/* An abbey declined, by a PASS alone (the last round) or opening a
 * turn. */
static bool is_alone(const struct move *m, uint8_t role)
{
    return m->kind == MV_PASS &&
           (role == STEP_ABBEY_DECLINED || role == STEP_ABBEY_LAST);
}

static void write_pre(cJSON *o)
{
    cJSON_AddStringToObject(o, "abbey", "declined");
}

/* "wagons" of the moves mv[0..n) after a turn's COMMIT: each a wagon's
 * move or stay; the COMMITs between are the reader's to make. How many
 * are the wagons'. */
static size_t write_wagons(cJSON *o, const struct game_log *l, bool by_number,
                           const struct move *mv, const uint8_t *role, size_t n)
{
    cJSON *list = NULL;
    size_t k = 0;
    for (; k < n; k++) {
        const struct move *m = &mv[k];
        if (m->kind == MV_COMMIT && role[k] == STEP_WAGON_MOVE)
            continue;
        bool moves = m->kind == MV_DEPLOY && role[k] == STEP_WAGON_MOVE;
        bool stays = m->kind == MV_PASS && role[k] == STEP_WAGON_STAYS;
        if (!moves && !stays)
            break;
        if (!list)
            list = cJSON_AddArrayToObject(o, "wagons");
        cJSON *it = cJSON_CreateObject();
        if (m->player >= 0)
            cJSON_AddItemToObject(it, "player",
                                  fl_seat_json(l, m->player, by_number));
        if (stays) {
            cJSON_AddBoolToObject(it, "stays", true);
        } else {
            cJSON_AddItemToObject(it, "at", fl_pos_json(m->at));
            cJSON_AddItemToObject(it, "segment",
                                  fl_seg_json(m->feature, m->mask));
            fl_add_meeple(it, m, FIG_WAGON, m->player, 0);
        }
        cJSON_AddItemToArray(list, it);
    }
    return k;
}

static const char *const keys[] = {"wagons", NULL};
static const char *const entry_keys[] = {"abbey", "wagons", NULL};

const struct fl_turn_unit fl_turn_abbey = {
    .keys = keys,
    .entry_keys = entry_keys,
    .alone = "an abbey declined",
    .read_pre = read_pre,
    .read_between = read_between,
    .n_pre = n_pre,
    .is_alone = is_alone,
    .write_pre = write_pre,
    .write_between = write_wagons,
};
