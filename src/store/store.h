/* store.h - the database of games, audits and statistics: one interface,
 * two backends behind it. SQLite (a file, the embedded default; the
 * src/store/sqlite*.c files, the only ones that see sqlite3.h) and
 * PostgreSQL (a server that many daemons may share; src/store/pg/, the
 * only files that use libpq). store_open() picks one by the name it
 * is given.
 *
 * What holds on both: one game is one transaction, and a failure never
 * leaves part of a game; identical uploads are one game, also when they
 * arrive at once through two daemons; reads return JSON text, the same
 * bytes from either backend (or the stored audit, verbatim), so the HTTP
 * layer only moves bytes. Every connection belongs to one thread; open
 * one per thread (the daemon opens a writer and one read-only connection
 * per HTTP worker). Where the backends differ, the function says so. */
#ifndef STORE_STORE_H
#define STORE_STORE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/audit.h"
#include "core/log.h"
#include "util/buf.h"
#include "util/err.h"
#include "util/sha256.h"

struct store;

/* Opens the database db and brings its schema up to date. db is
 * "postgresql://..." or "postgres://..." (a libpq connection URI; the
 * password from PGPASSFILE or the environment, not the URI, where it
 * can be kept out of it), "sqlite:PATH", or any other string: a SQLite
 * file.
 * SQLite: creates the file if needed, applies schema/NNN_name.sql in order
 * (PRAGMA user_version), WAL mode, synchronous=FULL (a 201 means
 * stored). PostgreSQL: the database must exist; applies schema/pg/NNN_name.sql
 * (table schema_version) under an advisory lock, so daemons starting
 * together migrate once. read_only: no writes through this handle, and
 * a database whose schema is behind is refused rather than migrated.
 * ST_DB with e naming db (never a password) and the reason. */
enum status store_open(const char *db, bool read_only, struct store **out,
                       struct err *e) WARN_UNUSED;
void store_close(struct store *s);

/* Everything an ingested game leaves in the database. A game the engine
 * could not audit (the reader said ST_UNSUPPORTED: an expansion it does
 * not know yet) is stored too, with unsupported set to the reader's
 * message and log, report and report_json NULL: its bytes wait for a
 * later engine (`flierd reaudit`). Such a game is never live. */
struct game_record {
    const char *raw; /* the upload, byte for byte */
    size_t raw_len;
    const char *sha256;  /* hex digest of raw */
    const char *format;  /* "jcz" | "flierlog" */
    const char *source;  /* "http" | "spool" | "cli" | "live" */
    const char *name;    /* file name or NULL */
    int64_t uploaded_at; /* unix seconds, from the caller's clock */
    const char *engine;  /* "flierd 0.2.0" */
    bool live;           /* a live game still being recorded */
    const struct game_log *log;
    const struct report *report;
    const char *report_json; /* the audit object (mlog_report_json_meta) */
    const char *unsupported; /* "unsupported: ...", or NULL: audited */
    /* store_replace_game only: the SHA-256 (hex) of the upload the caller
     * read and built g from; the replace fails with ST_CONFLICT if the
     * stored one differs by then. NULL: replace whatever is stored. */
    const char *replaces_sha256;
    /* raw and report_json as the backend keeps them, made ahead by
     * store_pack(), or NULL: the write packs them itself. */
    const struct store_packed *packed;
};

/* SQLite keeps each upload and audit as a zstd frame (a sixth of the
 * bytes for a .jcz and its audit): compressing is the work of a few
 * ten microseconds a game, which store_pack() does on the caller's
 * thread, so that the ingest workers share it while the one writer only
 * copies; so is the content digest. Safe on any thread at any time (it reads no connection);
 * PostgreSQL, whose server compresses itself, packs nothing (done stays
 * false). A record whose packing failed (memory) is packed by the write
 * instead. */
struct store_packed {
    struct buf raw, report;
    bool done;
    /* SQLite's too: the content digest (core/content.h) of an audited
     * game, taken here rather than on the one writing thread; "" when
     * not taken. */
    char content[SHA256_HEX_LEN];
};
void store_pack(const struct store *s, const struct game_record *g,
                struct store_packed *out);
void store_packed_release(struct store_packed *p);

/* A stored game's verdict: audited valid or invalid, or not audited. */
enum game_verdict {
    VERDICT_UNSUPPORTED = -1,
    VERDICT_INVALID = 0,
    VERDICT_VALID = 1,
};

/* Inserts g. If a game with the same sha256 is stored, nothing is written,
 * *out_id is that game and *out_duplicate is true. Live games (g->live)
 * are never taken for duplicates: two tables may start alike (nor is
 * anything recorded with source "live", finished or not, taken for the
 * original of an upload). On failure nothing is written and *out_id is 0:
 * ST_BUSY when the write lock stayed taken for 5 s (SQLite) or the server
 * is unreachable or shutting down (PostgreSQL: the next call reconnects),
 * ST_DB otherwise (also for a read-only store: "read-only"). The record is copied; the caller
 * keeps ownership. */
enum status store_insert_game(struct store *s, const struct game_record *g,
                              int64_t *out_id, bool *out_duplicate,
                              struct err *e) WARN_UNUSED;
/* Batches: between store_batch_begin() and store_batch_end() every
 * insert or replace runs in one outer transaction (one commit, one fsync,
 * for many games), each game still all-or-nothing within it (a
 * savepoint): a failed game leaves nothing and the batch goes on. SQLite
 * holds its writer lock for the whole batch, PostgreSQL the row locks of
 * what the batch wrote (the aggregate rows only from the batch's end,
 * where they are counted, to its commit), so keep batches short (a few
 * hundred games). store_batch_begin fails with ST_BUSY when the lock
 * stayed taken, ST_DB when a batch is open or the store is read-only.
 * store_batch_end commits (commit true) or drops everything since
 * store_batch_begin; on a failed commit nothing of the batch is kept.
 * Without an open batch it does nothing and returns ST_OK.
 *
 * STORE_BATCH_WHOLE gives up the savepoints where that is cheaper
 * (SQLite: a savepoint copies every page a game changes first, 6% of
 * ingest's CPU), for callers that can write a batch's games again: a
 * game that fails after writing part of itself then rolls back the whole
 * batch at once, store_batch_lost() says so, every later write fails
 * until store_batch_end, and nothing of the batch is kept. A game that
 * fails before writing anything (a bad record, a failed read) costs only
 * itself, as with savepoints. PostgreSQL keeps its savepoints. */
enum store_batch { STORE_BATCH_SAVEPOINTS, STORE_BATCH_WHOLE };
enum status store_batch_begin(struct store *s, enum store_batch kind,
                              struct err *e) WARN_UNUSED;
enum status store_batch_end(struct store *s, bool commit,
                            struct err *e) WARN_UNUSED;
/* Whether the open batch was rolled back by a failed game. */
bool store_batch_lost(const struct store *s);

/* Replaces everything stored for game id by g (live moves, re-audits),
 * keeping its id and upload time (g->uploaded_at is ignored) and, when
 * g->name is NULL, its file name. One transaction: on failure the old
 * game stays. ST_NOT_FOUND for no such game; ST_DB when g is an upload
 * whose bytes another stored upload already holds; ST_CONFLICT when
 * g->replaces_sha256 is set and the stored upload no longer hashes to it
 * (another writer replaced the game since the caller read it). Replaces
 * of one game are serialized by the database (SQLite's write lock,
 * PostgreSQL's row lock on the game). */
enum status store_replace_game(struct store *s, int64_t id,
                               const struct game_record *g,
                               struct err *e) WARN_UNUSED;

/* Deletes game id and every row of it in one transaction, and records
 * the deletion in the same one (table deletions: the id, the upload's
 * and the content's digests, the name, at (unix seconds, the caller's
 * clock) and token_fp, a fingerprint of the upload token that asked,
 * never the token). The first later upload of its content counts in its
 * place; the ratings are computed again from its place in the play
 * order. ST_NOT_FOUND for no such game, ST_CONFLICT for a game being
 * recorded live, ST_BUSY / ST_DB as store_insert_game; on failure
 * nothing changes. */
enum status store_delete_game(struct store *s, int64_t id, int64_t at,
                              const char *token_fp,
                              struct err *e) WARN_UNUSED;
/* Gives game id the file name name (non-empty; ST_PARSE otherwise): its
 * row, its list entry and its search text, in one transaction.
 * ST_NOT_FOUND for no such game. */
enum status store_rename_game(struct store *s, int64_t id, const char *name,
                              struct err *e) WARN_UNUSED;

/* Ratings (docs/schema.md, "Ratings"): every write computes them again
 * from the earliest place in the play order it touched, before it
 * commits. A caller that rewrites many games (flierd reaudit) defers
 * that, then rebuilds them once from the start: store_ratings_rebuild()
 * ends the deferral and rates every game in one transaction. While
 * deferred, the stored ratings are those before the writes. */
void store_ratings_defer(struct store *s, bool defer);
enum status store_ratings_rebuild(struct store *s, struct err *e) WARN_UNUSED;

/* Filters of GET /api/games: NULL strings, 0 times and -1 verdict or
 * finished do not filter (0 there means invalid / unfinished). A verdict
 * or finished filter leaves out the unsupported games (they have
 * neither). */
struct game_filter {
    const char *player;    /* a player's exact name */
    int verdict;           /* -1 any, 0 invalid, 1 valid */
    int finished;          /* -1 any, 0, 1 */
    const char *edition;   /* "C2" | "C3" */
    const char *status;    /* "audited" | "unsupported" */
    const char *expansion; /* an expansion unit id: "river", "inns" */
    int64_t from, to;      /* upload time range, unix seconds; 0 open */
    const char *rule;      /* games with a violation of this rule id */
    const char *q;         /* search in player names and file name */
    const char *sort;      /* "date" (default), "players", "turns",
                              "violations", "flights", "best" */
    bool ascending;
    int limit; /* default 50, at most 1000 */
    int offset;
};

/* {"total", "offset", "limit", "games": [{"id", "name", "format",
 * "source", "uploaded_at", "status", "reason", "edition", "valid",
 * "finished", "live", "violations", "flights", "turns", "players":
 * [{"name", "color", "score", "rank", "claimed"}], "winners": [...]}]}
 * from and to are inclusive; q matches a substring of the file or a
 * player name, case-insensitively; ties in the sort go by id (same
 * direction). An unknown sort key is ST_PARSE (e names the valid ones).
 * color and claimed are null when the log has none; winners is [] for an
 * unfinished game. status is "audited" or "unsupported"; an unsupported
 * game has its reason ("unsupported: ..."; null otherwise), null edition,
 * valid, finished, violations, flights and turns, and no players.
 * docs/schema.md says which index serves each filter. */
enum status store_list_games(struct store *s, const struct game_filter *f,
                             struct buf *out, struct err *e) WARN_UNUSED;
/* The column game_filter.sort orders by ("date" or none: the upload
 * time), or ST_PARSE naming the keys there are. */
enum status store_sort_column(const char *sort, const char **out,
                              struct err *e);
/* {"id", ... the list entry's fields ..., "sha256", "size", "engine",
 * "sets": {"basic:1": 1, ...}, "elements": {"small-follower": 7, ...},
 * "expansions": ["base", "flier", ...], "rules": {"followers", "abbots",
 * "farmers", "gardens", "tiny-city-scoring"}, "n_players", "halted",
 * "tiles_left", "best_score", "audit": <the stored audit object>}
 * An unsupported game has null sets, elements, rules, n_players, halted,
 * tiles_left, best_score and audit, and expansions [].
 * ST_NOT_FOUND when there is no such game (also for raw). */
enum status store_game_json(struct store *s, int64_t id, struct buf *out,
                            struct err *e) WARN_UNUSED;
/* The raw upload; *out_format is "jcz" or "flierlog" (static string);
 * with sha_out (65 bytes), the upload's stored SHA-256 (hex) read with
 * it, as store_game_sha() gives it. */
enum status store_game_raw(struct store *s, int64_t id, struct buf *out,
                           const char **out_format, char *sha_out,
                           struct err *e) WARN_UNUSED;
/* The SHA-256 (hex) of game id's stored upload: it changes whenever the
 * game does (a live move, a replacement). ST_NOT_FOUND when none. */
enum status store_game_sha(struct store *s, int64_t id,
                           char out[65], struct err *e) WARN_UNUSED;
/* Is game id a live game? (ST_NOT_FOUND when there is no such game.) */
enum status store_game_is_live(struct store *s, int64_t id, bool *out_live,
                               struct err *e) WARN_UNUSED;

/* {"players": [{"name", "games", "finished_games", "wins", "average",
 * "best", "flights", "landed", "landing_rate"}]} by name. average and
 * best count finished games; wins are finished games at rank 1; rates are
 * landed / (landed + returned), null when there is nothing to divide. */
enum status store_players_json(struct store *s, struct buf *out,
                               struct err *e) WARN_UNUSED;
/* One player (exact name; ST_NOT_FOUND if never seen): the fields above
 * plus "points": {feature: points} for every feature name the player
 * scored with ("road", "city", ... and whatever an expansion adds),
 * "by_figure": {figure: {"flights", "landed", "returned",
 * "forced_returns", "landing_rate"}} by the figure that flew ("small",
 * "big", ...; "unknown" for flights stored before figures were),
 * "returned", "forced_returns" (the roll offered no landing),
 * "flier_points" (scored with a meeple that arrived by flight),
 * "die": {"rolls": [n1, n2, n3], "n", "chi_square", "p_value"} and
 * "recent": the 20 latest games [{"id", "name", "uploaded_at", "edition",
 * "valid", "finished", "seat", "score", "rank", "claimed", "winner",
 * "flights", "landed"}]. */
enum status store_player_json(struct store *s, const char *name,
                              struct buf *out, struct err *e) WARN_UNUSED;
/* {"games": {"total", "valid", "invalid", "finished", "live",
 *            "unsupported", "by_edition": {"C2": n, "C3": n},
 *            "by_expansion": {"base": n, "river": n, ...}},
 *  "violations": {"total", "by_rule": {"RULE_ID": n}},
 *  "scores": {"bucket": 10, "count", "histogram": [{"from", "to",
 *             "count"}]}                (final scores, finished games)
 *  "flier": {"flights", "landed", "returned", "forced_returns",
 *            "landing_rate", "pending", "by_roll": [{"roll", "flights",
 *            "landed", "returned", "forced_returns", "landing_rate"}] x3,
 *            "by_direction": {"orthogonal": {...}, "diagonal": {...}},
 *            "by_figure": {"small": {... and "pending"}, ...}},
 *  "die": {"rolls": [n1, n2, n3], "n", "chi_square", "p_value"},
 *  "die_by_player": [{"name", "rolls", "n", "chi_square", "p_value"}]}
 * total counts every stored game, unsupported ones too; valid, invalid,
 * finished and by_edition count the audited ones only.
 * The die test: rolls 1..3 of all flights against 1/3 each, p =
 * exp(-x/2) (2 degrees of freedom); null without rolls. Reads only the
 * aggregate tables, so its cost does not grow with the games stored. */
enum status store_stats_json(struct store *s, struct buf *out,
                             struct err *e) WARN_UNUSED;

/* The stored games by kind, read from the aggregate tables (as cheap as
 * the statistics whatever the number of games): what /metrics reports,
 * the same from every daemon sharing a database. unsupported games are
 * in total only (neither valid nor invalid). */
struct store_counts {
    int64_t total, valid, invalid, unsupported, live;
};
enum status store_counts(struct store *s, struct store_counts *out,
                         struct err *e) WARN_UNUSED;

/* Calls fn for every stored game in id order (for re-audits); fn returns
 * non-zero to stop. The raw bytes are valid only during the call;
 * verdict is the stored one (enum game_verdict). */
typedef int (*store_game_fn)(void *ctx, int64_t id, const char *raw,
                             size_t raw_len, const char *source,
                             int64_t uploaded_at, int verdict);
enum status store_each_game(struct store *s, store_game_fn fn, void *ctx,
                            struct err *e) WARN_UNUSED;

/* One stored upload, as store_each_upload() hands it out. The pointers
 * are valid during the call only. */
struct stored_upload {
    int64_t id;
    const char *raw; /* the upload, byte for byte */
    size_t raw_len;
    const char *name;   /* as given (a path, a file name), or NULL */
    const char *format; /* "jcz" | "flierlog" */
    const char *sha256; /* hex digest of raw */
    const char *source; /* "http" | "spool" | "cli" | "live" */
    int64_t uploaded_at;
    int verdict; /* enum game_verdict */
    bool live;   /* a live game still being recorded */
    size_t index;   /* 0, 1, ... in id order */
    size_t n_games; /* the games of the snapshot, for a progress display */
};
typedef int (*store_upload_fn)(void *ctx, const struct stored_upload *u);
/* Calls fn for every stored game in id order (flierd export), all from
 * one snapshot (one read transaction): a daemon writing meanwhile adds
 * no game half, and the count agrees with the rows. fn returns non-zero
 * to stop, and must not use s. Runs on a read-only store too. ST_DB or
 * ST_BUSY when the database could not be read. */
enum status store_each_upload(struct store *s, store_upload_fn fn, void *ctx,
                              struct err *e) WARN_UNUSED;

/* SQLite only: PostgreSQL refuses with ST_DB, naming pg_dump (a server's
 * database is copied by the server's own tools; export works on both).
 * A consistent copy of the whole database in the new file out (flierd
 * backup), taken while others may write: SQLite's online backup API
 * copies every page within one read transaction, so the copy is the
 * database as it was at one commit (sqlite_backup.c says why not VACUUM
 * INTO). The copy is made beside out under a temporary name, as one
 * file (no -wal), passes SQLite's quick_check, is synced, and only then
 * takes the name out: out is the whole copy or untouched. It is readable
 * by its owner only. Without overwrite an existing out is ST_CONFLICT
 * ("OUT exists"); with it, out is replaced. Otherwise ST_IO, ST_FULL,
 * ST_BUSY or ST_DB, e naming out and the reason; nothing is left behind
 * on failure. Runs on a read-only store. */
enum status store_backup(struct store *s, const char *out, bool overwrite,
                         struct err *e) WARN_UNUSED;

/* Is the database whole? (sqlite_check.c, pg/pg_check.c) SQLite's
 * integrity_check and foreign_key_check (PostgreSQL keeps its foreign
 * keys itself; its check reads every table's rows instead); no row of a table that references games without
 * its games row; no games row without its upload, list entry and search
 * text, no audited game without its audit and one game_players row per
 * seat, no unsupported one with an audit, seats or expansions; every
 * upload hashing to its games.sha256; the aggregate tables (points by
 * feature and flights by figure included) equal to the sums over their
 * detail tables. Appends a line per problem (naming the table, the game
 * or the aggregate row) and a summary line to report; *out_problems
 * counts the problems (0: all holds). Returns ST_OK when the check ran,
 * whatever it found; ST_DB or ST_BUSY when it could not read. Reads one
 * snapshot: it may run beside a daemon that writes. */
enum status store_check(struct store *s, struct buf *report, int *out_problems,
                        struct err *e) WARN_UNUSED;

#endif
