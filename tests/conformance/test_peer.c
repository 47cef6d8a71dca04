/* test_peer.c - conformance with JCloisterZone, read in place from the
 * shared folder (FLIERD_SHARED_DIR/peer/jcz, never copied here):
 *   a. the client's own engine tests and their test.assertions;
 *   b. the 100 development games against games/expected.json;
 *   c. the 18 forgeries against forgeries/manifest.json;
 *   d. determinism: two audits of one game end in the same state hash. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peer.h"

#define N_GAMES 100
#define N_FORGERIES 18

static const struct audit_opts plain = { .assume_finished = false };

/* ---- a. JCloisterZone's engine tests ----------------------------------- */

static void expect_points(const char *file, const struct game_log *log,
                          const struct report *r, const char *name, int pts)
{
    int seat = seat_of(log, name);
    if (seat < 0)
        fail_msg("%s: no player '%s'", file, name);
    if (r->score[seat] != pts)
        fail_msg("%s: %s has %d points, expected %d", file, name,
                 r->score[seat], pts);
}

static void expect_scored(const char *file, const struct game_log *log,
                          const struct report *r, const char *name,
                          const char *feat, int pts)
{
    int seat = seat_of(log, name);
    if (seat < 0)
        fail_msg("%s: no player '%s'", file, name);
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        if ((ev->players & (1u << seat)) && ev->points == pts &&
            strcmp(feat_name(ev->feature), feat) == 0)
            return;
    }
    fail_msg("%s: no event where %s scored %s for %d points", file, name,
             feat, pts);
}

/* The flight offered landings, so the turn cannot end in a pass: the save
 * stops there, and a PASS appended after it is FLIER_MUST_LAND. */
static void expect_no_pass(const char *file, struct game_log *log,
                           const struct report *r)
{
    const struct flight *f;
    struct report again;
    uint32_t src = log->moves[log->n_moves - 1].src + 1;
    struct move *pass;
    assert_false(r->finished);
    if (r->n_flights == 0)
        fail_msg("%s: no flight", file);
    f = &r->flights[r->n_flights - 1];
    assert_true(f->n_options > 0);
    assert_false(f->landed);
    pass = game_log_push(log);
    pass->kind = MV_PASS;
    pass->src = src;
    audit_run(log, &plain, &again, NULL);
    log->n_moves--; /* the save as it was */
    assert_true(again.n_violations >= 1);
    assert_string_equal(rule_id(again.violations[0].rule), "FLIER_MUST_LAND");
    assert_int_equal(again.violations[0].turn, f->turn);
    assert_int_equal(again.violations[0].src, src);
    report_release(&again);
}

/* The game waits for the next tile (JCloisterZone's TilePhase): the save
 * is valid, and a PASS appended after it answers no round between turns
 * (a crop circle's, an auction's) but is a pass before the tile. */
static void expect_tile_phase(const char *file, struct game_log *log,
                              const struct report *r)
{
    struct report again;
    uint32_t src = log->moves[log->n_moves - 1].src + 1;
    if (!r->valid)
        fail_msg("%s: %s", file, r->violations[0].msg);
    struct move *pass = game_log_push(log);
    pass->kind = MV_PASS;
    pass->src = src;
    audit_run(log, &plain, &again, NULL);
    log->n_moves--; /* the save as it was */
    if (again.n_violations < 1 || again.violations[0].src != src ||
        again.violations[0].rule != RULE_TURN_SEQUENCE)
        fail_msg("%s: a PASS after the save is taken as an answer, so the "
                 "game does not wait for a tile", file);
    report_release(&again);
}

static void check_assertion(const char *file, struct game_log *log,
                            const struct report *r, const char *text)
{
    char name[LOG_NAME_MAX], feat[32];
    int pts, used = 0;
    if (sscanf(text, "%63s has %d point%n", name, &pts, &used) == 2 &&
        used > 0 && (text[used] == '\0' || strcmp(text + used, "s") == 0)) {
        expect_points(file, log, r, name, pts);
        return;
    }
    used = 0;
    if (sscanf(text, "%63s scored %31s for %d point%n", name, feat, &pts,
               &used) == 3 && used > 0 &&
        (text[used] == '\0' || strcmp(text + used, "s") == 0)) {
        expect_scored(file, log, r, name, feat, pts);
        return;
    }
    if (strcmp(text, "Player can't pass") == 0) {
        expect_no_pass(file, log, r);
        return;
    }
    if (strcmp(text, "phase is TilePhase") == 0) {
        expect_tile_phase(file, log, r);
        return;
    }
    fail_msg("%s: unknown assertion '%s'", file, text);
}

static void run_engine_test(const char *path)
{
    struct game_log log;
    struct report r;
    cJSON *root = load_json(path);
    const cJSON *asserts = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "test"), "assertions");
    const cJSON *a;
    if (cJSON_GetArraySize(asserts) < 1)
        fail_msg("%s: no test.assertions", path);
    load_log(path, &log);
    audit_run(&log, &plain, &r, NULL);
    if (!r.valid) {
        print_violations(path, &r);
        fail_msg("%s: JCloisterZone's own scenario audited as invalid", path);
    }
    cJSON_ArrayForEach(a, asserts) {
        assert_true(cJSON_IsString(a));
        check_assertion(base_name(path), &log, &r, a->valuestring);
    }
    report_release(&r);
    game_log_release(&log);
    cJSON_Delete(root);
}

/* Every engine test of a supported configuration passes its assertions;
 * one of an expansion still unsupported must say which by name. */
static void test_engine_tests(void **state)
{
    static const struct {
        const char *folder;
        size_t at_least; /* that must run */
    } must[] = {
        { "/basic/", 6 },
        { "/flying-machines/", 1 },
        { "/inns-and-cathedrals/", 3 },
        { "/traders-and-builders/", 5 },
        { "/abbey-and-mayor/", 8 },
        { "/princess-and-dragon/", 5 },
        { "/count/", 1 },
        { "/cult/", 2 },
        { "/darmstadt/", 5 },
        { "/monasteries/", 1 },
        { "/siege/", 5 },
        { "/bridge-bazaar-and-castles/", 3 },
        { "/gq11/", 1 },
        { "/wind-rose/", 1 },
        { "/king-and-robber/", 5 },
        { "/russian-promos/", 2 },
        { "/little-bulldings/", 3 },
        { "/labyrinth/", 2 },
        { "/watchtowers/", 3 },
        { "/goldmines/", 2 },
        { "/hills-and-sheep/", 15 },
        { "/mage-and-witch/", 2 },
    };
    struct paths files;
    char why[ERR_MSG_MAX];
    size_t ran[sizeof must / sizeof must[0]] = { 0 };
    (void)state;
    list_jcz(PEER_DIR "/engine-tests", true, &files);
    for (size_t i = 0; i < files.n; i++) {
        if (unsupported(files.v[i], why, sizeof why)) {
            /* "unsupported: <expansion> (...) is not audited yet" */
            assert_non_null(strstr(why, "is not audited yet"));
            print_message("skipped %s: %s\n", base_name(files.v[i]), why);
            continue;
        }
        run_engine_test(files.v[i]);
        for (size_t k = 0; k < sizeof must / sizeof must[0]; k++)
            ran[k] += strstr(files.v[i], must[k].folder) != NULL;
    }
    for (size_t k = 0; k < sizeof must / sizeof must[0]; k++)
        if (ran[k] < must[k].at_least)
            fail_msg("engine-tests%s: %zu ran, expected %zu", must[k].folder,
                     ran[k], must[k].at_least);
    paths_free(&files);
}

/* ---- b. the development corpus ----------------------------------------- */

/* A score event as a multiset element: turn (-1 final), the names of the
 * players sorted and joined with '|', feature, points. */
struct ev_key {
    int turn;
    char players[GAME_MAX_PLAYERS * (LOG_NAME_MAX + 1)];
    char feature[16];
    int points;
};

static void join_sorted(const char **names, size_t n, char *out, size_t len)
{
    size_t used = 0;
    qsort(names, n, sizeof *names, cmp_str);
    out[0] = '\0';
    for (size_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", i ? "|" : "",
                                 names[i]);
}

static void key_of_ours(const struct game_log *log,
                        const struct score_event *ev, struct ev_key *k)
{
    const char *names[GAME_MAX_PLAYERS];
    size_t n = 0;
    for (int p = 0; p < log->rules.n_players; p++)
        if (ev->players & (1u << p))
            names[n++] = log->names[p];
    k->turn = ev->turn;
    join_sorted(names, n, k->players, sizeof k->players);
    snprintf(k->feature, sizeof k->feature, "%s", feat_name(ev->feature));
    k->points = ev->points;
}

static void key_of_theirs(const cJSON *ev, struct ev_key *k)
{
    const char *names[GAME_MAX_PLAYERS];
    const cJSON *turn = cJSON_GetObjectItemCaseSensitive(ev, "turn");
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(ev, "final");
    const cJSON *pl = cJSON_GetObjectItemCaseSensitive(ev, "players"), *it;
    size_t n = 0;
    cJSON_ArrayForEach(it, pl) {
        assert_true(n < GAME_MAX_PLAYERS && cJSON_IsString(it));
        names[n++] = it->valuestring;
    }
    assert_int_equal(cJSON_IsTrue(final), cJSON_IsNull(turn));
    k->turn = cJSON_IsNull(turn) ? -1 : turn->valueint;
    join_sorted(names, n, k->players, sizeof k->players);
    snprintf(k->feature, sizeof k->feature, "%s",
             cJSON_GetObjectItemCaseSensitive(ev, "feature")->valuestring);
    k->points = cJSON_GetObjectItemCaseSensitive(ev, "points")->valueint;
}

static int cmp_key(const void *pa, const void *pb)
{
    const struct ev_key *a = pa, *b = pb;
    int c;
    if (a->turn != b->turn)
        return a->turn < b->turn ? -1 : 1;
    c = strcmp(a->players, b->players);
    if (c == 0)
        c = strcmp(a->feature, b->feature);
    if (c == 0 && a->points != b->points)
        c = a->points < b->points ? -1 : 1;
    return c;
}

static void print_key(const char *file, const char *side,
                      const struct ev_key *k)
{
    char turn[16];
    if (k->turn < 0)
        snprintf(turn, sizeof turn, "final");
    else
        snprintf(turn, sizeof turn, "turn %d", k->turn);
    print_error("%s %s: %-6s %s %d points to [%s]\n", file, turn, side,
                k->feature, k->points, k->players);
}

/* Both sorted; prints what only one side has. Returns that count. */
static int diff_keys(const char *file, const struct ev_key *ours, size_t n,
                     const struct ev_key *theirs, size_t m)
{
    size_t i = 0, j = 0;
    int diffs = 0;
    while (i < n || j < m) {
        int c = i == n ? 1 : j == m ? -1 : cmp_key(&ours[i], &theirs[j]);
        if (c == 0) {
            i++, j++;
            continue;
        }
        diffs++;
        if (c < 0)
            print_key(file, "ours", &ours[i++]);
        else
            print_key(file, "theirs", &theirs[j++]);
    }
    return diffs;
}

static int compare_events(const char *file, const struct game_log *log,
                          const struct report *r, const cJSON *events)
{
    size_t m = (size_t)cJSON_GetArraySize(events), j = 0;
    struct ev_key *ours = calloc(r->n_events + 1, sizeof *ours);
    struct ev_key *theirs = calloc(m + 1, sizeof *theirs);
    const cJSON *ev;
    int diffs;
    assert_non_null(ours);
    assert_non_null(theirs);
    for (size_t i = 0; i < r->n_events; i++)
        key_of_ours(log, &r->events[i], &ours[i]);
    cJSON_ArrayForEach(ev, events)
        key_of_theirs(ev, &theirs[j++]);
    qsort(ours, r->n_events, sizeof *ours, cmp_key);
    qsort(theirs, m, sizeof *theirs, cmp_key);
    diffs = diff_keys(file, ours, r->n_events, theirs, m);
    free(ours);
    free(theirs);
    return diffs;
}

static int compare_count(const char *file, const char *what, int ours,
                         const cJSON *want)
{
    if (cJSON_IsNumber(want) && want->valueint == ours)
        return 0;
    print_error("%s: %s: ours %d, theirs %d\n", file, what, ours,
                cJSON_IsNumber(want) ? want->valueint : -1);
    return 1;
}

static int compare_scores(const char *file, const struct game_log *log,
                          const struct report *r, const cJSON *scores)
{
    const cJSON *s;
    int bad = cJSON_GetArraySize(scores) != log->rules.n_players;
    if (bad)
        print_error("%s: %d players, expected.json lists %d\n", file,
                    log->rules.n_players, cJSON_GetArraySize(scores));
    cJSON_ArrayForEach(s, scores) {
        int seat = seat_of(log, s->string);
        char what[96];
        snprintf(what, sizeof what, "final score of %s", s->string);
        bad += compare_count(file, what, seat < 0 ? -1 : r->score[seat], s);
    }
    return bad;
}

static int landed_count(const struct report *r)
{
    int n = 0;
    for (size_t i = 0; i < r->n_flights; i++)
        n += r->flights[i].landed;
    return n;
}

/* Prints every difference; returns how many there were. */
static int check_game(const char *file, const struct game_log *log,
                      const struct report *r, const cJSON *want)
{
    int bad = 0;
    if (!r->valid) {
        print_violations(file, r);
        bad++;
    }
    if (!r->finished) {
        print_error("%s: not finished (%d tiles left)\n", file,
                    r->tiles_left);
        bad++;
    }
    bad += compare_scores(file, log, r,
                          cJSON_GetObjectItemCaseSensitive(want, "scores"));
    bad += compare_count(file, "flights", (int)r->n_flights,
                         cJSON_GetObjectItemCaseSensitive(want, "flights"));
    bad += compare_count(file, "landed", landed_count(r),
                         cJSON_GetObjectItemCaseSensitive(want, "landed"));
    bad += compare_events(file, log, r,
                          cJSON_GetObjectItemCaseSensitive(want, "events"));
    return bad;
}

static void test_corpus_games(void **state)
{
    struct paths files;
    cJSON *expected = load_json(PEER_DIR "/games/expected.json");
    int failed = 0;
    (void)state;
    list_jcz(PEER_DIR "/games", false, &files);
    assert_int_equal(files.n, N_GAMES);
    assert_int_equal(cJSON_GetArraySize(expected), N_GAMES);
    for (size_t i = 0; i < files.n; i++) {
        const char *file = base_name(files.v[i]);
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(expected, file);
        struct game_log log;
        struct report r;
        if (!want)
            fail_msg("%s is not in expected.json", file);
        load_log(files.v[i], &log);
        audit_run(&log, &plain, &r, NULL);
        failed += check_game(file, &log, &r, want) > 0;
        report_release(&r);
        game_log_release(&log);
    }
    paths_free(&files);
    cJSON_Delete(expected);
    if (failed)
        fail_msg("%d of %d games differ from expected.json", failed, N_GAMES);
}

/* ---- c. forgeries ------------------------------------------------------- */

static void test_forgeries(void **state)
{
    struct paths files;
    cJSON *manifest = load_json(PEER_DIR "/forgeries/manifest.json");
    int failed = 0;
    (void)state;
    list_jcz(PEER_DIR "/forgeries", false, &files);
    assert_int_equal(files.n, N_FORGERIES);
    assert_int_equal(cJSON_GetArraySize(manifest), N_FORGERIES);
    for (size_t i = 0; i < files.n; i++) {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(
            manifest, base_name(files.v[i]));
        if (!want)
            fail_msg("%s is not in manifest.json", files.v[i]);
        failed += check_forgery(files.v[i], want);
    }
    paths_free(&files);
    cJSON_Delete(manifest);
    if (failed)
        fail_msg("%d of %d forgeries not caught as forged", failed,
                 N_FORGERIES);
}

/* ---- d. determinism ----------------------------------------------------- */

/* Parses and audits path afresh; returns the report's state hash. */
static uint64_t fresh_hash(const char *path, int score[GAME_MAX_PLAYERS])
{
    struct game_log log;
    struct report r;
    uint64_t h;
    load_log(path, &log);
    audit_run(&log, &plain, &r, NULL);
    h = r.state_hash;
    memcpy(score, r.score, sizeof r.score);
    report_release(&r);
    game_log_release(&log);
    return h;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static void test_determinism(void **state)
{
    struct paths files;
    uint64_t hashes[N_GAMES];
    (void)state;
    list_jcz(PEER_DIR "/games", false, &files);
    assert_int_equal(files.n, N_GAMES);
    for (size_t i = 0; i < files.n; i++) {
        int s1[GAME_MAX_PLAYERS], s2[GAME_MAX_PLAYERS];
        hashes[i] = fresh_hash(files.v[i], s1);
        if (fresh_hash(files.v[i], s2) != hashes[i])
            fail_msg("%s: two audits, two state hashes", files.v[i]);
        assert_memory_equal(s1, s2, sizeof s1);
    }
    /* a hash that ignored the state would pass the above: 100 different
     * games must give 100 different hashes */
    qsort(hashes, N_GAMES, sizeof hashes[0], cmp_u64);
    for (size_t i = 1; i < N_GAMES; i++)
        assert_true(hashes[i] != hashes[i - 1]);
    paths_free(&files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_tests),
        cmocka_unit_test(test_corpus_games),
        cmocka_unit_test(test_forgeries),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
