/* move.h - the registry of move classes: every kind of message a game log
 * holds, as rows the units fill (src/core/exp/), the way features and
 * figures are rows. A row says how the move is written in each log format
 * and where it may stand in a turn; the auditor, the readers and writers
 * and the simulator loop over the rows and name no unit's move.
 *
 * The formats are described as data, so that this header stays pure:
 *
 * - `.jcz`: the message type and a payload template, JSON text whose
 *   string values starting with '$' are the move's fields and every other
 *   value a constant the message must carry (the discriminator between
 *   rows of one type: RETURN_MEEPLE's "source", MOVE_NEUTRAL_FIGURE's
 *   figure id; a null one is also met by the key left out). The fields:
 *     "$position"  [x, y]: m->at
 *     "$pointer"   {position, feature, location}: m->at, m->feature,
 *                  m->mask
 *     "$meeple"    "<seat>.<kind>.<n>": m->meeple, m->meeple_n,
 *                  m->meeple_owner
 *     "$tile"      m->tile_id (m->tile), "$rotation" "R0".."R270": m->rot
 *     "$random"    the die's or the draw's number (m->roll, m->draw):
 *                  after a "$pointer", a flight's die; in a payload
 *                  without one, the number of the next tile's draw
 *     "$index"     a 0-based item a move chooses: m->index (a bid's
 *                  tile of the auction's supply)
 *     "$amount"    a number of points: m->amount (a bid)
 *     "$own_random"  a random number the move itself uses, in [0, 1):
 *                  m->draw (a flock's token drawn from the bag)
 *   A template of NULL: the move is never written to a .jcz (a discard).
 * - flierlog: the move's name ("tower") and the keys of its fields, a
 *   list like "at segment meeple roll":
 *     "tile"       the tile's id: m->tile_id (m->tile)
 *     "at", "rot"  [x, y]: m->at; 0..270: m->rot
 *     "draw"       the draw's random number, optional: m->draw
 *     "segment"    "road:WE": m->feature, m->mask; "segment?" optional,
 *                  the monastery or garden of the tile at "at" if absent
 *     "meeple"     "meeple" and "meeple_id", both optional: the figure
 *                  and its id, by default any follower of the player;
 *                  "meeple=abbot.1" names another default
 *     "meeple_id"  the id alone, required
 *     "roll"       a flight's "roll" and "random" (segment "flier");
 *                  without it, a move with a "meeple" has neither
 *     "index", "amount"  integers: m->index, m->amount
 *
 * Pure. */
#ifndef CORE_MOVE_H
#define CORE_MOVE_H
#include <stdint.h>

#include "core/log.h" /* enum move_kind */

struct audit;
struct move;

/* Where a move sits in a turn, for the auditor: it checks the place
 * before the row's check judges the move. */
enum move_slot {
    SLOT_ANY,    /* the check judges its place itself (a ransom, before
                    the tile or in the turn; the base game's moves) */
    SLOT_ACTION, /* the turn's action instead of a deployment: after the
                    tile, not after a PASS (a floor, the fairy) */
    SLOT_AFTER,  /* after the turn's action, before its COMMIT (the
                    dragon's steps) */
    SLOT_BETWEEN,/* between turns (the count's move); a held scoring
                    takes place first */
};

/* Does a violation at the move show where it happened? */
enum move_at {
    AT_NONE,
    AT_TILE,     /* the tile at m->at (a placement) */
    AT_FEATURE,  /* the feature m->feature / m->mask at m->at */
};

/* One move class. A unit lists its rows in struct expansion.moves, up to
 * a row whose name is NULL. */
struct move_class {
    uint8_t kind;            /* enum move_kind (log.h) */
    uint8_t neutral;         /* MV_NEUTRAL: the figure moved (enum
                                figure), telling the rows of one kind
                                apart; 0 otherwise */
    /* the auditor's side (core/audit_unit.h) */
    uint8_t slot;            /* enum move_slot */
    uint8_t at;              /* enum move_at */
    const char *what;        /* in a message about its place: "a tower
                                floor", "the dragon moved" */
    /* Checks the move and applies it (as logged, where it can). */
    void (*check)(struct audit *a, const struct move *m);
    /* The meeple (index into the game's) the move would take; NULL:
     * none (-1). */
    int (*meeple)(const struct audit *a, const struct move *m);
    const char *name;        /* flierlog: the move's name, "tower" */
    const char *jcz;         /* .jcz message type, "PLACE_TOKEN", or NULL */
    const char *jcz_payload; /* .jcz payload template (above), or NULL */
    uint8_t feature;         /* enum feat the move is always on (a floor:
                                FEAT_TOWER), 0 if any: a .jcz pointer
                                elsewhere is malformed, a flierlog names
                                none */
    const char *fl_fields;   /* flierlog, the "moves" form: the keys of
                                the fields, in the order written (above) */
    /* The moves of this row the auditor would take next, in a's state
     * (its phase, the player on turn, the game), written to out[0, max)
     * as a log holds them; returns how many it wrote. Each is judged by
     * the row's own engine check, so a recorder offers only what the
     * auditor accepts. NULL: the row lists none (a round's answer). */
    int (*options)(const struct audit *a, struct move *out, int max);
};

/* The row of a move (its kind, and for MV_NEUTRAL its figure), or NULL;
 * the row with a flierlog name; the rows of a .jcz message type, in turn
 * (i = 0, 1, ... until NULL). Every registered unit's rows, whether a
 * game has the unit or not: a reader meets the moves before it knows. */
const struct move_class *move_class_of(int kind, int neutral);
const struct move_class *move_class_named(const char *name);
const struct move_class *move_class_jcz(const char *type, int i);

#endif
