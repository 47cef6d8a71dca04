/* test_whatif.c - the odds of a flight (struct flight: by_roll_target,
 * n_by_roll, by_roll with occupants, and the chance in the JSON report)
 * and whatif_build(): the same game with another roll at one flight.
 *
 * Players Ada (seat 0, odd turns) and Ben (seat 1, even turns); start
 * BA/RCr at (0,0) R0 (road W-E, city N); x grows east, y SOUTH. Both
 * hand-built games share their first four turns:
 *   1 Ada  BA/RFr  (1,0)  R0          the start road runs east
 *   2 Ben  (0,-1) R2: BA/C closes the start city ("closed" game) or
 *          BA/Cc.1 leaves it open to the east ("open" game)
 *   3 Ada  BA/Rr   (2,0)  R1          the road turns north
 *   4 Ben  BA/LR   (2,-1) R0, monk    the road ends at his monastery
 *   5 Ada  FL/F.o  (3,-1) R0 flies W: roll 1 -> (2,-1) (monastery and
 *          road:S), roll 2 -> (1,-1) (no tile), roll 3 -> (0,-1) (the
 *          closed city: nothing / the open city: city:SE). */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "board_fixture.h"
#include "core/whatif.h"
#include "mlog/mlog.h"

#define ADA 0
#define BEN 1
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define assert_has(hay, needle)                                           \
    do {                                                                  \
        if (!strstr((hay), (needle)))                                     \
            fail_msg("'%s' does not contain '%s'", (hay), (needle));       \
    } while (0)

/* "Closed" game, for the odds: Ada's highwayman on the road (turn 1), the
 * flight of turn 5 rolls 1 and lands on the monastery beside Ben's monk. */
static const struct fx_step closed_game[] = {
    FX_PLACE(ADA, "BA/RFr", 1, 0, 0),
    FX_DEPLOY(ADA, 1, 0, FEAT_ROAD, "WE"), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/C", 0, -1, 2), FX_PASS(BEN), FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/Rr", 2, 0, 1), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/LR", 2, -1, 0),
    FX_DEPLOY(BEN, 2, -1, FEAT_MONASTERY, "I"), FX_COMMIT(BEN),
    FX_PLACE(ADA, "FL/F.o", 3, -1, 0), FX_FLY(ADA, 3, -1, 1),
    FX_DEPLOY(ADA, 2, -1, FEAT_MONASTERY, "I"), FX_COMMIT(ADA),
};

/* "Open" game: nobody on the road; the flight of turn 5 rolls 2 and the
 * meeple returns. Then Ben's highwayman on BA/RFr at (-1,0) (turn 6) and
 * Ada's BA/CRRR at (-2,0) closing the road, 6 tiles, with her knight 1
 * on its city (turn 7; the log names the meeple). Finished by assumption:
 * Ben 6 (road) + 4 (monk, 3 neighbours), Ada 1 (one-tile city). */
static const struct fx_step open_game[] = {
    FX_PLACE(ADA, "BA/RFr", 1, 0, 0), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/Cc.1", 0, -1, 2), FX_PASS(BEN), FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/Rr", 2, 0, 1), FX_PASS(ADA), FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/LR", 2, -1, 0),
    FX_DEPLOY(BEN, 2, -1, FEAT_MONASTERY, "I"), FX_COMMIT(BEN),
    FX_PLACE(ADA, "FL/F.o", 3, -1, 0), FX_FLY(ADA, 3, -1, 2),
    FX_COMMIT(ADA),
    FX_PLACE(BEN, "BA/RFr", -1, 0, 0),
    FX_DEPLOY(BEN, -1, 0, FEAT_ROAD, "WE"), FX_COMMIT(BEN),
    FX_PLACE(ADA, "BA/CRRR", -2, 0, 0),
    FX_DEPLOY_N(ADA, -2, 0, FEAT_CITY, "N", FIG_SMALL, 1), FX_COMMIT(ADA),
};

static void build(struct game_log *l, const struct fx_step *s, size_t n)
{
    struct rules r = fx_rules_c2(2);
    fx_log_init(l, &r);
    snprintf(l->names[ADA], sizeof l->names[ADA], "Ada");
    snprintf(l->names[BEN], sizeof l->names[BEN], "Ben");
    fx_log_add(l, s, n);
}

static void audit_finished(const struct game_log *l, struct report *rep)
{
    struct audit_opts o = { .assume_finished = true };
    audit_run(l, &o, rep, NULL);
}

static void print_violations(const struct report *rep)
{
    for (size_t i = 0; i < rep->n_violations; i++)
        print_error("  %s turn %d seat %d: %s\n",
                    rule_id(rep->violations[i].rule), rep->violations[i].turn,
                    rep->violations[i].player, rep->violations[i].msg);
}

/* ---- odds ------------------------------------------------------------- */

static void test_odds_per_roll(void **state)
{
    (void)state;
    struct game_log l;
    struct report rep;
    struct game *g = NULL;
    build(&l, closed_game, N_OF(closed_game));
    audit_run(&l, NULL, &rep, &g);
    if (!rep.valid)
        print_violations(&rep);
    assert_true(rep.valid);
    assert_int_equal(rep.n_flights, 1);
    const struct flight *f = &rep.flights[0];
    assert_int_equal(f->turn, 5);
    assert_int_equal(f->player, ADA);
    assert_int_equal(f->dir, DIR_W);
    assert_true(f->landed);
    assert_int_equal(f->feature, FEAT_MONASTERY);

    static const struct pos targets[3] = { { 2, -1 }, { 1, -1 }, { 0, -1 } };
    for (int k = 0; k < 3; k++) {
        assert_int_equal(f->by_roll_target[k].x, targets[k].x);
        assert_int_equal(f->by_roll_target[k].y, targets[k].y);
    }
    /* (a) roll 1: the monastery (Ben's monk) and the road ending there
     * (Ada's highwayman), in the tile's segment order */
    assert_int_equal(f->n_by_roll[0], 2);
    const struct landing *mo = &f->by_roll[0][0], *rd = &f->by_roll[0][1];
    assert_int_equal(mo->feature, FEAT_MONASTERY);
    assert_int_equal(mo->occupants[BEN], 1);
    assert_int_equal(mo->occupants[ADA], 0);
    assert_int_equal(rd->feature, FEAT_ROAD);
    assert_int_equal(rd->mask, EDGE_S);
    assert_int_equal(rd->occupants[ADA], 1);
    assert_int_equal(rd->occupants[BEN], 0);
    /* the logged roll's options are roll 1's */
    assert_int_equal(f->n_options, 2);
    assert_int_equal(f->options[0].feature, FEAT_MONASTERY);
    assert_int_equal(f->options[1].feature, FEAT_ROAD);
    /* (b) roll 2: no tile there */
    assert_int_equal(f->n_by_roll[1], 0);
    assert_int_equal(game_tile_at(g, targets[1]), -1);
    /* (c) roll 3: a tile whose only feature besides fields is a
     * completed city */
    assert_int_equal(f->n_by_roll[2], 0);
    int t = game_tile_at(g, targets[2]);
    assert_true(t >= 0);
    int city = game_find_seg(g, t, FEAT_CITY, EDGE_S);
    assert_true(city >= 0);
    assert_true(game_feature_complete(g, city));
    game_free(g);
    report_release(&rep);
    game_log_release(&l);
}

static const cJSON *item(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        fail_msg("no key '%s'", key);
    return v;
}

/* The JSON report carries the same odds and the chance: 1 roll of 3. */
static void test_odds_json(void **state)
{
    (void)state;
    struct game_log l;
    struct report rep;
    struct buf out = BUF_INIT;
    build(&l, closed_game, N_OF(closed_game));
    audit_run(&l, NULL, &rep, NULL);
    mlog_report_json("closed.jcz", MLOG_JCZ, &l, &rep, &out);
    cJSON *o = cJSON_ParseWithLength(out.p, out.len);
    assert_non_null(o);
    const cJSON *f = cJSON_GetArrayItem(item(o, "flights"), 0);
    assert_non_null(f);
    const cJSON *odds = item(f, "odds");
    assert_int_equal(item(odds, "rolls_with_landing")->valueint, 1);
    assert_true(fabs(item(odds, "chance")->valuedouble - 1.0 / 3) < 1e-9);
    const cJSON *rolls = item(odds, "rolls");
    assert_int_equal(cJSON_GetArraySize(rolls), 3);
    const cJSON *r1 = cJSON_GetArrayItem(rolls, 0);
    assert_int_equal(item(r1, "roll")->valueint, 1);
    const cJSON *ls = item(r1, "landings");
    assert_int_equal(cJSON_GetArraySize(ls), 2);
    const cJSON *occ = item(cJSON_GetArrayItem(ls, 0), "occupants");
    assert_string_equal(item(cJSON_GetArrayItem(ls, 0), "segment")->valuestring,
                        "monastery");
    assert_int_equal(item(occ, "Ben")->valueint, 1);
    assert_null(cJSON_GetObjectItemCaseSensitive(occ, "Ada"));
    occ = item(cJSON_GetArrayItem(ls, 1), "occupants");
    assert_int_equal(item(occ, "Ada")->valueint, 1);
    for (int k = 1; k < 3; k++) {
        const cJSON *rk = cJSON_GetArrayItem(rolls, k);
        assert_int_equal(cJSON_GetArraySize(item(rk, "landings")), 0);
    }
    const cJSON *t3 = item(cJSON_GetArrayItem(rolls, 2), "target");
    assert_int_equal(cJSON_GetArrayItem(t3, 0)->valueint, 0);
    assert_int_equal(cJSON_GetArrayItem(t3, 1)->valueint, -1);
    cJSON_Delete(o);
    buf_release(&out);
    report_release(&rep);
    game_log_release(&l);
}

/* ---- whatif_build: refusals ------------------------------------------- */

struct refusal {
    const char *name;
    struct whatif w;
    const char *says[3]; /* each must appear in the message */
};

static const struct refusal refusals[] = {
    /* the turns that have one are named, so the next try can hit one */
    { "turn without a flight", { 4, 1, false, 0, 0 },
      { "turn 4 has no flight; the only flight is in turn 5", NULL, NULL } },
    { "turn beyond the game", { 40, 1, false, 0, 0 },
      { "turn 40 has no flight; the only flight is in turn 5", NULL, NULL } },
    { "roll 0", { 5, 0, false, 0, 0 }, { "roll 0", "1, 2", NULL } },
    { "roll 4", { 5, 4, false, 0, 0 }, { "roll 4", "1, 2", NULL } },
    { "landing that is not valid", { 5, 1, true, FEAT_CITY, EDGE_N },
      { "city:N", "valid: monastery, road:S", NULL } },
    { "field is never a landing", { 5, 1, true, FEAT_FIELD, HE_NL },
      { "field:NL", "monastery, road:S", NULL } },
    { "a landing on an empty square", { 5, 2, true, FEAT_ROAD, EDGE_S },
      { "road:S", "none", NULL } },
    { "several landings, no choice", { 5, 1, false, 0, 0 },
      { "roll 1 offers 2 landings", "monastery, road:S", "--landing" } },
};

static void test_refusals(void **state)
{
    (void)state;
    struct game_log l;
    build(&l, open_game, N_OF(open_game));
    int bad = 0;
    for (size_t i = 0; i < N_OF(refusals); i++) {
        const struct refusal *c = &refusals[i];
        struct game_log out;
        struct whatif_result res;
        struct err e;
        err_clear(&e);
        game_log_init(&out);
        enum status st = whatif_build(&l, &c->w, &out, &res, &e);
        bool ok = st == ST_RULE && out.n_moves == 0;
        for (int k = 0; k < 3 && c->says[k]; k++)
            ok = ok && strstr(e.msg, c->says[k]) != NULL;
        if (!ok) {
            print_error("%s: status %d, %zu moves, message '%s'\n", c->name,
                        st, out.n_moves, e.msg);
            bad++;
        }
        game_log_release(&out);
    }
    game_log_release(&l);
    assert_int_equal(bad, 0);
}

/* ---- whatif_build: the changed game ------------------------------------ */

struct changed {
    struct game_log log, out;
    struct whatif_result res;
    struct report before, after;
};

static void change(struct changed *c, const struct fx_step *s, size_t n,
                   struct whatif w)
{
    struct err e;
    err_clear(&e);
    build(&c->log, s, n);
    game_log_init(&c->out);
    enum status st = whatif_build(&c->log, &w, &c->out, &c->res, &e);
    if (st != ST_OK)
        fail_msg("whatif_build: %s", e.msg);
    audit_finished(&c->log, &c->before);
    audit_finished(&c->out, &c->after);
}

static void unchange(struct changed *c)
{
    report_release(&c->before);
    report_release(&c->after);
    game_log_release(&c->out);
    game_log_release(&c->log);
}

/* Index of the flight move (a deploy on FEAT_FLIER) in l. */
static size_t flight_move(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_DEPLOY &&
            l->moves[i].feature == FEAT_FLIER)
            return i;
    fail_msg("no flight in the log");
    return 0;
}

/* Landing roll -> empty target: the landing move is gone, the meeple
 * returns, and Ada loses her share of the monastery. */
static void test_landing_removed(void **state)
{
    (void)state;
    struct changed c;
    change(&c, closed_game, N_OF(closed_game),
           (struct whatif){ 5, 2, false, 0, 0 });
    assert_int_equal(c.res.old_roll, 1);
    assert_int_equal(c.res.target.x, 1);
    assert_int_equal(c.res.target.y, -1);
    assert_int_equal(c.res.n_options, 0);
    assert_false(c.res.lands);
    assert_int_equal(c.out.n_moves, c.log.n_moves - 1);
    size_t fi = flight_move(&c.out);
    assert_int_equal(c.out.moves[fi].roll, 2);
    assert_int_equal(c.out.moves[fi + 1].kind, MV_COMMIT);
    assert_true(c.after.valid);
    assert_int_equal(c.after.n_flights, 1);
    assert_false(c.after.flights[0].landed);
    assert_int_equal(c.after.flights[0].roll, 2);
    /* before: the monastery (3 neighbours) shared, 4 each, and Ada's road
     * (4 tiles) 4; after: Ben's monastery alone */
    assert_int_equal(c.before.score[ADA], 8);
    assert_int_equal(c.before.score[BEN], 4);
    assert_int_equal(c.after.score[ADA], 4);
    assert_int_equal(c.after.score[BEN], 4);
    unchange(&c);
}

/* Roll 3 of the closed game reaches a tile with only a completed city:
 * no landing either. */
static void test_completed_target_returns(void **state)
{
    (void)state;
    struct changed c;
    change(&c, closed_game, N_OF(closed_game),
           (struct whatif){ 5, 3, false, 0, 0 });
    assert_int_equal(c.res.target.x, 0);
    assert_int_equal(c.res.target.y, -1);
    assert_int_equal(c.res.n_options, 0);
    assert_false(c.res.lands);
    assert_true(c.after.valid);
    assert_int_equal(c.after.score[ADA], 4);
    unchange(&c);
}

/* Returned -> a target with one landing: it is inserted right after the
 * flight without being asked for. Ada's later deploy of "knight 1" (now
 * on the board) takes another knight: the changed game is valid. */
static void test_single_landing_inserted(void **state)
{
    (void)state;
    struct changed c;
    change(&c, open_game, N_OF(open_game),
           (struct whatif){ 5, 3, false, 0, 0 });
    if (!c.before.valid)
        print_violations(&c.before);
    assert_true(c.before.valid);
    assert_int_equal(c.res.old_roll, 2);
    assert_int_equal(c.res.target.x, 0);
    assert_int_equal(c.res.target.y, -1);
    assert_int_equal(c.res.n_options, 1);
    assert_true(c.res.lands);
    assert_int_equal(c.res.feature, FEAT_CITY);
    assert_int_equal(c.res.mask, EDGE_S | EDGE_E);

    assert_int_equal(c.out.n_moves, c.log.n_moves + 1);
    size_t fi = flight_move(&c.out);
    const struct move *land = &c.out.moves[fi + 1];
    assert_int_equal(land->kind, MV_DEPLOY);
    assert_int_equal(land->at.x, 0);
    assert_int_equal(land->at.y, -1);
    assert_int_equal(land->feature, FEAT_CITY);
    assert_int_equal(land->mask, EDGE_S | EDGE_E);
    /* every other move as logged; later deploys take any meeple */
    for (size_t i = 0; i < c.log.n_moves; i++) {
        const struct move *a = &c.log.moves[i];
        const struct move *b = &c.out.moves[i <= fi ? i : i + 1];
        assert_int_equal(a->kind, b->kind);
        assert_int_equal(a->at.x, b->at.x);
        assert_int_equal(a->at.y, b->at.y);
        assert_int_equal(a->tile, b->tile);
        assert_int_equal(a->feature, b->feature);
        if (i > fi && a->kind == MV_DEPLOY)
            assert_int_equal(b->meeple_n, 0);
    }
    if (!c.after.valid)
        print_violations(&c.after);
    assert_true(c.after.valid);
    assert_true(c.after.flights[0].landed);
    assert_int_equal(c.after.flights[0].feature, FEAT_CITY);
    /* Ada: + the start city with (0,-1), 2 tiles open = 2 */
    assert_int_equal(c.before.score[ADA], 1);
    assert_int_equal(c.before.score[BEN], 10);
    assert_int_equal(c.after.score[ADA], 3);
    assert_int_equal(c.after.score[BEN], 10);
    unchange(&c);
}

/* Landing beside Ben's monk breaks nothing later; they share it. */
static void test_chosen_landing_keeps_later_moves(void **state)
{
    (void)state;
    struct changed c;
    change(&c, open_game, N_OF(open_game),
           (struct whatif){ 5, 1, true, FEAT_MONASTERY, 0 });
    assert_true(c.res.lands);
    assert_int_equal(c.res.n_options, 2);
    assert_int_equal(c.res.feature, FEAT_MONASTERY);
    if (!c.after.valid)
        print_violations(&c.after);
    assert_true(c.after.valid);
    assert_int_equal(c.after.score[ADA], 1 + 4);
    assert_int_equal(c.after.score[BEN], 10);
    unchange(&c);
}

/* Landing on the road makes Ben's highwayman of turn 6 illegal (the road
 * is held now); the audit reports it and still replays it as logged, so
 * both share the road of turn 7. */
static void test_later_move_becomes_illegal(void **state)
{
    (void)state;
    struct changed c;
    change(&c, open_game, N_OF(open_game),
           (struct whatif){ 5, 1, true, FEAT_ROAD, EDGE_S });
    assert_true(c.res.lands);
    assert_int_equal(c.res.feature, FEAT_ROAD);
    assert_int_equal(c.res.mask, EDGE_S);
    assert_false(c.after.valid);
    if (c.after.n_violations != 1)
        print_violations(&c.after);
    assert_int_equal(c.after.n_violations, 1);
    const struct violation *v = &c.after.violations[0];
    assert_int_equal(v->rule, RULE_MEEPLE_FEATURE_OCCUPIED);
    assert_int_equal(v->turn, 6);
    assert_int_equal(v->player, BEN);
    assert_int_equal(c.after.score[ADA], 6 + 1);
    assert_int_equal(c.after.score[BEN], 6 + 4);
    unchange(&c);
}

/* The result carries the header and no claims. */
static void test_claims_dropped(void **state)
{
    (void)state;
    struct game_log l, out;
    struct whatif_result res;
    struct err e;
    build(&l, open_game, N_OF(open_game));
    l.end_turn = 7;
    struct claim_event *ce = game_log_push_claim(&l);
    *ce = (struct claim_event){ 7, 1u << BEN, FEAT_ROAD, 6, 99 };
    struct claim_total *ct = game_log_push_total(&l);
    ct->turn = -1;
    ct->seats = 3;
    ct->score[ADA] = 1;
    ct->score[BEN] = 10;
    game_log_init(&out);
    struct whatif w = { 5, 3, false, 0, 0 };
    assert_int_equal(whatif_build(&l, &w, &out, &res, &e), ST_OK);
    assert_int_equal(out.n_claims, 0);
    assert_int_equal(out.n_totals, 0);
    assert_string_equal(out.names[ADA], "Ada");
    assert_string_equal(out.names[BEN], "Ben");
    assert_int_equal(out.end_turn, 7);
    assert_int_equal(out.start_tile, l.start_tile);
    assert_int_equal(out.rules.n_players, 2);
    struct report rep;
    audit_run(&out, NULL, &rep, NULL);
    assert_true(rep.valid);
    assert_false(rep.has_claims);
    report_release(&rep);
    game_log_release(&out);
    game_log_release(&l);
}

/* ---- the sample game ---------------------------------------------------- */

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

static void load_sample(const char *name, struct game_log *l)
{
    char path[512];
    size_t len = 0;
    struct err e;
    enum mlog_format fmt;
    snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, name);
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("cannot read %s", path);
    game_log_init(l);
    enum status st = mlog_parse(text, len, l, &fmt, &e);
    free(text);
    if (st != ST_OK)
        fail_msg("%s: %s", path, e.msg);
}

/* c2-2p turn 24: Ben's flier NW from (4,2) rolled 1 and landed on the
 * road at (3,1). Roll 2 reaches (2,0), where road:E, road:W and city:N
 * are valid: a choice is needed; city:N gives Ben a one-tile city (1)
 * instead of the road that grew to 2 tiles (2). */
static void test_sample_turn_24(void **state)
{
    (void)state;
    struct game_log l, out;
    struct whatif_result res;
    struct err e;
    load_sample("c2-2p.jcz", &l);

    game_log_init(&out);
    struct whatif w = { 24, 2, false, 0, 0 };
    assert_int_equal(whatif_build(&l, &w, &out, &res, &e), ST_RULE);
    assert_has(e.msg, "roll 2 offers 3 landings");
    assert_has(e.msg, "road:E, road:W, city:N");
    game_log_release(&out);

    game_log_init(&out);
    w = (struct whatif){ 24, 2, true, FEAT_CITY, EDGE_N };
    if (whatif_build(&l, &w, &out, &res, &e) != ST_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(res.old_roll, 1);
    assert_int_equal(res.target.x, 2);
    assert_int_equal(res.target.y, 0);
    assert_int_equal(res.n_options, 3);
    assert_true(res.lands);
    assert_int_equal(res.feature, FEAT_CITY);
    assert_int_equal(res.mask, EDGE_N);
    assert_int_equal(out.n_moves, l.n_moves);

    struct report before, after;
    audit_run(&l, NULL, &before, NULL);
    audit_run(&out, NULL, &after, NULL);
    assert_true(before.valid);
    if (!after.valid)
        print_violations(&after);
    assert_true(after.valid);
    assert_int_equal(before.score[0], 21);
    assert_int_equal(before.score[1], 25);
    assert_int_equal(after.score[0], 21);
    assert_int_equal(after.score[1], 24);
    int flight = -1;
    for (size_t i = 0; i < after.n_flights; i++)
        if (after.flights[i].turn == 24)
            flight = (int)i;
    assert_true(flight >= 0);
    assert_int_equal(after.flights[flight].roll, 2);
    assert_true(after.flights[flight].landed);
    assert_int_equal(after.flights[flight].feature, FEAT_CITY);
    report_release(&before);
    report_release(&after);
    game_log_release(&out);

    game_log_init(&out);
    w = (struct whatif){ 1, 1, false, 0, 0 };
    assert_int_equal(whatif_build(&l, &w, &out, &res, &e), ST_RULE);
    assert_has(e.msg, "turn 1 has no flight");
    game_log_release(&out);
    game_log_release(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odds_per_roll),
        cmocka_unit_test(test_odds_json),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_landing_removed),
        cmocka_unit_test(test_completed_target_returns),
        cmocka_unit_test(test_single_landing_inserted),
        cmocka_unit_test(test_chosen_landing_keeps_later_moves),
        cmocka_unit_test(test_later_move_becomes_illegal),
        cmocka_unit_test(test_claims_dropped),
        cmocka_unit_test(test_sample_turn_24),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
