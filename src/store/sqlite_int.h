/* sqlite_int.h - what the SQLite backend's files (src/store/sqlite*.c)
 * share: the connection, the embedded migrations and small SQLite
 * helpers. Only they include this (and so sqlite3.h), and two white-box
 * tests: the checkpointer's thread, the digest lookup's query plan. */
#ifndef STORE_SQLITE_INT_H
#define STORE_SQLITE_INT_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store_backend.h"
#include "store/store_rating.h"

/* Statements kept prepared for the life of the connection, by SQL text
 * address (the callers pass string literals): preparing the dozen inserts
 * of a game again for every game was a fifth of the ingest time. */
#define STORE_STMT_CACHE 128
struct sq_cached_stmt {
    const char *sql;
    sqlite3_stmt *st;
};

/* Statements whose text is built per call (list filters, paging): kept
 * by text, the least recently used one dropped. */
#define STORE_TEXT_CACHE 16
struct sq_text_stmt {
    char *sql; /* owned */
    sqlite3_stmt *st;
    uint64_t used;
};

/* An upload by its digest ?1, other than game ?2: through the index
 * games_by_sha_prefix (schema/008), a SEARCH that test_store_check
 * holds it to. */
#define SQ_FIND_SHA_SQL                                                     \
    "SELECT id FROM games WHERE substr(sha256, 1, 8) = substr(?1, 1, 8) "  \
    "AND +sha256 = ?1 AND source <> 'live' AND id <> ?2"

struct sq_store {
    struct store base; /* first: the dispatcher's view */
    sqlite3 *db;
    bool read_only;
    bool batch; /* inside store_batch_begin(): a game is a savepoint */
    bool batch_whole; /* STORE_BATCH_WHOLE: no savepoints */
    bool batch_lost; /* a failed game could not be rolled back alone: the
                        batch must not commit */
    int64_t game_changes; /* whole batch: total changes as a game began */
    bool pending; /* games written since the last sq_flush_pending() */
    struct rating_mark rmark; /* ratings to compute again before commit */
    struct sq_checkpointer *ckpt; /* a writer's checkpoints, or NULL */
    struct sq_cached_stmt cache[STORE_STMT_CACHE];
    int n_cache;
    struct sq_text_stmt text_cache[STORE_TEXT_CACHE];
    uint64_t tick;
};

static inline struct sq_store *sq_of(struct store *s)
{
    return (struct sq_store *)s;
}

/* schema/NNN_name.sql, embedded at build time (embed_schema.cmake);
 * migration i (0-based) brings the database to user_version i + 1. */
struct sq_migration {
    const char *name;
    const char *sql;
};
extern const struct sq_migration sq_migrations[];
extern const int sq_n_migrations;

/* Sets e from a failed SQLite call: ST_BUSY for SQLITE_BUSY/LOCKED,
 * ST_FULL for SQLITE_FULL, ST_NOMEM for SQLITE_NOMEM (and IOERR_NOMEM),
 * else ST_DB, with "what: <SQLite's message>"; a text or blob bind that
 * failed before is reported instead, as the cause. Returns the status. */
enum status sq_fail(struct sq_store *s, int rc, const char *what,
                       struct err *e);
/* Prepares sql into *out (NULL on failure). */
enum status sq_prepare(struct sq_store *s, const char *sql, sqlite3_stmt **out,
                          struct err *e) WARN_UNUSED;
/* Like sq_prepare(), but the statement stays prepared in the
 * connection's cache: hand it back with sq_release(), never finalize
 * it. sql must be a string literal (it is the cache key). */
enum status sq_cached(struct sq_store *s, const char *sql, sqlite3_stmt **out,
                         struct err *e) WARN_UNUSED;
/* The same for SQL text built at run time: cached by its text (a copy),
 * so a list page asked again is not parsed again. */
enum status sq_cached_text(struct sq_store *s, const char *sql,
                              sqlite3_stmt **out, struct err *e) WARN_UNUSED;
/* Resets a statement of sq_cached() or sq_cached_text() for its
 * next use (NULL-safe); finalizes it if the cache was full when it was
 * prepared. */
void sq_release(struct sq_store *s, sqlite3_stmt *st);
/* Steps a statement that returns no rows, then resets it and clears its
 * bindings for the next use. */
enum status sq_step_done(struct sq_store *s, sqlite3_stmt *st, const char *what,
                            struct err *e) WARN_UNUSED;
/* Binds text, or NULL when s is NULL (SQLITE_TRANSIENT: SQLite copies).
 * A bind that fails (out of memory) fails the next sq_step_done(),
 * sq_fail() and sq_end() of the thread: never a NULL stored. */
void sq_bind_text(sqlite3_stmt *st, int i, const char *s);
/* The same for len bytes of text, and for a blob (NULL p: empty). */
void sq_bind_text_len(sqlite3_stmt *st, int i, const char *s, size_t len);
void sq_bind_blob(sqlite3_stmt *st, int i, const void *p, size_t len);
/* Appends column col of the current row (text) to out. */
void sq_append_col(struct buf *out, sqlite3_stmt *st, int col);
/* The same for a blob column (may hold NUL bytes). */
void sq_append_blob(struct buf *out, sqlite3_stmt *st, int col);

/* BEGIN IMMEDIATE; inside a batch (store_batch_begin) a SAVEPOINT, so that
 * sq_end() still keeps or drops exactly one game's changes; inside a
 * whole batch nothing (sq_end() drops the batch if the game wrote). */
enum status sq_begin(struct sq_store *s, struct err *e) WARN_UNUSED;
/* A read transaction: the reads until sq_end() see one snapshot (WAL),
 * so a total and its page, or the parts of the statistics, agree. */
enum status sq_begin_read(struct sq_store *s, struct err *e) WARN_UNUSED;
/* Commits when st is ST_OK, else rolls back; returns the final status. */
enum status sq_end(struct sq_store *s, enum status st, struct err *e);

/* A list entry of GET /api/games as json_object() arguments, over games g
 * and game_entry e (its players_json and winners_json): rendered when a
 * game is written into game_entry.entry (schema/007), and for rows
 * written before. */
#define SQ_ENTRY_FIELDS                                                           \
    "'id', g.id, 'name', g.name, 'format', g.format, 'source', g.source, "     \
    "'uploaded_at', g.uploaded_at, 'status', g.status, 'reason', g.reason, "   \
    "'edition', g.edition, "                                                   \
    "'valid', json(CASE g.valid WHEN 1 THEN 'true' WHEN 0 THEN 'false' "       \
    "ELSE 'null' END), "                                                       \
    "'finished', json(CASE g.finished WHEN 1 THEN 'true' WHEN 0 THEN "         \
    "'false' ELSE 'null' END), "                                               \
    "'live', json(iif(g.live, 'true', 'false')), "                             \
    "'violations', g.n_violations, 'flights', g.n_flights, "                   \
    "'turns', g.turns, 'players', json(e.players_json), "                      \
    "'winners', json(e.winners_json)"

/* Writing (sqlite_write.c): the rows of one game, inside a transaction.
 * id 0 lets SQLite choose the id. */
enum status sq_write_game(struct sq_store *s, int64_t id, int64_t uploaded_at,
                             const struct game_record *g, int64_t *out_id,
                             struct err *e) WARN_UNUSED;
enum status sq_delete_game(struct sq_store *s, int64_t id,
                              struct err *e) WARN_UNUSED;
/* Game id no longer counts for its content (deleted, or its content
 * changed): its first duplicate counts from the commit, the others link
 * to it (schema/009). */
enum status sq_promote_dups(struct sq_store *s, int64_t id,
                            struct err *e) WARN_UNUSED;
/* Before a write transaction commits (sq_end): what its games add to
 * the aggregate tables and the search index, counted from the ids and
 * search texts they left in temp.pending_games (schema/005). */
enum status sq_flush_pending(struct sq_store *s, struct err *e) WARN_UNUSED;
/* sqlite_rating.c. Computes the ratings again from s->rmark, unless
 * the store defers them; in the writing transaction, before it commits. */
enum status sq_rating_refresh(struct sq_store *s, struct err *e) WARN_UNUSED;
/* Marks game id's place when it is a rated game as stored now. */
enum status sq_rating_mark_stored(struct sq_store *s, int64_t id,
                                  struct err *e) WARN_UNUSED;
/* Appends ,"rating":{...},"luck":{...} of player name (store_rating.h),
 * inside the caller's read transaction. */
enum status sq_player_rating_json(struct sq_store *s, const char *name,
                                  struct buf *out, struct err *e) WARN_UNUSED;
/* Marks the place rating_stale holds (a migrated database), if any. */
enum status sq_rating_stale(struct sq_store *s, struct err *e) WARN_UNUSED;

/* The checkpoints of a writer's WAL on a thread of their own
 * (sqlite_checkpoint.c): NULL when it could not start, and the writer
 * then checkpoints as SQLite does by itself. Stop before closing. */
struct sq_checkpointer;
struct sq_checkpointer *sq_checkpointer_start(sqlite3 *writer,
                                              const char *path);
void sq_checkpointer_stop(struct sq_checkpointer *c, sqlite3 *writer);

/* Registers die_chi2(r1, r2, r3) and die_p(x) on the connection. */
int sq_register_functions(sqlite3 *db);

/* Uploads and audits as zstd frames (sqlite_pack.c, schema/004): out
 * gets src compressed, false when it could not be (memory); the
 * backend's pack entry; unpack(data, codec) for SQL; sq_unpack() decodes
 * in C, returning why it could not (out then undefined) or NULL. */
bool sq_pack_bytes(const void *src, size_t len, struct buf *out);
void sq_pack(const struct game_record *g, struct store_packed *out);
int sq_register_unpack(sqlite3 *db);
const char *sq_unpack(const void *src, size_t len, const char *codec,
                      struct buf *out);

/* The backend's entries (store_backend.h), one per store_ function of
 * store.h, defined across the sqlite*.c files. */
enum status sq_open(const char *path, bool read_only, struct store **out,
                    struct err *e) WARN_UNUSED;
void sq_close(struct store *base);
enum status sq_insert_game(struct store *base, const struct game_record *g,
                           int64_t *out_id, bool *out_duplicate,
                           struct err *e) WARN_UNUSED;
enum status sq_batch_begin(struct store *base, enum store_batch kind,
                           struct err *e) WARN_UNUSED;
bool sq_batch_lost(const struct store *base);
enum status sq_batch_end(struct store *base, bool commit,
                         struct err *e) WARN_UNUSED;
enum status sq_delete(struct store *base, int64_t id, int64_t at,
                      const char *token_fp, struct err *e);
enum status sq_rename(struct store *base, int64_t id, const char *name,
                      struct err *e);
enum status sq_ratings_rebuild(struct store *base, struct err *e);
enum status sq_replace_game(struct store *base, int64_t id,
                            const struct game_record *g,
                            struct err *e) WARN_UNUSED;
enum status sq_list_games(struct store *base, const struct game_filter *f,
                          struct buf *out, struct err *e) WARN_UNUSED;
enum status sq_game_json(struct store *base, int64_t id, struct buf *out,
                         struct err *e) WARN_UNUSED;
enum status sq_game_raw(struct store *base, int64_t id, struct buf *out,
                        const char **out_format, char *sha_out,
                        struct err *e) WARN_UNUSED;
enum status sq_game_sha(struct store *base, int64_t id, char out[65],
                        struct err *e) WARN_UNUSED;
enum status sq_game_is_live(struct store *base, int64_t id, bool *out_live,
                            struct err *e) WARN_UNUSED;
enum status sq_players_json(struct store *base, struct buf *out,
                            struct err *e) WARN_UNUSED;
enum status sq_player_json(struct store *base, const char *name,
                           struct buf *out, struct err *e) WARN_UNUSED;
enum status sq_counts(struct store *base, struct store_counts *out,
                      struct err *e);
enum status sq_stats_json(struct store *base, struct buf *out,
                          struct err *e) WARN_UNUSED;
enum status sq_each_game(struct store *base, store_game_fn fn, void *ctx,
                         struct err *e) WARN_UNUSED;
enum status sq_each_upload(struct store *base, store_upload_fn fn, void *ctx,
                           struct err *e) WARN_UNUSED;
enum status sq_backup(struct store *base, const char *out, bool overwrite,
                      struct err *e) WARN_UNUSED;
enum status sq_check(struct store *base, struct buf *report, int *out_problems,
                     struct err *e) WARN_UNUSED;

#endif
