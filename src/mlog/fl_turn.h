/* fl_turn.h - the flierlog's turn form as the units extend it: the
 * actions of a placement entry ("deploy", "fly", "recall", ...) and the
 * keys read before and after them, each unit's in src/mlog/exp/UNIT.c,
 * registered in fl_turn_units (exp/units.c). flierlog.c reads an entry
 * and flierlog_write.c writes one by asking the units; neither names
 * one. */
#ifndef MLOG_FL_TURN_H
#define MLOG_FL_TURN_H
#include <stdbool.h>
#include <stddef.h>

#include "mlog/mlog_int.h"

#define FL_NUM_MAX 1000000 /* rolls, points, turns */
#define FL_PATH 160

/* What the moves of one entry share. */
struct fl_entry {
    const struct fl_ctx *c;
    const char *path;
    uint32_t src;
    int player; /* seat the entry names, -1 */
    struct game_log *into;
};

/* An action of a placement entry: at most one per entry. */
struct fl_action {
    const char *key;    /* the entry's key, "recall" */
    const char *meeple; /* what the entry's "meeple" and "meeple_id"
                           default to: "" any follower, "abbot.1";
                           NULL: the action moves no meeple */
    bool anyones;       /* the meeple may be anyone's: no seat by
                           default (the princess's knight) */
    const char *noun;   /* for messages: "a tower floor" */
    const char *with;   /* a key of the entry only with this action
                           ("capture"), or NULL */
    /* Appends the action's moves: v is the entry's value at the key
     * (path), obj the entry, place its MV_PLACE, meeple the meeple the
     * entry names (meeple defaults). */
    enum status (*read)(const struct fl_entry *en, const cJSON *obj,
                        const cJSON *v, const char *path,
                        const struct move *place, const struct move *meeple,
                        struct err *e);
    /* Says moves a[0..n) as the action onto the entry o, if they are
     * one (c: the board before the turn), but for the meeple, which the
     * writer adds by the defaults above; false otherwise, o unchanged. */
    bool (*write)(const struct fl_ctx *c, cJSON *o, const struct move *place,
                  const struct move *a, size_t n);
};

/* A unit's part of the turn form. Any member may be NULL. */
struct fl_turn_unit {
    /* Does the log need flierlog/1.3 for the unit (its game, its moves)? */
    bool (*needs_1_3)(const struct game_log *l);
    const struct fl_action *actions; /* up to a key NULL */
    const char *const *keys; /* its other keys of a placement entry, up to
                                NULL: no other entry may have them */
    /* Before the action (a ransom) and after it and its pass (the
     * dragon's steps), reading the entry obj. */
    enum status (*read_before)(const struct fl_entry *en, const cJSON *obj,
                               struct err *e);
    enum status (*read_after)(const struct fl_entry *en, const cJSON *obj,
                              struct err *e);
    /* The writer's side: how many of the turn's moves a[0..n) at their
     * start are the unit's, said onto o (-1: they have no short form);
     * how many at their end are, and saying those. */
    int (*write_before)(cJSON *o, const struct move *a, size_t n);
    size_t (*n_after)(const struct move *a, size_t n);
    void (*write_after)(cJSON *o, const struct move *a, size_t n);

    /* Between turns: moves before a turn's tile, or an entry of their
     * own without one (an abbey declined), and after its COMMIT (the
     * wagons). */
    const char *const *entry_keys; /* its keys an entry may have without a
                                      placement, which a "moves" list
                                      says itself; up to NULL */
    const char *alone;             /* what such an entry without a tile is
                                      called, "an abbey declined" */
    /* Appends the moves before the tile; *alone: the entry is complete
     * without one. */
    enum status (*read_pre)(const struct fl_entry *en, const cJSON *obj,
                            bool *alone, struct err *e);
    enum status (*read_between)(const struct fl_entry *en, const cJSON *obj,
                                struct err *e);
    /* The writer's side. role[] is each move's enum step_role (audit.h).
     * How many of mv[0..n) before a tile are the unit's; is m alone an
     * entry (and the start of one); saying either onto o; how many of
     * mv[0..n) after a COMMIT are the unit's, said onto o. */
    size_t (*n_pre)(const struct move *mv, const uint8_t *role, size_t n);
    bool (*is_alone)(const struct move *m, uint8_t role);
    void (*write_pre)(cJSON *o);
    size_t (*write_between)(cJSON *o, const struct game_log *l,
                            bool seats_by_number, const struct move *mv,
                            const uint8_t *role, size_t n);
};

/* The registry (src/mlog/exp/units.c), in the order messages list the
 * actions; NULL last. */
extern const struct fl_turn_unit *const fl_turn_units[];

/* ---- the reader's pieces (flierlog.c) -------------------------------- */

enum status fl_bad(const struct fl_ctx *c, struct err *e, const char *path,
                   const char *fmt, ...) PRINTF_LIKE(4, 5);
/* path.key; path[i] (out has FL_PATH bytes) */
const char *fl_sub(char *out, const char *path, const char *key);
const char *fl_nth(char *out, const char *path, int i);
enum status fl_get_int(const struct fl_ctx *c, const cJSON *v, const char *path,
                       int lo, int hi, int *out, struct err *e);
enum status fl_get_pos(const struct fl_ctx *c, const cJSON *v, const char *path,
                       struct pos *out, struct err *e);
/* "road:WE" */
enum status fl_get_segment(const struct fl_ctx *c, const cJSON *v,
                           const char *path, uint8_t *kind, uint8_t *mask,
                           struct err *e);
/* A meeple id alone ("0.small.2"), onto m. */
enum status fl_get_meeple_id(const struct fl_ctx *c, const cJSON *v,
                             const char *path, struct move *m, struct err *e);
/* The first key of obj of the list (up to NULL) or of the units' keys
 * that only a placement has; NULL when none. */
const char *fl_placement_key(const cJSON *obj, const char *const *list);
/* "meeple" and "meeple_id" of obj onto m, over the defaults given. */
enum status fl_get_meeple(const struct fl_ctx *c, const cJSON *obj,
                          const char *path, int kind, int owner, int n,
                          struct move *m, struct err *e);
enum status fl_get_seat(const struct fl_ctx *c, const cJSON *v,
                        const char *path, int *seat, struct err *e);
/* A move as game_log_push() starts one: nothing known. */
struct move fl_blank(void);
/* Appends a move of kind by player; m of kind by the entry's player. */
struct move *fl_push(const struct fl_entry *en, int kind, int player);
void fl_emit(const struct fl_entry *en, int kind, const struct move *m);

/* ---- the writer's pieces (flierlog_write.c) -------------------------- */

cJSON *fl_pos_json(struct pos p);
cJSON *fl_seg_json(int kind, uint8_t mask);
cJSON *fl_meeple_id_json(const struct move *m);
/* A seat as the entries name it: the player's name, or the number. */
cJSON *fl_seat_json(const struct game_log *l, int seat, bool by_number);
/* One move of a "moves" list, by its row (core/move.h); its "player"
 * unless it is entry_player (-1: the entry names none). */
cJSON *fl_move_json(const struct game_log *l, bool by_number,
                    const struct move *m, int entry_player);
/* "meeple" and "meeple_id" where they differ from what the reader
 * assumes without them (the figure kind, number n of seat owner). */
void fl_add_meeple(cJSON *o, const struct move *m, int kind, int owner, int n);

#endif
