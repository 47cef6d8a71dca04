/* test_simulate.c - `flierd simulate` end to end, through the files it
 * writes: 1,000 legal games audit valid with the simulator's own scores;
 * 1,000 forged games are each flagged first with the manifest's rule at
 * its turn, every forgeable rule among them; the same seed writes the
 * same bytes. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/audit.h"
#include "mlog/mlog.h"
#include "sim/forge.h"

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
        if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
            free(p);
            p = NULL;
        } else if (p) {
            p[n] = '\0';
            *len = (size_t)n;
        }
    }
    fclose(f);
    return p;
}

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char path[4096];
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* Runs flierd simulate with these arguments into a new temp folder. */
static void simulate(char *dir, size_t cap, const char *const args[])
{
    char *argv[32];
    int argc = 0;
    snprintf(dir, cap, "/tmp/flierd-sim-XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (; args[argc]; argc++)
        argv[argc] = (char *)args[argc];
    argv[argc++] = (char *)"--out";
    argv[argc++] = dir;
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    assert_int_equal(cli_simulate(argc, argv, devnull, stderr), 0);
    fclose(devnull);
}

static cJSON *manifest(const char *dir)
{
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    char *text = slurp(path, &len);
    assert_non_null(text);
    cJSON *m = cJSON_ParseWithLength(text, len);
    free(text);
    assert_non_null(m);
    return m;
}

/* Parses and audits dir/file into r (released by the caller). */
static void audit_file(const char *dir, const char *file, struct report *r)
{
    char path[4096];
    size_t len;
    struct game_log l;
    enum mlog_format fmt;
    struct err e;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *data = slurp(path, &len);
    assert_non_null(data);
    game_log_init(&l);
    if (mlog_parse(data, len, &l, &fmt, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    audit_run(&l, NULL, r, NULL);
    game_log_release(&l);
    free(data);
}

static void test_legal_games_audit_valid(void **state)
{
    (void)state;
    static const char *const args[] = { "--games", "1000", "--seed", "11",
                                        NULL };
    char dir[64];
    int n = 0, flights = 0, landed = 0;
    simulate(dir, sizeof dir, args);
    cJSON *m = manifest(dir), *entry;
    cJSON_ArrayForEach(entry, m)
    {
        struct report r;
        audit_file(dir, entry->string, &r);
        if (!r.valid || !r.finished)
            fail_msg("%s: valid %d finished %d, first: %s", entry->string,
                     r.valid, r.finished,
                     r.n_violations ? r.violations[0].msg : "-");
        cJSON *scores = cJSON_GetObjectItem(entry, "scores");
        assert_int_equal(cJSON_GetArraySize(scores), r.n_players);
        for (int p = 0; p < r.n_players; p++)
            assert_int_equal(r.score[p],
                             cJSON_GetArrayItem(scores, p)->valueint);
        flights += (int)r.n_flights;
        for (size_t i = 0; i < r.n_flights; i++)
            landed += r.flights[i].landed;
        assert_int_equal(cJSON_GetObjectItem(entry, "flights")->valueint,
                         (int)r.n_flights);
        report_release(&r);
        n++;
    }
    assert_int_equal(n, 1000);
    assert_true(flights > 1000 && landed > 500); /* landings get exercised */
    cJSON_Delete(m);
    rm_dir(dir);
}

static void check_forged(const char *const args[], int want_games)
{
    char dir[64];
    int n = 0;
    bool seen[RULE__COUNT] = { false };
    enum rule rules[RULE__COUNT];
    int n_rules = sim_forge_rules(rules, RULE__COUNT);
    simulate(dir, sizeof dir, args);
    cJSON *m = manifest(dir), *entry;
    cJSON_ArrayForEach(entry, m)
    {
        struct report r;
        const char *rule = cJSON_GetStringValue(
            cJSON_GetObjectItem(entry, "rule"));
        int turn = cJSON_GetObjectItem(entry, "turn")->valueint;
        assert_non_null(rule);
        audit_file(dir, entry->string, &r);
        if (r.n_violations == 0 || strcmp(rule_id(r.violations[0].rule),
                                          rule) != 0 ||
            r.violations[0].turn != turn)
            fail_msg("%s: manifest %s at turn %d, audit %s at turn %d",
                     entry->string, rule, turn,
                     r.n_violations ? rule_id(r.violations[0].rule) : "none",
                     r.n_violations ? r.violations[0].turn : -1);
        seen[r.violations[0].rule] = true;
        report_release(&r);
        n++;
    }
    assert_int_equal(n, want_games);
    for (int i = 0; i < n_rules; i++)
        if (!seen[rules[i]])
            fail_msg("no forgery of %s", rule_id(rules[i]));
    cJSON_Delete(m);
    rm_dir(dir);
}

static void test_forged_games_flagged(void **state)
{
    (void)state;
    static const char *const jcz[] = { "--games", "1000", "--seed", "12",
                                       "--forge", "1", NULL };
    static const char *const flog[] = { "--games", "200", "--seed", "13",
                                        "--forge", "1", "--format",
                                        "flierlog", "--players", "2..4",
                                        NULL };
    check_forged(jcz, 1000);
    check_forged(flog, 200);
}

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    static const char *const args[] = { "--games", "60", "--seed", "99",
                                        "--forge", "0.5", NULL };
    char a[64], b[64];
    simulate(a, sizeof a, args);
    simulate(b, sizeof b, args);
    DIR *d = opendir(a);
    struct dirent *de;
    int files = 0;
    assert_non_null(d);
    while ((de = readdir(d)) != NULL) {
        char pa[4096], pb[4096];
        size_t la, lb;
        if (de->d_name[0] == '.')
            continue;
        snprintf(pa, sizeof pa, "%s/%s", a, de->d_name);
        snprintf(pb, sizeof pb, "%s/%s", b, de->d_name);
        char *xa = slurp(pa, &la), *xb = slurp(pb, &lb);
        assert_non_null(xa);
        assert_non_null(xb);
        if (la != lb || memcmp(xa, xb, la) != 0)
            fail_msg("%s differs between two runs", de->d_name);
        free(xa);
        free(xb);
        files++;
    }
    closedir(d);
    assert_int_equal(files, 61); /* 60 games + manifest.json */
    rm_dir(a);
    rm_dir(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_games_audit_valid),
        cmocka_unit_test(test_forged_games_flagged),
        cmocka_unit_test(test_same_seed_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
