/* test_moves.c - the move classes the units register (core/move.h), as
 * the readers and writers use them: every row's .jcz template parses and
 * uses only the known fields, names are unique, and a move of every row
 * survives writing and reading in both formats. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/expansion.h"
#include "core/feature.h"
#include "core/game.h"
#include "core/log.h"
#include "core/move.h"
#include "core/tiles.h"
#include "mlog/mlog.h"
#include "util/buf.h"

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* Every registered row, in the units' order; NULL past the last. */
static const struct move_class *row_at(int i)
{
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct move_class *c = expansion_get(u)->moves; c && c->name;
             c++)
            if (i-- == 0)
                return c;
    return NULL;
}

static const char *const jcz_fields[] = {"$position", "$pointer",  "$meeple",
                                         "$tile",     "$rotation", "$random",
                                         "$index",    "$amount",
                                         "$own_random"};
static const char *const fl_keys[] = {"tile",   "at",        "rot",
                                      "draw",   "segment",   "segment?",
                                      "meeple", "meeple_id", "roll",
                                      "index",  "amount"};

static bool listed(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

/* Each "$..." string of t is a field the codecs know. */
static void check_template(const char *row, const cJSON *t)
{
    for (const cJSON *c = t->child; c; c = c->next) {
        if (cJSON_IsObject(c))
            check_template(row, c);
        if (cJSON_IsString(c) && c->valuestring[0] == '$' &&
            !listed(c->valuestring, jcz_fields, N_OF(jcz_fields)))
            fail_msg("%s: unknown .jcz field '%s'", row, c->valuestring);
    }
}

static void test_templates_parse(void **state)
{
    (void)state;
    for (int i = 0; row_at(i); i++) {
        const struct move_class *c = row_at(i);
        if (!c->jcz_payload) {
            assert_null(c->jcz);
            continue;
        }
        assert_non_null(c->jcz);
        cJSON *t = cJSON_Parse(c->jcz_payload);
        if (!t || !cJSON_IsObject(t))
            fail_msg("%s: the .jcz template is no JSON object: %s", c->name,
                     c->jcz_payload);
        check_template(c->name, t);
        cJSON_Delete(t);
    }
}

/* The flierlog keys, one word each ("meeple" may name a default). */
static void test_flierlog_keys(void **state)
{
    (void)state;
    for (int i = 0; row_at(i); i++) {
        const struct move_class *c = row_at(i);
        char list[128], *save = NULL;
        assert_non_null(c->fl_fields);
        snprintf(list, sizeof list, "%s", c->fl_fields);
        for (char *k = strtok_r(list, " ", &save); k;
             k = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(k, '=');
            if (eq)
                *eq = '\0';
            if (!listed(k, fl_keys, N_OF(fl_keys)))
                fail_msg("%s: unknown flierlog key '%s'", c->name, k);
        }
    }
}

static void test_names_unique(void **state)
{
    (void)state;
    for (int i = 0; row_at(i); i++)
        for (int j = i + 1; row_at(j); j++) {
            const struct move_class *a = row_at(i), *b = row_at(j);
            if (strcmp(a->name, b->name) == 0)
                fail_msg("two rows are named '%s'", a->name);
            if (a->kind == b->kind && a->neutral == b->neutral)
                fail_msg("'%s' and '%s' are the same move", a->name, b->name);
        }
    /* the lookups find each row */
    for (int i = 0; row_at(i); i++) {
        const struct move_class *c = row_at(i);
        assert_ptr_equal(move_class_named(c->name), c);
        assert_ptr_equal(move_class_of(c->kind, c->neutral), c);
    }
}

/* ---- write -> read ---------------------------------------------------- */

#define SETUP                                                                  \
    "{\"format\": \"flierlog/1.3\", \"edition\": \"C2\","                      \
    " \"sets\": {\"basic:1\": 1, \"tower:1\": 1,"                              \
    " \"princess-and-dragon:1\": 1},"                                          \
    " \"elements\": {\"tower\": 1, \"dragon\": 1, \"fairy\": 1,"               \
    " \"princess\": true, \"abbot\": 1},"                                      \
    " \"players\": [{\"name\": \"Ada\"}, {\"name\": \"Ben\"}],"                \
    " \"turns\": [], \"final\": {}}"

/* A move of row c with every field its flierlog keys name set. */
static struct move sample(const struct move_class *c)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.kind = c->kind;
    m.neutral = c->neutral;
    m.player = 0;
    m.tile = -1;
    m.meeple_owner = -1;
    m.draw = -1.0;
    m.feature = c->feature;
    if (strstr(c->fl_fields, "tile")) {
        snprintf(m.tile_id, sizeof m.tile_id, "BA/RFr");
        m.tile = (int16_t)tile_find(m.tile_id);
        m.draw = 0.25;
    }
    if (strstr(c->fl_fields, "at"))
        m.at = (struct pos){1, -2};
    if (strstr(c->fl_fields, "rot"))
        m.rot = 3;
    if (strstr(c->fl_fields, "segment")) {
        m.feature = FEAT_ROAD;
        assert_true(loc_parse(FEAT_ROAD, "WE", &m.mask));
    }
    if (strstr(c->fl_fields, "index"))
        m.index = 2;
    if (strstr(c->fl_fields, "amount"))
        m.amount = 7;
    if (strstr(c->fl_fields, "meeple")) {
        m.meeple = FIG_SMALL;
        m.meeple_owner = 1;
        m.meeple_n = 2;
    }
    return m;
}

static void expect_same_move(const char *what, const struct move *a,
                             const struct move *b)
{
    if (a->kind != b->kind || a->neutral != b->neutral ||
        a->player != b->player || a->tile != b->tile ||
        strcmp(a->tile_id, b->tile_id) != 0 || a->at.x != b->at.x ||
        a->at.y != b->at.y || a->rot != b->rot || a->mask != b->mask ||
        (a->feature != b->feature && a->kind != MV_DISCARD) ||
        a->meeple != b->meeple || a->meeple_n != b->meeple_n ||
        a->meeple_owner != b->meeple_owner || a->roll != b->roll ||
        a->index != b->index || a->amount != b->amount ||
        !(a->draw == b->draw || (a->draw < 0 && b->draw < 0)))
        fail_msg("%s: kind %d/%d neutral %d/%d at %d,%d/%d,%d feature "
                 "%d/%d mask %d/%d meeple %d.%d.%d/%d.%d.%d tile '%s'/'%s' "
                 "draw %g/%g",
                 what, a->kind, b->kind, a->neutral, b->neutral, a->at.x,
                 a->at.y, b->at.x, b->at.y, a->feature, b->feature, a->mask,
                 b->mask, a->meeple_owner, a->meeple, a->meeple_n,
                 b->meeple_owner, b->meeple, b->meeple_n, a->tile_id,
                 b->tile_id, a->draw, b->draw);
}

static void round_trip(const struct move_class *c, bool jcz)
{
    struct game_log l, back;
    struct err e;
    enum mlog_format fmt;
    struct buf out = BUF_INIT;
    char what[64];
    snprintf(what, sizeof what, "%s through %s", c->name,
             jcz ? ".jcz" : "flierlog");
    game_log_init(&l);
    game_log_init(&back);
    if (mlog_parse(SETUP, strlen(SETUP), &l, &fmt, &e) != ST_OK)
        fail_msg("the setup: %s", e.msg);
    *game_log_push(&l) = sample(c);
    if (jcz)
        mlog_write_jcz(&l, &out);
    else
        mlog_write_flierlog(&l, &out);
    if (jcz) { /* the message alone, without what "flierd" adds */
        cJSON *root = cJSON_Parse(out.p);
        assert_non_null(root);
        cJSON_DeleteItemFromObject(root, "flierd");
        char *plain = cJSON_PrintUnformatted(root);
        out.len = 0;
        buf_puts(&out, plain);
        cJSON_free(plain);
        cJSON_Delete(root);
    }
    if (mlog_parse(out.p, out.len, &back, &fmt, &e) != ST_OK)
        fail_msg("%s: does not read back: %s\n%s", what, e.msg, out.p);
    if (back.n_moves != 1)
        fail_msg("%s: %zu moves read back\n%s", what, back.n_moves, out.p);
    expect_same_move(what, &l.moves[0], &back.moves[0]);
    game_log_release(&back);
    game_log_release(&l);
    buf_release(&out);
}

static void test_round_trip(void **state)
{
    (void)state;
    for (int i = 0; row_at(i); i++) {
        round_trip(row_at(i), false);
        if (row_at(i)->jcz) /* else the "flierd" object keeps it */
            round_trip(row_at(i), true);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_templates_parse),
        cmocka_unit_test(test_flierlog_keys),
        cmocka_unit_test(test_names_unique),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
