/* store_int.h - what the store's own files share: the connection, the
 * embedded migrations and small SQLite helpers. Only src/store includes
 * this (and so sqlite3.h). */
#ifndef STORE_STORE_INT_H
#define STORE_STORE_INT_H
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* Statements kept prepared for the life of the connection, by SQL text
 * address (the callers pass string literals): preparing the dozen inserts
 * of a game again for every game was a fifth of the ingest time. */
#define STORE_STMT_CACHE 48
struct store_cached_stmt {
    const char *sql;
    sqlite3_stmt *st;
};

/* Statements whose text is built per call (list filters, paging): kept
 * by text, the least recently used one dropped. */
#define STORE_TEXT_CACHE 16
struct store_text_stmt {
    char *sql; /* owned */
    sqlite3_stmt *st;
    uint64_t used;
};

struct store {
    sqlite3 *db;
    bool read_only;
    bool batch; /* inside store_batch_begin(): a game is a savepoint */
    bool batch_lost; /* a game's savepoint could not be rolled back: the
                        batch must not commit */
    struct store_cached_stmt cache[STORE_STMT_CACHE];
    int n_cache;
    struct store_text_stmt text_cache[STORE_TEXT_CACHE];
    uint64_t tick;
};

/* schema/NNN_name.sql, embedded at build time (embed_schema.cmake);
 * migration i (0-based) brings the database to user_version i + 1. */
struct store_migration {
    const char *name;
    const char *sql;
};
extern const struct store_migration store_migrations[];
extern const int store_n_migrations;

/* Sets e from a failed SQLite call: ST_BUSY for SQLITE_BUSY/LOCKED,
 * ST_FULL for SQLITE_FULL, ST_NOMEM for SQLITE_NOMEM (and IOERR_NOMEM),
 * else ST_DB, with "what: <SQLite's message>"; a text or blob bind that
 * failed before is reported instead, as the cause. Returns the status. */
enum status store_fail(struct store *s, int rc, const char *what,
                       struct err *e);
/* Prepares sql into *out (NULL on failure). */
enum status store_prepare(struct store *s, const char *sql, sqlite3_stmt **out,
                          struct err *e) WARN_UNUSED;
/* Like store_prepare(), but the statement stays prepared in the
 * connection's cache: hand it back with store_release(), never finalize
 * it. sql must be a string literal (it is the cache key). */
enum status store_cached(struct store *s, const char *sql, sqlite3_stmt **out,
                         struct err *e) WARN_UNUSED;
/* The same for SQL text built at run time: cached by its text (a copy),
 * so a list page asked again is not parsed again. */
enum status store_cached_text(struct store *s, const char *sql,
                              sqlite3_stmt **out, struct err *e) WARN_UNUSED;
/* Resets a statement of store_cached() or store_cached_text() for its
 * next use (NULL-safe); finalizes it if the cache was full when it was
 * prepared. */
void store_release(struct store *s, sqlite3_stmt *st);
/* Steps a statement that returns no rows, then resets it and clears its
 * bindings for the next use. */
enum status store_step_done(struct store *s, sqlite3_stmt *st, const char *what,
                            struct err *e) WARN_UNUSED;
/* Binds text, or NULL when s is NULL (SQLITE_TRANSIENT: SQLite copies).
 * A bind that fails (out of memory) fails the next store_step_done(),
 * store_fail() and store_end() of the thread: never a NULL stored. */
void store_bind_text(sqlite3_stmt *st, int i, const char *s);
/* The same for len bytes of text, and for a blob (NULL p: empty). */
void store_bind_text_len(sqlite3_stmt *st, int i, const char *s, size_t len);
void store_bind_blob(sqlite3_stmt *st, int i, const void *p, size_t len);
/* Appends column col of the current row (text) to out. */
void store_append_col(struct buf *out, sqlite3_stmt *st, int col);
/* The same for a blob column (may hold NUL bytes). */
void store_append_blob(struct buf *out, sqlite3_stmt *st, int col);

/* BEGIN IMMEDIATE; inside a batch (store_batch_begin) a SAVEPOINT, so that
 * store_end() still keeps or drops exactly one game's changes. */
enum status store_begin(struct store *s, struct err *e) WARN_UNUSED;
/* A read transaction: the reads until store_end() see one snapshot (WAL),
 * so a total and its page, or the parts of the statistics, agree. */
enum status store_begin_read(struct store *s, struct err *e) WARN_UNUSED;
/* Commits when st is ST_OK, else rolls back; returns the final status. */
enum status store_end(struct store *s, enum status st, struct err *e);

/* Writing (store_write.c): the rows of one game, inside a transaction.
 * id 0 lets SQLite choose the id. */
enum status store_write_game(struct store *s, int64_t id, int64_t uploaded_at,
                             const struct game_record *g, int64_t *out_id,
                             struct err *e) WARN_UNUSED;
enum status store_delete_game(struct store *s, int64_t id,
                              struct err *e) WARN_UNUSED;

/* Registers die_chi2(r1, r2, r3) and die_p(x) on the connection. */
int store_register_functions(sqlite3 *db);

#endif
