/* audit_unit.h - the auditor as the units see it (src/core/exp/ and the
 * auditor's own files only): the state of the replay their move rows'
 * hooks (core/move.h) receive, what they may ask and report through it,
 * and the rows of the rounds between turns a unit registers.
 *
 * A move's row says where the move sits in a turn (enum move_slot); the
 * auditor checks that place, generically, before it calls the row's
 * check, which judges and applies the move. Between turns the auditor
 * asks the units' rounds, in the registry's order, whose answer a move
 * is. Pure. */
#ifndef CORE_AUDIT_UNIT_H
#define CORE_AUDIT_UNIT_H
#include <stdbool.h>
#include <stddef.h>

#include "core/audit.h"
#include "core/move.h"
#include "util/err.h"

enum phase {
    PH_IDLE,   /* between turns */
    PH_ACTION, /* tile placed, nothing else yet */
    PH_FLYING, /* flown with landing options: a landing must follow */
    PH_DONE,   /* the turn's action is taken */
    PH_VOID,   /* the turn's tile could not be placed: skip to COMMIT */
    PH_ROUND,  /* COMMIT came, but the scoring waits for a round (the
                  followers that may leave the City of Carcassonne) */
};

/* Move kinds a table of rows is indexed by (enum move_kind, log.h); a
 * round's answers keep a bit per kind. */
#define AUDIT_MOVE_KINDS MV__COUNT
_Static_assert(MV__COUNT <= 64, "a round's answers are a 64-bit mask");

struct audit {
    const struct game_log *log;
    struct game *g;
    struct report *r;
    enum phase phase;
    int turn;
    int player;
    int flight;       /* index in r->flights of this turn's flight, -1 */
    int flight_meeple;/* meeple index of that flight, -1 */
    bool flight_open; /* its landing is still to come (or be refused) */
    bool passed;      /* this turn's player passed */
    bool draw_trusted;/* every draw so far matched the save's randoms */
    double redraw;    /* after a tile put aside: the number JCloisterZone
                         draws the next with (-1: none) */
    int draw_skip;    /* numbers of JCloisterZone's generator the last
                         turn used up (a unit's draw: the big top's animal
                         token): the next tile is drawn with the number
                         after them */
    bool commit_due;  /* a COMMIT ends an answer in a round between turns
                         (an abbey declined before drawing, wagons moved,
                         a follower out of the City) */
    uint8_t due_role; /* enum step_role of that COMMIT */
    uint8_t role;     /* enum step_role of the last move */
    bool ended;       /* the log's last turn is over */
    /* the rows, looked up once per move: [kind][neutral figure] */
    const struct move_class *rows[AUDIT_MOVE_KINDS][FIG__COUNT];
    /* the auditor's hooks and rounds of the units the game has, in the
     * registry's order: asked every move, so a base game asks none */
    const struct audit_unit *units[EXP__COUNT];
    uint8_t n_units;
    uint64_t answers; /* what any of their rounds takes (and a PASS): a
                         move of no other kind skips the rounds at once */
};

/* Reports a violation of rule at move m (its position, for the moves
 * whose row says they have one), for the turn and player now. */
void audit_violate(struct audit *a, const struct move *m, enum rule rule,
                   const char *fmt, ...) PRINTF_LIKE(4, 5);
/* A seat's name ("?" when none). */
const char *audit_who(const struct audit *a, int seat);
/* The figure a move names as players say it: "Ben's follower" (its
 * owner: the id's, else the player on turn); the id (0.small.3) stays
 * in the move, for the JSON. Writes buf[len] and returns it. */
const char *audit_meeple_name(const struct audit *a, const struct move *m,
                              char *buf, size_t len);
/* Seat whose meeple this is: the id's, else the player on turn; the
 * meeple the move names (any of its kind in supply for n 0), or -1. */
int audit_meeple_owner(const struct audit *a, const struct move *m);
int audit_resolve_meeple(const struct audit *a, const struct move *m);
/* The meeple a move names or, when its id leaves the number open, the
 * owner's figure standing on the spot it names (one to take back). */
int audit_meeple_on_spot(const struct audit *a, const struct move *m);
/* The segment a move names (its tile at m->at, feature, mask), or -1. */
int audit_move_seg(const struct game *g, const struct move *m);
/* For a row's options hook: a move of kind as a log without ids holds
 * it (the player on turn, no tile, no draw); put on segment seg (its
 * tile, its feature as logs name it, its mask); naming meeple mi (its
 * kind, number and owner). */
struct move audit_option(int kind);
void audit_option_on(struct move *m, const struct game *g, int seg);
void audit_option_meeple(struct move *m, const struct game *g, int mi);
/* A unit's engine check of a figure's move: seat moves its meeple m
 * (to or from segment seg). */
typedef enum rule (*audit_figure_check)(const struct game *g, int seat,
                                        int m, int seg, char *why,
                                        size_t why_len);
/* Options of kind: each of seat's figures standing on the board that
 * check lets go, named where it stands (a festival's return). */
int audit_standing_options(const struct audit *a, int kind, int seat,
                           audit_figure_check check, struct move *out,
                           int max);
/* Options of kind: figure mi onto each segment check allows (a wagon's
 * move, a follower out of the City). */
int audit_onto_options(const struct audit *a, int kind, int seat, int mi,
                       audit_figure_check check, struct move *out, int max);

/* The random number the turn's COMMIT m hands on (JCloisterZone's
 * generator's number at the end of the turn, the next draw's unless a
 * unit uses it up first), or -1 when the log does not know it. */
double audit_turn_random(const struct audit *a, const struct move *m);
/* A flight still waiting for its landing is closed (refused or given
 * up: FLIER_MUST_LAND when it had somewhere to land). */
void audit_close_flight(struct audit *a, const struct move *m);
/* The turn ends (its COMMIT, or what stands for it): scored, or held for
 * a round. */
void audit_end_turn(struct audit *a, const struct move *m);

/* The base game's moves (exp/base.c's rows): the tile, a discard, a
 * deployment (a flight, a landing), PASS, COMMIT. */
void audit_place(struct audit *a, const struct move *m);
void audit_discard(struct audit *a, const struct move *m);
void audit_deploy(struct audit *a, const struct move *m);
void audit_pass(struct audit *a, const struct move *m);
void audit_commit(struct audit *a, const struct move *m);

/* A round between turns: players asked, in seat order, outside the turn
 * of the player on turn. The row says who is asked from whom until whom
 * (.from; the unit's engine walks the table so, with game_seat_walk(),
 * and keeps whose answer is due for the simulator too: .asked), what an
 * answer is and what follows it; the auditor finds the round a move
 * answers, lets the unit judge it, keeps the COMMITs due and lets a held
 * scoring follow when the round is over. */
enum round_from {
    ROUND_FROM_NEXT, /* from the seat after the turn's, round to it */
    ROUND_FROM_TURN, /* from the seat of the turn, round the table */
    ROUND_FROM_LAST, /* after the game's last turn: from the seat after
                        the last turn's player, round to it */
    ROUND_ONLY_TURN, /* the turn's player alone */
};

enum round_commit {
    COMMIT_NEVER,       /* no answer is followed by a COMMIT */
    COMMIT_AFTER_MOVE,  /* each move (not a PASS) is followed by one */
    COMMIT_AFTER_PASS,  /* a PASS is (a decline before drawing) */
    COMMIT_AFTER_SEAT,  /* a seat's last answer is, when it moved */
};

/* Which moves may come after the log's last turn while the round is
 * open (else they are moves after the end). */
enum round_after_end {
    AFTER_END_NONE,    /* none: the round belongs to turns */
    AFTER_END_CLAIMED, /* its answers */
    AFTER_END_NO_TILE, /* any move but a tile */
    AFTER_END_ANY,     /* any move */
};

struct round_class {
    const char *what;    /* for people: "the wagons' moves" */
    uint8_t role;        /* enum step_role of its answers, and of the
                            COMMIT after one */
    uint8_t pass_role;   /* of a PASS */
    uint8_t from;        /* enum round_from: who is asked first, last */
    uint8_t commit;      /* enum round_commit */
    uint8_t after_end;   /* enum round_after_end */
    bool holds;          /* it comes before the turn's scoring, which
                            waits for it (PH_ROUND) */
    bool last;           /* it comes once every other round between
                            turns is over, and belongs to the next turn
                            (an abbey offered before the draw, after a
                            crop circle's round or the bazaar's
                            auction): asked only then */
    uint64_t answers;    /* bit per enum move_kind an answer may be
                            besides a PASS */
    bool choice;         /* a PASS is never its answer: one of answers
                            must come (a crop circle's choice) */
    /* The seat whose answer is due now, or -1 when the round is not
     * open (nobody left to ask). */
    int (*asked)(const struct game *g);
    /* Is m, a move the turn does not take, this round's answer now?
     * Asked only of a PASS or a kind in answers. NULL: when the round
     * is open. */
    bool (*claims)(const struct audit *a, const struct move *m);
    /* Checks and applies an answer that is no PASS, and a PASS. They
     * return true when a COMMIT now follows (as .commit says: after a
     * move accepted, after the seat's last answer...; ignored when
     * COMMIT_NEVER). */
    bool (*answer)(struct audit *a, const struct move *m);
    bool (*pass)(struct audit *a, const struct move *m);
    /* The meeple (index) an answer m moves, for audit_meeple(); NULL:
     * the one the move names. */
    int (*meeple)(const struct audit *a, const struct move *m);
    /* A holding round ends with nobody answering any more (the log goes
     * on, or ends): the turn's scoring follows. */
    void (*release)(struct game *g);
    /* The answers besides a PASS that the seat asked may give now, as a
     * log holds them, each from the check .answer judges it with (a
     * recorder offers them: core/options.h); returns how many it wrote.
     * NULL: they are not listed (a page offers their form). */
    int (*options)(const struct audit *a, struct move *out, int max);
};

/* The round between turns whose answer the log owes now (the first of
 * the registry's order that would take a PASS, or an answer when it is
 * a choice), with the
 * seat asked in *seat and whether a PASS is one; NULL when none is
 * open. A round asked only once the others are over (.last: an abbey
 * offered before the draw) is not one: the turn's tile answers it. */
const struct round_class *audit_round_open(const struct audit *a, int *seat,
                                           bool *may_pass);

/* What a unit adds to the auditor besides its moves' rows. */
struct audit_unit {
    /* Its rounds, up to a row whose asked is NULL. */
    const struct round_class *rounds;
    /* A PASS in the turn that ends no action phase (the capture after a
     * floor declined): true when it took the PASS. */
    bool (*turn_pass)(struct audit *a, const struct move *m);
    /* A deployment in the turn the unit refuses before the common
     * checks (a follower into the City): true when it took it. */
    bool (*turn_deploy)(struct audit *a, const struct move *m);
    /* A tile is about to be placed: what the log left undone lapses
     * (waiting wagons stay in supply), the last round begins. */
    void (*before_place)(struct audit *a, const struct move *m);
    /* The turn ends, before its scoring: what must have happened by
     * then (the dragon's steps); void: the turn's tile was never
     * placed. */
    void (*turn_end)(struct audit *a, const struct move *m, bool void_turn);
    /* After the turn's scoring: how many of JCloisterZone's random
     * numbers it used up (the big top's animal token drawn with the
     * turn's), so that the next tile's draw follows the generator past
     * them. */
    int (*randoms_used)(const struct game *g);
    /* The tile m places was not drawn (bought at the bazaar): true, and
     * the draw is not followed for it. Asked after before_place. */
    bool (*tile_given)(struct audit *a, const struct move *m);
};

#endif
