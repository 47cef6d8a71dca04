/* options.h - what a player may do next in a game, as the engine's own
 * answers: the tiles left to draw, where a tile goes, the deployments and
 * flights after it, the landings of a roll. A recorder at the table
 * drives a turn with it step by step (tile, then square and rotation,
 * then the action, then the die), and each answer is the same function
 * the simulator picks from and the auditor judges with, so an option
 * offered is a move the auditor accepts.
 *
 * The moves a unit adds beyond tiles, deployments and flights (a tower's
 * floor, the dragon's steps, ...) are listed by their rows' options
 * hooks (core/move.h), each from the engine check the auditor judges the
 * move with; a round between turns that owes its answers first (a
 * wagon's move, the City, a crop circle) is a stage of its own, its
 * answers listed by the round's options hook (audit_unit.h); a row or
 * round without one is named only, so that a page can offer its form
 * and the auditor judge what comes back.
 *
 * Pure: no I/O. */
#ifndef CORE_OPTIONS_H
#define CORE_OPTIONS_H
#include <stdbool.h>
#include <stdint.h>

#include "core/audit.h"
#include "core/game.h"
#include "core/log.h"
#include "util/err.h"

/* How far the turn to come is chosen. Each field is optional, but a
 * later one needs the ones before it: a square needs a tile, a roll a
 * flying figure. */
struct options_query {
    int tile;          /* tile kind, -1: not chosen */
    bool placed;       /* at and rot are chosen */
    struct pos at;
    int rot;           /* 0..3 quarter turns clockwise */
    int fly;           /* enum figure that takes the flying machine, -1 */
    int roll;          /* the die, 1..3; 0: not rolled yet */
    /* The log's moves from this index on are the turn so far as the
     * recorder chose it (a live query's turn entry), judged one by one
     * like the steps above, which it replaces; -1: none. */
    long steps_from;
};

void options_query_init(struct options_query *q);

/* Reads the query's text as a URL gives it (each may be NULL: not
 * chosen): tile "BA/RCr", at "2,-1", rot "0".."270" (degrees), fly a
 * figure's meeple-id kind ("small", "abbot"), roll "1".."3". ST_PARSE
 * with a sentence that names the parameter when one does not read. */
enum status options_query_parse(struct options_query *q, const char *tile,
                                const char *at, const char *rot,
                                const char *fly, const char *roll,
                                struct err *e) WARN_UNUSED;

/* Where the turn to come stands once the query is applied. */
enum options_stage {
    OPTS_TILE,     /* a tile is to be drawn (tiles[]) */
    OPTS_PLACE,    /* the tile is chosen: where does it go (places[]) */
    OPTS_ACTION,   /* it is placed: deploy, fly or pass (deploys[],
                      flights[]) */
    OPTS_LAND,     /* the die is rolled: where does the figure land
                      (landings[]; none: it goes back to supply) */
    OPTS_AFTER,    /* the action is taken: the units' moves after it
                      (moves[]), a second figure where a unit allows
                      one (deploys[]), or the turn is confirmed */
    OPTS_OVER,     /* the game is over, or could not go on */
    OPTS_ROUND,    /* between turns: a round's answer is owed first (a
                      wagon's move, a follower into the City): round
                      names it, seat is asked, moves[] lists the answers
                      (when the round lists them), may_pass */
    OPTS_ANSWERED, /* a round's answers so far need their COMMIT */
};

/* A tile kind still in the pack. */
struct tile_offer {
    int16_t tile;
    int16_t left;      /* copies left */
    bool drawable;     /* may be drawn now (its group is open) */
    bool fits;         /* fits somewhere on the board */
    bool held;         /* the seat's own, placed instead of the draw (an
                          abbey): left is how many it holds */
};

/* A segment an option puts a figure on. */
struct seg_place {
    struct pos at;     /* its tile */
    uint8_t feature;   /* enum feat, as logs name it */
    uint8_t mask;
};

struct deploy_offer {
    struct seg_place on;
    uint8_t figure;    /* enum figure */
};

/* A figure that may take the turn's flying machine, with what each roll
 * would bring. */
struct flight_offer {
    uint8_t figure;
    struct pos target[3];
    int n[3];
    struct seg_place land[3][TILE_MAX_SEGS];
};

/* Most moves of one kind a unit's rows list. */
#define OPTIONS_MAX_MOVES 32

struct turn_options {
    enum options_stage stage;
    int seat;          /* the player whose turn it is */
    int turn;          /* the number the turn to come gets */
    int part;          /* 1, or 2: a builder's second tile */
    int tiles_left;
    char over[AUDIT_MSG_MAX]; /* OPTS_OVER: why */

    struct tile_offer *tiles;   /* the catalogue: every kind in the pack */
    int n_tiles;

    struct placement *places;   /* OPTS_PLACE: the chosen tile's */
    int n_places;

    struct deploy_offer *deploys; /* OPTS_ACTION on */
    int n_deploys;
    struct flight_offer flights[FIG__COUNT];
    int n_flights;
    bool may_pass;

    int roll;                   /* OPTS_LAND: the roll, its target, */
    struct pos target;
    struct seg_place landings[TILE_MAX_SEGS]; /* where it may land */
    int n_landings;
    uint8_t flier;              /* the figure that flew */

    /* the units' moves the auditor takes now, as a log holds them (each
     * row's options hook) */
    struct move *moves;
    int n_moves;

    const char *round;          /* OPTS_ROUND: what the round is */

    /* the flierlog names of the move rows the units in play add (besides
     * the tile, deployments, flights, PASS and COMMIT), for the forms a
     * page offers */
    const char *unit_moves[OPTIONS_MAX_MOVES];
    int n_unit_moves;
};

/* Replays log (a live game so far, whole turns) and answers the query.
 * ST_RULE when a step the query takes breaks a rule ("TILE_EDGE_MISMATCH:
 * ..."; e->msg starts with the rule id, as a live move's refusal does),
 * ST_PARSE when it skips one (a roll without a figure). out is the
 * caller's, released with options_release() whatever the status. */
enum status options_compute(const struct game_log *log,
                            const struct options_query *q,
                            struct turn_options *out,
                            struct err *e) WARN_UNUSED;
void options_release(struct turn_options *o);

/* The pieces, on a game the caller holds (the conformance test walks a
 * replay with them): the catalogue, a tile's placements, the actions of
 * seat on the tile just placed (deploys and flights), the landings of a
 * figure's flight from the turn's tile for a roll. Each fills o's lists
 * (allocating them) and returns how many it found. */
int options_tiles(const struct game *g, struct turn_options *o);
int options_places(const struct game *g, int tile, struct turn_options *o);
int options_actions(const struct game *g, int seat, struct turn_options *o);
int options_landings(const struct game *g, int fig, int roll,
                     struct turn_options *o);
/* The units' moves the auditor would take next in a's state (the rows
 * of the units in play with an options hook, where their slot is open),
 * into o->moves. */
int options_moves(const struct audit *a, struct turn_options *o);

#endif
