/* pg_int.h - what the PostgreSQL backend's files (src/store/pg/) share:
 * the connection, the embedded migrations, running statements with
 * parameters, and the JSON writer that renders answers byte for byte as
 * the SQLite backend's JSON functions do. Only these files include
 * libpq-fe.h.
 *
 * Statements run through pg_query(): a string literal is prepared once
 * per connection (PQprepare) and kept by its address, as the SQLite
 * backend keeps its statements; text built per call runs unnamed. A
 * connection that broke (the server restarted, the network was cut) makes
 * the call fail with ST_BUSY, and the next call reconnects (PQreset),
 * preparing the statements again as they are used. */
#ifndef STORE_PG_INT_H
#define STORE_PG_INT_H
#include <libpq-fe.h>
#include <stdbool.h>
#include <stdint.h>

#include "store/store_backend.h"
#include "util/err.h"

/* libpq is loaded when a PostgreSQL database is first opened, not with
 * the program: it brings Kerberos, LDAP, SASL and GnuTLS, about twenty
 * libraries that took 1-2 ms of every flierd process to load, and most
 * never touch PostgreSQL (flierd audit runs one per batch of files).
 * Every function the backend calls is on this list; pg_load() fills the
 * table from the library (by the soname read at build time), and the
 * names below stand for the table's entries, typed by the header, so
 * the calls are checked as if linked. A function used but not listed
 * fails the link: libpq is not linked. */
#define PG_LIBPQ(X)                                                            \
    X(PQclear) X(PQconnectdbParams) X(PQconsumeInput) X(PQerrorMessage)      \
    X(PQenterPipelineMode) X(PQexitPipelineMode) X(PQpipelineSync)           \
    X(PQexec) X(PQfinish) X(PQflush) X(PQgetResult) X(PQgetisnull)           \
    X(PQgetlength) X(PQgetvalue) X(PQisBusy) X(PQnfields) X(PQntuples)       \
    X(PQresultErrorField) X(PQresultStatus) X(PQsendPrepare) X(PQsendQuery)  \
    X(PQsendQueryParams) X(PQsendQueryPrepared) X(PQsetNoticeProcessor)      \
    X(PQsetnonblocking) X(PQsocket) X(PQstatus) X(PQtransactionStatus)
#define PG_LIBPQ_FIELD(f) __typeof__(f) *f;
struct pg_libpq {
    PG_LIBPQ(PG_LIBPQ_FIELD)
};
#undef PG_LIBPQ_FIELD
extern struct pg_libpq pg_libpq;
/* Loads libpq once per process; ST_DB naming it when it cannot be. */
enum status pg_load(struct err *e);
#ifndef PG_LOADER /* pg_load.c names the functions themselves */
#define PQclear (*pg_libpq.PQclear)
#define PQconnectdbParams (*pg_libpq.PQconnectdbParams)
#define PQconsumeInput (*pg_libpq.PQconsumeInput)
#define PQerrorMessage (*pg_libpq.PQerrorMessage)
#define PQenterPipelineMode (*pg_libpq.PQenterPipelineMode)
#define PQexitPipelineMode (*pg_libpq.PQexitPipelineMode)
#define PQpipelineSync (*pg_libpq.PQpipelineSync)
#define PQexec (*pg_libpq.PQexec)
#define PQfinish (*pg_libpq.PQfinish)
#define PQflush (*pg_libpq.PQflush)
#define PQgetResult (*pg_libpq.PQgetResult)
#define PQgetisnull (*pg_libpq.PQgetisnull)
#define PQgetlength (*pg_libpq.PQgetlength)
#define PQgetvalue (*pg_libpq.PQgetvalue)
#define PQisBusy (*pg_libpq.PQisBusy)
#define PQnfields (*pg_libpq.PQnfields)
#define PQntuples (*pg_libpq.PQntuples)
#define PQresultErrorField (*pg_libpq.PQresultErrorField)
#define PQresultStatus (*pg_libpq.PQresultStatus)
#define PQsendPrepare (*pg_libpq.PQsendPrepare)
#define PQsendQuery (*pg_libpq.PQsendQuery)
#define PQsendQueryParams (*pg_libpq.PQsendQueryParams)
#define PQsendQueryPrepared (*pg_libpq.PQsendQueryPrepared)
#define PQsetNoticeProcessor (*pg_libpq.PQsetNoticeProcessor)
#define PQsetnonblocking (*pg_libpq.PQsetnonblocking)
#define PQsocket (*pg_libpq.PQsocket)
#define PQstatus (*pg_libpq.PQstatus)
#define PQtransactionStatus (*pg_libpq.PQtransactionStatus)
#endif

#define PG_STMT_CACHE 64 /* the backend has about 45 fixed statements */
#define PG_TEXT_CACHE 32

struct pg_store {
    struct store base; /* first: the dispatcher's view */
    PGconn *conn;
    char label[160]; /* "postgresql://user@host/db": errors name it */
    bool read_only;
    bool batch;      /* inside store_batch_begin(): a game is a savepoint */
    bool batch_lost; /* the batch's transaction is gone: never commit */
    char sqlstate[6]; /* of the last failed statement, "" if none */
    const char *cache[PG_STMT_CACHE]; /* statement i is "flierd_i" */
    int n_cache;
    /* statements built per call (a list's filters and sort), kept
     * prepared by their text, the PG_TEXT_CACHE used last: statement i
     * is "flierd_ti" */
    char *texts[PG_TEXT_CACHE];
    uint64_t text_hash[PG_TEXT_CACHE], text_used[PG_TEXT_CACHE];
    uint64_t text_clock;
    char *uri;          /* to connect again after a dropped connection */
    int answer_ms;      /* how long an answer is waited for (pg.c) */
    char options[256];  /* the session settings given with it */
    /* games the open batch wrote whose share of the aggregates is added
     * when it commits (count_games() of schema/pg): once per batch, not
     * once per game, so no aggregate row is updated by one savepoint
     * after another */
    int64_t *uncounted;
    size_t n_uncounted, cap_uncounted;
};

static inline struct pg_store *pg_of(struct store *s)
{
    return (struct pg_store *)s;
}

/* schema/pg/NNN_name.sql, embedded at build time (embed_schema.cmake);
 * migration i (0-based) brings the database to schema_version i + 1. */
struct pg_migration {
    const char *name;
    const char *sql;
};
extern const struct pg_migration pg_migrations[];
extern const int pg_n_migrations;

/* Parameters of one statement, in order ($1, $2, ...). Numbers and text
 * go as text, bytes (and text with a length) in binary; NULL is SQL
 * NULL. The values must outlive the statement's run. */
#define PG_MAX_PARAMS 80 /* a game's statement: its columns, then arrays */
struct pg_params {
    int n;
    const char *v[PG_MAX_PARAMS];
    int len[PG_MAX_PARAMS];
    int fmt[PG_MAX_PARAMS];
    char num[PG_MAX_PARAMS][24];
};
void pp_reset(struct pg_params *p);
void pp_text(struct pg_params *p, const char *s);
void pp_text_len(struct pg_params *p, const char *s, size_t len);
void pp_bytes(struct pg_params *p, const void *data, size_t len);
void pp_int(struct pg_params *p, int64_t v);
void pp_null(struct pg_params *p);

/* Runs sql with p (NULL: none). cached: sql is a string literal, kept
 * prepared on the connection. binary: results in binary (a bytea column
 * as its bytes; select other columns as text then). On success *out
 * holds the result (PQclear it); on failure *out is NULL and e says
 * "what: the server's message", with the status pg_fail() gives. */
enum status pg_query(struct pg_store *s, const char *sql, bool cached,
                     const struct pg_params *p, bool binary, PGresult **out,
                     const char *what, struct err *e) WARN_UNUSED;
/* The same for a statement whose rows do not matter. */
enum status pg_exec(struct pg_store *s, const char *sql, bool cached,
                    const struct pg_params *p, const char *what,
                    struct err *e) WARN_UNUSED;
/* Statements sent together (libpq's pipeline mode): one round trip for
 * all, each run after the one before, answered within the same deadline
 * as one statement. The first that fails leaves the rest unrun (in a
 * transaction, the transaction is then failed: roll it back). */
#define PG_PIPELINE_MAX 16
struct pg_stmt {
    const char *sql;           /* a string literal: prepared once */
    const struct pg_params *p; /* NULL: none */
    bool binary;               /* results in binary (see pg_query) */
    PGresult *res;             /* its result once run, else NULL */
    bool built;                /* sql is text built for this call: kept
                                * prepared by its text, not its address */
    bool unnamed;              /* sql is text built for this call and
                                * seldom the same: planned each time */
};
/* ST_OK when every statement succeeded; else the first failure's status
 * and message. Either way q[i].res holds what came back: clear it with
 * pg_pipeline_clear(). */
enum status pg_pipeline(struct pg_store *s, struct pg_stmt *q, int n,
                        const char *what, struct err *e) WARN_UNUSED;
void pg_pipeline_clear(struct pg_stmt *q, int n);
/* Reads q in one snapshot (a repeatable-read, read-only transaction;
 * inside a batch, a savepoint): the transaction and the reads in one
 * round trip. As pg_pipeline(), and rolled back on failure. */
enum status pg_read_all(struct pg_store *s, struct pg_stmt *q, int n,
                        const char *what, struct err *e) WARN_UNUSED;

/* Sets e from a failed result (or NULL: the connection's message): the
 * server unreachable, shutting down, a lock or statement timeout, a
 * deadlock: ST_BUSY (the client may try again); the disk full: ST_FULL;
 * out of memory: ST_NOMEM; else ST_DB. Keeps the SQLSTATE in s. */
enum status pg_fail(struct pg_store *s, const PGresult *r, const char *what,
                    struct err *e);
/* Is the last failure one that the same transaction run again may not
 * meet (a deadlock, a serialization failure)? */
bool pg_retryable(const struct pg_store *s);

/* Before each call: reconnects a broken connection (ST_BUSY when the
 * server still cannot be reached) and rolls back a transaction a failure
 * left open (outside a batch). */
enum status pg_ready(struct pg_store *s, struct err *e) WARN_UNUSED;
/* What pg_begin() checks before it begins: the batch not lost, then
 * pg_ready(); for a caller that sends pg_begin_sql() itself, with what
 * follows it (pg_pipeline). */
enum status pg_enter(struct pg_store *s, struct err *e) WARN_UNUSED;
/* "BEGIN", or inside a batch the game's savepoint. */
const char *pg_begin_sql(const struct pg_store *s);
/* BEGIN (inside a batch, a savepoint); read: one snapshot, read-only. */
enum status pg_begin(struct pg_store *s, bool read, struct err *e) WARN_UNUSED;
/* Commits when st is ST_OK, else rolls back; returns the final status. */
enum status pg_end(struct pg_store *s, enum status st, struct err *e);

/* The aggregates: count_games($1 ids, $2 1 to add, -1 to take away)
 * adds what those games' rows bring to every aggregate table, or takes
 * it away (schema/pg/001_init.sql). */
extern const char pg_sql_count[];
/* {1,2,3}: ids as an array literal, appended to b. */
void pg_ids_array(struct buf *b, const int64_t *ids, size_t n);
/* Counts games ids (none: n 0) and commits, one round trip; rolls back
 * on failure. */
enum status pg_commit_counted(struct pg_store *s, const int64_t *ids,
                              size_t n, struct err *e) WARN_UNUSED;
/* Is game id among those the open batch counts when it commits? */
bool pg_uncounted(const struct pg_store *s, int64_t id);
/* pg_write.c: game id stops counting for its content unless content is
 * its new one (NULL: it goes); its first duplicate counts instead. */
enum status pg_promote_dups(struct pg_store *s, int64_t id,
                            const char *content, struct err *e);
void pg_uncounted_add(struct pg_store *s, int64_t id);
/* Every row of game $1, children first (pg_write.c). */
extern const char pg_sql_delete_game[];
/* pg_rating.c: after a write committed, the ratings computed again from
 * the places it noted (rating_stale); nothing inside a batch (its end
 * does it) or while the store defers ratings. */
enum status pg_rating_refresh(struct pg_store *s, struct err *e);
enum status pg_ratings_rebuild(struct store *base, struct err *e);
/* pg_manage.c */
enum status pg_delete(struct store *base, int64_t id, int64_t at,
                      const char *token_fp, struct err *e);
enum status pg_rename(struct store *base, int64_t id, const char *name,
                      struct err *e);

/* Row r, column c of a result: its text (NULL for SQL NULL); its integer. */
const char *pg_cell(const PGresult *r, int row, int col);
int64_t pg_int(const PGresult *r, int row, int col);

/* ---- JSON, as SQLite's JSON functions write it ------------------------- */

/* A JSON string (NULL: null): '"' and '\' escaped, \b \t \n \f \r, other
 * control characters \u00xx, everything else as it is. */
void pj_string(struct buf *b, const char *s);
/* A real as SQLite prints one: 15 significant digits, never without a
 * decimal point (1.0, 1.0e-07). */
void pj_real(struct buf *b, double x);
/* "key": after a ',' unless *k is 0; counts members in *k. */
void pj_key(struct buf *b, int *k, const char *key);
/* Column c of row r as a JSON number, a string, true/false from 0/1, or
 * JSON text kept as it is; null when the column is NULL. */
void pj_num(struct buf *b, const PGresult *r, int row, int col);
void pj_str(struct buf *b, const PGresult *r, int row, int col);
void pj_bool(struct buf *b, const PGresult *r, int row, int col);
void pj_raw(struct buf *b, const PGresult *r, int row, int col);
/* landed / (landed + returned), null when nothing to divide. */
void pj_rate(struct buf *b, int64_t landed, int64_t returned);
/* {"rolls", "n", "chi_square", "p_value"} members of the die test. */
void pj_die(struct buf *b, int *k, int64_t r1, int64_t r2, int64_t r3);

/* The backend's entries (store_backend.h). */
enum status pg_open(const char *uri, bool read_only, struct store **out,
                    struct err *e) WARN_UNUSED;
void pg_close(struct store *base);
enum status pg_insert_game(struct store *base, const struct game_record *g,
                           int64_t *out_id, bool *out_duplicate,
                           struct err *e) WARN_UNUSED;
enum status pg_batch_begin(struct store *base, enum store_batch kind,
                           struct err *e) WARN_UNUSED;
bool pg_batch_lost(const struct store *base);
enum status pg_batch_end(struct store *base, bool commit,
                         struct err *e) WARN_UNUSED;
enum status pg_replace_game(struct store *base, int64_t id,
                            const struct game_record *g,
                            struct err *e) WARN_UNUSED;
enum status pg_list_games(struct store *base, const struct game_filter *f,
                          struct buf *out, struct err *e) WARN_UNUSED;
enum status pg_game_json(struct store *base, int64_t id, struct buf *out,
                         struct err *e) WARN_UNUSED;
enum status pg_game_raw(struct store *base, int64_t id, struct buf *out,
                        const char **out_format, char *sha_out,
                        struct err *e) WARN_UNUSED;
enum status pg_game_sha(struct store *base, int64_t id, char out[65],
                        struct err *e) WARN_UNUSED;
enum status pg_game_is_live(struct store *base, int64_t id, bool *out_live,
                            struct err *e) WARN_UNUSED;
enum status pg_players_json(struct store *base, struct buf *out,
                            struct err *e) WARN_UNUSED;
enum status pg_player_json(struct store *base, const char *name,
                           struct buf *out, struct err *e) WARN_UNUSED;
enum status pg_counts(struct store *base, struct store_counts *out,
                      struct err *e);
enum status pg_stats_json(struct store *base, struct buf *out,
                          struct err *e) WARN_UNUSED;
enum status pg_each_game(struct store *base, store_game_fn fn, void *ctx,
                         struct err *e) WARN_UNUSED;
enum status pg_each_upload(struct store *base, store_upload_fn fn, void *ctx,
                           struct err *e) WARN_UNUSED;
enum status pg_check(struct store *base, struct buf *report, int *out_problems,
                     struct err *e) WARN_UNUSED;

#endif
