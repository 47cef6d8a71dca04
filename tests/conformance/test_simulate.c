/* test_simulate.c - `flierd simulate` end to end, through the files it
 * writes: 1,000 legal games audit valid with the simulator's own scores;
 * 1,000 forged games are each flagged first with the manifest's rule at
 * its turn, every forgeable rule among them; the same seed writes the
 * same bytes. The same for games with The River (and The River II),
 * Inns & Cathedrals and the Phantom: the river's spring starts them and
 * its tiles come first, the saves follow JCloisterZone's draw, large
 * followers, phantoms and abbots fly, phantoms act second (flights too),
 * and the forgeries of the rules these expansions bring are flagged.
 * And games with Traders & Builders and Abbey & Mayor (the Big Box too),
 * whose saves hold moves between turns: abbeys placed and declined,
 * wagons moved after their feature scored; as JCloisterZone writes them
 * (without our "flierd" object) they audit valid too. */
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
#include "core/exp/abbey.h"
#include "mlog/mlog.h"
#include "sim/forge.h"
#include "sim/sim.h"
#include "sim/sim_int.h" /* the units' registry */

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

/* Runs flierd simulate with these arguments into a new temp folder;
 * returns its exit status, its error output in errs (when non-NULL). */
static int simulate_rc(char *dir, size_t cap, const char *const args[],
                       char *errs, size_t errs_len)
{
    char *argv[32];
    int argc = 0, rc;
    snprintf(dir, cap, "/tmp/flierd-sim-XXXXXX");
    assert_non_null(mkdtemp(dir));
    for (; args[argc]; argc++)
        argv[argc] = (char *)args[argc];
    argv[argc++] = (char *)"--out";
    argv[argc++] = dir;
    FILE *devnull = fopen("/dev/null", "w");
    FILE *err = errs ? tmpfile() : NULL;
    assert_non_null(devnull);
    rc = cli_simulate(argc, argv, devnull, err ? err : stderr);
    if (err) {
        size_t n;
        rewind(err);
        n = fread(errs, 1, errs_len - 1, err);
        errs[n] = '\0';
        fclose(err);
    }
    fclose(devnull);
    return rc;
}

static void simulate(char *dir, size_t cap, const char *const args[])
{
    assert_int_equal(simulate_rc(dir, cap, args, NULL, 0), 0);
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

/* Parses dir/file into l (released by the caller); plain: a .jcz
 * without its "flierd" object, as JCloisterZone writes saves. */
static void parse_file_as(const char *dir, const char *file, bool plain,
                          struct game_log *l)
{
    char path[4096];
    size_t len;
    enum mlog_format fmt;
    struct err e;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *data = slurp(path, &len);
    assert_non_null(data);
    char *cut = plain ? strstr(data, ",\"flierd\":") : NULL;
    if (cut) {
        memcpy(cut, "}\n", 3);
        len = (size_t)(cut - data) + 2;
    }
    game_log_init(l);
    if (mlog_parse(data, len, l, &fmt, &e) != ST_OK)
        fail_msg("%s: %s", path, e.msg);
    free(data);
}

static void parse_file(const char *dir, const char *file, struct game_log *l)
{
    parse_file_as(dir, file, false, l);
}

/* Parses and audits dir/file into r (released by the caller). */
static void audit_file(const char *dir, const char *file, struct report *r)
{
    struct game_log l;
    parse_file(dir, file, &l);
    audit_run(&l, NULL, r, NULL);
    game_log_release(&l);
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

/* ---- games with expansions --------------------------------------------- */

struct exp_tally {
    int games, flights[FIG__COUNT], landed[FIG__COUNT];
    bool in_play[FIG__COUNT];
    int second_actions, second_flights; /* by a figure after another's */
    int river_games;
    int deploys[FIG__COUNT];  /* deployments in a turn's action phase */
    int held_placed, held_declined, last_round_passes;
    int wagon_moves, wagon_passes, plain_checked;
    int tower_floors, tower_tops, captures, ransoms, exchanges; /* Tower */
    int dragon_steps, fairy_moves, princess_removals;
};

/* The turn's figures that acted, in order, a flight and its landing
 * counted once: counts the actions after the first into t. Moves before
 * the turn's tile (wagons moving) are no action of the turn. */
static void count_turn(const struct move *m, size_t n, struct exp_tally *t)
{
    int actions = 0;
    bool placed = false;
    for (size_t i = 0; i < n; i++) {
        placed = placed || m[i].kind == MV_PLACE;
        t->tower_floors += m[i].kind == MV_TOWER;
        t->captures += m[i].kind == MV_CAPTURE;
        t->ransoms += m[i].kind == MV_RANSOM;
        t->exchanges += m[i].kind == MV_EXCHANGE;
        t->tower_tops += m[i].kind == MV_DEPLOY && m[i].feature == FEAT_TOWER;
        if (!placed || (m[i].kind != MV_DEPLOY && m[i].kind != MV_RECALL))
            continue;
        bool landing = i > 0 && m[i - 1].kind == MV_DEPLOY &&
                       m[i - 1].feature == FEAT_FLIER &&
                       m[i].feature != FEAT_FLIER &&
                       m[i - 1].meeple == m[i].meeple &&
                       m[i - 1].meeple_n == m[i].meeple_n;
        if (landing)
            continue;
        if (actions++ > 0) {
            t->second_actions++;
            t->second_flights += m[i].feature == FEAT_FLIER;
        }
    }
}

/* The moves between turns of a save, as the engine tells them apart
 * while it replays the save (JCloisterZone's messages do not): a DEPLOY
 * or PASS while a wagon waits is its owner's move or pass; another PASS
 * is an abbey declined, before a draw (a COMMIT follows) or in the last
 * round (none does); an abbey's PLACE is of a tile never drawn. Counts
 * the deployments of the action phases by figure too. */
static void count_between(const struct game_log *l, struct exp_tally *t)
{
    struct report r;
    struct audit *a = audit_begin(l, &r);
    bool idle = false;
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        /* the replay's own game: asking it drops the wagons that have
         * nowhere to go, as the auditor's next step would */
        bool wagon = idle && game_wagon_next((struct game *)audit_game(a)) >= 0;
        bool commit = i + 1 < l->n_moves && l->moves[i + 1].kind == MV_COMMIT;
        if (m->kind == MV_PLACE &&
            tile_group_rank(tile_get(m->tile)->group) < 0)
            t->held_placed++;
        if (wagon) {
            t->wagon_moves += m->kind == MV_DEPLOY;
            t->wagon_passes += m->kind == MV_PASS;
        } else if (idle && m->kind == MV_PASS) {
            t->held_declined += commit;
            t->last_round_passes += !commit;
        } else if (!idle && m->kind == MV_DEPLOY && m->feature != FEAT_FLIER) {
            t->deploys[m->meeple]++;
        }
        t->dragon_steps += m->kind == MV_NEUTRAL && m->neutral == FIG_DRAGON;
        t->fairy_moves += m->kind == MV_NEUTRAL && m->neutral == FIG_FAIRY;
        t->princess_removals += m->kind == MV_PRINCESS;
        if (m->kind == MV_PLACE || m->kind == MV_DISCARD)
            idle = false;
        else if (m->kind == MV_COMMIT)
            idle = true;
        audit_step(a, m);
    }
    audit_finish(a, NULL, NULL);
    report_release(&r);
}

/* A river game starts on the spring, and its river tiles come first,
 * each placed or (when it fits nowhere) put aside; the abbeys players
 * hold are no draw. */
static void check_river(const char *file, const struct game_log *l)
{
    bool river_done = false;
    int river = 0, in_pack = 0;
    assert_int_equal(l->start_tile, tile_find("RI/s"));
    int pack_rank = tile_group_rank(TG_NONE); /* the river's come first */
    for (int t = 0; t < tile_count(); t++)
        if (tile_group_rank(tile_get(t)->group) > 0 &&
            tile_group_rank(tile_get(t)->group) < pack_rank)
            in_pack += game_pack_copies(&l->rules, t);
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        if (m->kind != MV_PLACE && m->kind != MV_DISCARD)
            continue;
        int rank = tile_group_rank(tile_get(m->tile)->group);
        if (rank < 0)
            continue; /* an abbey, held, never drawn */
        bool is_river = rank > 0 && rank < pack_rank;
        if (is_river && river_done)
            fail_msg("%s: %s drawn after the river was done", file,
                     m->tile_id);
        river_done = river_done || !is_river;
        river += is_river;
    }
    assert_int_equal(river, in_pack);
}

static void check_legal_run(const char *const args[], int want_games,
                            struct exp_tally *t)
{
    char dir[64];
    simulate(dir, sizeof dir, args);
    cJSON *m = manifest(dir), *entry;
    cJSON_ArrayForEach(entry, m)
    {
        struct report r;
        struct game_log l;
        parse_file(dir, entry->string, &l);
        audit_run(&l, NULL, &r, NULL);
        if (!r.valid || !r.finished)
            fail_msg("%s: valid %d finished %d, first: %s", entry->string,
                     r.valid, r.finished,
                     r.n_violations ? r.violations[0].msg : r.halt_msg);
        /* the save's random numbers draw its tiles */
        if (!r.draw_checked || r.draw_note[0])
            fail_msg("%s: the draw: %s", entry->string, r.draw_note);
        cJSON *scores = cJSON_GetObjectItem(entry, "scores");
        for (int p = 0; p < r.n_players; p++)
            assert_int_equal(r.score[p],
                             cJSON_GetArrayItem(scores, p)->valueint);
        /* and as JCloisterZone would save it, without the "flierd"
         * object: its draws, abbeys and wagons alone */
        if (strstr(entry->string, ".jcz")) {
            struct game_log pl;
            struct report pr;
            parse_file_as(dir, entry->string, true, &pl);
            audit_run(&pl, NULL, &pr, NULL);
            if (!pr.valid || !pr.finished || !pr.draw_checked ||
                pr.draw_note[0])
                fail_msg("%s without its flierd object: valid %d finished "
                         "%d, %s", entry->string, pr.valid, pr.finished,
                         pr.n_violations ? pr.violations[0].msg
                                         : pr.draw_note);
            for (int p = 0; p < pr.n_players; p++)
                assert_int_equal(pr.score[p],
                                 cJSON_GetArrayItem(scores, p)->valueint);
            t->plain_checked++;
            report_release(&pr);
            game_log_release(&pl);
        }
        /* the manifest names the expansions the save puts in play */
        cJSON *exps = cJSON_GetObjectItem(entry, "expansions"), *x;
        uint64_t units = 0;
        cJSON_ArrayForEach(x, exps)
            units |= 1ull << expansion_find(x->valuestring);
        assert_int_equal(units, game_rules_units(&l.rules));
        for (int f = 0; f < FIG__COUNT; f++)
            t->in_play[f] = t->in_play[f] || l.rules.figures[f];
        if (units >> EXP_RIVER & 1) {
            check_river(entry->string, &l);
            t->river_games++;
        }
        for (size_t i = 0; i < r.n_flights; i++) {
            t->flights[r.flights[i].figure]++;
            t->landed[r.flights[i].figure] += r.flights[i].landed;
        }
        for (size_t i = 0, from = 0; i < l.n_moves; i++)
            if (l.moves[i].kind == MV_COMMIT) {
                count_turn(&l.moves[from], i - from, t);
                from = i + 1;
            }
        count_between(&l, t);
        t->games++;
        report_release(&r);
        game_log_release(&l);
    }
    assert_int_equal(t->games % want_games, 0);
    cJSON_Delete(m);
    rm_dir(dir);
}

/* The River (I and II), Inns & Cathedrals, the Phantom, alone and all
 * together, in both editions, as .jcz and as flierlogs; Traders &
 * Builders; Abbey & Mayor, and the Big Box (all of them) in both
 * editions, as .jcz: abbeys placed and declined (the last round too),
 * wagons moved and left, barns, builders' second tiles, mayors and
 * wagons flying; The Tower, as .jcz and (with the large follower and the
 * phantom: exchanges among several kinds) as flierlogs. */
static void test_expansion_games_audit_valid(void **state)
{
    static const char *const runs[][12] = {
        { "--edition", "c2", "--expansions", "river", NULL },
        { "--edition", "c3", "--sets", "river/2", NULL },
        { "--edition", "c2", "--expansions", "inns", NULL },
        { "--edition", "c3", "--expansions", "inns", NULL },
        { "--edition", "c2", "--expansions", "phantom", NULL },
        { "--edition", "c3", "--expansions", "phantom", NULL },
        { "--edition", "c3", "--expansions", "river,inns,phantom", NULL },
        /* a unit the simulator was not written for: the engine's answers
         * are enough (the builder's second tile, pigs) */
        { "--edition", "c2", "--expansions", "traders", NULL },
        /* and the same as flierlogs */
        { "--edition", "c3", "--expansions", "river,inns,phantom", "--format",
          "flierlog", NULL },
        /* games with moves between turns: abbeys, wagons */
        { "--edition", "c2", "--expansions", "abbey", NULL },
        { "--edition", "c2", "--expansions", "abbey", "--format",
          "flierlog", NULL },
        { "--edition", "c2", "--expansions", "river,inns,phantom,traders,abbey",
          "--elements", "builder=1,pig=1,abbey=1,mayor=1,wagon=1,barn=1",
          NULL },
        { "--edition", "c3", "--expansions", "river,inns,phantom,traders,abbey",
          NULL },
        /* The Tower: floors, prisoners, ransoms, followers on towers; with
         * the phantom, which may act after a capture declined */
        { "--edition", "c2", "--expansions", "tower", NULL },
        { "--edition", "c3", "--expansions", "tower,inns,phantom", "--format",
          "flierlog", NULL },
        /* The Count of Carcassonne: the City as the start, followers into
         * and out of it, the count's moves */
        { "--edition", "c2", "--expansions", "count", NULL },
        { "--edition", "c3", "--expansions", "count", "--format", "flierlog",
          NULL },
        /* Darmstadt: churches (monasteries with a bonus) and darmstadtium;
         * with abbots and wagons on the churches */
        { "--edition", "c2", "--expansions", "darmstadt", NULL },
        { "--edition", "c3", "--expansions", "darmstadt,abbey", "--format",
          "flierlog", NULL },
        /* the siege: besieged cities of both sets, escapes and their
         * PASS after the COMMIT */
        { "--edition", "c2", "--expansions", "siege", "--sets",
          "siege/cathars", NULL },
        { "--edition", "c3", "--expansions", "siege", "--format", "flierlog",
          NULL },
        /* Under the Big Top: acrobats (beside the turn's tile too), the
         * pyramids scored, the ringmaster flying, the big top's tokens
         * drawn with the COMMIT's number and the next draw after it */
        { "--edition", "c2", "--expansions", "bigtop", NULL },
        { "--edition", "c3", "--expansions", "bigtop", "--format",
          "flierlog", NULL },
    };
    struct exp_tally t = { 0 };
    (void)state;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *args[16] = { "--games", "150", "--seed", "21" };
        for (int i = 0; runs[k][i]; i++)
            args[4 + i] = runs[k][i];
        check_legal_run(args, 150, &t);
    }
    print_message("%d games (%d with a river): flights small %d, abbot %d, "
                  "big %d (%d landed), phantom %d (%d landed), mayor %d "
                  "(%d landed), wagon %d (%d landed); %d second actions, "
                  "%d of them flights\n",
                  t.games, t.river_games, t.flights[FIG_SMALL],
                  t.flights[FIG_ABBOT], t.flights[FIG_BIG], t.landed[FIG_BIG],
                  t.flights[FIG_PHANTOM], t.landed[FIG_PHANTOM],
                  t.flights[FIG_MAYOR], t.landed[FIG_MAYOR],
                  t.flights[FIG_WAGON], t.landed[FIG_WAGON],
                  t.second_actions, t.second_flights);
    print_message("abbeys %d placed, %d declined (%d in the last round); "
                  "wagons %d moved, %d left; barns %d, builders %d, pigs "
                  "%d, mayors %d; %d saves audited plain too\n",
                  t.held_placed, t.held_declined, t.last_round_passes,
                  t.wagon_moves, t.wagon_passes, t.deploys[FIG_BARN],
                  t.deploys[FIG_BUILDER], t.deploys[FIG_PIG],
                  t.deploys[FIG_MAYOR], t.plain_checked);
    print_message("towers: %d floors, %d followers on top, %d captures, "
                  "%d ransoms, %d exchanges chosen\n", t.tower_floors,
                  t.tower_tops, t.captures, t.ransoms, t.exchanges);
    assert_true(t.tower_floors > 0 && t.tower_tops > 0 && t.captures > 0 &&
                t.ransoms > 0 && t.exchanges > 0);
    assert_int_equal(t.games, 23 * 150);
    assert_int_equal(t.river_games, 6 * 150);
    assert_int_equal(t.plain_checked, 16 * 150);
    assert_true(t.held_placed > 0 && t.held_declined > 0 &&
                t.last_round_passes > 0);
    assert_true(t.wagon_moves > 0 && t.wagon_passes > 0);
    assert_true(t.deploys[FIG_BARN] > 0 && t.deploys[FIG_BUILDER] > 0 &&
                t.deploys[FIG_PIG] > 0 && t.deploys[FIG_MAYOR] > 0);
    /* every figure in play that flies flew, landed, and flew in vain */
    for (int f = 0; f < FIG__COUNT; f++)
        if (t.in_play[f] && figure_class(f)->flies)
            assert_true(t.landed[f] > 0 && t.flights[f] > t.landed[f]);
    assert_true(t.in_play[FIG_BIG] && t.in_play[FIG_PHANTOM] &&
                t.in_play[FIG_MAYOR] && t.in_play[FIG_WAGON]);
    assert_true(t.second_actions > 100);
    assert_true(t.second_flights > 0);
}

/* The Princess & the Dragon, alone in both editions (as .jcz and as a
 * flierlog) and with everything else: the dragon's tiles wait for a
 * volcano in the draw, the dragon steps after the turn's action, the
 * fairy and the princess replace a deployment; every game valid. */
static void test_dragon_games_audit_valid(void **state)
{
    static const char *const runs[][12] = {
        { "--edition", "c2", "--expansions", "dragon", NULL },
        { "--edition", "c3", "--expansions", "dragon", "--format",
          "flierlog", NULL },
        { "--edition", "c3", "--expansions",
          "river,inns,phantom,traders,abbey,dragon", "--sets", "river/2",
          NULL },
    };
    struct exp_tally t = { 0 };
    (void)state;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *args[16] = { "--games", "60", "--seed", "33" };
        for (int i = 0; runs[k][i]; i++)
            args[4 + i] = runs[k][i];
        check_legal_run(args, 60, &t);
    }
    print_message("%d games: dragon %d steps, fairy %d moves, princess %d "
                  "knights sent home\n", t.games, t.dragon_steps,
                  t.fairy_moves, t.princess_removals);
    assert_int_equal(t.games, 3 * 60);
    assert_true(t.dragon_steps > 0 && t.fairy_moves > 0 &&
                t.princess_removals > 0);
}

/* Lists that name nothing flierd knows are refused before any game. */
static void test_bad_setups_refused(void **state)
{
    static const struct {
        const char *opt, *value, *says;
    } bad[] = {
        { "--expansions", "catapult", "unsupported: The Catapult" },
        { "--expansions", "nope", "unknown expansion 'nope'" },
        { "--sets", "river/9", "unknown tile set 'river/9:1'" },
        { "--elements", "phantom=2", "phantom takes 0..1" },
        { "--expansions", "river,,inns", "is not a name" },
    };
    (void)state;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *args[] = { "--games", "1", "--seed", "1", "--edition",
                               "c2", bad[k].opt, bad[k].value, NULL };
        char dir[64], errs[512];
        assert_int_equal(simulate_rc(dir, sizeof dir, args, errs, sizeof errs),
                         2);
        if (!strstr(errs, bad[k].says))
            fail_msg("%s %s: '%s' does not say '%s'", bad[k].opt,
                     bad[k].value, errs, bad[k].says);
        rm_dir(dir);
    }
}

/* What a run of forged games showed: each rule, and each rule by the
 * figure whose move broke it. */
struct forged_seen {
    bool rule[RULE__COUNT];
    bool by[RULE__COUNT][FIG__COUNT];
};

/* Is the move the violation names (a deployment, flight or landing) one
 * of figure fig? 1 yes, 0 no, -1 when it names no such move. A flierlog
 * gives a turn's moves one source index, so any of them may be it.
 * (FLIER_MUST_LAND names the move after the flight.) */
static int violation_by(const struct game_log *l, const struct violation *v,
                        int fig)
{
    int found = -1;
    for (size_t i = 0; i < l->n_moves && v->rule != RULE_FLIER_MUST_LAND; i++)
        if (l->moves[i].src == v->src && l->moves[i].kind == MV_DEPLOY)
            found = found == 1 || l->moves[i].meeple == fig;
    return found;
}

/* Every game of the run is flagged first with its manifest's rule at its
 * turn (by the manifest's figure when it names one), and every rule
 * sim_forge_rules_for() gives for setup's rules is among them (setup
 * NULL: no such check). */
static void check_forged(const char *const args[], int want_games,
                         const struct sim_setup *setup,
                         struct forged_seen *seen)
{
    char dir[64];
    int n = 0;
    struct rules rules;
    struct err e;
    enum rule want[RULE__COUNT];
    int n_want = 0;
    memset(seen, 0, sizeof *seen);
    if (setup) {
        assert_int_equal(sim_rules(setup, 2, &rules, &e), ST_OK);
        n_want = sim_forge_rules_for(&rules, want, RULE__COUNT);
    }
    simulate(dir, sizeof dir, args);
    cJSON *m = manifest(dir), *entry;
    cJSON_ArrayForEach(entry, m)
    {
        struct report r;
        struct game_log l;
        const char *rule = cJSON_GetStringValue(
            cJSON_GetObjectItem(entry, "rule"));
        const char *fig = cJSON_GetStringValue(
            cJSON_GetObjectItem(entry, "figure"));
        int turn = cJSON_GetObjectItem(entry, "turn")->valueint;
        assert_non_null(rule);
        parse_file(dir, entry->string, &l);
        audit_run(&l, NULL, &r, NULL);
        if (r.n_violations == 0 || strcmp(rule_id(r.violations[0].rule),
                                          rule) != 0 ||
            r.violations[0].turn != turn)
            fail_msg("%s: manifest %s at turn %d, audit %s at turn %d",
                     entry->string, rule, turn,
                     r.n_violations ? rule_id(r.violations[0].rule) : "none",
                     r.n_violations ? r.violations[0].turn : -1);
        int by = fig ? violation_by(&l, &r.violations[0], figure_find(fig))
                     : -1;
        if (by == 0)
            fail_msg("%s: manifest says a %s broke %s, the log's move is "
                     "another figure's", entry->string, fig, rule);
        seen->rule[r.violations[0].rule] = true;
        if (by == 1)
            seen->by[r.violations[0].rule][figure_find(fig)] = true;
        report_release(&r);
        game_log_release(&l);
        n++;
    }
    assert_int_equal(n, want_games);
    for (int i = 0; i < n_want; i++)
        if (!seen->rule[want[i]])
            fail_msg("no forgery of %s", rule_id(want[i]));
    cJSON_Delete(m);
    rm_dir(dir);
}

/* Forged games of The Princess & the Dragon, as .jcz and as flierlogs:
 * every rule it brings is forged and flagged first, at its turn. */
static void test_forged_dragon_games_flagged(void **state)
{
    (void)state;
    static const char *const jcz[] = { "--games", "200", "--seed", "17",
                                       "--forge", "1", "--edition", "c2",
                                       "--expansions", "dragon", NULL };
    static const char *const flog[] = { "--games", "100", "--seed", "18",
                                        "--forge", "1", "--edition", "c3",
                                        "--expansions", "dragon",
                                        "--format", "flierlog", NULL };
    static const struct sim_setup s_dragon = { 2, "dragon", NULL, NULL };
    struct forged_seen seen;
    check_forged(jcz, 200, &s_dragon, &seen);
    assert_true(seen.rule[RULE_DRAGON_TILE] && seen.rule[RULE_DRAGON_MOVE] &&
                seen.rule[RULE_FAIRY_PLACEMENT] && seen.rule[RULE_PRINCESS] &&
                seen.rule[RULE_PORTAL]);
    check_forged(flog, 100, NULL, &seen);
    assert_true(seen.rule[RULE_DRAGON_MOVE] && seen.rule[RULE_PORTAL]);
}

/* The shrines, alone in both editions (as .jcz and as a flierlog) and
 * with the Big Box's expansions: every game valid (the placement rule in
 * the engine's placements and discards, wagons and abbots on shrines,
 * challenges); forged, a cloister beside the other kind where the rule
 * forbids it is flagged first, with every other rule. */
static void test_cult_games(void **state)
{
    static const char *const runs[][12] = {
        { "--edition", "c2", "--expansions", "cult", NULL },
        { "--edition", "c3", "--expansions", "cult", "--format", "flierlog",
          NULL },
        { "--edition", "c3", "--expansions",
          "river,inns,phantom,traders,abbey,cult", NULL },
    };
    static const char *const forged[] = { "--games", "300", "--seed", "35",
                                          "--forge", "1", "--edition", "c2",
                                          "--expansions", "cult", NULL };
    static const struct sim_setup s_cult = { 2, "cult", NULL, NULL };
    struct exp_tally t = { 0 };
    struct forged_seen seen;
    (void)state;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *args[16] = { "--games", "60", "--seed", "34" };
        for (int i = 0; runs[k][i]; i++)
            args[4 + i] = runs[k][i];
        check_legal_run(args, 60, &t);
    }
    assert_int_equal(t.games, 3 * 60);
    check_forged(forged, 300, &s_cult, &seen);
    assert_true(seen.rule[RULE_SHRINE_PLACEMENT]);
}

/* The Crop Circles, alone in both editions' sets (as .jcz and as a
 * flierlog) and with the abbeys, wagons and mayors (whose abbey before
 * the draw comes after a crop circle's round): every game valid; forged,
 * a crop circle's choice where none asks for one is flagged first, at
 * its turn. */
static void test_corn_games(void **state)
{
    static const char *const runs[][12] = {
        { "--edition", "c2", "--expansions", "corn", NULL },
        { "--edition", "c3", "--expansions", "corn", "--sets",
          "corn-circles/2", "--format", "flierlog", NULL },
        { "--edition", "c2", "--expansions", "corn,abbey,phantom", NULL },
    };
    static const char *const forged[] = { "--games", "200", "--seed", "37",
                                          "--forge", "1", "--edition", "c2",
                                          "--expansions", "corn", NULL };
    static const struct sim_setup s_corn = { 2, "corn", NULL, NULL };
    struct exp_tally t = { 0 };
    struct forged_seen seen;
    (void)state;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *args[16] = { "--games", "60", "--seed", "36" };
        for (int i = 0; runs[k][i]; i++)
            args[4 + i] = runs[k][i];
        check_legal_run(args, 60, &t);
    }
    assert_int_equal(t.games, 3 * 60);
    check_forged(forged, 200, &s_corn, &seen);
    assert_true(seen.rule[RULE_CORN_CIRCLE]);
}

/* Bridges, Castles & Bazaars: bridges built and brought by placements,
 * castles, auctions and their bought tiles placed undrawn, alone and
 * with the Big Box's expansions: every game valid, in either format. */
static void test_bcb_games(void **state)
{
    static const char *const runs[][12] = {
        { "--edition", "c2", "--expansions", "bcb", NULL },
        { "--edition", "c3", "--expansions", "bcb", "--format", "flierlog",
          NULL },
        { "--edition", "c3", "--expansions",
          "inns,phantom,traders,tower,bcb", NULL },
    };
    static const struct sim_setup s_bcb = { 2, "bcb", NULL, NULL };
    struct exp_tally t = { 0 };
    struct forged_seen seen;
    static const char *const forged[] = { "--games", "100", "--seed", "38",
                                          "--forge", "1", "--edition", "c2",
                                          "--expansions", "bcb", NULL };
    (void)state;
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *args[16] = { "--games", "40", "--seed", "36" };
        for (int i = 0; runs[k][i]; i++)
            args[4 + i] = runs[k][i];
        check_legal_run(args, 40, &t);
    }
    assert_int_equal(t.games, 3 * 40);
    check_forged(forged, 100, &s_bcb, &seen);
    assert_true(seen.rule[RULE_CASTLE_PLACEMENT] &&
                seen.rule[RULE_BRIDGE_PLACEMENT] && seen.rule[RULE_BAZAAR]);
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
    static const struct sim_setup base = { 3, NULL, NULL, NULL };
    struct forged_seen seen;
    check_forged(jcz, 1000, &base, &seen);
    check_forged(flog, 200, &base, &seen);
}

/* The expansions' rules: the river's order and flow, the phantom on a
 * flying machine already used, and forged flights of large followers
 * and phantoms (onto a field among them). */
static void test_forged_expansion_games_flagged(void **state)
{
    (void)state;
    static const char *const all[] = { "--games", "600", "--seed", "14",
                                       "--forge", "1", "--edition", "c3",
                                       "--expansions", "river,inns,phantom",
                                       NULL };
    static const char *const river2[] = { "--games", "120", "--seed", "15",
                                          "--forge", "1", "--edition", "c2",
                                          "--sets", "river/2", NULL };
    static const char *const flog[] = { "--games", "150", "--seed", "16",
                                        "--forge", "1", "--edition", "c3",
                                        "--expansions", "river,inns,phantom",
                                        "--format", "flierlog", NULL };
    static const struct sim_setup s_all = { 3, "river,inns,phantom", NULL,
                                            NULL };
    struct forged_seen seen;
    bool big = false, phantom = false;
    check_forged(all, 600, &s_all, &seen);
    assert_true(seen.rule[RULE_RIVER_ORDER] && seen.rule[RULE_RIVER_FLOW]);
    assert_true(seen.by[RULE_FLIER_USED][FIG_PHANTOM]);
    for (int r = 0; r < RULE__COUNT; r++) {
        big = big || seen.by[r][FIG_BIG];
        phantom = phantom || (r != RULE_FLIER_USED && seen.by[r][FIG_PHANTOM]);
    }
    assert_true(big && phantom); /* forged flights of both */
    check_forged(river2, 120, NULL, &seen);
    assert_true(seen.rule[RULE_RIVER_ORDER] && seen.rule[RULE_RIVER_FLOW]);
    check_forged(flog, 150, NULL, &seen);
    assert_true(seen.rule[RULE_RIVER_ORDER] && seen.rule[RULE_FLIER_USED]);
}

/* The Count of Carcassonne: a follower sent into the City without an
 * offer, the count moved without one sent, besides every other rule. */
static void test_forged_count_games_flagged(void **state)
{
    (void)state;
    static const char *const c2[] = { "--games", "400", "--seed", "19",
                                      "--forge", "1", "--edition", "c2",
                                      "--expansions", "count", NULL };
    static const struct sim_setup s_c2 = { 2, "count", NULL, NULL };
    struct forged_seen seen;
    check_forged(c2, 400, &s_c2, &seen);
    assert_true(seen.rule[RULE_QUARTER_DEPLOY] && seen.rule[RULE_COUNT_MOVE]);
}

/* Darmstadt brings no rule of its own: its games forge the others' (the
 * flights' among them, onto churches too), and a church bonus claimed
 * for the wrong players (SCORE_MISMATCH; this seed forges one, in
 * game 135), each flagged at its turn. */
static void test_forged_darmstadt_games_flagged(void **state)
{
    (void)state;
    static const char *const c3[] = { "--games", "150", "--seed", "23",
                                      "--forge", "1", "--edition", "c3",
                                      "--expansions", "darmstadt,abbey",
                                      NULL };
    struct forged_seen seen;
    check_forged(c3, 150, NULL, &seen);
    assert_true(seen.rule[RULE_SCORE_MISMATCH] &&
                seen.rule[RULE_FLIER_BAD_ROLL] &&
                seen.rule[RULE_ABBOT_RECALL]);
}

/* The siege: an escape after a turn that offered none, besides every
 * other rule. */
static void test_forged_siege_games_flagged(void **state)
{
    (void)state;
    static const char *const c2[] = { "--games", "300", "--seed", "23",
                                      "--forge", "1", "--edition", "c2",
                                      "--expansions", "siege", "--sets",
                                      "siege/cathars", NULL };
    static const struct sim_setup s_c2 = { 2, "siege", "siege/cathars",
                                           NULL };
    struct forged_seen seen;
    check_forged(c2, 300, &s_c2, &seen);
    assert_true(seen.rule[RULE_SIEGE_ESCAPE]);
}

/* Under the Big Top: a pyramid scored that is not complete (ACROBATS), a
 * follower onto acrobats off the turn's tile and its neighbours, the
 * ringmaster onto acrobats, and the others' rules (the ringmaster's
 * flights among them), each flagged at its turn. */
static void test_forged_bigtop_games_flagged(void **state)
{
    (void)state;
    static const char *const c2[] = { "--games", "120", "--seed", "3",
                                      "--forge", "1", "--edition", "c2",
                                      "--expansions", "bigtop", NULL };
    struct forged_seen seen;
    check_forged(c2, 120, NULL, &seen);
    assert_true(seen.rule[RULE_ACROBATS] &&
                seen.rule[RULE_MEEPLE_NOT_ON_PLACED_TILE] &&
                seen.rule[RULE_MEEPLE_WRONG_TYPE]);
}

/* Traders & Builders and Abbey & Mayor, in the Big Box: an abbey off a
 * hole, a builder, pig or barn where it may not go, a wagon moved out of
 * reach, a second tile without a builder's right; mayors and wagons
 * landing where they may not stand (MEEPLE_WRONG_TYPE, before any
 * FLIER_* id) and breaking the flights' own rules. */
static void test_forged_bigbox_games_flagged(void **state)
{
    (void)state;
    static const char *const c2[] = { "--games", "500", "--seed", "17",
                                       "--forge", "1", "--edition", "c2",
                                       "--expansions",
                                       "river,inns,phantom,traders,abbey",
                                       NULL };
    static const char *const c3[] = { "--games", "150", "--seed", "18",
                                       "--forge", "1", "--edition", "c3",
                                       "--expansions", "traders,abbey", NULL };
    static const struct sim_setup s_c2 = { 2, "river,inns,phantom,traders,"
                                              "abbey", NULL, NULL };
    static const enum rule own[] = {
        RULE_ABBEY_PLACEMENT, RULE_BUILDER_PLACEMENT, RULE_PIG_PLACEMENT,
        RULE_BARN_PLACEMENT,  RULE_WAGON_MOVE,        RULE_BUILDER_BONUS,
    };
    struct forged_seen seen;
    bool mayor = false, wagon = false;
    check_forged(c2, 500, &s_c2, &seen);
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        if (!seen.rule[own[k]])
            fail_msg("no forgery of %s", rule_id(own[k]));
    assert_true(seen.by[RULE_MEEPLE_WRONG_TYPE][FIG_MAYOR]);
    assert_true(seen.by[RULE_MEEPLE_WRONG_TYPE][FIG_WAGON]);
    for (int r = 0; r < RULE__COUNT; r++)
        if (r >= RULE_FLIER_NO_MACHINE && r <= RULE_FLIER_MUST_LAND) {
            mayor = mayor || seen.by[r][FIG_MAYOR];
            wagon = wagon || seen.by[r][FIG_WAGON];
        }
    assert_true(mayor && wagon); /* their flights break the flier's rules */
    check_forged(c3, 150, NULL, &seen);
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        if (!seen.rule[own[k]])
            fail_msg("C3: no forgery of %s", rule_id(own[k]));
}

/* The Tower's rules, each forged into simulated tower games and flagged:
 * a floor off any tower, a capture out of sight, a ransom for a free
 * follower, a flier landing on a tower. */
static void test_forged_tower_games_flagged(void **state)
{
    (void)state;
    static const char *const args[] = { "--games", "160", "--seed", "19",
                                         "--forge", "1", "--edition", "c2",
                                         "--expansions", "tower", NULL };
    static const struct sim_setup s = { 2, "tower", NULL, NULL };
    static const enum rule own[] = {
        RULE_TOWER_PLACEMENT, RULE_TOWER_CAPTURE, RULE_TOWER_RANSOM,
        RULE_FLIER_ON_TOWER,
    };
    struct forged_seen seen;
    check_forged(args, 160, &s, &seen);
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
        if (!seen.rule[own[k]])
            fail_msg("no forgery of %s", rule_id(own[k]));
}

/* sim_forge_flight(): a large follower and a phantom landing on a field
 * (and the other flight forgeries by them); a mayor, a wagon and an abbot
 * landing where they may not stand, and mayors and wagons breaking the
 * flier's rules; each through a .jcz and the auditor, the landing or
 * flight made by that figure. */
static void test_forged_flights_by_figure(void **state)
{
    static const char *const names[] = { "Ada", "Ben", "Cleo", "Dov" };
    static const struct sim_setup inns = { 3, "inns,phantom", NULL, NULL };
    static const struct sim_setup am = { 2, "abbey", NULL, NULL };
    static const struct sim_setup am3 = { 3, "abbey", NULL, NULL };
    static const struct {
        enum rule rule;
        int figure;
        const struct sim_setup *setup;
    } want[] = {
        { RULE_FLIER_FIELD, FIG_BIG, &inns },
        { RULE_FLIER_FIELD, FIG_PHANTOM, &inns },
        { RULE_FLIER_NO_TILE, FIG_BIG, &inns },
        { RULE_FLIER_BAD_ROLL, FIG_PHANTOM, &inns },
        { RULE_FLIER_COMPLETED, FIG_BIG, &inns },
        { RULE_FLIER_BAD_FEATURE, FIG_PHANTOM, &inns },
        { RULE_FLIER_FIELD, FIG_SMALL, &inns },
        { RULE_FLIER_NO_TILE, FIG_ABBOT, &inns },
        /* the seeds: a mayor lands on a city only, a wagon on a road,
         * city or monastery; elsewhere the figure's rule is broken */
        { RULE_MEEPLE_WRONG_TYPE, FIG_MAYOR, &am },
        { RULE_MEEPLE_WRONG_TYPE, FIG_WAGON, &am },
        { RULE_MEEPLE_WRONG_TYPE, FIG_ABBOT, &am3 },
        { RULE_FLIER_COMPLETED, FIG_MAYOR, &am },
        { RULE_FLIER_NO_TILE, FIG_WAGON, &am },
    };
    struct sim_policy p = sim_policy_default();
    (void)state;
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        bool found = false;
        for (uint64_t seed = 1; seed <= 40 && !found; seed++) {
            struct rules r;
            struct err e;
            struct game_log l, forged, back;
            struct sim_forgery f;
            struct report rep;
            struct buf b = BUF_INIT;
            enum mlog_format fmt;
            assert_int_equal(sim_rules(want[k].setup, 2 + (int)(seed % 3), &r,
                                       &e),
                             ST_OK);
            sim_play(&r, names, seed, &p, &l);
            found = sim_forge_flight(&l, want[k].rule, want[k].figure, seed,
                                     &forged, &f);
            game_log_release(&l);
            if (!found)
                continue;
            assert_int_equal(f.figure, want[k].figure);
            mlog_write_jcz(&forged, &b);
            game_log_release(&forged);
            game_log_init(&back);
            assert_int_equal(mlog_parse(b.p, b.len, &back, &fmt, &e), ST_OK);
            audit_run(&back, NULL, &rep, NULL);
            if (!sim_forgery_flagged(&rep, &f) ||
                violation_by(&back, &rep.violations[0], want[k].figure) != 1)
                fail_msg("%s by a %s (%s): not flagged so", rule_id(f.rule),
                         figure_class(want[k].figure)->jcz, f.how);
            report_release(&rep);
            game_log_release(&back);
            buf_release(&b);
        }
        if (!found)
            fail_msg("no forgery of %s by a %s in 40 games",
                     rule_id(want[k].rule), figure_class(want[k].figure)->jcz);
    }
}

static void same_bytes(const char *const args[])
{
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

static void test_same_seed_same_bytes(void **state)
{
    (void)state;
    static const char *const args[] = { "--games", "60", "--seed", "99",
                                        "--forge", "0.5", NULL };
    static const char *const exp[] = { "--games", "60", "--seed", "98",
                                       "--forge", "0.5", "--expansions",
                                       "river,inns,phantom", NULL };
    static const char *const box[] = { "--games", "60", "--seed", "97",
                                       "--forge", "0.5", "--expansions",
                                       "river,inns,phantom,traders,abbey",
                                       NULL };
    same_bytes(args);
    same_bytes(exp);
    same_bytes(box);
}

/* The units' rates and tallies fit the policy's and the result's
 * arrays, each name once, each rate found by name with its default. */
static void test_unit_rows_fit(void **state)
{
    int rates = 0, counts = 0;
    struct sim_policy p = sim_policy_default();
    (void)state;
    for (int u = 0; u < EXP__COUNT; u++) {
        const struct sim_unit *su = sim_units[u];
        for (int i = 0; su && su->rates && su->rates[i].name; i++, rates++) {
            double *r = sim_policy_rate(&p, su->rates[i].name);
            assert_non_null(r);
            assert_true(*r == su->rates[i].def);
            assert_ptr_equal(r, &p.unit_rate[rates]);
        }
        for (int i = 0; su && su->counts && su->counts[i]; i++)
            counts++;
    }
    assert_true(rates <= SIM_MAX_RATES);
    assert_true(counts <= SIM_MAX_COUNTS);
    assert_null(sim_policy_rate(&p, "no-such-rate"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_legal_games_audit_valid),
        cmocka_unit_test(test_expansion_games_audit_valid),
        cmocka_unit_test(test_bad_setups_refused),
        cmocka_unit_test(test_forged_games_flagged),
        cmocka_unit_test(test_forged_expansion_games_flagged),
        cmocka_unit_test(test_forged_bigbox_games_flagged),
        cmocka_unit_test(test_forged_tower_games_flagged),
        cmocka_unit_test(test_forged_count_games_flagged),
        cmocka_unit_test(test_forged_darmstadt_games_flagged),
        cmocka_unit_test(test_forged_siege_games_flagged),
        cmocka_unit_test(test_forged_bigtop_games_flagged),
        cmocka_unit_test(test_forged_flights_by_figure),
        cmocka_unit_test(test_same_seed_same_bytes),
        cmocka_unit_test(test_unit_rows_fit),
        cmocka_unit_test(test_dragon_games_audit_valid),
        cmocka_unit_test(test_forged_dragon_games_flagged),
        cmocka_unit_test(test_cult_games),
        cmocka_unit_test(test_corn_games),
        cmocka_unit_test(test_bcb_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
