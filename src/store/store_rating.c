/* store_rating.c - the rating pass both backends run (store_rating.h). */
#include "store/store_rating.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void rating_mark_at(struct rating_mark *m, int64_t at, int64_t id)
{
    if (!m->dirty || at < m->at || (at == m->at && id < m->id)) {
        m->at = at;
        m->id = id;
    }
    m->dirty = true;
}

bool rating_record_rated(const struct game_record *g)
{
    return !g->unsupported && g->report && g->log && !g->live &&
           g->report->valid && g->report->finished &&
           g->log->rules.n_players >= 2;
}

double rating_round(double x)
{
    return round(x * 100.0) / 100.0;
}

void rating_run_init(struct rating_run *run)
{
    memset(run, 0, sizeof *run);
}

void rating_run_release(struct rating_run *run)
{
    free(run->ids);
    free(run->r);
    free(run->rows);
    memset(run, 0, sizeof *run);
}

static size_t slot_of(const struct rating_run *run, int64_t player)
{
    size_t i = (size_t)((uint64_t)player * 0x9E3779B97F4A7C15u) &
               (run->cap - 1);
    while (run->ids[i] != 0 && run->ids[i] != player)
        i = (i + 1) & (run->cap - 1);
    return i;
}

static void grow(struct rating_run *run)
{
    struct rating_run old = *run;
    run->cap = old.cap ? old.cap * 2 : 64;
    run->ids = xcalloc(run->cap, sizeof *run->ids);
    run->r = xcalloc(run->cap, sizeof *run->r);
    for (size_t i = 0; i < old.cap; i++)
        if (old.ids[i] != 0) {
            size_t j = slot_of(run, old.ids[i]);
            run->ids[j] = old.ids[i];
            run->r[j] = old.r[i];
        }
    free(old.ids);
    free(old.r);
}

/* The player's belief, a new one if never seen. */
static struct rating *belief(struct rating_run *run, int64_t player)
{
    if (2 * (run->n + 1) > run->cap)
        grow(run);
    size_t i = slot_of(run, player);
    if (run->ids[i] == 0) {
        run->ids[i] = player;
        run->r[i] = rating_new();
        run->n++;
    }
    return &run->r[i];
}

void rating_run_seed(struct rating_run *run, int64_t player, double mu,
                     double sigma)
{
    struct rating *r = belief(run, player);
    r->mu = mu;
    r->sigma = sigma;
}

static void rate_gathered(struct rating_run *run)
{
    struct rating r[GAME_MAX_PLAYERS];
    int n = run->n_seats;
    if (run->game == 0 || n < 2)
        goto out;
    for (int i = 0; i < n; i++)
        r[i] = *belief(run, run->players[i]);
    rating_update(r, run->ranks, n);
    for (int i = 0; i < n; i++) {
        *belief(run, run->players[i]) = r[i];
        if (run->n_rows == run->cap_rows) {
            run->cap_rows = run->cap_rows ? run->cap_rows * 2 : 64;
            run->rows = xrealloc(run->rows, run->cap_rows * sizeof *run->rows);
        }
        run->rows[run->n_rows++] = (struct rating_row){
            .game_id = run->game, .player_id = run->players[i],
            .at = run->at, .mu = r[i].mu, .sigma = r[i].sigma,
            .shown = rating_round(rating_shown(r[i])) };
    }
out:
    run->game = 0;
    run->n_seats = 0;
}

void rating_run_seat(struct rating_run *run, int64_t game, int64_t at,
                     int64_t player, int rank)
{
    if (game != run->game)
        rate_gathered(run);
    run->game = game;
    run->at = at;
    if (run->n_seats < GAME_MAX_PLAYERS) {
        run->players[run->n_seats] = player;
        run->ranks[run->n_seats++] = rank;
    }
}

void rating_run_finish(struct rating_run *run)
{
    rate_gathered(run);
}

void rating_json_open(struct buf *out, double mu, double sigma,
                      int64_t n_games)
{
    if (n_games <= 0) {
        buf_puts(out, ",\"rating\":null");
        return;
    }
    buf_printf(out, ",\"rating\":{\"rating\":%.2f,\"mu\":%.2f,"
               "\"sigma\":%.2f,\"games\":%lld,\"history\":[",
               rating_round(mu - 3.0 * sigma), mu, sigma,
               (long long)n_games);
}

void rating_json_item(struct buf *out, size_t i, int64_t game_id,
                      int64_t played_at, double shown)
{
    buf_printf(out, "%s{\"game_id\":%lld,\"played_at\":%lld,"
               "\"rating\":%.2f}", i ? "," : "", (long long)game_id,
               (long long)played_at, shown);
}

void rating_json_close(struct buf *out, int64_t n_games)
{
    if (n_games > 0)
        buf_puts(out, "]}");
}

double luck_figure(enum luck_what what, int64_t landed, int64_t thirds,
                   int64_t ninths)
{
    struct luck l = { .landed = (int)landed,
                      .expected = (double)thirds / 3.0,
                      .variance = (double)ninths / 9.0 };
    double x = what == LUCK_EXPECTED ? l.expected
             : what == LUCK_LUCK     ? luck_value(&l)
                                     : luck_spread(&l);
    x = round(x * 100.0) / 100.0;
    return x == 0 ? 0.0 : x; /* never "-0.00" */
}

void luck_fields_json(struct buf *out, int64_t landed, int64_t thirds,
                      int64_t ninths)
{
    buf_printf(out, "\"expected\":%.2f,\"luck\":%.2f,\"spread\":%.2f",
               luck_figure(LUCK_EXPECTED, landed, thirds, ninths),
               luck_figure(LUCK_LUCK, landed, thirds, ninths),
               luck_figure(LUCK_SPREAD, landed, thirds, ninths));
}

void luck_json(struct buf *out, int64_t flights, int64_t landed,
               int64_t thirds, int64_t ninths, int64_t points)
{
    buf_printf(out, ",\"luck\":{\"flights\":%lld,\"landed\":%lld,",
               (long long)flights, (long long)landed);
    luck_fields_json(out, landed, thirds, ninths);
    buf_printf(out, ",\"points\":%lld}", (long long)points);
}
