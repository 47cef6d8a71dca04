/* replay.h - the board after every turn, for replay viewers. */
#ifndef CORE_REPLAY_H
#define CORE_REPLAY_H
#include <stddef.h>

#include "core/audit.h"
#include "core/log.h"

struct replay_meeple {
    int8_t owner;
    uint8_t kind;      /* enum meeple_kind */
    uint8_t feature;   /* enum feat of the segment it stands on */
    uint8_t mask;
    bool flew;
    struct pos at;
};

/* What a unit shows on the board besides tiles and meeples, as the
 * unit lists it after a turn (struct expansion.replay): X(ID, its key in
 * the replay JSON, whether it stands on a square, whether it has a
 * value): the dragon is a figure, a tower's height a mark, the prisoners
 * a seat holds a counter. */
#define REPLAY_ITEM_KINDS(X)                                               \
    X(FIGURE, "figures", true, false)   /* a neutral figure */            \
    X(TOKEN, "tokens", true, false)     /* a piece on a square */         \
    X(MARK, "marks", true, true)        /* a number on a square */        \
    X(COUNTER, "counters", false, true) /* a number, a seat's or none's */

enum replay_item_kind {
#define X(id, key, at, value) REPLAY_##id,
    REPLAY_ITEM_KINDS(X)
#undef X
    REPLAY__KINDS
};

/* One item. A unit fills kind, name, and what its kind has (at, value),
 * with feature/mask when it stands on a segment (FEAT_NONE: the whole
 * square) and seat when it is a player's (-1: nobody's); replay_put()
 * adds the unit. */
struct replay_item {
    uint8_t kind;      /* enum replay_item_kind */
    uint8_t unit;      /* enum expansion_id, set by replay_put() */
    uint8_t feature;   /* enum feat of its segment, FEAT_NONE if none */
    uint8_t mask;
    int8_t seat;
    struct pos at;
    int value;
    const char *name;  /* the unit's name for it: "dragon", "height" */
};

/* Where a unit's hook puts its items (replay.c). */
struct replay_out;
void replay_put(struct replay_out *out, struct replay_item it);

struct replay_turn {
    int turn;          /* 0: the start tile; -1: after final scoring */
    int player;        /* seat, -1 for the start tile and final scoring */
    int tile;          /* tile kind placed this turn, -1 if none */
    struct pos at;
    int rot;
    size_t meeple0;    /* meeples on the board after it: */
    size_t n_meeples;  /*   meeples[meeple0 .. meeple0 + n_meeples) */
    int score[GAME_MAX_PLAYERS];
    size_t item0;      /* the units' items after it, in registry order: */
    size_t n_items;    /*   items[item0 .. item0 + n_items) */
};

struct replay {
    /* the start tiles (the City of Carcassonne's twelve; one in most
     * games), which turn 0 shows the first of */
    struct start_place starts[LOG_MAX_STARTS];
    int n_starts;
    struct replay_turn *turns;
    size_t n_turns, cap_turns;
    struct replay_meeple *meeples;
    size_t n_meeples, cap_meeples;
    struct replay_item *items;
    size_t n_items, cap_items;
};

/* Replays log (as audit_run does, with o) and keeps the board after each
 * turn; out is the caller's to release with replay_release(). With rep,
 * also the report audit_run(log, o) gives, from the same pass where it
 * can be (report_release() it): a replay is not audited twice. */
void replay_build(const struct game_log *log, const struct audit_opts *o,
                  struct replay *out, struct report *rep);
void replay_release(struct replay *r);

#endif
