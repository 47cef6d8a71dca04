/* store_check.h - `flierd check`'s invariants, held once for every
 * backend (store_check.c). A backend opens its read snapshot, answers
 * the queries in its own SQL through a table of functions, adds what only
 * it can check, and closes the snapshot; the problems and the summary are
 * worded here, so a report means the same on SQLite and PostgreSQL. */
#ifndef STORE_STORE_CHECK_H
#define STORE_STORE_CHECK_H
#include <stdint.h>

#include "util/buf.h"
#include "util/err.h"

struct check;

/* One stored upload as the check reads it: its bytes (decoded), or why
 * they cannot be read. */
struct check_upload {
    int64_t id;
    const char *sha256;     /* games.sha256 */
    int64_t raw_size;       /* games.raw_size */
    const char *bytes;      /* the upload, NULL when why says */
    size_t len;
    size_t stored;          /* bytes as kept (a frame, when packed) */
    const char *why;        /* NULL, or why the stored bytes do not decode */
};

struct check_ops {
    /* Columns 0 and 1 of sql's first row as integers (0 and 0: no row). */
    enum status (*two_ints)(void *db, const char *sql, int64_t *a,
                            int64_t *b, struct err *e);
    /* The columns of every row of sql, as text (NULL for NULL), to fn. */
    enum status (*each_row)(void *db, const char *sql,
                            void (*fn)(void *arg, const char *const *col),
                            void *arg, struct err *e);
    /* Every stored upload to check_upload(), in id order. */
    enum status (*each_upload)(void *db, struct check *c, struct err *e);
    /* What only this backend can check: its pages, keys and indexes
     * first (native), the rows only it keeps after the shared checks
     * of rows (extra, may be NULL). */
    enum status (*native)(void *db, struct check *c, struct err *e);
    enum status (*extra)(void *db, struct check *c, struct err *e);
    /* SELECT of 1 (or more) and 0 when the table %s exists, 0 and 0 if
     * not */
    const char *table_exists_sql;
    /* SELECT of (table, column) for every foreign key to games */
    const char *referencing_sql;
    const char *search_key;  /* game_search's column naming the game */
    const char *byte_order;  /* after ORDER BY k: sort as bytes */
};

struct check {
    const struct check_ops *ops;
    void *db;
    struct buf *report;
    int problems;
    int lines;           /* of the current section */
    int n_agg;           /* aggregate tables checked */
    int tables;          /* tables of games */
    int64_t games, hashed;
    struct buf skipped;  /* checks whose tables are gone */
    struct buf keyed;    /* tables with a foreign key to games */
};

void check_begin(struct check *c, const struct check_ops *ops, void *db,
                 struct buf *report);
/* Every check, inside the snapshot the backend opened. */
enum status check_run(struct check *c, struct err *e);
/* After the snapshot is closed with st: the summary line when st is
 * ST_OK, and the number of problems; releases c. Returns st. */
enum status check_end(struct check *c, enum status st, int *out_problems);

/* For the backends' own checks: a new section (its own cap of lines),
 * a problem in it, one upload checked against its digest and size. */
void check_section(struct check *c);
void check_problem(struct check *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
void check_upload(struct check *c, const struct check_upload *u);
/* Runs sql, which counts what is wrong and gives the first id of it;
 * when the count is not 0, the problem "<prefix><count> <what> (the
 * first: <first_of> <id>)". */
enum status check_count(struct check *c, const char *sql, const char *prefix,
                        const char *what, const char *first_of,
                        struct err *e);
/* Whether the table exists (table_exists_sql). */
enum status check_table_exists(struct check *c, const char *name, bool *out,
                               struct err *e);

#endif
