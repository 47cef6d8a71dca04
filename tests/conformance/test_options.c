/* test_options.c - the options a recorder is offered (core/options.h)
 * against the games JCloisterZone recorded, read in place from the shared
 * folder (FLIERD_SHARED_DIR/peer/jcz: the base game's corpus and the
 * expansions' corpora flierd audits):
 *   completeness: every logged placement, deployment, flight and landing
 *     of a turn is among the options the engine lists at that point;
 *   soundness: options the log did not take, sampled at random (a fixed
 *     seed), each replayed in a fresh audit of the game up to that point:
 *     the auditor accepts every one;
 *   the units' moves (a floor, a capture, the dragon's steps, the fairy,
 *     ...): every logged one of a row with an options hook is among the
 *     moves listed before it, and a sample of the listed ones, each
 *     replayed alone in a fresh audit, is accepted;
 *   the daemon's path: options_compute() on the log cut after a turn
 *     agrees with the lists walked here, and refuses a square the tile
 *     does not fit; cut within a turn, after a logged unit move, it
 *     answers the state the walk sees there.
 *   rounds between turns: where one owes its answers, options_compute()
 *     on the log cut there names it and the seat asked; a logged answer
 *     is among those the round lists, and a listed one, replayed, is
 *     accepted (a bid listed names its least amount). */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/options.h"
#include "peer.h"

#define EXP_DIR PEER_DIR "/expansions"
/* One option in this many that the log did not take is replayed; enough
 * for well over 10,000 over the corpora in a few seconds. */
#define SAMPLE_ONE_IN 5
#define MIN_SAMPLED 10000

static const char *const folders[] = { "river", "ic", "phantom", "tb", "am",
                                       "bigbox", "pd", "tower", "count",
                                       "cult", "darmstadt", "monasteries",
                                       "siege", "corn", "bigtop", "bcb",
                                       "winter", "gq11", "spiel-doch",
                                       "wind_roses", "kr", "russian_promos",
                                       "little_buildings", "festival",
                                       "tunnel", "labyrinth", "watchtowers",
                                       "gold", "ferries", "mage" };
/* Not yet: hs (Hills & Sheep). Its shepherd's state is brought up to
 * date when the unit is next asked (a draw, a wolf sending it home), so
 * the options listed before a shepherd's move can lag behind it. */

struct tally {
    uint64_t rng;
    long places, actions, landings; /* logged moves found among options */
    long sampled;                   /* other options the auditor took */
    long unit_moves;                /* logged unit moves among options */
    long seconds;                   /* second actions among options */
    long unit_sampled;              /* listed unit moves the auditor
                                       took */
    long mid_turn;                  /* options_compute() within a turn
                                       agreeing with the walk */
    long computed;                  /* options_compute() calls agreeing */
    long last_round;                /* tiles placed after the last one
                                       (abbeys) offered to their seat */
    long rounds;                    /* open rounds options_compute()
                                       named as the walk found them */
    long round_answers;             /* logged answers among a round's */
    long round_sampled;             /* listed answers the auditor took */
    long catalogued, held;          /* tiles placed found in the
                                       catalogue, held ones (abbeys) */
    int failures;
};

static uint64_t next(struct tally *t)
{
    uint64_t z = (t->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int below(struct tally *t, int n)
{
    return (int)(next(t) % (uint64_t)n);
}

static void miss(struct tally *t, const char *file, const struct move *m,
                 const char *what)
{
    if (t->failures++ < 10)
        print_error("%s: message %u (%s at (%d,%d) %s/%d fig %d): %s\n",
                    base_name(file), m->src,
                    m->tile_id[0] ? m->tile_id : "figure", m->at.x, m->at.y,
                    feat_name(m->feature), m->mask, m->meeple, what);
}

/* ---- soundness: an option replayed in a fresh audit ---------------------- */

static struct move blank(const struct game_log *log, int kind, size_t i)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.kind = (uint8_t)kind;
    m.player = -1;
    m.tile = -1;
    m.meeple_owner = -1;
    m.draw = -1.0;
    m.src = (uint32_t)(i < log->n_moves ? log->moves[i].src : i);
    return m;
}

/* The log's first n moves, then mv (and then, when not NULL): true when
 * the auditor takes them all without a violation. */
static bool accepted(const struct game_log *log, size_t n,
                     const struct move *mv, const struct move *then,
                     char *why, size_t why_len)
{
    struct report rep;
    struct audit *a = audit_begin(log, &rep);
    for (size_t i = 0; i < n; i++)
        audit_step(a, &log->moves[i]);
    size_t before = rep.n_violations;
    audit_step(a, mv);
    if (then && rep.n_violations == before)
        audit_step(a, then);
    bool ok = rep.n_violations == before && !rep.halted;
    if (!ok)
        snprintf(why, why_len, "refused: %s: %s",
                 rep.n_violations > before
                     ? rule_id(rep.violations[before].rule) : "halt",
                 rep.n_violations > before ? rep.violations[before].msg
                                           : rep.halt_msg);
    audit_finish(a, NULL, NULL);
    report_release(&rep);
    return ok;
}

static void sample_place(struct tally *t, const char *file,
                         const struct game_log *log, size_t i,
                         const struct turn_options *o)
{
    char why[AUDIT_MSG_MAX + 64];
    const struct move *m = &log->moves[i];
    const struct placement *p = &o->places[below(t, o->n_places)];
    struct move mv = *m; /* the same tile and draw, elsewhere */
    mv.at = p->at;
    mv.rot = (uint8_t)p->rot;
    mv.player = -1;
    if (accepted(log, i, &mv, NULL, why, sizeof why))
        t->sampled++;
    else
        miss(t, file, &mv, why);
}

static void sample_action(struct tally *t, const char *file,
                          const struct game_log *log, size_t i,
                          struct pos from, const struct turn_options *o)
{
    char why[AUDIT_MSG_MAX + 64];
    int k = below(t, o->n_deploys + o->n_flights);
    struct move mv = blank(log, MV_DEPLOY, i), land;
    const struct move *then = NULL;
    if (k < o->n_deploys) {
        const struct deploy_offer *d = &o->deploys[k];
        mv.at = d->on.at;
        mv.feature = d->on.feature;
        mv.mask = d->on.mask;
        mv.meeple = d->figure;
    } else {
        const struct flight_offer *f = &o->flights[k - o->n_deploys];
        int r = below(t, 3);
        mv.at = from;
        mv.feature = FEAT_FLIER;
        mv.meeple = f->figure;
        mv.roll = r + 1;
        if (f->n[r] > 0) {
            const struct seg_place *s = &f->land[r][below(t, f->n[r])];
            land = blank(log, MV_DEPLOY, i);
            land.at = s->at;
            land.feature = s->feature;
            land.mask = s->mask;
            land.meeple = f->figure;
            then = &land;
        }
    }
    if (accepted(log, i, &mv, then, why, sizeof why))
        t->sampled++;
    else
        miss(t, file, &mv, why);
}

/* ---- completeness: the logged move among the options --------------------- */

static bool place_listed(const struct turn_options *o, const struct move *m)
{
    for (int k = 0; k < o->n_places; k++)
        if (o->places[k].at.x == m->at.x && o->places[k].at.y == m->at.y &&
            o->places[k].rot == m->rot)
            return true;
    return false;
}

/* The segment an offer names, resolved as the auditor resolves a move's. */
static int offer_seg(const struct game *g, struct seg_place s)
{
    struct move m;
    memset(&m, 0, sizeof m);
    m.kind = MV_DEPLOY;
    m.at = s.at;
    m.feature = s.feature;
    m.mask = s.mask;
    return audit_move_seg(g, &m);
}

static bool deploy_listed(const struct game *g, const struct turn_options *o,
                          const struct move *m)
{
    int seg = audit_move_seg(g, m);
    for (int k = 0; seg >= 0 && k < o->n_deploys; k++)
        if (o->deploys[k].figure == m->meeple &&
            offer_seg(g, o->deploys[k].on) == seg)
            return true;
    return false;
}

static bool flight_listed(const struct turn_options *o, const struct move *m)
{
    for (int k = 0; k < o->n_flights; k++)
        if (o->flights[k].figure == m->meeple)
            return true;
    return false;
}

static bool landing_listed(const struct game *g, const struct turn_options *o,
                           const struct move *m)
{
    int seg = audit_move_seg(g, m);
    for (int k = 0; seg >= 0 && k < o->n_landings; k++)
        if (offer_seg(g, o->landings[k]) == seg)
            return true;
    return false;
}

/* options_compute() on the log cut before move i, the daemon's path; e
 * is cleared first. */
static enum status compute_cut(const struct game_log *log, size_t i,
                               const struct options_query *q,
                               struct turn_options *o, struct err *e)
{
    struct game_log cut = *log; /* shares the moves: never released */
    cut.n_moves = i;
    cut.end_turn = -1;
    err_clear(e);
    return options_compute(&cut, q, o, e);
}

/* The daemon's path on the log cut before move i (a placement between
 * turns): the same actions as the walk found after it, and a square the
 * tile cannot reach refused with the rule. */
static void check_compute(struct tally *t, const char *file,
                          const struct game_log *log, size_t i,
                          const struct turn_options *walked)
{
    const struct move *m = &log->moves[i];
    struct options_query q;
    options_query_init(&q);
    q.tile = m->tile;
    q.placed = true;
    q.at = m->at;
    q.rot = m->rot;
    struct turn_options o;
    struct err e;
    enum status st = compute_cut(log, i, &q, &o, &e);
    if (st != ST_OK || o.stage != OPTS_ACTION ||
        o.n_deploys != walked->n_deploys || o.n_flights != walked->n_flights)
        miss(t, file, m, st != ST_OK ? e.msg : "options_compute differs");
    else
        t->computed++;
    options_release(&o);
    q.at = (struct pos){ 200, 200 };
    st = compute_cut(log, i, &q, &o, &e);
    if (st != ST_RULE || strncmp(e.msg, "TILE_NOT_ADJACENT: ", 19) != 0)
        miss(t, file, m, "a far square is not refused as TILE_NOT_ADJACENT");
    options_release(&o);
}

/* ---- the units' moves ----------------------------------------------------- */

static bool has_field(const struct move_class *row, const char *key)
{
    return row->fl_fields && strstr(row->fl_fields, key) != NULL;
}

static int meeple_of(const struct audit *a, const struct move_class *row,
                     const struct move *m)
{
    return row->meeple ? row->meeple(a, m) : audit_resolve_meeple(a, m);
}

/* Does option o stand for the logged move m, as the auditor reads
 * both? */
static bool same_unit_move(const struct audit *a, const struct move_class *row,
                           const struct move *m, const struct move *o)
{
    const struct game *g = audit_game(a);
    if (o->kind != m->kind || o->neutral != m->neutral ||
        o->index != m->index || o->amount != m->amount)
        return false;
    if (has_field(row, "at") && (o->at.x != m->at.x || o->at.y != m->at.y))
        return false;
    if (has_field(row, "segment") || row->at == AT_FEATURE) {
        int so = audit_move_seg(g, o), sm = audit_move_seg(g, m);
        if (so >= 0 || sm >= 0 ? so != sm : o->mask != m->mask)
            return false;
    }
    return !has_field(row, "meeple") ||
           meeple_of(a, row, o) == meeple_of(a, row, m);
}

/* One of the unit moves listed in state before move i, replayed alone. */
static void sample_unit(struct tally *t, const char *file,
                        const struct game_log *log, size_t i,
                        const struct turn_options *o)
{
    char why[AUDIT_MSG_MAX + 64];
    struct move mv = o->moves[below(t, o->n_moves)];
    mv.src = blank(log, mv.kind, i).src;
    if (accepted(log, i, &mv, NULL, why, sizeof why))
        t->unit_sampled++;
    else
        miss(t, file, &mv, why);
}

/* The daemon's path cut within a turn, before the logged unit move i:
 * the same unit moves as the walk lists there. */
static void check_mid_turn(struct tally *t, const char *file,
                           const struct game_log *log, size_t i,
                           size_t turn_start, const struct turn_options *walked)
{
    struct options_query q;
    options_query_init(&q);
    q.steps_from = (long)turn_start;
    struct turn_options o;
    struct err e;
    enum status st = compute_cut(log, i, &q, &o, &e);
    if (st != ST_OK || o.stage == OPTS_TILE || o.stage == OPTS_OVER ||
        o.n_moves != walked->n_moves)
        miss(t, file, &log->moves[i],
             st != ST_OK ? e.msg : "options_compute within a turn differs");
    else
        t->mid_turn++;
    options_release(&o);
}

/* Before logged move i of a unit's row with an options hook: it is among
 * the moves listed, and now and then one listed is replayed. */
static void unit_move(struct tally *t, const char *file,
                      const struct game_log *log, size_t i, size_t turn_start,
                      const struct audit *a)
{
    const struct move *m = &log->moves[i];
    const struct move_class *row = move_class_of(m->kind, m->neutral);
    struct turn_options o;
    if (!row || !row->options)
        return;
    memset(&o, 0, sizeof o);
    options_moves(a, &o);
    bool found = false;
    for (int k = 0; k < o.n_moves && !found; k++)
        found = same_unit_move(a, row, m, &o.moves[k]);
    if (found)
        t->unit_moves++;
    else
        miss(t, file, m, "unit move not among the options");
    if (o.n_moves > 0 && below(t, 2) == 0)
        sample_unit(t, file, log, i, &o);
    if (a->phase != PH_IDLE && turn_start < i && below(t, 8) == 0)
        check_mid_turn(t, file, log, i, turn_start, &o);
    options_release(&o);
}

/* The tile a turn places is in the catalogue: drawable from the pack,
 * or the player's own (an abbey). */
static void catalogued(struct tally *t, const char *file,
                       const struct game *g, const struct move *m,
                       struct turn_options *o)
{
    options_tiles(g, o);
    for (int k = 0; k < o->n_tiles; k++)
        if (o->tiles[k].tile == m->tile && o->tiles[k].left > 0 &&
            o->tiles[k].drawable) {
            t->catalogued++;
            t->held += o->tiles[k].held;
            return;
        }
    miss(t, file, m, "the tile placed is not in the catalogue");
}

/* A tile placed after the last one (an abbey in the last round, a tile
 * bought at the bazaar): the daemon's path cut before it offers that
 * seat its held tile. */
static void last_round_tile(struct tally *t, const char *file,
                            const struct game_log *log, size_t i)
{
    const struct move *m = &log->moves[i];
    struct options_query q;
    options_query_init(&q);
    struct turn_options o;
    struct err e;
    enum status st = compute_cut(log, i, &q, &o, &e);
    bool held = false;
    for (int k = 0; st == ST_OK && k < o.n_tiles; k++)
        held |= o.tiles[k].tile == m->tile && o.tiles[k].held;
    if (st == ST_OK && o.stage == OPTS_TILE && held &&
        (m->player < 0 || m->player == o.seat))
        t->last_round++;
    else
        miss(t, file, m, st != ST_OK ? e.msg
                                     : "the last round's tile is not offered");
    options_release(&o);
}

/* ---- rounds between turns ------------------------------------------------ */

/* Before logged move i a round between turns owes its answer: a logged
 * answer of its owner is among the answers the round lists, one listed
 * answer is replayed now and then, and the daemon's path cut there names
 * the same round and seat. */
static void round_open(struct tally *t, const char *file,
                       const struct game_log *log, size_t i,
                       const struct audit *a)
{
    const struct move *m = &log->moves[i];
    int seat = -1;
    bool pass = false;
    const struct round_class *rc = audit_round_open(a, &seat, &pass);
    if (!rc)
        return;
    if (below(t, 3) == 0) {
        struct options_query q;
        options_query_init(&q);
        struct turn_options o;
        struct err e;
        enum status st = compute_cut(log, i, &q, &o, &e);
        if (st != ST_OK || o.stage != OPTS_ROUND || o.seat != seat ||
            strcmp(o.round, rc->what) != 0)
            miss(t, file, m, st != ST_OK ? e.msg
                                         : "options_compute names no round");
        else
            t->rounds++;
        options_release(&o);
    }
    if (!rc->options || m->kind == MV_PASS || m->kind >= MV__COUNT ||
        !(rc->answers >> m->kind & 1) || audit_meeple_owner(a, m) != seat)
        return;
    const struct move_class *row = move_class_of(m->kind, m->neutral);
    struct move *opts = calloc(GAME_MAX_MEEPLES + GAME_MAX_SEGS, sizeof *opts);
    assert_non_null(opts);
    int n = rc->options(a, opts, GAME_MAX_MEEPLES + GAME_MAX_SEGS);
    bool found = false;
    for (int k = 0; k < n && !found && row; k++) {
        struct move o = opts[k]; /* a bid's amount listed is its least */
        if (has_field(row, "amount") && o.amount <= m->amount)
            o.amount = m->amount;
        found = same_unit_move(a, row, m, &o);
    }
    if (found)
        t->round_answers++;
    else
        miss(t, file, m, "round answer not among the options");
    if (n > 0) {
        char why[AUDIT_MSG_MAX + 64];
        struct move mv = opts[below(t, n)];
        mv.src = blank(log, mv.kind, i).src;
        if (accepted(log, i, &mv, NULL, why, sizeof why))
            t->round_sampled++;
        else
            miss(t, file, &mv, why);
    }
    free(opts);
}

static void walk(struct tally *t, const char *file, const struct game_log *log)
{
    struct report rep;
    struct turn_options o;
    memset(&o, 0, sizeof o);
    struct audit *a = audit_begin(log, &rep);
    const struct game *g = audit_game(a);
    size_t turn_start = 0;
    for (size_t i = 0; i < log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        bool compute = false;
        if (m->kind == MV_PLACE && a->phase == PH_IDLE)
            turn_start = i;
        unit_move(t, file, log, i, turn_start, a);
        round_open(t, file, log, i, a);
        if (m->kind == MV_PLACE && a->phase == PH_IDLE && m->tile >= 0 &&
            game_pack_done(g)) {
            last_round_tile(t, file, log, i);
        } else if (m->kind == MV_PLACE && a->phase == PH_IDLE &&
                   m->tile >= 0) {
            catalogued(t, file, g, m, &o);
            options_places(g, m->tile, &o);
            if (place_listed(&o, m))
                t->places++;
            else
                miss(t, file, m, "placement not among the options");
            if (o.n_places > 1 && below(t, SAMPLE_ONE_IN) == 0)
                sample_place(t, file, log, i, &o);
            compute = below(t, 40) == 0;
        } else if (m->kind == MV_DEPLOY && a->phase == PH_ACTION) {
            options_actions(g, a->player, &o);
            bool ok = m->feature == FEAT_FLIER ? flight_listed(&o, m)
                                               : deploy_listed(g, &o, m);
            if (ok)
                t->actions++;
            else
                miss(t, file, m, "action not among the options");
        } else if (m->kind == MV_DEPLOY && a->phase == PH_DONE &&
                   !a->passed && a->player >= 0) {
            /* a second action (the phantom's), as the options list
             * what follows the first */
            options_actions(g, a->player, &o);
            bool ok = m->feature == FEAT_FLIER ? flight_listed(&o, m)
                                               : deploy_listed(g, &o, m);
            if (ok)
                t->seconds++;
            else
                miss(t, file, m, "second action not among the options");
        } else if (m->kind == MV_DEPLOY && a->phase == PH_FLYING) {
            const struct flight *f = &rep.flights[a->flight];
            options_landings(g, f->figure, f->roll, &o);
            if (landing_listed(g, &o, m))
                t->landings++;
            else
                miss(t, file, m, "landing not among the options");
        }
        struct turn_options walked;
        memset(&walked, 0, sizeof walked);
        audit_step(a, m);
        if (m->kind == MV_PLACE && a->phase == PH_ACTION) {
            options_actions(g, a->player, &walked);
            if (walked.n_deploys + walked.n_flights > 0 &&
                below(t, SAMPLE_ONE_IN) == 0)
                sample_action(t, file, log, i + 1, m->at, &walked);
            if (compute)
                check_compute(t, file, log, i, &walked);
            options_moves(a, &walked);
            if (walked.n_moves > 0 && below(t, SAMPLE_ONE_IN) == 0)
                sample_unit(t, file, log, i + 1, &walked);
        }
        options_release(&walked);
    }
    options_release(&o);
    audit_finish(a, NULL, NULL);
    report_release(&rep);
}

static void walk_dir(struct tally *t, const char *dir, int *games)
{
    struct paths files = { 0 };
    list_jcz(dir, false, &files);
    for (size_t i = 0; i < files.n; i++) {
        char why[256];
        if (unsupported(files.v[i], why, sizeof why))
            continue;
        struct game_log log;
        load_log(files.v[i], &log);
        walk(t, files.v[i], &log);
        game_log_release(&log);
        (*games)++;
    }
    paths_free(&files);
}

static void test_options_corpora(void **state)
{
    (void)state;
    struct tally t = { .rng = 30 };
    int games = 0;
    walk_dir(&t, PEER_DIR "/games", &games);
    for (size_t f = 0; f < sizeof folders / sizeof *folders; f++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", EXP_DIR, folders[f]);
        walk_dir(&t, dir, &games);
    }
    print_message("options: %d games; logged moves among the options: %ld "
                  "placements, %ld actions, %ld second actions, %ld landings, "
                  "%ld unit moves; "
                  "%ld other options and %ld listed unit moves accepted by "
                  "the auditor; options_compute agreed %ld times between "
                  "turns and %ld within one; %ld tiles of a last round "
                  "offered; %ld open rounds named, %ld round answers among "
                  "the listed, %ld listed answers accepted; %ld tiles placed "
                  "found in the catalogue, %ld of them held; %d failures\n",
                  games, t.places, t.actions, t.seconds, t.landings,
                  t.unit_moves,
                  t.sampled, t.unit_sampled, t.computed, t.mid_turn,
                  t.last_round, t.rounds, t.round_answers, t.round_sampled,
                  t.catalogued, t.held, t.failures);
    assert_int_equal(t.failures, 0);
    assert_true(t.sampled >= MIN_SAMPLED);
    assert_true(t.computed > 0);
    assert_true(t.unit_moves > 0 && t.unit_sampled > 0 && t.mid_turn > 0);
    assert_true(t.rounds > 0 && t.round_answers > 0 && t.round_sampled > 0);
    assert_true(t.catalogued > 0 && t.held > 0);
}

/* The query's text: each parameter named when it does not read. */
static void test_options_query(void **state)
{
    static const struct {
        const char *tile, *at, *rot, *fly, *roll, *err;
    } cases[] = {
        { "BA/RCr", "1,0", "90", NULL, NULL, NULL },
        { "BA/RCr", "1,0", "90", "small", "2", NULL },
        { "XX/none", NULL, NULL, NULL, NULL, "tile:" },
        { "BA/RCr", "1;0", NULL, NULL, NULL, "at:" },
        { "BA/RCr", "1,0", "45", NULL, NULL, "rot:" },
        { "BA/RCr", "1,0", "0", "barn", NULL, "fly:" },
        { "BA/RCr", "1,0", "0", "small", "4", "roll:" },
        { NULL, "1,0", NULL, NULL, NULL, "at:" },
        { "BA/RCr", "1,0", "0", NULL, "2", "roll:" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct options_query q;
        struct err e;
        err_clear(&e);
        enum status st = options_query_parse(&q, cases[i].tile, cases[i].at,
                                             cases[i].rot, cases[i].fly,
                                             cases[i].roll, &e);
        if (!cases[i].err) {
            assert_int_equal(st, ST_OK);
            continue;
        }
        assert_int_equal(st, ST_PARSE);
        assert_true(strncmp(e.msg, cases[i].err, strlen(cases[i].err)) == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_query),
        cmocka_unit_test(test_options_corpora),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
