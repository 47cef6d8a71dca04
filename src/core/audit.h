/* audit.h - replays a game log through the rules and reports every
 * violation, flight and score event.
 *
 * The auditor does not stop at the first violation: it records it, applies
 * the move as logged where that still makes sense (a tile placed against
 * the rules stays on the board, a landing on a field does not happen) and
 * goes on, so one report lists every problem. */
#ifndef CORE_AUDIT_H
#define CORE_AUDIT_H
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"
#include "core/log.h"

#define AUDIT_MSG_MAX 512

struct violation {
    int turn;
    int player;          /* seat, -1 if unknown */
    enum rule rule;
    uint32_t src;        /* message index in the source */
    bool has_at;         /* the offending move names a position: */
    struct pos at;       /*   where it placed or put a meeple */
    uint8_t feature;     /*   and on which segment (FEAT_NONE: the tile) */
    uint8_t mask;
    bool between;        /* the move came between turns, after turn */
    char msg[AUDIT_MSG_MAX];
};

struct landing {
    uint16_t seg;
    uint8_t feature;
    uint8_t mask;
    uint8_t occupants[GAME_MAX_PLAYERS]; /* meeples per seat on the feature */
};

struct flight {
    int turn;
    int player;
    uint8_t figure;      /* enum figure that flew */
    struct pos from;
    int dir;             /* board frame, enum dir8 */
    int roll;
    struct pos target;
    bool landed;
    bool pending;        /* the log ends before the landing */
    bool bad_roll;
    uint8_t feature;     /* landed on: enum feat, FEAT_NONE if returned */
    uint8_t mask;
    /* points its owner received from the scorings whose majority the
     * landed figure counted in, once each (0 for a flight that did not
     * land); set when the audit finishes */
    int points;
    int n_options;
    struct landing options[TILE_MAX_SEGS];
    /* the odds: what each roll 1, 2, 3 would have offered */
    struct pos by_roll_target[3];
    int n_by_roll[3];
    struct landing by_roll[3][TILE_MAX_SEGS];
};

/* Where the claimed running totals first part from the computed ones. */
struct divergence {
    bool found;
    int turn;                 /* -1: at final scoring */
    uint8_t seats;            /* seats whose totals differ */
    int claimed[GAME_MAX_PLAYERS];
    int computed[GAME_MAX_PLAYERS];
    uint8_t feature;          /* the feature whose claim is off, or NONE */
    char msg[AUDIT_MSG_MAX];
};

/* A tile put aside because it fit nowhere. */
struct discard {
    int turn;            /* the turn whose draw it was */
    int16_t tile;
    bool logged;         /* the log says so; else inferred from the draw */
};

struct audit_opts {
    bool assume_finished; /* final scoring even with tiles left */
};

struct report {
    bool valid;
    bool finished;
    bool halted;           /* the game could not go on; see halt_msg */
    int halt_turn;
    char halt_msg[AUDIT_MSG_MAX];
    int turns;             /* tiles placed, start tile excluded */
    int tiles_left;
    int n_players;
    int score[GAME_MAX_PLAYERS];
    uint64_t state_hash;
    struct violation *violations;
    size_t n_violations, cap_violations;
    struct flight *flights;
    size_t n_flights, cap_flights;
    struct score_event *events;
    size_t n_events;
    struct discard *discards;
    size_t n_discards, cap_discards;
    /* JCloisterZone saves: does the tile order follow the save's random
     * numbers? When it stops doing so, draw_note says from where. */
    bool draw_checked;
    char draw_note[AUDIT_MSG_MAX];
    /* Where a rule variant the game was audited under decided something
     * (a unit says which variant, and the first place another would have
     * judged otherwise); empty when none did. */
    char rule_note[AUDIT_MSG_MAX];
    /* receipts: refs of events[i] are refs[events[i].ref0 ...] */
    struct feature_ref *refs;
    size_t n_refs;
    /* running[t][seat]: totals after turn t (t = 0: before the first) */
    int (*running)[GAME_MAX_PLAYERS];
    size_t n_running, cap_running;
    bool has_claims;
    struct divergence divergence;
};

/* Replays log into a fresh game. The report is the caller's to release
 * with report_release(); if out_game is non-NULL it receives the final
 * state (caller frees with game_free()). Never fails: every problem in
 * the log becomes a violation or a halt. */
void audit_run(const struct game_log *log, const struct audit_opts *o,
               struct report *r, struct game **out_game);
void report_release(struct report *r);

/* The same, one move at a time (live recording): audit_begin() takes the
 * log's setup (rules, names, start tile, end turn; log must outlive the
 * audit, its moves are not read) and clears r; audit_step() checks and
 * applies one move and returns how many violations it added;
 * audit_finish() settles the end of the game into r, frees the audit and
 * hands the final state to *out_game when non-NULL. */
struct audit;
struct audit *audit_begin(const struct game_log *log, struct report *r);
size_t audit_step(struct audit *a, const struct move *m);
const struct game *audit_game(const struct audit *a);
/* Seat on turn (-1 before the first tile). */
int audit_player(const struct audit *a);
/* A flight with landing options waits for its landing. */
bool audit_awaits_landing(const struct audit *a);
/* What the last audit_step() took its move for: a turn's own move, or
 * one of those that come between turns (a unit's round). */
enum step_role {
    STEP_TURN,           /* a turn's tile, action or COMMIT (or a move
                            out of place) */
#define STEP(id) STEP_##id, /* the units' rounds (their STEP lines) */
#include "core/exp/units.def"
#undef STEP
};
enum step_role audit_step_role(const struct audit *a);
/* The part of the turn now (after its COMMIT: of the turn to come): 1,
 * or 2 for a builder's second tile. */
int audit_turn_part(const struct audit *a);
/* The meeple (index into audit_game()'s meeples) the auditor would take
 * for m, a deployment or recall, as the next move; -1 when none: for an
 * id that leaves the meeple open (n 0), any of that kind in supply of
 * the seat the id names, else of the seat on turn; the abbot on the
 * feature recalled; between turns, the wagon that waits to move. */
int audit_meeple(const struct audit *a, const struct move *m);
void audit_finish(struct audit *a, const struct audit_opts *o,
                  struct game **out_game);

#endif
