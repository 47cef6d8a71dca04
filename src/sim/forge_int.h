/* forge_int.h - what the forger (forge.c) lends the units' forgeries
 * (src/sim/exp/): a forgery's state, its rows, and the edits and engine
 * views they are built from. Pure like forge.h. */
#ifndef SIM_FORGE_INT_H
#define SIM_FORGE_INT_H
#include <stddef.h>

#include "core/audit.h"
#include "sim/forge.h"
#include "sim/sim_int.h"
#include "util/err.h" /* PRINTF_LIKE */

struct forge {
    const struct game_log *in;
    struct game_log *out;
    int turn;        /* the turn being forged (1-based) */
    int seat;        /* the seat on turn */
    int prev_seat;   /* the seat of the turn before, -1 for the first */
    size_t place;    /* index of its MV_PLACE in the log */
    size_t commit;   /* index of its MV_COMMIT (or n_moves) */
    int want_turn;   /* where the violation must show; usually turn */
    int figure;      /* the figure a forged flight should use, -1: any */
    int flew;        /* the figure of the forged flight, -1: none */
    char how[SIM_FORGE_HOW_MAX];
};

/* Makes f->out break the row's rule at f->turn (f->out starts as a copy
 * of f->in); false when this turn does not allow it. */
typedef bool (*forge_fn)(struct forge *f);

/* Which figure a forger's flight is made by: none (the forgery is no
 * flight of a figure asked for), any figure that flies, or one that
 * flies but may not stand on every feature a flier may reach (a mayor,
 * a wagon, an abbot: their wrong landings). */
enum by_figure { BY_NONE, BY_FLIER, BY_PICKY_FLIER };

/* A forger of a rule: tried in its table's order, when `needs` (an enum
 * expansion_id, -1: none) is in play. */
struct forger {
    enum rule rule;
    forge_fn fn;
    int needs;
    enum by_figure by_figure;
};

/* What the forgery did, for the manifest (cut to its buffer); appending
 * to it. */
void forge_how(struct forge *f, const char *fmt, ...) PRINTF_LIKE(2, 3);
void forge_how_add(struct forge *f, const char *text);
const char *forge_a_or_an(const char *word);

/* Log edits: a zeroed move inserted at idx (src copied from its
 * neighbour); moves from..end-1 removed; the turn's action (between PLACE
 * and COMMIT) replaced by one move; a move naming meeple mi. */
struct move *forge_insert(struct game_log *l, size_t idx);
void forge_remove(struct game_log *l, size_t from, size_t end);
struct move *forge_replace_action(struct forge *f);
void forge_set_meeple(struct move *m, const struct game *g, int mi);

/* The engine's state after the first k moves of a log. The caller ends
 * it with forge_state_end(). */
struct forge_state {
    struct audit *a;
    struct report r;
};
const struct game *forge_state_at(struct forge_state *s,
                                  const struct game_log *l, size_t k);
void forge_state_end(struct forge_state *s);

/* The turn's first action in f->in, or NULL; is m a deployment, a
 * flight; the index of the turn's landing in f->in, or 0. */
const struct move *forge_action(const struct forge *f);
bool forge_is_deploy(const struct move *m);
bool forge_is_flight(const struct move *m);
size_t forge_landing_index(const struct forge *f);

/* Is def a tile of a group never drawn (one a seat holds)? */
bool forge_never_drawn(int def);

/* The turn's action replaced by a deployment of a meeple of kind in
 * supply on a segment of the placed tile that game_check_deploy()
 * refuses with `want`; with say_why, f->how ends with the engine's
 * reason. */
bool forge_deploy_refused(struct forge *f, enum rule want, int kind,
                          bool say_why);

/* The turn's flight (made one when it is none) landing, for a roll whose
 * target has it, on a feature the flying figure may not stand on
 * (forge_wrong_landing) or on a feature of kind feat it may stand on
 * (forge_landing_on). */
bool forge_wrong_landing(struct forge *f);
bool forge_landing_on(struct forge *f, int feat);

/* A square next to the board and a turn of def there for which
 * game_check_place() answers `want`; false when there is none. */
bool forge_find_spot(const struct game *g, int def, enum rule want,
                     struct pos *at, int *rot);

/* Makes the turn's action a legal flight when it is none (g: the state
 * after the PLACE); the index after the flight and its landing in
 * f->out, or 0 when no figure may fly. */
size_t forge_legal_flight(struct forge *f, const struct game *g);

#endif
