/* whatif.c - replays a game with another roll at one flight. */
#include "core/whatif.h"

#include <stdio.h>
#include <string.h>

#include "core/audit.h"
#include "core/text.h"

/* Index of the flight message of turn t, or -1. */
static long find_flight(const struct game_log *log, int t)
{
    int turn = 0;
    for (size_t i = 0; i < log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        if (m->kind == MV_PLACE)
            turn++;
        else if (turn == t && m->kind == MV_DEPLOY && m->feature == FEAT_FLIER)
            return (long)i;
        if (turn > t)
            break;
    }
    return -1;
}

/* "turns 18, 24 and 26" (at most the first 12, then "..."): where the
 * log has flights, for a turn asked about that has none. */
static void flight_turns(const struct game_log *log, char *out, size_t len)
{
    struct text t = text_at(out, len);
    int turn = 0, last = -1, n = 0, shown = 0;
    for (size_t i = 0; i < log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        if (m->kind == MV_PLACE)
            turn++;
        else if (m->kind == MV_DEPLOY && m->feature == FEAT_FLIER &&
                 turn != last) {
            last = turn;
            n++;
        }
    }
    if (n == 0) {
        text_put(&t, "the game has no flight at all");
        return;
    }
    text_put(&t, n == 1 ? "the only flight is in turn " : "flights are in "
                                                          "turns ");
    turn = 0;
    last = -1;
    for (size_t i = 0; i < log->n_moves && shown < 12; i++) {
        const struct move *m = &log->moves[i];
        if (m->kind == MV_PLACE) {
            turn++;
            continue;
        }
        if (m->kind != MV_DEPLOY || m->feature != FEAT_FLIER || turn == last)
            continue;
        last = turn;
        if (shown)
            text_put(&t, shown + 1 == n ? " and " : ", ");
        text_int(&t, turn);
        shown++;
    }
    if (shown < n)
        text_put(&t, ", ...");
}

static bool same_meeple(const struct move *a, const struct move *b)
{
    return a->meeple == b->meeple && a->meeple_n == b->meeple_n &&
           a->meeple_owner == b->meeple_owner;
}

static void list_names(const struct game *g, const int *segs, int n,
                       char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (int i = 0; i < n && k < len; i++) {
        char seg[40];
        seg_format(g->segs[segs[i]].kind, g->segs[segs[i]].mask, seg,
                   sizeof seg);
        k += (size_t)snprintf(out + k, len - k, "%s%s", i ? ", " : "", seg);
    }
}

/* Picks the landing on the new target; -1 when the meeple returns. */
static enum status choose(const struct game *g, const struct whatif *w,
                          const int *segs, int n, int *out_seg,
                          struct err *e)
{
    char list[200], want[40];
    list_names(g, segs, n, list, sizeof list);
    *out_seg = -1;
    if (w->has_landing) {
        /* a feature inside the tile is one whatever its mask says */
        bool inner = feat_shape(w->feature) == SHAPE_INNER;
        seg_format(w->feature, w->mask, want, sizeof want);
        for (int i = 0; i < n; i++)
            if (feat_is(g->segs[segs[i]].kind, w->feature) &&
                (g->segs[segs[i]].mask == w->mask || inner)) {
                *out_seg = segs[i];
                return ST_OK;
            }
        return err_set(e, ST_RULE, "%s is no valid landing there; %s%s", want,
                       n ? "valid: " : "there is none", list);
    }
    if (n > 1)
        return err_set(e, ST_RULE, "roll %d offers %d landings (%s): choose "
                       "one with --landing", w->roll, n, list);
    if (n == 1)
        *out_seg = segs[0];
    return ST_OK;
}

static void copy_header(const struct game_log *log, struct game_log *out)
{
    out->rules = log->rules;
    memcpy(out->names, log->names, sizeof out->names);
    memcpy(out->colors, log->colors, sizeof out->colors);
    out->start_tile = log->start_tile;
    out->start_at = log->start_at;
    out->start_rot = log->start_rot;
    memcpy(out->more_starts, log->more_starts, sizeof out->more_starts);
    out->n_more_starts = log->n_more_starts;
    out->end_turn = log->end_turn;
}

enum status whatif_build(const struct game_log *log, const struct whatif *w,
                         struct game_log *out, struct whatif_result *res,
                         struct err *e)
{
    memset(res, 0, sizeof *res);
    long fi = find_flight(log, w->turn);
    if (fi < 0) {
        char turns[120];
        flight_turns(log, turns, sizeof turns);
        return err_set(e, ST_RULE, "turn %d has no flight; %s", w->turn,
                       turns);
    }
    if (w->roll < 1 || w->roll > 3)
        return err_set(e, ST_RULE, "roll %d is not a face of the die (1, 2 "
                       "or 3)", w->roll);
    const struct move *fl = &log->moves[fi];
    res->old_roll = fl->roll;

    /* replay up to the flight to see the board it flew over */
    struct report scratch;
    struct audit *a = audit_begin(log, &scratch);
    for (long i = 0; i < fi; i++)
        audit_step(a, &log->moves[i]);
    const struct game *g = audit_game(a);
    int tile = g->now.tile, segs[TILE_MAX_SEGS], seg = -1;
    int dir = game_flier_dir(g, tile);
    enum status st = ST_OK;
    if (dir == NO_FLIER) {
        st = err_set(e, ST_RULE, "the tile of turn %d has no flying machine",
                     w->turn);
        goto out;
    }
    res->target = game_flight_target(game_tile_pos(g, tile), dir, w->roll);
    res->n_options = game_landings(g, res->target, fl->meeple, segs,
                                   TILE_MAX_SEGS);
    st = choose(g, w, segs, res->n_options, &seg, e);
    if (st != ST_OK)
        goto out;

    copy_header(log, out);
    for (long i = 0; i < (long)log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        if (i == fi + 1 && m->kind == MV_DEPLOY && same_meeple(m, fl))
            continue; /* the logged landing */
        struct move *copy = game_log_push(out);
        *copy = *m;
        /* after the change, a player would take any meeple of the kind
         * from supply: only a real shortage is a violation */
        if (i > fi && m->kind == MV_DEPLOY)
            copy->meeple_n = 0;
        if (i != fi)
            continue;
        out->moves[out->n_moves - 1].roll = w->roll;
        if (seg < 0)
            continue;
        struct move *land = game_log_push(out);
        *land = *fl;
        land->at = res->target;
        land->feature = g->segs[seg].kind;
        land->mask = g->segs[seg].mask;
        land->roll = 0;
        res->lands = true;
        res->feature = land->feature;
        res->mask = land->mask;
    }
out:
    audit_finish(a, NULL, NULL);
    report_release(&scratch);
    return st;
}
