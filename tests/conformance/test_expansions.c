/* test_expansions.c - conformance with JCloisterZone on The Flier played
 * with other expansions, read in place from the shared folder
 * (FLIERD_SHARED_DIR/peer/jcz/expansions, never copied here):
 *   a. every game of the corpora of supported configurations: valid,
 *      finished, the same final scores, every flight (figure, roll, the
 *      landing offered and taken) and every score event with its
 *      expression and items, compared as multisets per turn;
 *   b. the games of configurations still unsupported are refused with
 *      "unsupported: <expansion> ... is not audited yet";
 *   c. the forgeries: each flagged with its rule at its turn once its
 *      configuration is supported;
 *   d. games of The Tower changed here, one message each, for its rules;
 *   e. Princess & Dragon games forged here, one message changed in the
 *      log read from a corpus game: each flagged with the rule of the
 *      change at its turn. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

#define EXP_DIR PEER_DIR "/expansions"
#define KEY_MAX 512

static const struct audit_opts plain = { .assume_finished = false };

/* The configurations flierd must audit; any other folder's games must
 * either pass or be refused as unsupported. */
static const char *const required[] = { "river", "ic", "phantom", "tb",
                                         "am", "bigbox", "tower",
                                         "pd", "count", "cult", "darmstadt",
                                         "monasteries", "siege", "corn",
                                         "bigtop", "bcb", "winter", "gq11",
                                         "spiel-doch", "wind_roses", "kr",
                                         "russian_promos",
                                         "little_buildings", "festival",
                                         "tunnel", "labyrinth",
                                         "watchtowers", "gold",
                                         "ferries", "hs", "mage" };
static const char *const folders[] = { "river", "ic",   "phantom", "tb",
                                       "am",    "bigbox", "pd",    "tower",
                                       "count", "cult",   "darmstadt",
                                       "monasteries", "siege", "corn",
                                       "bigtop", "bcb", "winter", "gq11",
                                       "spiel-doch", "wind_roses", "kr",
                                       "russian_promos",
                                       "little_buildings", "festival",
                                       "tunnel", "labyrinth",
                                       "watchtowers", "gold",
                                       "ferries", "hs", "mage" };

static bool is_required(const char *folder)
{
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (strcmp(required[i], folder) == 0)
            return true;
    return false;
}

/* ---- score events as multisets --------------------------------------- */

static void items_key(const struct score_event *ev, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = 0; i < ev->n_items && n < len; i++) {
        const struct score_item *it = &ev->items[i];
        char count[16] = "null";
        if (it->count >= 0)
            snprintf(count, sizeof count, "%d", it->count);
        n += (size_t)snprintf(out + n, len - n, "%s[%s,%s,%d]", i ? "," : "",
                              score_item_name(it->kind), count, it->points);
    }
}

static void key_of_ours(const struct game_log *log,
                        const struct score_event *ev, char *out)
{
    const char *names[GAME_MAX_PLAYERS];
    char players[GAME_MAX_PLAYERS * (LOG_NAME_MAX + 1)] = "", expr[48];
    char items[256];
    size_t n = 0, used = 0;
    for (int p = 0; p < log->rules.n_players; p++)
        if (ev->players & (1u << p))
            names[n++] = log->names[p];
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(players + used, sizeof players - used,
                                 "%s%s", i ? "|" : "", names[i]);
    score_expr_format(ev->feature, ev->expr, expr, sizeof expr);
    items_key(ev, items, sizeof items);
    if (snprintf(out, KEY_MAX, "%4d %s %s %d %s %s", ev->turn, players,
                 feat_name(ev->feature), ev->points, expr, items) >= KEY_MAX)
        fail_msg("a score event's key is longer than %d bytes", KEY_MAX);
}

static void key_of_theirs(const cJSON *ev, char *out)
{
    const char *names[GAME_MAX_PLAYERS];
    char players[GAME_MAX_PLAYERS * (LOG_NAME_MAX + 1)] = "";
    char items[256] = "";
    const cJSON *turn = cJSON_GetObjectItemCaseSensitive(ev, "turn");
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(ev, "final");
    const cJSON *it;
    size_t n = 0, used = 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(ev, "players")) {
        assert_true(n < GAME_MAX_PLAYERS && cJSON_IsString(it));
        names[n++] = it->valuestring;
    }
    assert_int_equal(cJSON_IsTrue(final), cJSON_IsNull(turn));
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++)
        used += (size_t)snprintf(players + used, sizeof players - used,
                                 "%s%s", i ? "|" : "", names[i]);
    used = 0;
    /* a tower ransom: the corpus names its one term by the freed meeple
     * ("2.small.2"); ours is the term "ransom", the meeple in the event */
    bool ransom = strcmp(cJSON_GetObjectItemCaseSensitive(ev, "feature")
                             ->valuestring, "ransom") == 0;
    /* a bazaar's points: the corpus names the term by the tile sold
     * ("BA/Rr"); ours is the term "bazaar" */
    bool bazaar = strcmp(cJSON_GetObjectItemCaseSensitive(ev, "feature")
                             ->valuestring, "bazaar") == 0;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(ev, "items")) {
        const cJSON *count = cJSON_GetArrayItem(it, 1);
        char c[16] = "null";
        if (cJSON_IsNumber(count))
            snprintf(c, sizeof c, "%d", count->valueint);
        used += (size_t)snprintf(
            items + used, sizeof items - used, "%s[%s,%s,%d]",
            used ? "," : "",
            ransom   ? "ransom"
            : bazaar ? "bazaar"
                     : cJSON_GetArrayItem(it, 0)->valuestring,
            c,
            cJSON_GetArrayItem(it, 2)->valueint);
    }
    if (snprintf(out, KEY_MAX, "%4d %s %s %d %s %s",
                 cJSON_IsNull(turn) ? -1 : turn->valueint, players,
                 cJSON_GetObjectItemCaseSensitive(ev, "feature")->valuestring,
                 cJSON_GetObjectItemCaseSensitive(ev, "points")->valueint,
                 cJSON_GetObjectItemCaseSensitive(ev, "expr")->valuestring,
                 items) >= KEY_MAX)
        fail_msg("an expected event's key is longer than %d bytes", KEY_MAX);
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Prints what only one side has; returns that count. */
static int compare_events(const char *file, const struct game_log *log,
                          const struct report *r, const cJSON *events)
{
    size_t m = (size_t)cJSON_GetArraySize(events), n = r->n_events;
    char (*ours)[KEY_MAX] = calloc(n + 1, KEY_MAX);
    char (*theirs)[KEY_MAX] = calloc(m + 1, KEY_MAX);
    const cJSON *ev;
    size_t i = 0, j = 0;
    int diffs = 0;
    assert_non_null(ours);
    assert_non_null(theirs);
    for (size_t k = 0; k < n; k++)
        key_of_ours(log, &r->events[k], ours[k]);
    cJSON_ArrayForEach(ev, events)
        key_of_theirs(ev, theirs[j++]);
    qsort(ours, n, KEY_MAX, cmp_key);
    qsort(theirs, m, KEY_MAX, cmp_key);
    j = 0;
    while (i < n || j < m) {
        int c = i == n ? 1 : j == m ? -1 : strcmp(ours[i], theirs[j]);
        if (c == 0) {
            i++, j++;
            continue;
        }
        diffs++;
        if (diffs <= 6)
            print_error("%s: event only in %s: %s\n", file,
                        c < 0 ? "ours  " : "theirs", c < 0 ? ours[i] : theirs[j]);
        if (c < 0)
            i++;
        else
            j++;
    }
    free(ours);
    free(theirs);
    return diffs;
}

/* ---- flights ----------------------------------------------------------- */

static int int_at(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valueint : -99999;
}

static bool pos_is(const cJSON *arr, struct pos p)
{
    return cJSON_GetArraySize(arr) == 2 &&
           cJSON_GetArrayItem(arr, 0)->valueint == p.x &&
           cJSON_GetArrayItem(arr, 1)->valueint == p.y;
}

/* Our flight f against JCloisterZone's d: who, which figure, from where,
 * the roll, whether a landing was offered and taken, and where. */
static int compare_flight(const char *file, const struct game_log *log,
                          const struct flight *f, const cJSON *d)
{
    const char *player =
        cJSON_GetObjectItemCaseSensitive(d, "player")->valuestring;
    const char *figure =
        cJSON_GetObjectItemCaseSensitive(d, "figure")->valuestring;
    const cJSON *landing = cJSON_GetObjectItemCaseSensitive(d, "landing");
    bool offered = cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(d, "landingOffered"));
    bool landed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "landed"));
    int bad = 0;
    bad += f->turn != int_at(d, "turn");
    bad += strcmp(log->names[f->player], player) != 0;
    bad += strcmp(figure_class(f->figure)->jcz, figure) != 0;
    bad += !pos_is(cJSON_GetObjectItemCaseSensitive(d, "from"), f->from);
    bad += f->roll != int_at(d, "roll");
    bad += (f->n_options > 0) != offered;
    bad += f->landed != landed;
    if (landed && f->landed && cJSON_IsObject(landing)) {
        /* in JCloisterZone's names (a shrine is one of its Monasteries);
         * the location tells a special monastery's two places apart */
        uint8_t mask = 0;
        int kind = feat_find_jcz_loc(
            cJSON_GetObjectItemCaseSensitive(landing, "feature")->valuestring,
            cJSON_GetObjectItemCaseSensitive(landing, "location")->valuestring,
            &mask);
        bad += kind < 0 || !feat_is(f->feature, kind);
        bad += kind < 0 ||
               (feat_shape(kind) != SHAPE_INNER && mask != f->mask);
        bad += !pos_is(cJSON_GetObjectItemCaseSensitive(landing, "position"),
                       f->target);
    }
    if (bad) {
        char *theirs = cJSON_PrintUnformatted(d);
        print_error("%s: flight of turn %d differs: ours %s %s roll %d, %d "
                    "options, %s; theirs %s\n", file, f->turn,
                    log->names[f->player], figure_class(f->figure)->jcz,
                    f->roll, f->n_options, f->landed ? "landed" : "returned",
                    theirs);
        free(theirs);
    }
    return bad != 0;
}

static int compare_flights(const char *file, const struct game_log *log,
                           const struct report *r, const cJSON *details)
{
    int bad = 0;
    size_t i = 0;
    const cJSON *d;
    if ((size_t)cJSON_GetArraySize(details) != r->n_flights) {
        print_error("%s: %zu flights, JCloisterZone %d\n", file, r->n_flights,
                    cJSON_GetArraySize(details));
        return 1;
    }
    cJSON_ArrayForEach(d, details)
        bad += compare_flight(file, log, &r->flights[i++], d);
    return bad;
}

/* ---- a. the games ------------------------------------------------------- */

static int check_game(const char *file, const struct game_log *log,
                      const struct report *r, const cJSON *want)
{
    int bad = 0;
    const cJSON *s;
    if (!r->valid) {
        print_violations(file, r);
        bad++;
    }
    if (!r->finished) {
        print_error("%s: not finished (%d tiles left)\n", file, r->tiles_left);
        bad++;
    }
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(want, "scores")) {
        int seat = seat_of(log, s->string);
        if (seat < 0 || r->score[seat] != s->valueint) {
            print_error("%s: %s scored %d, JCloisterZone %d\n", file,
                        s->string, seat < 0 ? -1 : r->score[seat],
                        s->valueint);
            bad++;
        }
    }
    bad += compare_flights(file, log, r,
                           cJSON_GetObjectItemCaseSensitive(want,
                                                            "flightDetails"));
    bad += compare_events(file, log, r,
                          cJSON_GetObjectItemCaseSensitive(want, "events"));
    return bad;
}

/* Checks one folder; returns the games that differ. */
static int check_folder(const char *folder, int *out_games, int *out_skipped)
{
    char dir[512], path[640], why[ERR_MSG_MAX];
    snprintf(dir, sizeof dir, "%s/%s", EXP_DIR, folder);
    snprintf(path, sizeof path, "%s/expected.json", dir);
    cJSON *expected = load_json(path);
    struct paths files;
    int failed = 0;
    list_jcz(dir, false, &files);
    assert_int_equal(files.n, (size_t)cJSON_GetArraySize(expected));
    for (size_t i = 0; i < files.n; i++) {
        const char *file = base_name(files.v[i]);
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(expected, file);
        struct game_log log;
        struct report r;
        if (!want)
            fail_msg("%s/%s is not in expected.json", folder, file);
        if (unsupported(files.v[i], why, sizeof why)) {
            if (is_required(folder))
                fail_msg("%s/%s: %s", folder, file, why);
            assert_non_null(strstr(why, "is not audited yet"));
            (*out_skipped)++;
            continue;
        }
        load_log(files.v[i], &log);
        audit_run(&log, &plain, &r, NULL);
        failed += check_game(file, &log, &r, want) > 0;
        (*out_games)++;
        report_release(&r);
        game_log_release(&log);
    }
    paths_free(&files);
    cJSON_Delete(expected);
    return failed;
}

static void test_corpora(void **state)
{
    int failed = 0;
    (void)state;
    for (size_t f = 0; f < sizeof folders / sizeof *folders; f++) {
        int games = 0, skipped = 0;
        int bad = check_folder(folders[f], &games, &skipped);
        print_message("expansions/%s: %d games audited, %d agree, %d "
                      "unsupported\n", folders[f], games, games - bad,
                      skipped);
        failed += bad;
    }
    if (failed)
        fail_msg("%d games differ from JCloisterZone", failed);
}

/* ---- c. forgeries ------------------------------------------------------- */

/* A forgery of an expansion flierd does not audit yet is skipped as
 * such; every other one is flagged with its rule at its turn. */
static int check_forgery_or_skip(const char *path, const cJSON *want,
                                 int *skipped)
{
    char why[ERR_MSG_MAX];
    if (unsupported(path, why, sizeof why)) {
        assert_non_null(strstr(why, "is not audited yet"));
        (*skipped)++;
        return 0;
    }
    return check_forgery(path, want);
}

static void test_forgeries(void **state)
{
    struct paths files;
    cJSON *manifest = load_json(EXP_DIR "/forgeries/manifest.json");
    int failed = 0, skipped = 0;
    (void)state;
    list_jcz(EXP_DIR "/forgeries", false, &files);
    assert_int_equal(files.n, (size_t)cJSON_GetArraySize(manifest));
    for (size_t i = 0; i < files.n; i++) {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(
            manifest, base_name(files.v[i]));
        if (!want)
            fail_msg("%s is not in manifest.json", files.v[i]);
        failed += check_forgery_or_skip(files.v[i], want, &skipped);
    }
    print_message("expansions/forgeries: %zu, %d unsupported\n", files.n,
                  skipped);
    paths_free(&files);
    cJSON_Delete(manifest);
    if (failed)
        fail_msg("%d forgeries not flagged as the manifest says", failed);
}

/* ---- d. The Tower, forged here ------------------------------------------ */

/* The payload of replay[i] of a save. */
static cJSON *payload_at(cJSON *save, int i)
{
    cJSON *msg = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(save, "replay"), i);
    assert_non_null(msg);
    return cJSON_GetObjectItemCaseSensitive(msg, "payload");
}

static void set_pointer(cJSON *ptr, int x, int y, const char *feature,
                        const char *location)
{
    cJSON *pos = cJSON_CreateIntArray((const int[]){ x, y }, 2);
    cJSON_ReplaceItemInObjectCaseSensitive(ptr, "position", pos);
    cJSON_ReplaceItemInObjectCaseSensitive(ptr, "feature",
                                           cJSON_CreateString(feature));
    cJSON_ReplaceItemInObjectCaseSensitive(ptr, "location",
                                           cJSON_CreateString(location));
}

/* The index of the n-th (0-based) message of this type. */
static int nth_of(cJSON *save, const char *type, int n)
{
    int i = 0;
    const cJSON *msg;
    cJSON_ArrayForEach(msg, cJSON_GetObjectItemCaseSensitive(save, "replay")) {
        if (strcmp(cJSON_GetObjectItemCaseSensitive(msg, "type")->valuestring,
                   type) == 0 && n-- == 0)
            return i;
        i++;
    }
    fail_msg("no %s message", type);
    return -1;
}

/* The save, changed, audited: its first violation is rule at turn. */
static void expect_forged(cJSON *save, enum rule rule, int turn)
{
    char *text = cJSON_PrintUnformatted(save);
    struct game_log log;
    struct report r;
    struct err e;
    enum mlog_format fmt;
    game_log_init(&log);
    if (mlog_parse(text, strlen(text), &log, &fmt, &e) != ST_OK)
        fail_msg("the forged save does not parse: %s", e.msg);
    audit_run(&log, &plain, &r, NULL);
    if (r.n_violations == 0 || r.violations[0].rule != rule ||
        r.violations[0].turn != turn)
        fail_msg("expected %s at turn %d, got %s at turn %d (%s) in %.200s",
                 rule_id(rule), turn,
                 r.n_violations ? rule_id(r.violations[0].rule) : "none",
                 r.n_violations ? r.violations[0].turn : -1,
                 r.n_violations ? r.violations[0].msg : "", strstr(text, "\"replay\""));
    report_release(&r);
    game_log_release(&log);
    free(text);
}

/* tower-dev-001 with one message changed: Bob's flier lands on the tower
 * of TO/RRRR.1 (turn 10) instead of its road; Alice's first floor goes
 * on the start tile (turn 3); Alice's capture at turn 13 loses its floor;
 * Alice's deployment at turn 1 becomes a ransom for a follower nobody
 * holds. */
static void test_tower_forged(void **state)
{
    (void)state;
    cJSON *save = load_json(EXP_DIR "/tower/tower-dev-001.jcz");
    /* the landing follows the first flight */
    int flight = -1;
    for (int k = 0; flight < 0; k++) {
        int i = nth_of(save, "DEPLOY_MEEPLE", k);
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(payload_at(save, i), "pointer"),
            "feature");
        if (strcmp(f->valuestring, "FlyingMachine") == 0)
            flight = i;
    }
    cJSON *ptr = cJSON_GetObjectItemCaseSensitive(payload_at(save, flight + 1),
                                                  "pointer");
    set_pointer(ptr, 4, 0, "Tower", "I");
    expect_forged(save, RULE_FLIER_ON_TOWER, 10);
    cJSON_Delete(save);

    save = load_json(EXP_DIR "/tower/tower-dev-001.jcz");
    ptr = cJSON_GetObjectItemCaseSensitive(
        payload_at(save, nth_of(save, "PLACE_TOKEN", 0)), "pointer");
    set_pointer(ptr, 0, 0, "Tower", "I");
    expect_forged(save, RULE_TOWER_PLACEMENT, 3);
    cJSON_Delete(save);

    save = load_json(EXP_DIR "/tower/tower-dev-001.jcz");
    cJSON_DeleteItemFromArray(cJSON_GetObjectItemCaseSensitive(save, "replay"),
                              nth_of(save, "CAPTURE_FOLLOWER", 0) - 1);
    expect_forged(save, RULE_TOWER_CAPTURE, 13);
    cJSON_Delete(save);

    save = load_json(EXP_DIR "/tower/tower-dev-001.jcz");
    cJSON *msg = cJSON_GetArrayItem(
        cJSON_GetObjectItemCaseSensitive(save, "replay"), 1);
    cJSON *ransom = cJSON_CreateObject();
    cJSON_AddStringToObject(ransom, "meepleId", "0.small.1");
    cJSON_ReplaceItemInObjectCaseSensitive(msg, "type",
                                           cJSON_CreateString("PAY_RANSOM"));
    cJSON_ReplaceItemInObjectCaseSensitive(msg, "payload", ransom);
    expect_forged(save, RULE_TOWER_RANSOM, 1);
    cJSON_Delete(save);
}

/* ---- e. Princess & Dragon forged in the test ------------------------- */

/* The index of the nth move (0-based) of kind `kind` (and, for
 * MV_NEUTRAL, of figure `fig`) in log, and its turn (PLACE moves up to
 * it). */
static size_t nth_move(const struct game_log *log, int kind, int fig, int nth,
                       int *turn)
{
    int places = 0;
    *turn = -1; /* fail_msg() does not return, but -O3 cannot know */
    for (size_t i = 0; i < log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        places += m->kind == MV_PLACE;
        if (m->kind != kind || (kind == MV_NEUTRAL && m->neutral != fig))
            continue;
        if (nth-- == 0) {
            *turn = places;
            return i;
        }
    }
    fail_msg("no such move");
    return 0;
}

static void expect_rule_at(const struct game_log *log, enum rule rule,
                           int turn, const char *what)
{
    struct report r;
    audit_run(log, &plain, &r, NULL);
    bool found = false;
    for (size_t i = 0; i < r.n_violations; i++)
        found |= r.violations[i].rule == rule && r.violations[i].turn == turn;
    if (!found) {
        print_violations(what, &r);
        fail_msg("%s: no %s at turn %d", what, rule_id(rule), turn);
    }
    report_release(&r);
}

static void test_pd_forged(void **state)
{
    struct game_log log;
    int turn;
    size_t i;
    (void)state;
    /* a dragon step to a square without a tile */
    load_log(EXP_DIR "/pd/pd-dev-001.jcz", &log);
    i = nth_move(&log, MV_NEUTRAL, FIG_DRAGON, 1, &turn);
    log.moves[i].at = (struct pos){ 40, 40 };
    expect_rule_at(&log, RULE_DRAGON_MOVE, turn, "dragon off the board");
    game_log_release(&log);
    /* the last of six steps left out */
    load_log(EXP_DIR "/pd/pd-dev-001.jcz", &log);
    i = nth_move(&log, MV_NEUTRAL, FIG_DRAGON, 7, &turn);
    memmove(&log.moves[i], &log.moves[i + 1],
            (log.n_moves - i - 1) * sizeof *log.moves);
    log.n_moves--;
    expect_rule_at(&log, RULE_DRAGON_MOVE, turn, "a dragon step missing");
    game_log_release(&log);
    /* the fairy beside the other player's follower */
    load_log(EXP_DIR "/pd/pd-dev-001.jcz", &log);
    i = nth_move(&log, MV_NEUTRAL, FIG_FAIRY, 0, &turn);
    log.moves[i].meeple_owner = (int8_t)(1 - log.moves[i].meeple_owner);
    expect_rule_at(&log, RULE_FAIRY_PLACEMENT, turn, "someone else's fairy");
    game_log_release(&log);
    /* the princess sending home a knight that is not where she says */
    load_log(EXP_DIR "/pd/pd-dev-009.jcz", &log);
    i = nth_move(&log, MV_PRINCESS, 0, 0, &turn);
    log.moves[i].at.x += 1;
    expect_rule_at(&log, RULE_PRINCESS, turn, "a princess off her city");
    game_log_release(&log);
    /* a knight on the volcano just placed, where the dragon is: message
     * 150 places DG/CC.v at (-2,-4) turned R180 (cities W and S), 151
     * passes */
    load_log(EXP_DIR "/pd/pd-dev-001.jcz", &log);
    for (i = 0; log.moves[i].src != 151; i++)
        ;
    assert_int_equal(log.moves[i].kind, MV_PASS);
    log.moves[i] = (struct move){ .kind = MV_DEPLOY, .player = -1,
                                  .tile = -1, .at = { -2, -4 },
                                  .feature = FEAT_CITY, .mask = EDGE_W,
                                  .meeple = FIG_SMALL, .meeple_owner = -1,
                                  .draw = -1.0, .src = 151 };
    expect_rule_at(&log, RULE_DRAGON_TILE, 46, "a knight by the dragon");
    game_log_release(&log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpora),
        cmocka_unit_test(test_forgeries),
        cmocka_unit_test(test_tower_forged),
        cmocka_unit_test(test_pd_forged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
