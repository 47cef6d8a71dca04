#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

enum status err_set(struct err *e, enum status code, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = code;
    }
    return code;
}

void err_clear(struct err *e)
{
    if (e) {
        e->code = ST_OK;
        e->msg[0] = '\0';
    }
}

const char *status_name(enum status st)
{
    switch (st) {
    case ST_OK: return "ok";
    case ST_IO: return "i/o error";
    case ST_PARSE: return "malformed";
    case ST_UNSUPPORTED: return "unsupported";
    case ST_LIMIT: return "too large";
    case ST_RULE: return "rule violation";
    case ST_NOT_FOUND: return "not found";
    case ST_DB: return "database error";
    case ST_BUSY: return "busy";
    case ST_CONFLICT: return "conflict";
    case ST_FULL: return "storage full";
    case ST_NOMEM: return "out of memory";
    case ST__COUNT: break;
    }
    return "error";
}
