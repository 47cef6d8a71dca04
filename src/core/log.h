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
#define LOG_MAX_STARTS 16 /* start tiles (the City of Carcassonne: 12) */

enum move_kind {
    MV_PLACE,   /* the turn's tile */
    MV_DISCARD, /* the drawn tile was put aside as unplaceable */
    MV_DEPLOY,  /* meeple on a feature; on FEAT_FLIER: a flight */
    MV_PASS,    /* no meeple this turn */
    MV_RECALL,  /* C3: abbot taken back and scored */
    MV_COMMIT,  /* end of turn */
    MV_NEUTRAL, /* a neutral figure moved (neutral) to `at` (and feature /
                   mask, or beside the follower meeple / meeple_n /
                   meeple_owner there): its unit's move rows say which */
#define MOVE(id) MV_##id,
#include "core/exp/units.def"
#undef MOVE
    MV__COUNT
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
    uint8_t meeple;      /* enum figure */
    uint8_t meeple_n;    /* 1-based id within kind; 0 = any in supply */
    int8_t meeple_owner; /* seat named by the meeple id, -1 if none */
    int roll;            /* flight: the die roll as logged */
    double draw;         /* place: the random number that drew this tile
                            (JCloisterZone); flight: the die's random as
                            the save wrote it, when it is not the one our
                            writer would give; a unit's own move: the
                            number it uses (a token from a bag); negative
                            if unknown, and -1 - r when a test scenario
                            forced the tile: r, which drew nothing, is
                            what JCloisterZone's generator holds
                            (log_forced_draw()) */
    uint32_t src;        /* message index in the source file */
    uint8_t neutral;     /* MV_NEUTRAL: enum figure of the neutral figure
                            moved (FIG_DRAGON, FIG_FAIRY,
                            FIG_COUNT) */
    int16_t index;       /* a bid: the item it is for (a tile of the
                            auction's supply, 0-based) */
    int16_t amount;      /* a bid: the points offered */
};

/* A score event a player claimed (flierlog): compared with the computed
 * ones of the same turn. */
struct claim_event {
    int turn;            /* -1: final scoring */
    uint8_t players;     /* bit per seat said to receive the points */
    uint8_t feature;     /* enum feat */
    int points;          /* per listed player */
    uint32_t src;        /* entry index in the source, for messages */
};

/* Running totals claimed after a turn (or after final scoring). */
struct claim_total {
    int turn;            /* -1: after final scoring */
    uint8_t seats;       /* bit per seat that has a claimed total */
    int score[GAME_MAX_PLAYERS];
    uint32_t src;
};

/* Free text and a timestamp a log attaches to a turn; kept so that a
 * conversion loses nothing. Strings are heap copies owned by the log. */
struct turn_note {
    int turn;
    char *time;          /* ISO 8601 as written, or NULL */
    char *text;          /* or NULL */
};

struct game_log {
    struct rules rules;
    char names[GAME_MAX_PLAYERS][LOG_NAME_MAX];
    char colors[GAME_MAX_PLAYERS][16]; /* "" when the log gives none */
    int start_tile;      /* tile_find() index: the (first) start tile */
    struct pos start_at;
    int start_rot;
    /* the start tiles after the first, when the game starts with several
     * (the City of Carcassonne's twelve), in the log's order */
    struct start_place more_starts[LOG_MAX_STARTS - 1];
    int n_more_starts;
    int end_turn;        /* the log says the game ends after it; -1 */
    double end_draw;     /* the random number of the log's last COMMIT,
                            which no draw takes (JCloisterZone's, read
                            from a .jcz save); -1 when unknown */
    struct move *moves;
    size_t n_moves;
    size_t cap_moves;
    struct claim_event *claims;
    size_t n_claims, cap_claims;
    struct claim_total *totals;
    size_t n_totals, cap_totals;
    struct turn_note *notes;
    size_t n_notes, cap_notes;
};

/* A forced tile's number r kept as draw (see struct move), and back:
 * -1 when there is none. */
static inline double log_forced_draw(double r)
{
    return r >= 0 && r < 1 ? -1.0 - r : -1.0;
}
static inline double log_forced_random(double draw)
{
    return draw < -1.0 && draw > -2.0 ? -1.0 - draw : -1.0;
}

void game_log_init(struct game_log *l);
void game_log_release(struct game_log *l);
/* Appends a zeroed entry and returns it (valid until the next append). */
struct move *game_log_push(struct game_log *l);
struct claim_event *game_log_push_claim(struct game_log *l);
struct claim_total *game_log_push_total(struct game_log *l);
/* Copies time and text (either may be NULL). */
void game_log_add_note(struct game_log *l, int turn, const char *time,
                       const char *text);
/* Start tiles: how many, and the i-th (0: start_tile, start_at,
 * start_rot). */
int game_log_n_starts(const struct game_log *l);
struct start_place game_log_start(const struct game_log *l, int i);

/* Seat of the player with this name, or -1. */
int game_log_seat(const struct game_log *l, const char *name);

#endif
