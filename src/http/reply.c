/* reply.c - the request arena and the replies (JSON errors). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/http_int.h"
#include "util/xalloc.h"

/* ---- arena ---- */

#define ARENA_BLOCK 4096

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    max_align_t data[]; /* aligned storage */
};

void *ra_alloc(struct req_arena *a, size_t n)
{
    size_t need = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    struct arena_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
        b = xmalloc(sizeof *b + cap);
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    return p;
}

char *ra_strndup(struct req_arena *a, const char *s, size_t n)
{
    char *p = ra_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void ra_release(struct req_arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

/* ---- replies ---- */

void reply_json(struct request *r, int status, struct buf *b)
{
    buf_release(&r->out);
    r->out = *b;
    b->p = NULL;
    b->len = b->cap = 0;
    if (r->out.len == 0 || r->out.p[r->out.len - 1] != '\n')
        buf_append(&r->out, "\n", 1);
    r->status = status;
    r->ctype = "application/json";
}

void reply_error_rule(struct request *r, int status, const char *rule,
                      const char *msg)
{
    struct buf b = BUF_INIT;
    buf_puts(&b, "{\"error\": ");
    buf_json_string(&b, msg);
    if (rule) {
        buf_puts(&b, ", \"rule\": ");
        buf_json_string(&b, rule);
    }
    buf_puts(&b, "}");
    reply_json(r, status, &b);
}

void reply_error(struct request *r, int status, const char *msg)
{
    reply_error_rule(r, status, NULL, msg);
}

int http_status_of(enum status st)
{
    switch (st) {
    case ST_OK: return 200;
    case ST_PARSE: return 400;
    case ST_UNSUPPORTED: return 415;
    case ST_LIMIT: return 413;
    case ST_NOT_FOUND: return 404;
    case ST_RULE: return 422;
    case ST_BUSY:
    case ST_FULL:
    case ST_NOMEM: return 503;
    case ST_CONFLICT: return 409;
    case ST_IO:
    case ST_DB:
    case ST__COUNT: return 500;
    }
    return 500;
}

/* Seconds a client should wait before trying again, for the failures
 * that pass: a write lock, memory, a disk an operator makes room on. */
static const char *retry_after(enum status st)
{
    switch (st) {
    case ST_BUSY: return "1";
    case ST_NOMEM: return "5";
    case ST_FULL: return "60";
    default: return NULL;
    }
}

void reply_status(struct request *r, enum status st, const struct err *e)
{
    const char *msg = e && e->msg[0] ? e->msg : status_name(st);
    const char *retry = retry_after(st);
    int status = http_status_of(st);
    char full[ERR_MSG_MAX + 200];

    if (retry)
        req_add_header(r, "Retry-After", retry);
    if (status < 500) {
        reply_error(r, status, msg);
        return;
    }
    /* The server failed, not the request: say which request it was, that
     * a write left nothing behind (each is one transaction) and whether
     * sending it again may help. */
    snprintf(full, sizeof full, "%s %.120s: %s%s%s", r->method, r->path, msg,
             strcmp(r->method, "POST") == 0 ? "; nothing was stored" : "",
             retry ? "; try again later" : "");
    reply_error(r, status, full);
}

void reply_read(struct request *r, enum status st, struct buf *b,
                const struct err *e)
{
    if (st == ST_OK)
        reply_json(r, 200, b);
    else
        reply_status(r, st, e);
    buf_release(b);
}
