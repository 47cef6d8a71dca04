/* test_samples.c - golden replays of samples/ (our "perft"), the .jcz
 * writer's round trip, and games of the simulator checked by the auditor.
 *
 *  - every samples/<name>.jcz and samples/<name>.flierlog (also in
 *    samples/forged/ and samples/rules/) replays to what
 *    <name>.expected.json says (valid, finished, scores, first violations,
 *    flights, landings, and where it says so the expansions in play,
 *    flights by figure, second actions and score events); a sample
 *    without one fails;
 *  - replaying a sample twice gives equal state hashes;
 *  - parse -> mlog_write_jcz -> parse gives an equal log and an equal
 *    report, and so does parse -> mlog_write_flierlog -> parse;
 *  - sim_play games (seeds 1..200, C2 and C3, 2..6 players; and games
 *    with The River, Inns & Cathedrals, the Phantom, Traders & Builders,
 *    Abbey & Mayor and all of them, the Big Box) audit valid with
 *    the simulator's own final scores, directly and through .jcz (with
 *    its "flierd" object, and without it: discards inferred). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "core/audit.h"
#include "mlog/mlog.h"
#include "sim/sim.h"

#define MAX_SAMPLES 128 /* a sample or more per unit */
#define NAME_LEN 128

static const char *const seat_names[GAME_MAX_PLAYERS] = {
    "Ada", "Ben", "Cleo", "Dov", "Eli", "Fay"
};

/* ---- files ------------------------------------------------------------- */

/* Whole file, NUL-terminated, or NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *p = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        p = malloc((size_t)n + 1);
        if (p && fread(p, 1, (size_t)n, f) == (size_t)n) {
            p[n] = '\0';
            *len = (size_t)n;
        } else {
            free(p);
            p = NULL;
        }
    }
    fclose(f);
    return p;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

static const char *const sample_exts[] = { ".jcz", ".flierlog" };

/* Names (with their extension, relative to samples/) of the logs in
 * samples/, samples/forged/ and samples/rules/, sorted. */
static int list_samples(char names[][NAME_LEN], int max)
{
    static const char *const subdirs[] = { "", "forged/", "rules/" };
    int n = 0;
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        char dir[512];
        struct dirent *de;
        snprintf(dir, sizeof dir, "%s/%s", FLIERD_SAMPLES_DIR, subdirs[s]);
        DIR *d = opendir(dir);
        if (!d)
            fail_msg("cannot open %s", dir);
        while ((de = readdir(d)) != NULL) {
            size_t len = strlen(de->d_name), pre = strlen(subdirs[s]);
            bool log = false;
            for (size_t k = 0; k < 2; k++) {
                size_t el = strlen(sample_exts[k]);
                log = log || (len > el &&
                              strcmp(de->d_name + len - el,
                                     sample_exts[k]) == 0);
            }
            if (!log || pre + len >= NAME_LEN)
                continue;
            if (n == max)
                fail_msg("more than %d samples", max);
            if (snprintf(names[n], NAME_LEN, "%s%s", subdirs[s],
                         de->d_name) < NAME_LEN)
                n++;
        }
        closedir(d);
    }
    qsort(names, (size_t)n, NAME_LEN, cmp_names);
    return n;
}

/* "forged/x.jcz" -> "forged/x" */
static void strip_ext(const char *name, char *out, size_t len)
{
    const char *dot = strrchr(name, '.');
    snprintf(out, len, "%.*s", (int)(dot ? (size_t)(dot - name)
                                         : strlen(name)), name);
}

static void sample_path(char *out, size_t len, const char *name,
                        const char *ext)
{
    snprintf(out, len, "%s/%s%s", FLIERD_SAMPLES_DIR, name, ext);
}

static void parse_as(const char *what, const char *text, size_t len,
                     struct game_log *l, enum mlog_format want)
{
    struct err e;
    enum mlog_format fmt;
    err_clear(&e);
    game_log_init(l);
    if (mlog_parse(text, len, l, &fmt, &e) != ST_OK)
        fail_msg("%s: %s", what, e.msg);
    assert_int_equal(fmt, want);
}

static void parse_text(const char *what, const char *text, size_t len,
                       struct game_log *l)
{
    parse_as(what, text, len, l, MLOG_JCZ);
}

/* name has its extension; the format must be the one it says. */
static void parse_sample(const char *name, struct game_log *l)
{
    char path[512];
    size_t len = 0;
    sample_path(path, sizeof path, name, "");
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("%s: cannot read", path);
    parse_as(name, text, len, l,
             strstr(name, ".flierlog") ? MLOG_FLIERLOG : MLOG_JCZ);
    free(text);
}

/* ---- comparisons ------------------------------------------------------- */

#define EXPECT_INT(name, what, got, want)                                   \
    do {                                                                    \
        long long g_ = (got), w_ = (want);                                  \
        if (g_ != w_)                                                       \
            fail_msg("%s: %s is %lld, expected %lld", (name), (what), g_,   \
                     w_);                                                   \
    } while (0)

static void expect_move(const char *name, size_t i, const struct move *a,
                        const struct move *b, bool check_draw)
{
    char what[64];
#define FIELD(f)                                                            \
    snprintf(what, sizeof what, "move %zu " #f, i);                         \
    EXPECT_INT(name, what, a->f, b->f)
    FIELD(kind);
    FIELD(player);
    FIELD(tile);
    FIELD(at.x);
    FIELD(at.y);
    FIELD(rot);
    FIELD(feature);
    FIELD(mask);
    FIELD(meeple);
    FIELD(meeple_n);
    FIELD(meeple_owner);
    FIELD(roll);
    FIELD(src);
#undef FIELD
    if (strcmp(a->tile_id, b->tile_id) != 0)
        fail_msg("%s: move %zu tile id '%s' != '%s'", name, i, a->tile_id,
                 b->tile_id);
    if (check_draw && !(a->draw == b->draw || (a->draw < 0 && b->draw < 0)))
        fail_msg("%s: move %zu draw %.17g != %.17g", name, i, a->draw,
                 b->draw);
}

static void expect_same_setup(const char *name, const struct game_log *a,
                              const struct game_log *b)
{
    const struct rules *ra = &a->rules, *rb = &b->rules;
    for (size_t s = 0; s < sizeof ra->set_copies; s++)
        EXPECT_INT(name, "set copies", ra->set_copies[s], rb->set_copies[s]);
    EXPECT_INT(name, "players", ra->n_players, rb->n_players);
    for (int f = 0; f < FIG__COUNT; f++)
        EXPECT_INT(name, figure_class(f)->names, ra->figures[f],
                   rb->figures[f]);
    for (int bit = 0; bit < RF__COUNT; bit++)
        EXPECT_INT(name, rule_flag_key(bit), ra->flags >> bit & 1,
                   rb->flags >> bit & 1);
    EXPECT_INT(name, "tiny city", ra->opt[OPT_TINY_CITY], rb->opt[OPT_TINY_CITY]);
    for (int p = 0; p < ra->n_players; p++)
        assert_string_equal(a->names[p], b->names[p]);
    EXPECT_INT(name, "start tile", a->start_tile, b->start_tile);
    EXPECT_INT(name, "start x", a->start_at.x, b->start_at.x);
    EXPECT_INT(name, "start y", a->start_at.y, b->start_at.y);
    EXPECT_INT(name, "start rotation", a->start_rot, b->start_rot);
    EXPECT_INT(name, "end turn", a->end_turn, b->end_turn);
}

/* b is read back from a file written from a: equal move for move (src
 * too when check_src). */
static void expect_same_moves(const char *name, const struct game_log *a,
                              const struct game_log *b, bool check_src)
{
    expect_same_setup(name, a, b);
    EXPECT_INT(name, "moves read back", b->n_moves, a->n_moves);
    for (size_t i = 0; i < a->n_moves; i++) {
        struct move x = a->moves[i];
        if (!check_src)
            x.src = b->moves[i].src;
        expect_move(name, i, &x, &b->moves[i], true);
    }
}

static void expect_same_log(const char *name, const struct game_log *a,
                            const struct game_log *b)
{
    expect_same_moves(name, a, b, true);
}

/* b is read back from a .jcz written from a without its "flierd" object:
 * a's MV_DISCARDs are not in b, and a draw a does not know after a
 * discard is the discard's in b. */
static void expect_same_plain_log(const char *name, const struct game_log *a,
                                  const struct game_log *b)
{
    size_t j = 0;
    bool after_discard = false;
    expect_same_setup(name, a, b);
    for (size_t i = 0; i < a->n_moves; i++) {
        if (a->moves[i].kind == MV_DISCARD) {
            after_discard = true;
            continue;
        }
        if (j >= b->n_moves)
            fail_msg("%s: read back %zu moves, fewer than written", name,
                     b->n_moves);
        expect_move(name, i, &a->moves[i], &b->moves[j++], !after_discard);
        if (a->moves[i].kind == MV_PLACE)
            after_discard = false;
    }
    EXPECT_INT(name, "moves read back", b->n_moves, j);
}

/* check_src: the moves named by violations must be the same too (not
 * across formats, whose messages are counted differently). */
static void expect_report_as(const char *name, const struct report *a,
                             const struct report *b, bool check_src)
{
    EXPECT_INT(name, "valid", a->valid, b->valid);
    EXPECT_INT(name, "finished", a->finished, b->finished);
    EXPECT_INT(name, "turns", a->turns, b->turns);
    EXPECT_INT(name, "tiles left", a->tiles_left, b->tiles_left);
    for (int p = 0; p < a->n_players; p++)
        EXPECT_INT(name, "score", a->score[p], b->score[p]);
    EXPECT_INT(name, "state hash", a->state_hash, b->state_hash);
    EXPECT_INT(name, "violations", a->n_violations, b->n_violations);
    for (size_t i = 0; i < a->n_violations; i++) {
        EXPECT_INT(name, "violation turn", a->violations[i].turn,
                   b->violations[i].turn);
        EXPECT_INT(name, "violation rule", a->violations[i].rule,
                   b->violations[i].rule);
        if (check_src)
            EXPECT_INT(name, "violation move", a->violations[i].src,
                       b->violations[i].src);
        assert_string_equal(a->violations[i].msg, b->violations[i].msg);
    }
    EXPECT_INT(name, "flights", a->n_flights, b->n_flights);
    for (size_t i = 0; i < a->n_flights; i++) {
        EXPECT_INT(name, "flight roll", a->flights[i].roll,
                   b->flights[i].roll);
        EXPECT_INT(name, "flight landed", a->flights[i].landed,
                   b->flights[i].landed);
    }
    EXPECT_INT(name, "events", a->n_events, b->n_events);
    for (size_t i = 0; i < a->n_events; i++) {
        const struct score_event *x = &a->events[i], *y = &b->events[i];
        EXPECT_INT(name, "event turn", x->turn, y->turn);
        EXPECT_INT(name, "event feature", x->feature, y->feature);
        EXPECT_INT(name, "event players", x->players, y->players);
        EXPECT_INT(name, "event points", x->points, y->points);
        EXPECT_INT(name, "event completed", x->completed, y->completed);
    }
}

static void expect_same_report(const char *name, const struct report *a,
                               const struct report *b)
{
    expect_report_as(name, a, b, true);
}

static size_t landed_count(const struct report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_flights; i++)
        n += r->flights[i].landed;
    return n;
}

/* ---- golden samples -------------------------------------------------- */

static cJSON *load_expected(const char *name)
{
    char path[512], base[NAME_LEN];
    size_t len = 0;
    strip_ext(name, base, sizeof base);
    sample_path(path, sizeof path, base, ".expected.json");
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("%s has no %s.expected.json", name, base);
    cJSON *j = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsObject(j))
        fail_msg("%s.expected.json is not a JSON object", base);
    return j;
}

static const cJSON *item(const char *name, const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        fail_msg("%s.expected.json: no \"%s\"", name, key);
    return v;
}

static void expect_scores(const char *name, const cJSON *want,
                          const struct game_log *l, const struct report *r)
{
    const cJSON *s;
    EXPECT_INT(name, "players in expected scores", cJSON_GetArraySize(want),
               l->rules.n_players);
    cJSON_ArrayForEach(s, want) {
        int p = 0;
        while (p < l->rules.n_players && strcmp(l->names[p], s->string) != 0)
            p++;
        if (p == l->rules.n_players)
            fail_msg("%s: no player named %s", name, s->string);
        EXPECT_INT(name, s->string, r->score[p], s->valueint);
    }
}

/* The expected violations are the first ones of the report, in order. */
static void expect_violations(const char *name, const cJSON *want,
                              const struct report *r)
{
    const cJSON *v;
    size_t i = 0;
    if (cJSON_GetArraySize(want) == 0)
        EXPECT_INT(name, "violations", r->n_violations, 0);
    cJSON_ArrayForEach(v, want) {
        if (i >= r->n_violations)
            fail_msg("%s: only %zu violations, expected more", name,
                     r->n_violations);
        EXPECT_INT(name, "violation turn", r->violations[i].turn,
                   item(name, v, "turn")->valueint);
        assert_string_equal(rule_id(r->violations[i].rule),
                            item(name, v, "rule")->valuestring);
        i++;
    }
}

/* ---- optional expectations of the expansions' samples ------------------
 * "expansions": the units the save puts in play, in registry order;
 * "by_figure": {"big": {"flights": n, "landed": n}, ...}, each figure
 *   listed (others unchecked);
 * "second_actions": turns where a figure acted after another figure;
 * "events": every score event, compared as a multiset; "events_include":
 *   events that must be among them. An event is {"turn": n or null (final
 *   scoring), "feature", "players": [names], "points"} and optionally
 *   "expr" ("city.incomplete"), "items" ([[name, count or null, points]])
 *   and "strength" ({name: weight of the player's followers on it}). */

static void expect_expansions(const char *name, const cJSON *want,
                              const struct game_log *l)
{
    const cJSON *x;
    uint64_t units = 0;
    cJSON_ArrayForEach(x, want) {
        int u = expansion_find(cJSON_GetStringValue(x));
        if (u < 0)
            fail_msg("%s: unknown expansion in expected", name);
        units |= 1ull << u;
    }
    EXPECT_INT(name, "expansions in play", game_rules_units(&l->rules),
               units);
}

static void expect_by_figure(const char *name, const cJSON *want,
                             const struct report *r)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, want) {
        int fig = figure_find(f->string), flights = 0, landed = 0;
        char what[64];
        if (fig < 0)
            fail_msg("%s: unknown figure '%s' in expected", name, f->string);
        for (size_t i = 0; i < r->n_flights; i++)
            if (r->flights[i].figure == fig) {
                flights++;
                landed += r->flights[i].landed;
            }
        snprintf(what, sizeof what, "%s flights", f->string);
        EXPECT_INT(name, what, flights, item(name, f, "flights")->valueint);
        snprintf(what, sizeof what, "%s landings", f->string);
        EXPECT_INT(name, what, landed, item(name, f, "landed")->valueint);
    }
}

/* Turns where a figure acted after another one (a flight and its landing
 * are one action; wagons moving between turns are none). */
static int second_actions(const struct game_log *l)
{
    int n = 0, actions = 0;
    bool in_turn = false;
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i], *prev = i ? m - 1 : NULL;
        if (m->kind == MV_PLACE)
            actions = 0;
        if (m->kind == MV_PLACE || m->kind == MV_COMMIT)
            in_turn = m->kind == MV_PLACE;
        if (!in_turn || (m->kind != MV_DEPLOY && m->kind != MV_RECALL))
            continue;
        bool landing = prev && prev->kind == MV_DEPLOY &&
                       prev->feature == FEAT_FLIER &&
                       m->feature != FEAT_FLIER &&
                       prev->meeple == m->meeple &&
                       prev->meeple_n == m->meeple_n;
        if (!landing && actions++ == 1)
            n++;
    }
    return n;
}

/* An event's key: "turn feature players points expr items strength",
 * with what want (an expected event, or NULL for all) names. */
static void event_key(const struct game_log *l, const struct score_event *ev,
                      const cJSON *want, char *out, size_t len)
{
    char expr[48];
    size_t n = 0;
    n += (size_t)snprintf(out + n, len - n, "%d %s", ev->turn,
                          feat_name(ev->feature));
    for (int p = 0; p < l->rules.n_players; p++)
        if (ev->players >> p & 1)
            n += (size_t)snprintf(out + n, len - n, " %s", l->names[p]);
    n += (size_t)snprintf(out + n, len - n, " %d", ev->points);
    if (!want || cJSON_GetObjectItem(want, "expr")) {
        score_expr_format(ev->feature, ev->expr, expr, sizeof expr);
        n += (size_t)snprintf(out + n, len - n, " %s", expr);
    }
    for (int i = 0; (!want || cJSON_GetObjectItem(want, "items")) &&
                    i < ev->n_items; i++) {
        char count[16] = "null";
        if (ev->items[i].count >= 0)
            snprintf(count, sizeof count, "%d", ev->items[i].count);
        n += (size_t)snprintf(out + n, len - n, " [%s,%s,%d]",
                              score_item_name(ev->items[i].kind), count,
                              ev->items[i].points);
    }
    for (int p = 0; (!want || cJSON_GetObjectItem(want, "strength")) &&
                    p < l->rules.n_players && n < len; p++)
        if (ev->strength[p])
            n += (size_t)snprintf(out + n, len - n, " %s=%d", l->names[p],
                                  ev->strength[p]);
}

/* The same key from an expected event (players in seat order). */
static void expected_key(const char *name, const struct game_log *l,
                         const cJSON *e, char *out, size_t len)
{
    const cJSON *turn = item(name, e, "turn"), *x;
    size_t n = 0;
    n += (size_t)snprintf(out + n, len - n, "%d %s",
                          cJSON_IsNull(turn) ? -1 : turn->valueint,
                          item(name, e, "feature")->valuestring);
    for (int p = 0; p < l->rules.n_players; p++)
        cJSON_ArrayForEach(x, item(name, e, "players"))
            if (strcmp(x->valuestring, l->names[p]) == 0)
                n += (size_t)snprintf(out + n, len - n, " %s", l->names[p]);
    n += (size_t)snprintf(out + n, len - n, " %d",
                          item(name, e, "points")->valueint);
    if ((x = cJSON_GetObjectItem(e, "expr")) != NULL)
        n += (size_t)snprintf(out + n, len - n, " %s", x->valuestring);
    const cJSON *items = cJSON_GetObjectItem(e, "items");
    cJSON_ArrayForEach(x, items) {
        const cJSON *c = cJSON_GetArrayItem(x, 1);
        char count[16] = "null";
        if (!cJSON_IsNull(c))
            snprintf(count, sizeof count, "%d", c->valueint);
        n += (size_t)snprintf(out + n, len - n, " [%s,%s,%d]",
                              cJSON_GetArrayItem(x, 0)->valuestring, count,
                              cJSON_GetArrayItem(x, 2)->valueint);
    }
    const cJSON *str = cJSON_GetObjectItem(e, "strength");
    for (int p = 0; str && p < l->rules.n_players; p++)
        cJSON_ArrayForEach(x, str)
            if (strcmp(x->string, l->names[p]) == 0)
                n += (size_t)snprintf(out + n, len - n, " %s=%d",
                                      l->names[p], x->valueint);
}

/* Each expected event matches a distinct report event; with `all`, every
 * report event is matched too. */
static void expect_events(const char *name, const cJSON *want, bool all,
                          const struct game_log *l, const struct report *r)
{
    bool *used = calloc(r->n_events + 1, 1);
    const cJSON *e;
    char a[512], b[512];
    assert_non_null(used);
    cJSON_ArrayForEach(e, want) {
        size_t i = 0;
        expected_key(name, l, e, a, sizeof a);
        for (; i < r->n_events; i++) {
            event_key(l, &r->events[i], e, b, sizeof b);
            if (!used[i] && strcmp(a, b) == 0)
                break;
        }
        if (i == r->n_events)
            fail_msg("%s: no score event \"%s\"", name, a);
        used[i] = true;
    }
    for (size_t i = 0; all && i < r->n_events; i++)
        if (!used[i]) {
            event_key(l, &r->events[i], NULL, b, sizeof b);
            fail_msg("%s: score event \"%s\" is not expected", name, b);
        }
    free(used);
}

static void check_sample(const char *name)
{
    struct game_log l;
    struct report r;
    cJSON *want = load_expected(name);
    parse_sample(name, &l);
    audit_run(&l, NULL, &r, NULL);
    EXPECT_INT(name, "valid", r.valid,
               cJSON_IsTrue(item(name, want, "valid")));
    EXPECT_INT(name, "finished", r.finished,
               cJSON_IsTrue(item(name, want, "finished")));
    expect_scores(name, item(name, want, "scores"), &l, &r);
    expect_violations(name, item(name, want, "violations"), &r);
    EXPECT_INT(name, "flights", r.n_flights,
               item(name, want, "flights")->valueint);
    EXPECT_INT(name, "landed", landed_count(&r),
               item(name, want, "landed")->valueint);
    const cJSON *x;
    if ((x = cJSON_GetObjectItem(want, "expansions")) != NULL)
        expect_expansions(name, x, &l);
    if ((x = cJSON_GetObjectItem(want, "by_figure")) != NULL)
        expect_by_figure(name, x, &r);
    if ((x = cJSON_GetObjectItem(want, "second_actions")) != NULL)
        EXPECT_INT(name, "second actions", second_actions(&l), x->valueint);
    if ((x = cJSON_GetObjectItem(want, "events")) != NULL)
        expect_events(name, x, true, &l, &r);
    if ((x = cJSON_GetObjectItem(want, "events_include")) != NULL)
        expect_events(name, x, false, &l, &r);
    report_release(&r);
    game_log_release(&l);
    cJSON_Delete(want);
}

static void test_samples_match_expected(void **state)
{
    static char names[MAX_SAMPLES][NAME_LEN];
    static const char *const required[] = {
        "c2-2p.jcz", "c3-4p-abbots.jcz", "c2-5p.jcz",
        "flier-lands-on-shared-monastery.jcz", "flier-returns.jcz",
        "tiny-city.jcz", "forged/forged-flier-field.jcz",
        "forged/forged-wrong-target.jcz", "forged/forged-occupied.jcz",
        "c2-2p.flierlog", "c3-4p-abbots.flierlog", "disputed.flierlog",
        "rules/example-1.flierlog", "rules/example-2.flierlog",
        "rules/example-3a.flierlog", "rules/example-3b.flierlog",
        "rules/example-3c.flierlog", "river-c2-4p.jcz", "inns-c2-3p.jcz",
        "phantom-c3-3p.jcz", "rules/big-lands-on-occupied-city.jcz",
        "rules/phantom-flies-second.jcz",
        "rules/phantom-refused-on-used-machine.jcz", "bigbox-c2-4p.jcz",
        "bigbox-c3-4p.jcz", "rules/mayor-lands-in-city.jcz",
        "rules/mayor-returns-without-city.jcz",
        "rules/wagon-flies-and-lands.jcz",
        "rules/flier-never-on-tower.flierlog",
        "rules/flier-lands-on-tower.flierlog",
        "rules/prisoner-cannot-fly.flierlog",
        "rules/flier-avoids-dragon.flierlog",
        "rules/flier-refused-by-dragon.flierlog",
        "rules/flier-lands-on-portal-tile.flierlog", "dragon-tour.flierlog",
        "tower-c2-3p.jcz", "dragon-c2-3p.jcz",
        "rules/flier-lands-outside-city.flierlog",
        "rules/flier-into-city.flierlog",
        "count-c2-4p.jcz", "cult-c3-4p.jcz",
        "rules/shrine-challenged.flierlog",
        "rules/shrine-placement-refused.flierlog",
        "rules/flier-shares-shrine.flierlog",
        "darmstadt-c3-4p.jcz", "darmstadt-tour.flierlog",
        "rules/flier-lands-on-church.flierlog",
        "monasteries-c3-4p.jcz",
        "rules/monk-and-abbot-scored-apart.flierlog",
        "siege-c2-3p.jcz",
        "corn-c2-3p.jcz",
        "bigtop-c3-4p.jcz", "rules/flier-lands-on-acrobats.flierlog",
        "rules/flier-acrobats-as-jcloisterzone.flierlog",
        "rules/ringmaster-never-on-acrobats.flierlog",
        "rules/flier-not-on-complete-pyramid.flierlog",
        "bcb-c2-4p.jcz", "rules/flier-lands-on-bridge.flierlog",
        "rules/flier-never-on-castle.flierlog",
        "rules/flier-lands-on-castle.flierlog",
        "winter-c2-3p.jcz", "gq11-c3-4p.jcz", "spiel-doch-c2-2p.jcz",
        "wind-roses-c2-3p.jcz",
        "kr-c2-3p.jcz",
        "russian-promos-c2-3p.jcz", "little-buildings-c3-2p.jcz",
        "festival-c2-4p.jcz", "tunnel-c2-2p.jcz",
        "labyrinth-c2-3p.jcz",
        "watchtowers-c2-4p.jcz",
        "gold-c2-3p.jcz",
        "ferries-c2-3p.jcz",
        "hs-c2-3p.jcz",
        "mage-c2-3p.jcz",
    };
    (void)state;
    int n = list_samples(names, MAX_SAMPLES);
    for (size_t k = 0; k < sizeof required / sizeof *required; k++) {
        int i = 0;
        while (i < n && strcmp(names[i], required[k]) != 0)
            i++;
        if (i == n)
            fail_msg("samples/%s is missing", required[k]);
    }
    for (int i = 0; i < n; i++)
        check_sample(names[i]);
}

/* ---- determinism and the round trip ---------------------------------- */

static void test_samples_replay_deterministic(void **state)
{
    static char names[MAX_SAMPLES][NAME_LEN];
    (void)state;
    int n = list_samples(names, MAX_SAMPLES);
    assert_true(n >= 9);
    for (int i = 0; i < n; i++) {
        struct game_log l;
        struct report a, b;
        parse_sample(names[i], &l);
        audit_run(&l, NULL, &a, NULL);
        audit_run(&l, NULL, &b, NULL);
        assert_true(a.state_hash != 0);
        expect_same_report(names[i], &a, &b);
        report_release(&a);
        report_release(&b);
        game_log_release(&l);
    }
}

/* l through one writer and back: equal logs (src too when the sample is
 * in that format), equal audits, and the writer is a fixed point. */
static void round_trip(const char *name, const struct game_log *l,
                       enum mlog_format to, bool same_format)
{
    struct game_log back;
    struct report a, b;
    struct buf out = BUF_INIT, again = BUF_INIT;
    if (to == MLOG_JCZ)
        mlog_write_jcz(l, &out);
    else
        mlog_write_flierlog(l, &out);
    parse_as(name, out.p, out.len, &back, to);
    expect_same_moves(name, l, &back, same_format);
    audit_run(l, NULL, &a, NULL);
    audit_run(&back, NULL, &b, NULL);
    expect_report_as(name, &a, &b, same_format);
    if (to == MLOG_JCZ)
        mlog_write_jcz(&back, &again);
    else
        mlog_write_flierlog(&back, &again);
    assert_string_equal(out.p, again.p);
    buf_release(&out);
    buf_release(&again);
    report_release(&a);
    report_release(&b);
    game_log_release(&back);
}

static void test_samples_round_trip(void **state)
{
    static char names[MAX_SAMPLES][NAME_LEN];
    (void)state;
    int n = list_samples(names, MAX_SAMPLES);
    assert_true(n >= 17);
    for (int i = 0; i < n; i++) {
        struct game_log l;
        bool jcz = strstr(names[i], ".jcz") != NULL;
        parse_sample(names[i], &l);
        round_trip(names[i], &l, MLOG_JCZ, jcz);
        round_trip(names[i], &l, MLOG_FLIERLOG, !jcz);
        game_log_release(&l);
    }
}

/* ---- the writer's shape ---------------------------------------------- */

static struct move *push(struct game_log *l, enum move_kind kind)
{
    struct move *m = game_log_push(l);
    m->kind = (uint8_t)kind;
    return m;
}

static void push_meeple(struct game_log *l, enum move_kind kind, int x, int y,
                        int feature, uint8_t mask, int meeple, int roll)
{
    struct move *m = push(l, kind);
    m->at = (struct pos){ x, y };
    m->feature = (uint8_t)feature;
    m->mask = mask;
    m->meeple = (uint8_t)meeple;
    m->meeple_n = 1;
    m->meeple_owner = 0;
    m->roll = roll;
}

static void push_place(struct game_log *l, enum move_kind kind,
                       const char *id, int x, int y, int rot, double draw)
{
    struct move *m = push(l, kind);
    m->tile = (int16_t)tile_find(id);
    snprintf(m->tile_id, sizeof m->tile_id, "%s", id);
    m->at = (struct pos){ x, y };
    m->rot = (uint8_t)rot;
    m->draw = draw;
}

/* Not a legal game: one of each message the writer knows. */
static void shape_log(struct game_log *l)
{
    game_log_init(l);
    l->rules.set_copies[tile_set_find("basic:2")] = 1;
    l->rules.set_copies[tile_set_find("flier:2")] = 1;
    l->rules.n_players = 2;
    l->rules.figures[FIG_SMALL] = 7;
    l->rules.figures[FIG_ABBOT] = 1;
    l->rules.flags = (true) ? (l->rules.flags | RF_FARMERS) : (l->rules.flags & ~(uint32_t)RF_FARMERS);
    l->rules.flags = (true) ? (l->rules.flags | RF_GARDENS) : (l->rules.flags & ~(uint32_t)RF_GARDENS);
    l->rules.opt[OPT_TINY_CITY] = 2;
    snprintf(l->names[0], sizeof l->names[0], "Ada");
    snprintf(l->names[1], sizeof l->names[1], "Ben \"B\"");
    l->start_tile = tile_find("BA/RCr");
    push_place(l, MV_DISCARD, "BA/Cccc+", 0, 0, 0, 0.25);
    push_place(l, MV_PLACE, "FL/F.o", 0, 1, 1, -1.0);
    push_meeple(l, MV_DEPLOY, 0, 1, FEAT_FLIER, 0, FIG_SMALL, 3);
    push_meeple(l, MV_DEPLOY, 0, 0, FEAT_CITY, EDGE_N, FIG_SMALL, 0);
    l->moves[l->n_moves - 1].player = 0;
    push(l, MV_COMMIT);
    push_place(l, MV_PLACE, "BA/RFr", 1, 0, 0, 0.75);
    push_meeple(l, MV_RECALL, 1, 0, FEAT_GARDEN, 0, FIG_ABBOT, 0);
    push(l, MV_COMMIT);
    push_place(l, MV_PLACE, "BA/Rr", 2, 0, 3, 0.5);
    push_meeple(l, MV_DEPLOY, 2, 0, FEAT_FIELD, HE_NL | HE_NR | HE_EL | HE_ER,
                FIG_SMALL, 0);
    push(l, MV_PASS);
    push(l, MV_COMMIT);
    for (size_t i = 0, src = 0; i < l->n_moves; i++)
        l->moves[i].src = (uint32_t)(l->moves[i].kind == MV_DISCARD ? src
                                                                    : src++);
}

/* A save as JCloisterZone writes it: ours without its "flierd" object,
 * which the writer puts last. Text surgery, so that no number is printed
 * again (cJSON's printer would round the random numbers). */
static char *without_flierd(const char *save)
{
    const char *cut = strstr(save, ",\"flierd\":");
    size_t n = cut ? (size_t)(cut - save) : strlen(save);
    char *p = malloc(n + 3);
    assert_non_null(p);
    memcpy(p, save, n);
    memcpy(p + n, cut ? "}\n" : "", cut ? 3 : 1);
    return p;
}

/* o's member at a dotted path; numbers index arrays ("replay.3.type"). */
static const cJSON *at(const cJSON *o, const char *path)
{
    char key[64];
    const char *p = path;
    while (o && *p) {
        size_t n = strcspn(p, ".");
        snprintf(key, sizeof key, "%.*s", (int)n, p);
        o = cJSON_IsArray(o)
                ? cJSON_GetArrayItem(o, (int)strtol(key, NULL, 10))
                : cJSON_GetObjectItemCaseSensitive(o, key);
        p += n + (p[n] == '.');
    }
    if (!o)
        fail_msg("written save has no %s", path);
    return o;
}

static void test_writer_shape(void **state)
{
    struct game_log l, back;
    struct buf out = BUF_INIT;
    (void)state;
    shape_log(&l);
    mlog_write_jcz(&l, &out);
    cJSON *j = cJSON_Parse(out.p);
    assert_non_null(j);
    assert_string_equal(at(j, "appVersion")->valuestring, "5.12.1");
    assert_string_equal(at(j, "created")->valuestring,
                        "2024-01-01T00:00:00.000Z");
    assert_int_equal(strlen(at(j, "gameId")->valuestring), 12);
    assert_true(at(j, "initialRandom")->valuedouble == 0.25);
    assert_int_equal(at(j, "setup.sets.basic:2")->valueint, 1);
    assert_int_equal(at(j, "setup.elements.abbot")->valueint, 1);
    assert_string_equal(at(j, "setup.rules.tiny-city-scoring")->valuestring,
                        "2");
    assert_string_equal(at(j, "setup.start.0.tile")->valuestring, "BA/RCr");
    assert_string_equal(at(j, "players.1.name")->valuestring, "Ben \"B\"");
    assert_int_equal(at(j, "players.1.slot")->valueint, 1);
    assert_int_equal(cJSON_GetArraySize(at(j, "replay")), 11); /* no discard */
    assert_string_equal(at(j, "replay.0.payload.rotation")->valuestring, "R90");
    assert_string_equal(at(j, "replay.1.payload.pointer.feature")->valuestring,
                        "FlyingMachine");
    assert_string_equal(at(j, "replay.1.payload.pointer.location")->valuestring,
                        "I");
    assert_int_equal((int)(at(j, "replay.1.payload.random")->valuedouble * 3) +
                         1, 3);
    assert_string_equal(at(j, "replay.2.payload.pointer.location")->valuestring,
                        "N");
    assert_int_equal(at(j, "replay.2.player")->valueint, 0);
    assert_null(cJSON_GetObjectItem(at(j, "replay.1"), "player"));
    assert_true(at(j, "replay.3.payload.random")->valuedouble == 0.75);
    assert_string_equal(at(j, "replay.5.type")->valuestring, "RETURN_MEEPLE");
    assert_string_equal(at(j, "replay.5.payload.source")->valuestring,
                        "ABBOT_RETURN");
    assert_string_equal(
        at(j, "replay.5.payload.pointer.featurePointer.feature")->valuestring,
        "Garden");
    assert_string_equal(at(j, "replay.5.payload.pointer.meepleId")->valuestring,
                        "0.abbot.1");
    assert_string_equal(at(j, "replay.8.payload.pointer.location")->valuestring,
                        "NL.NR.EL.ER");
    assert_true(at(j, "replay.10.payload.random")->valuedouble == 0.0);
    /* what the replay cannot say: the discard, and the PLACE's own
     * (unknown) draw, which the replay gives the discard's number */
    assert_int_equal(at(j, "flierd.version")->valueint, 1);
    assert_int_equal(at(j, "flierd.discards.0.before")->valueint, 0);
    assert_string_equal(at(j, "flierd.discards.0.tile")->valuestring,
                        "BA/Cccc+");
    assert_true(at(j, "flierd.discards.0.draw")->valuedouble == 0.25);
    assert_int_equal(at(j, "flierd.draws.0.message")->valueint, 0);
    assert_true(cJSON_IsNull(at(j, "flierd.draws.0.draw")));
    parse_text("shape", out.p, out.len, &back);
    expect_same_log("shape", &l, &back);
    game_log_release(&back);
    /* without the object, as JCloisterZone reads it: the discard's draw
     * moved onto the PLACE after it */
    char *plain = without_flierd(out.p);
    parse_text("shape", plain, strlen(plain), &back);
    expect_same_plain_log("shape", &l, &back);
    assert_true(back.moves[0].draw == 0.25);
    free(plain);
    cJSON_Delete(j);
    buf_release(&out);
    game_log_release(&l);
    game_log_release(&back);
}

static void test_writer_rolls(void **state)
{
    (void)state;
    for (int roll = 1; roll <= 3; roll++) {
        struct game_log l, back;
        struct buf out = BUF_INIT;
        shape_log(&l);
        l.moves[2].roll = roll;
        mlog_write_jcz(&l, &out);
        parse_text("rolls", out.p, out.len, &back);
        assert_int_equal(back.moves[2].roll, roll);
        buf_release(&out);
        game_log_release(&l);
        game_log_release(&back);
    }
}

/* ---- simulated games --------------------------------------------------- */

struct totals {
    int games, discards, flights, landed, abbot_deploys, garden_deploys,
        recalls, extra_actions, jcz_checked;
    int held_placed, held_declined, wagon_moves, wagon_passes, extra_parts;
    int deploys_by[FIG__COUNT], flights_by[FIG__COUNT], landed_by[FIG__COUNT];
    int chained; /* games with discards in a row, checked through .jcz */
};

static void edition(struct rules *r, bool c3, int players)
{
    memset(r, 0, sizeof *r);
    r->set_copies[tile_set_find(c3 ? "basic:2" : "basic:1")] = 1;
    r->set_copies[tile_set_find(c3 ? "flier:2" : "flier:1")] = 1;
    r->n_players = players;
    r->figures[FIG_SMALL] = 7;
    r->figures[FIG_ABBOT] = c3;
    r->flags = (true) ? (r->flags | RF_FARMERS) : (r->flags & ~(uint32_t)RF_FARMERS);
    r->flags = (c3) ? (r->flags | RF_GARDENS) : (r->flags & ~(uint32_t)RF_GARDENS);
    r->opt[OPT_TINY_CITY] = 4;
}

static void expect_sim_report(const char *name, const struct sim_result *res,
                              const struct report *r)
{
    if (!r->valid)
        fail_msg("%s: %s (turn %d): %s", name,
                 rule_id(r->violations[0].rule), r->violations[0].turn,
                 r->violations[0].msg);
    EXPECT_INT(name, "finished", r->finished, 1);
    EXPECT_INT(name, "turns", r->turns, res->turns);
    EXPECT_INT(name, "tiles left", r->tiles_left, 0);
    for (int p = 0; p < r->n_players; p++)
        EXPECT_INT(name, "score", r->score[p], res->score[p]);
    EXPECT_INT(name, "state hash", r->state_hash, res->state_hash);
    EXPECT_INT(name, "flights", r->n_flights, res->flights);
    EXPECT_INT(name, "landed", landed_count(r), res->landed);
    EXPECT_INT(name, "discards", r->n_discards, res->discards);
}

/* The same game through a .jcz save: with its "flierd" object the log
 * comes back whole; without it (as JCloisterZone writes saves) discards
 * become inferred. */
static void check_sim_jcz(const char *name, const struct game_log *l,
                          const struct sim_result *res, struct totals *t)
{
    struct game_log back;
    struct report r;
    struct buf out = BUF_INIT;
    mlog_write_jcz(l, &out);
    parse_text(name, out.p, out.len, &back);
    expect_same_moves(name, l, &back, true);
    game_log_release(&back);
    /* discards in a row too: the auditor draws again as JCloisterZone
     * does, with its generator's next number */
    for (size_t i = 1; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_DISCARD &&
            l->moves[i - 1].kind == MV_DISCARD) {
            t->chained++;
            break;
        }
    char *plain = without_flierd(out.p);
    parse_text(name, plain, strlen(plain), &back);
    expect_same_plain_log(name, l, &back);
    audit_run(&back, NULL, &r, NULL);
    expect_sim_report(name, res, &r);
    t->jcz_checked++;
    report_release(&r);
    game_log_release(&back);
    free(plain);
    buf_release(&out);
}

static void check_sim_rules(const char *name, const struct rules *rules,
                            uint64_t seed, const struct sim_policy *p,
                            struct totals *t)
{
    struct game_log l;
    struct report r;
    struct sim_result res;
    sim_play_result(rules, seat_names, seed, p, &l, &res);
    /* every tile of the pack is drawn once; held tiles (abbeys) are turns
     * without a draw */
    EXPECT_INT(name, "turns + discards",
               res.turns - sim_result_count(&res, "held_placed") +
                   res.discards,
               game_pack_size(rules) - (game_pack_copies(rules, l.start_tile)
                                            ? 1
                                            : 0));
    audit_run(&l, NULL, &r, NULL);
    expect_sim_report(name, &res, &r);
    check_sim_jcz(name, &l, &res, t);
    t->games++;
    t->discards += res.discards;
    t->flights += res.flights;
    t->landed += res.landed;
    t->abbot_deploys += sim_result_count(&res, "abbot_deploys");
    t->garden_deploys += sim_result_count(&res, "garden_deploys");
    t->recalls += res.recalls;
    t->extra_actions += res.extra_actions;
    t->held_placed += sim_result_count(&res, "held_placed");
    t->held_declined += sim_result_count(&res, "held_declined");
    t->wagon_moves += sim_result_count(&res, "wagon_moves");
    t->wagon_passes += sim_result_count(&res, "wagon_passes");
    t->extra_parts += res.extra_parts;
    for (int f = 0; f < FIG__COUNT; f++) {
        t->deploys_by[f] += res.deploys_by[f];
        t->flights_by[f] += res.flights_by[f];
        t->landed_by[f] += res.landed_by[f];
    }
    report_release(&r);
    game_log_release(&l);
}

static void check_sim_game(bool c3, int players, uint64_t seed,
                           const struct sim_policy *p, struct totals *t)
{
    char name[64];
    struct rules rules;
    snprintf(name, sizeof name, "sim %s %dp seed %llu", c3 ? "c3" : "c2",
             players, (unsigned long long)seed);
    edition(&rules, c3, players);
    check_sim_rules(name, &rules, seed, p, t);
}

static void test_sim_games_audit_valid(void **state)
{
    struct totals t = { 0 };
    struct sim_policy p = sim_policy_default();
    (void)state;
    for (int c3 = 0; c3 <= 1; c3++)
        for (int players = 2; players <= 6; players++)
            for (uint64_t seed = 1; seed <= 200; seed++)
                check_sim_game(c3, players, seed, &p, &t);
    print_message("%d games: %d discards, %d flights (%d landed), %d abbot "
                  "deploys (%d on gardens), %d recalls; %d through .jcz\n",
                  t.games, t.discards, t.flights, t.landed, t.abbot_deploys,
                  t.garden_deploys, t.recalls, t.jcz_checked);
    assert_int_equal(t.games, 2 * 5 * 200);
    /* the games exercise what they are meant to */
    assert_true(t.discards > 0);
    assert_true(t.flights > t.landed);
    assert_true(t.landed > 0);
    assert_true(t.abbot_deploys > 0);
    assert_true(t.garden_deploys > 0);
    assert_true(t.recalls > 0);
    assert_true(t.jcz_checked > t.games * 9 / 10);
}

/* The same with The River (I, II, both), Inns & Cathedrals, the
 * Phantom, Traders & Builders and Abbey & Mayor (alone and in the Big
 * Box: all of them): through a plain .jcz too, so JCloisterZone's own
 * saves of these games (its draw: the river first, the groups' tiles
 * counted alone; re-seeded by the COMMITs of abbeys declined and wagons
 * moved) audit as the simulator played them. */
static void test_sim_expansion_games_audit_valid(void **state)
{
    static const struct sim_setup setups[] = {
        { 2, "river", NULL, NULL },         { 3, "river", NULL, NULL },
        { 2, NULL, "river/2", NULL },       { 3, NULL, "river/1,river/2", NULL },
        { 2, "inns", NULL, NULL },          { 3, "inns", NULL, NULL },
        { 2, "phantom", NULL, NULL },       { 3, "phantom", NULL, NULL },
        { 3, "river,inns,phantom", NULL, NULL },
        { 2, NULL, "inns-and-cathedrals", "inn,cathedral" },
        { 2, "traders", NULL, NULL },       { 2, "abbey", NULL, NULL },
        { 3, "abbey", NULL, NULL },
        { 2, "river,inns,phantom,traders,abbey", NULL,
          "builder=1,pig=1,abbey=1,mayor=1,wagon=1,barn=1" },
        { 3, "river,inns,phantom,traders,abbey", NULL, NULL },
    };
    struct totals t = { 0 };
    struct sim_policy p = sim_policy_default();
    int c1_moves = 0;
    (void)state;
    for (size_t k = 0; k < sizeof setups / sizeof setups[0]; k++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            char name[96];
            struct rules rules;
            struct err e;
            int players = 2 + (int)(seed % 5);
            snprintf(name, sizeof name, "sim C%d %s/%s/%s %dp seed %llu",
                     setups[k].edition, setups[k].expansions ? setups[k].expansions : "-",
                     setups[k].sets ? setups[k].sets : "-",
                     setups[k].elements ? setups[k].elements : "-", players,
                     (unsigned long long)seed);
            if (sim_rules(&setups[k], players, &rules, &e) != ST_OK)
                fail_msg("%s: %s", name, e.msg);
            check_sim_rules(name, &rules, seed, &p, &t);
        }
    /* wagons moving by rule C1 (JCloisterZone's engine tests): to a
     * feature next to the one they left */
    for (uint64_t seed = 1; seed <= 40; seed++) {
        static const struct sim_setup am = { 2, "traders,abbey", NULL, NULL };
        char name[64];
        struct rules rules;
        struct err e;
        int before = t.wagon_moves;
        snprintf(name, sizeof name, "sim C2 traders,abbey wagon-move C1 seed "
                 "%llu", (unsigned long long)seed);
        if (sim_rules(&am, 2 + (int)(seed % 3), &rules, &e) != ST_OK)
            fail_msg("%s: %s", name, e.msg);
        rules.opt[OPT_WAGON_MOVE] = 1;
        check_sim_rules(name, &rules, seed, &p, &t);
        c1_moves += t.wagon_moves - before;
    }
    print_message("%d expansion games: %d discards, %d flights (%d landed), "
                  "%d actions after the first; %d through .jcz, %d of them "
                  "with discards in a row\n", t.games, t.discards,
                  t.flights, t.landed, t.extra_actions, t.jcz_checked,
                  t.chained);
    print_message("abbeys %d placed, %d declined; wagons %d moved, %d "
                  "left (%d moves by rule C1); %d second turn parts; barns "
                  "%d, builders %d, pigs %d; flights (landed) mayor %d (%d), "
                  "wagon %d (%d)\n",
                  t.held_placed, t.held_declined, t.wagon_moves,
                  t.wagon_passes, c1_moves, t.extra_parts, t.deploys_by[FIG_BARN],
                  t.deploys_by[FIG_BUILDER], t.deploys_by[FIG_PIG],
                  t.flights_by[FIG_MAYOR], t.landed_by[FIG_MAYOR],
                  t.flights_by[FIG_WAGON], t.landed_by[FIG_WAGON]);
    assert_true(t.discards > 0 && t.extra_actions > 0);
    /* what Traders & Builders and Abbey & Mayor bring gets played */
    assert_true(t.held_placed > 0 && t.held_declined > 0);
    assert_true(t.wagon_moves > 0 && t.wagon_passes > 0 && c1_moves > 0);
    assert_true(t.extra_parts > 0);
    assert_true(t.deploys_by[FIG_BARN] > 0 && t.deploys_by[FIG_BUILDER] > 0 &&
                t.deploys_by[FIG_PIG] > 0);
    assert_true(t.landed_by[FIG_MAYOR] > 0 &&
                t.flights_by[FIG_MAYOR] > t.landed_by[FIG_MAYOR]);
    assert_true(t.landed_by[FIG_WAGON] > 0 &&
                t.flights_by[FIG_WAGON] > t.landed_by[FIG_WAGON]);
    assert_true(t.chained > 0); /* the redraw's generator is exercised */
    assert_true(t.jcz_checked > t.games * 9 / 10);
}

static void test_sim_deterministic(void **state)
{
    struct rules rules;
    struct sim_policy p = sim_policy_default();
    struct game_log a, b, c;
    struct buf ja = BUF_INIT, jb = BUF_INIT, jc = BUF_INIT;
    (void)state;
    edition(&rules, true, 3);
    sim_play(&rules, seat_names, 42, &p, &a);
    sim_play(&rules, seat_names, 42, &p, &b);
    sim_play(&rules, seat_names, 43, &p, &c);
    mlog_write_jcz(&a, &ja);
    mlog_write_jcz(&b, &jb);
    mlog_write_jcz(&c, &jc);
    assert_string_equal(ja.p, jb.p);
    assert_string_not_equal(ja.p, jc.p);
    assert_string_equal(a.names[2], "Cleo");
    assert_int_equal(a.start_tile, tile_find("BA/RCr"));
    assert_int_equal(a.end_turn, -1);
    buf_release(&ja);
    buf_release(&jb);
    buf_release(&jc);
    game_log_release(&a);
    game_log_release(&b);
    game_log_release(&c);
}

/* Policy extremes: never deploying or flying still gives legal games,
 * and always flying flies whenever it can. */
static void test_sim_policies(void **state)
{
    const struct sim_policy none = sim_policy_uniform(0),
                            all = sim_policy_uniform(1);
    struct totals t = { 0 };
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        check_sim_game(seed & 1, 2 + (int)(seed % 5), seed, &none, &t);
        assert_int_equal(t.flights, 0);
    }
    for (uint64_t seed = 1; seed <= 20; seed++)
        check_sim_game(seed & 1, 2 + (int)(seed % 5), seed, &all, &t);
    assert_true(t.flights > 0);
    assert_true(t.recalls > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_match_expected),
        cmocka_unit_test(test_samples_replay_deterministic),
        cmocka_unit_test(test_samples_round_trip),
        cmocka_unit_test(test_writer_shape),
        cmocka_unit_test(test_writer_rolls),
        cmocka_unit_test(test_sim_deterministic),
        cmocka_unit_test(test_sim_policies),
        cmocka_unit_test(test_sim_games_audit_valid),
        cmocka_unit_test(test_sim_expansion_games_audit_valid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
