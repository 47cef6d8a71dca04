/* err.h - status codes and caller-supplied error buffers.
 *
 * Every fallible function returns enum status and takes a struct err * as its
 * last parameter; on failure the buffer holds one sentence for a person
 * (file, offset or move, and what is wrong). */
#ifndef UTIL_ERR_H
#define UTIL_ERR_H

#if defined(__GNUC__)
#define WARN_UNUSED __attribute__((warn_unused_result))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define WARN_UNUSED
#define PRINTF_LIKE(f, a)
#endif

enum status {
    ST_OK = 0,
    ST_IO,          /* file could not be read */
    ST_PARSE,       /* malformed input */
    ST_UNSUPPORTED, /* well-formed, but uses something we do not model */
    ST_LIMIT,       /* input exceeds a size cap */
    ST_RULE,        /* a move breaks the rules */
    ST_NOT_FOUND,   /* no such game, player or route */
    ST_DB,          /* the database failed (I/O, full, corrupt) */
    ST_BUSY,        /* the database is locked: try again */
    ST_CONFLICT,    /* the request does not fit the state (a move for a
                       game that is over) */
    ST_FULL,        /* the disk or the database is full: try again later */
    ST_NOMEM,       /* out of memory where that can be answered (fault.h):
                       try again */
    ST__COUNT
};

#define ERR_MSG_MAX 256

struct err {
    enum status code;
    char msg[ERR_MSG_MAX];
};

/* Formats the message into e (if e is non-NULL) and returns code. */
enum status err_set(struct err *e, enum status code, const char *fmt, ...)
    PRINTF_LIKE(3, 4);

/* Clears e to ST_OK with an empty message. NULL-safe. */
void err_clear(struct err *e);

/* Short name of a status, e.g. "parse error". */
const char *status_name(enum status st);

#endif
