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

/* A tower with its floors (The Tower). */
struct replay_tower {
    struct pos at;
    uint8_t height;
};

struct replay_turn {
    int turn;          /* 0: the start tile; -1: after final scoring */
    int player;        /* seat, -1 for the start tile and final scoring */
    int tile;          /* tile kind placed this turn, -1 if none */
    struct pos at;
    int rot;
    size_t meeple0;    /* meeples on the board after it: */
    size_t n_meeples;  /*   meeples[meeple0 .. meeple0 + n_meeples) */
    int score[GAME_MAX_PLAYERS];
    size_t tower0;     /* towers with a floor after it: */
    size_t n_towers;   /*   towers[tower0 .. tower0 + n_towers) */
    uint8_t held[GAME_MAX_PLAYERS]; /* prisoners each seat holds */
    /* The Princess & the Dragon's neutral figures after it */
    bool dragon_on, fairy_on;
    struct pos dragon, fairy;
    struct pos count_at; /* the count's quarter (The Count of Carcassonne): */
    uint8_t count_mask;  /*   its tile and quarter mask, 0: no count */
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
    struct replay_tower *towers;
    size_t n_towers, cap_towers;
};

/* Replays log (as audit_run does, with o) and keeps the board after each
 * turn; out is the caller's to release with replay_release(). With rep,
 * also the report audit_run(log, o) gives, from the same pass where it
 * can be (report_release() it): a replay is not audited twice. */
void replay_build(const struct game_log *log, const struct audit_opts *o,
                  struct replay *out, struct report *rep);
void replay_release(struct replay *r);

#endif
