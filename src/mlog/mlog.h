/* mlog.h - game log formats in and out: JCloisterZone .jcz saves, our
 * own flierlog (docs/log-format.md) and the JSON audit report. The only
 * module that sees cJSON; its trees never leave here. */
#ifndef MLOG_MLOG_H
#define MLOG_MLOG_H
#include <stddef.h>

#include "core/audit.h"
#include "core/log.h"
#include "util/buf.h"
#include "util/err.h"

/* Inputs above this are refused with ST_LIMIT before parsing. */
#define MLOG_MAX_BYTES (32u << 20)
/* Caps checked on the raw bytes before a tree is built, far above any
 * real game (255 tiles, a few hundred messages, nesting of 7): ST_PARSE
 * beyond the depth, ST_LIMIT beyond the counts. MLOG_MAX_ITEMS also caps
 * the members of one object, the lines of a streaming log and the moves
 * a log reads to. */
#define MLOG_MAX_DEPTH 64
#define MLOG_MAX_ITEMS 10000
#define MLOG_MAX_VALUES 500000

enum mlog_format { MLOG_UNKNOWN = 0, MLOG_JCZ, MLOG_FLIERLOG };

const char *mlog_format_name(enum mlog_format f);

/* Parses data[0..len) (any supported format, detected from the content:
 * a .jcz save has "replay", a flierlog "format"; a flierlog header object
 * followed by more lines is the streaming form) into out, which the
 * caller has initialised with game_log_init() and releases with
 * game_log_release() on every path. On failure returns
 * ST_PARSE (e->msg names the byte offset or JSON path), ST_UNSUPPORTED
 * ("unsupported: ..." naming the expansion, element, rule or message),
 * ST_LIMIT, or ST_NOMEM when cJSON ran out of memory building the tree
 * (mlog_alloc.c; anything else out of memory aborts). Hostile input
 * is refused: invalid UTF-8 (overlong forms and surrogates included), raw
 * control characters, \u0000 and lone surrogate escapes in strings, a
 * duplicate key in any object, and the caps above; before cJSON sees it,
 * or, for a log too small for its tree to pass the caps and with no
 * escape at all, by a walk of cJSON's tree (mlog_int.h); numbers that are not finite or out of
 * their field's range are ST_PARSE with the field's path. e->msg is
 * always valid UTF-8. *out_format is set whenever the format was
 * recognised.
 * Besides a PLACE's or DISCARD's draw, move.draw of a flight (MV_DEPLOY
 * on FEAT_FLIER) holds the die's random number when the log has one
 * other than the writers' own for that roll ((roll - 1) / 3 + 1 / 6),
 * else -1, so that conversions keep it. */
enum status mlog_parse(const char *data, size_t len, struct game_log *out,
                       enum mlog_format *out_format,
                       struct err *e) WARN_UNUSED;

/* Appends l as a JCloisterZone save (one line of JSON and a newline) to
 * out, which the caller owns. mlog_parse() reads it back to an equal log
 * (src aside): the same rules, names, start tile, end turn and moves,
 * flight rolls included (a flight's "random" is its move.draw when that
 * gives the roll, else (roll - 1) / 3 + 1 / 6). The random number before
 * a draw (initialRandom, COMMIT's) is move.draw of the next PLACE or
 * DISCARD, left out when unknown (< 0). MV_DISCARD moves are left out of
 * the replay, as JCloisterZone discards without a message; they, and
 * what else the replay cannot say (claims, totals, notes, colours, a
 * draw it cannot carry, a meeple the log leaves open (n 0), which the
 * replay names as the auditor picks it), go into a top-level "flierd"
 * object that JCloisterZone ignores (written only when needed). Moves
 * name a "player" only when move.player >= 0. The output depends on l
 * alone: gameId is hashed from the content, "created" is a fixed date.
 * Never fails (aborts on OOM). */
void mlog_write_jcz(const struct game_log *l, struct buf *out);

/* Appends l as a flierlog/1 document (docs/log-format.md; labelled
 * flierlog/1.1 when it uses that minor version's "elements" or figures
 * other than the follower and the abbot, flierlog/1.2 when an entry says
 * "abbey", "wagons" or "part" (which the writer finds by replaying l
 * through the auditor) or deploys off its tile): the setup one key per
 * line, then "turns" with one entry per line, then "final" when the log
 * has an end. mlog_parse() reads it back to an equal log but for
 * src (the entry index). Each turn takes its short form ("deploy", "fly",
 * "recall") when that reads back to the very moves, else a "moves" list;
 * claims, totals and notes sit on their turns' entries when their order
 * allows, else in top-level lists. Also writes "meeple_id" when the log
 * names another meeple than the reader assumes, and "draw" and "random"
 * when known. Never fails (aborts on OOM). */
void mlog_write_flierlog(const struct game_log *l, struct buf *out);
/* The same in the streaming form: the setup on line 1, one entry per
 * line, {"final": ...} last when the log has an end. */
void mlog_write_flierlog_ndjson(const struct game_log *l, struct buf *out);

/* Appends the one-line JSON audit object for one file to out:
 * {"file","format","valid","finished",...} as documented in the README. */
void mlog_report_json(const char *file, enum mlog_format fmt,
                      const struct game_log *log, const struct report *r,
                      struct buf *out);
/* What a verdict is pinned to, and an optional rule variant's audit. */
struct report_meta {
    const char *file;
    enum mlog_format format;
    const char *engine;                  /* "flierd 0.2.0", or NULL */
    const char *sha256;                  /* input digest (hex), or NULL */
    const char *variant;                 /* "tiny-city-scoring=2", or NULL */
    const struct report *variant_report; /* the audit under the variant */
};

/* The same object with receipts, odds, claims and the pinned verdict
 * (engine, rules, input_sha256) and the variant when given. */
void mlog_report_json_meta(const struct report_meta *m,
                           const struct game_log *log, const struct report *r,
                           struct buf *out);

/* The what-if report: the new roll, target and landing, the violations
 * new in the changed game (is_new[i] for after->violations[i]) and the
 * final scores before and after. */
struct whatif_result;
void mlog_whatif_json(const char *file, const struct game_log *log, int turn,
                      int roll, const struct whatif_result *res,
                      const struct report *before, const struct report *after,
                      const bool *is_new, struct buf *out);

/* The replay a viewer draws from: {"players", "turns": [{"turn", "player",
 * "tile", "at", "rotation", "placed": [{"id", "player", "kind", "at",
 * "segment", "flew"?}], "removed": [ids], "scores": [...]}], "tiles":
 * {id: {"flier", "segments": [{"feature", "segment", "pennants"?,
 * "cities"?, "inn"?, "cathedral"?}]}}, "flights", "events",
 * "violations"}; a meeple's "kind" is its figure's JCloisterZone kind
 * ("small", "abbot", "big", "phantom"), a tile's segments include its
 * river's ("river:WE"); the last turn has "turn": null when final
 * scoring ran. */
struct replay;
void mlog_replay_json(const struct game_log *log, const struct report *r,
                      const struct replay *rp, struct buf *out);

/* The answer to a live move: {"turn", "scores": {name: total}, "events":
 * [this turn's], "flight": {...with its options and odds} | null,
 * "valid"}. */
void mlog_live_turn_json(const struct game_log *log, const struct report *r,
                         int turn, struct buf *out);

/* Appends the options of a live game's next turn (core/options.h) as
 * GET /api/live/{id}/options answers them (docs/api.md): the stage,
 * whose turn, the query as read, the catalogue with geometry, the
 * squares and rotations, the deployments, flights and landings, the
 * unit moves by name. */
struct options_query;
struct turn_options;
void mlog_options_json(int64_t game, const struct game_log *log,
                       const struct options_query *q,
                       const struct turn_options *o, struct buf *out);

/* The "turn" number of a flierlog turn entry (one line), -1 when it has
 * none. ST_PARSE when the line is no JSON object or the number is not a
 * positive integer. */
enum status mlog_turn_number(const char *line, size_t len, int *out_turn,
                             struct err *e) WARN_UNUSED;

/* Appends {"file","error"} for an input that could not be read. */
void mlog_error_json(const char *file, const char *error, struct buf *out);
/* Appends {"file","format","unsupported": msg} for a log mlog_parse()
 * refused with ST_UNSUPPORTED (msg is its "unsupported: ..." message;
 * fmt what it recognised, "unknown" for MLOG_UNKNOWN). */
void mlog_unsupported_json(const char *file, enum mlog_format fmt,
                           const char *msg, struct buf *out);

#endif
