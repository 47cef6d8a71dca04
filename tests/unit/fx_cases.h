/* fx_cases.h - table-driven cmocka tests: one cmocka test per row of a
 * case table, and the score events a row expects.
 *
 * Each row of a table becomes a cmocka test named after the row, with the
 * row as its state, so a failing row is printed by name ("[  FAILED  ]
 * the phantom alone") and the other rows still run. A new case is one
 * row; its runner is written once per table.
 *
 * Header-only (static inline) so that the suites using it need no new
 * source file. Include after cmocka.h and core/audit.h. */
#ifndef TESTS_FX_CASES_H
#define TESTS_FX_CASES_H
#include <stdbool.h>
#include <stddef.h>

#include "core/audit.h"
#include "core/game.h"

#ifndef N_OF
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The tests of one suite: plain tests first, then one per row. */
struct fx_tests {
    struct CMUnitTest t[256];
    size_t n;
    size_t dropped; /* rows past t[]: the suite fails, never skips them */
};

static inline void fx_tests_add(struct fx_tests *ts, const char *name,
                                CMUnitTestFunction fn, const void *row)
{
    if (ts->n >= N_OF(ts->t)) {
        print_error("more than %zu tests: raise fx_tests.t\n", N_OF(ts->t));
        ts->dropped++;
        return;
    }
    /* cmocka hands initial_state to the test as *state; the runner reads
     * the row through a const pointer again */
    ts->t[ts->n++] = (struct CMUnitTest){ name, fn, NULL, NULL,
                                          (void *)(uintptr_t)row };
}

/* A plain test, named after its function. */
#define FX_TEST(ts, fn) fx_tests_add((ts), #fn, (fn), NULL)
/* One test per row of rows[] (an array whose elements have .name). */
#define FX_ROWS(ts, rows, fn)                                               \
    for (size_t fx_i_ = 0; fx_i_ < N_OF(rows); fx_i_++)                     \
    fx_tests_add((ts), (rows)[fx_i_].name, (fn), &(rows)[fx_i_])

static inline int fx_tests_run(const char *suite, const struct fx_tests *ts)
{
    int failed = _cmocka_run_group_tests(suite, ts->t, ts->n, NULL, NULL);
    if (ts->dropped)
        print_error("%s: %zu tests not run: raise fx_tests.t\n", suite,
                    ts->dropped);
    return failed + (int)ts->dropped;
}

/* ---- expected score events ------------------------------------------ */

/* The scalar fields of a score event a row may pin, one bit each. */
#define FX_EVENT_FIELDS(X)                                                 \
    X(EXPR, expr)                                                          \
    X(POINTS, points)                                                      \
    X(PLAYERS, players)                                                    \
    X(TILES, tiles)                                                        \
    X(PENNANTS, pennants)                                                  \
    X(CITIES, cities)                                                      \
    X(COMPLETED, completed)                                                \
    X(RECALL, recall)                                                      \
    X(TINY, tiny)                                                          \
    X(N_ITEMS, n_items)                                                    \
    X(N_REFS, n_refs)

enum {
#define X(id, field) FXW_BIT_##id,
    FX_EVENT_FIELDS(X)
#undef X
    FXW_BIT_STRENGTH,
    FXW_BIT_MEEPLES,
    FXW_BIT_ITEMS,
    FXW_BIT_BY_EXPR,
};

enum {
#define X(id, field) FXW_##id = 1u << FXW_BIT_##id,
    FX_EVENT_FIELDS(X)
#undef X
    /* strength[] and meeples[] of every seat */
    FXW_STRENGTH = 1u << FXW_BIT_STRENGTH,
    FXW_MEEPLES = 1u << FXW_BIT_MEEPLES,
    /* the first ev.n_items items (kind, count, points) */
    FXW_ITEMS = 1u << FXW_BIT_ITEMS,
    /* find the event by its expression too, not by turn and feature
     * alone */
    FXW_BY_EXPR = 1u << FXW_BIT_BY_EXPR,
};

/* An expected event: the one of feature ev.feature in ev.turn (-1: the
 * final scoring; and of expression ev.expr with FXW_BY_EXPR), whose
 * fields named in `check` are those of ev. A row's list of them ends
 * with a zero feature (FEAT_NONE). */
struct fx_event_want {
    struct score_event ev;
    unsigned check;
};

#define FX_EV(turn_, feat_, check_, ...)                                   \
    { { .turn = (turn_), .feature = (feat_), __VA_ARGS__ }, (check_) }

/* The one event of r that w names; fails (naming what) if none or more. */
static inline const struct score_event *
fx_find_event(const char *what, const struct report *r,
              const struct fx_event_want *w)
{
    const struct score_event *found = NULL;
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        if (ev->turn != w->ev.turn || ev->feature != w->ev.feature)
            continue;
        if ((w->check & FXW_BY_EXPR) && ev->expr != w->ev.expr)
            continue;
        if (found)
            fail_msg("%s: two %s events in turn %d", what,
                     feat_name(w->ev.feature), w->ev.turn);
        found = ev;
    }
    if (!found)
        fail_msg("%s: no %s event in turn %d", what, feat_name(w->ev.feature),
                 w->ev.turn);
    return found;
}

/* Compares the fields w->check names; fails with what, the event and the
 * field. */
static inline void fx_event_is(const char *what, const struct score_event *ev,
                               const struct fx_event_want *w)
{
    const struct score_event *e = &w->ev;
#define X(id, field)                                                       \
    if ((w->check & FXW_##id) && (long)ev->field != (long)e->field)        \
        fail_msg("%s: %s event of turn %d: " #field " %ld, expected %ld",  \
                 what, feat_name(e->feature), e->turn, (long)ev->field,    \
                 (long)e->field);
    FX_EVENT_FIELDS(X)
#undef X
    for (int p = 0; p < GAME_MAX_PLAYERS; p++) {
        if ((w->check & FXW_STRENGTH) && ev->strength[p] != e->strength[p])
            fail_msg("%s: %s event of turn %d: seat %d strength %d, "
                     "expected %d", what, feat_name(e->feature), e->turn, p,
                     ev->strength[p], e->strength[p]);
        if ((w->check & FXW_MEEPLES) && ev->meeples[p] != e->meeples[p])
            fail_msg("%s: %s event of turn %d: seat %d meeples %d, "
                     "expected %d", what, feat_name(e->feature), e->turn, p,
                     ev->meeples[p], e->meeples[p]);
    }
    for (int i = 0; (w->check & FXW_ITEMS) && i < e->n_items; i++) {
        const struct score_item *got = &ev->items[i], *want = &e->items[i];
        if (i >= ev->n_items || got->kind != want->kind ||
            got->count != want->count || got->points != want->points)
            fail_msg("%s: %s event of turn %d: item %d is %s, expected "
                     "(%d, %d, %d)", what, feat_name(e->feature), e->turn, i,
                     i >= ev->n_items ? "missing" : "another", want->kind,
                     want->count, want->points);
    }
}

/* Each event of wants[] (up to a FEAT_NONE one) is in r as described. */
static inline void fx_expect_events(const char *what, const struct report *r,
                                    const struct fx_event_want *wants,
                                    size_t max)
{
    for (size_t i = 0; i < max && wants[i].ev.feature != FEAT_NONE; i++)
        fx_event_is(what, fx_find_event(what, r, &wants[i]), &wants[i]);
}

#endif
