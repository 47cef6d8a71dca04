/* mksample - writes one random legal game (src/sim) as a .jcz save.
 *
 *   mksample --edition c2|c3 --players N --seed S [--flier-rate P]
 *            [--deploy-rate P] [--recall-rate P] [--extra-rate P]
 *            [--abbey-rate P] [--wagon-rate P]
 *            [--expansions LIST] [--sets LIST] [--elements LIST]
 *            [--tiny-city] [--forge field|target|occupied] > out.jcz
 *
 * c2 plays basic:1 + flier:1, c3 basic:2 + flier:2 with abbots and
 * gardens; 7 followers and farmers either way. --expansions, --sets and
 * --elements add to that as `flierd simulate` does (struct sim_setup).
 * Players are Ada, Ben, Cleo, Dov, Eli, Fay in seat order. A summary
 * goes to stderr.
 *
 * --forge edits one message of the game to break one rule, for the
 * forged samples:
 *   field     the first landing of a follower moves onto a field of its
 *             target tile                      -> FLIER_FIELD
 *   target    the flight before the first landing of a follower claims
 *             the next roll (1->2->3->1)        -> FLIER_WRONG_TARGET
 *   occupied  the first PASS whose tile continues an occupied feature
 *             becomes a deployment on it, with a free follower that the
 *             rest of the game can do without   -> MEEPLE_FEATURE_OCCUPIED
 * The state at the edited message comes from auditing the moves before
 * it, so the edit is judged by the same engine as the sample. The forged
 * flight keeps the follower off the board, so later moves stay legal and
 * each forgery breaks exactly one rule. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "mlog/mlog.h"
#include "sim/sim.h"

static const char *const names[GAME_MAX_PLAYERS] = { "Ada", "Ben", "Cleo",
                                                     "Dov", "Eli", "Fay" };

struct args {
    const char *edition;
    const char *expansions, *sets, *elements;
    int players;
    unsigned long long seed;
    struct sim_policy policy;
    bool tiny_city;
    const char *forge;
};

static void usage(FILE *f)
{
    fputs("usage: mksample --edition c2|c3 --players N --seed S\n"
          "                [--flier-rate P] [--deploy-rate P] "
          "[--recall-rate P]\n"
          "                [--extra-rate P] [--abbey-rate P] "
          "[--wagon-rate P]\n"
          "                [--expansions LIST] [--sets LIST]\n"
          "                [--elements LIST] [--tiny-city]\n"
          "                [--forge field|target|occupied]\n"
          "Writes one random legal game as a .jcz save to stdout.\n",
          f);
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return errno == 0 && end != s && *end == '\0' && *out >= 0 && *out <= 1;
}

static bool parse_args(int argc, char **argv, struct args *a)
{
    a->policy = sim_policy_default();
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(k, "--tiny-city") == 0) {
            a->tiny_city = true;
            continue;
        }
        if (!v)
            return false;
        i++;
        if (strcmp(k, "--edition") == 0) {
            a->edition = v;
        } else if (strcmp(k, "--players") == 0) {
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > GAME_MAX_PLAYERS)
                return false;
            a->players = (int)n;
        } else if (strcmp(k, "--seed") == 0) {
            errno = 0;
            a->seed = strtoull(v, &end, 10);
            if (errno || *end || end == v)
                return false;
        } else if (strcmp(k, "--flier-rate") == 0) {
            if (!parse_double(v, &a->policy.flier_rate))
                return false;
        } else if (strcmp(k, "--deploy-rate") == 0) {
            if (!parse_double(v, &a->policy.deploy_rate))
                return false;
        } else if (strcmp(k, "--recall-rate") == 0) {
            if (!parse_double(v, &a->policy.recall_rate))
                return false;
        } else if (strcmp(k, "--extra-rate") == 0) {
            if (!parse_double(v, &a->policy.extra_rate))
                return false;
        } else if (strcmp(k, "--abbey-rate") == 0) {
            if (!parse_double(v, sim_policy_rate(&a->policy, "abbey")))
                return false;
        } else if (strcmp(k, "--wagon-rate") == 0) {
            if (!parse_double(v, sim_policy_rate(&a->policy, "wagon")))
                return false;
        } else if (strcmp(k, "--expansions") == 0) {
            a->expansions = v;
        } else if (strcmp(k, "--sets") == 0) {
            a->sets = v;
        } else if (strcmp(k, "--elements") == 0) {
            a->elements = v;
        } else if (strcmp(k, "--forge") == 0) {
            a->forge = v;
        } else {
            return false;
        }
    }
    return a->edition && a->players > 0 &&
           (strcmp(a->edition, "c2") == 0 || strcmp(a->edition, "c3") == 0);
}

static bool edition_rules(const struct args *a, struct rules *r)
{
    struct sim_setup s = { strcmp(a->edition, "c3") == 0 ? 3 : 2,
                           a->expansions, a->sets, a->elements };
    struct err e;
    if (sim_rules(&s, a->players, r, &e) != ST_OK) {
        fprintf(stderr, "mksample: %s\n", e.msg);
        return false;
    }
    r->opt[OPT_TINY_CITY] = a->tiny_city ? 2 : 4;
    return true;
}

/* ---- forging ----------------------------------------------------------- */

/* The game as it stands before move i (caller frees). */
static struct game *state_before(const struct game_log *l, size_t i)
{
    struct game_log pre = *l;
    struct report rep;
    struct game *g;
    pre.n_moves = i;
    audit_run(&pre, NULL, &rep, &g);
    report_release(&rep);
    return g;
}

static int turn_of(const struct game_log *l, size_t i)
{
    int t = 0;
    for (size_t k = 0; k <= i; k++)
        t += l->moves[k].kind == MV_PLACE;
    return t;
}

/* Index of the first landing of a small follower, or -1. */
static long first_landing(const struct game_log *l)
{
    for (size_t i = 1; i < l->n_moves; i++) {
        const struct move *f = &l->moves[i - 1], *m = &l->moves[i];
        if (f->kind == MV_DEPLOY && f->feature == FEAT_FLIER &&
            m->kind == MV_DEPLOY && m->meeple == FIG_SMALL &&
            m->meeple == f->meeple && m->meeple_n == f->meeple_n &&
            m->meeple_owner == f->meeple_owner)
            return (long)i;
    }
    return -1;
}

static long forge_field(struct game_log *l)
{
    long i = first_landing(l), done = -1;
    if (i < 0)
        return -1;
    struct move *m = &l->moves[i];
    struct game *g = state_before(l, (size_t)i);
    const struct placed *t = &g->tiles[game_tile_at(g, m->at)];
    for (int s = t->seg0; s < t->seg0 + t->n_seg && done < 0; s++)
        if (g->segs[s].kind == FEAT_FIELD) {
            m->feature = FEAT_FIELD;
            m->mask = g->segs[s].mask;
            done = i;
        }
    game_free(g);
    return done;
}

static long forge_target(struct game_log *l)
{
    long i = first_landing(l);
    if (i < 1)
        return -1;
    struct move *f = &l->moves[i - 1];
    f->roll = f->roll % 3 + 1;
    return i - 1;
}

/* Number of violations of l with move i replaced by m. */
static size_t violations_with(const struct game_log *l, size_t i,
                              const struct move *m)
{
    struct game_log copy = *l;
    struct report rep;
    size_t n;
    copy.moves = malloc(l->n_moves * sizeof *l->moves);
    if (!copy.moves)
        abort();
    memcpy(copy.moves, l->moves, l->n_moves * sizeof *l->moves);
    copy.moves[i] = *m;
    audit_run(&copy, NULL, &rep, NULL);
    n = rep.n_violations;
    report_release(&rep);
    free(copy.moves);
    return n;
}

/* Turns the PASS at i into a deployment on an occupied feature of the
 * turn's tile, with a free follower whose later moves stay legal, so that
 * the game breaks exactly one rule. */
static bool forge_pass(struct game_log *l, size_t i)
{
    struct game *g = state_before(l, i);
    const struct placed *t = &g->tiles[g->now.tile];
    int seat = g->seat;
    bool done = false;
    for (int s = t->seg0; s < t->seg0 + t->n_seg && !done; s++) {
        const struct seg *sg = &g->segs[s];
        if (!game_kind_allowed(g, FIG_SMALL, sg->kind) ||
            game_feature_meeples(g, s, NULL) == 0)
            continue;
        for (int n = g->rules.figures[FIG_SMALL]; n >= 1 && !done; n--) {
            int mi = game_meeple(g, seat, FIG_SMALL, n);
            struct move m = l->moves[i];
            if (mi < 0 || g->meeples[mi].seg >= 0)
                continue;
            m.kind = MV_DEPLOY;
            m.at = game_tile_pos(g, sg->tile);
            m.feature = sg->kind;
            m.mask = sg->mask;
            m.meeple = FIG_SMALL;
            m.meeple_n = (uint8_t)n;
            m.meeple_owner = (int8_t)seat;
            if (violations_with(l, i, &m) == 1) {
                l->moves[i] = m;
                done = true;
            }
        }
    }
    game_free(g);
    return done;
}

static long forge_occupied(struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_PASS && forge_pass(l, i))
            return (long)i;
    return -1;
}

static long forge(struct game_log *l, const char *how)
{
    if (strcmp(how, "field") == 0)
        return forge_field(l);
    if (strcmp(how, "target") == 0)
        return forge_target(l);
    if (strcmp(how, "occupied") == 0)
        return forge_occupied(l);
    return -2;
}

/* ---- main ---------------------------------------------------------------- */

static void summary(const struct game_log *l, const struct sim_result *res)
{
    fprintf(stderr, "turns %d, discards %d, deploys %d (abbot %d, garden "
            "%d), recalls %d, flights %d, landed %d, second actions %d "
            "(flights %d);",
            res->turns, res->discards, res->deploys,
            sim_result_count(res, "abbot_deploys"),
            sim_result_count(res, "garden_deploys"), res->recalls,
            res->flights, res->landed, res->extra_actions,
            res->extra_flights);
    if (game_rules_units(&l->rules) >> EXP_ABBEY & 1)
        fprintf(stderr, " abbeys placed %d, declined %d; wagons moved %d, "
                "left %d;", sim_result_count(res, "held_placed"),
                sim_result_count(res, "held_declined"),
                sim_result_count(res, "wagon_moves"),
                sim_result_count(res, "wagon_passes"));
    if (res->extra_parts)
        fprintf(stderr, " second turn parts %d;", res->extra_parts);
    for (int f = 0; f < FIG__COUNT; f++)
        if (l->rules.figures[f])
            fprintf(stderr, " %s: %d deploys, %d flights, %d landed;",
                    figure_class(f)->jcz, res->deploys_by[f],
                    res->flights_by[f], res->landed_by[f]);
    fputs(" scores:", stderr);
    for (int p = 0; p < l->rules.n_players; p++)
        fprintf(stderr, " %s %d", l->names[p], res->score[p]);
    fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    struct args a = { 0 };
    struct rules r;
    struct game_log log;
    struct sim_result res;
    struct buf out = BUF_INIT;
    int rc = 0;

    if (!parse_args(argc, argv, &a)) {
        usage(stderr);
        return 2;
    }
    if (!edition_rules(&a, &r))
        return 2;
    sim_play_result(&r, names, (uint64_t)a.seed, &a.policy, &log, &res);
    summary(&log, &res);
    if (a.forge) {
        long at = forge(&log, a.forge);
        if (at < 0) {
            fprintf(stderr, "mksample: %s\n",
                    at == -2 ? "--forge takes field, target or occupied"
                             : "this game has no move to forge that way");
            rc = 2;
            goto out;
        }
        fprintf(stderr, "forged message %u (turn %d)\n", log.moves[at].src,
                turn_of(&log, (size_t)at));
    }
    mlog_write_jcz(&log, &out);
    if (fwrite(out.p, 1, out.len, stdout) != out.len || fflush(stdout)) {
        fprintf(stderr, "mksample: write error: %s\n", strerror(errno));
        rc = 1;
    }
out:
    buf_release(&out);
    game_log_release(&log);
    return rc;
}
