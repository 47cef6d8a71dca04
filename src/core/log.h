/* log.h - a game log, independent of its file format.
 *
 * Readers (src/mlog) turn .jcz saves and flierlogs into this; the auditor
 * replays it. Moves are kept at message granularity, so a forged or
 * out-of-order message can be reported exactly where it stands. */
#ifndef CORE_LOG_H
#define CORE_LOG_H
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"

#define LOG_NAME_MAX 64
#define LOG_TILE_ID_MAX 24

enum move_kind {
    MV_PLACE,   /* the turn's tile */
    MV_DISCARD, /* the drawn tile was put aside as unplaceable */
    MV_DEPLOY,  /* meeple on a feature; on FEAT_FLIER: a flight */
    MV_PASS,    /* no meeple this turn */
    MV_RECALL,  /* C3: abbot taken back and scored */
    MV_COMMIT,  /* end of turn */
};

struct move {
    uint8_t kind;        /* enum move_kind */
    int8_t player;       /* seat the log says moved, -1 if it names none */
    int16_t tile;        /* tile_find() index, -1 when the id is unknown */
    char tile_id[LOG_TILE_ID_MAX]; /* as written, for messages */
    struct pos at;       /* place, deploy, recall */
    uint8_t rot;         /* 0..3 clockwise quarter turns */
    uint8_t feature;     /* deploy, recall: enum feat */
    uint8_t mask;        /* deploy, recall: board-frame location */
    uint8_t meeple;      /* enum meeple_kind */
    uint8_t meeple_n;    /* 1-based id within kind; 0 = any in supply */
    int8_t meeple_owner; /* seat named by the meeple id, -1 if none */
    int roll;            /* flight: the die roll as logged */
    double draw;         /* place: the random number that drew this tile
                            (JCloisterZone), or a negative value if unknown */
    uint32_t src;        /* message index in the source file */
};

struct game_log {
    struct rules rules;
    char names[GAME_MAX_PLAYERS][LOG_NAME_MAX];
    int start_tile;      /* tile_find() index */
    struct pos start_at;
    int start_rot;
    int end_turn;        /* the log says the game ends after it; -1 */
    struct move *moves;
    size_t n_moves;
    size_t cap_moves;
};

void game_log_init(struct game_log *l);
void game_log_release(struct game_log *l);
/* Appends a zeroed move and returns it (valid until the next append). */
struct move *game_log_push(struct game_log *l);

#endif
