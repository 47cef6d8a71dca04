/* reply.c - the request arena, JSON strings and error replies. */
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

/* ---- JSON ---- */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0)))
        return 0; /* overlong, or a UTF-16 surrogate */
    if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90)))
        return 0;
    return n;
}

void json_string(struct buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    buf_append(b, "\"", 1);
    while (*p) {
        size_t n = utf8_len(p);
        if (n == 0) { /* not UTF-8: the replacement character */
            buf_puts(b, "\\ufffd");
            p++;
        } else if (*p == '"' || *p == '\\') {
            char esc[2] = { '\\', (char)*p };
            buf_append(b, esc, 2);
            p++;
        } else if (*p < 0x20) {
            switch (*p) {
            case '\n': buf_puts(b, "\\n"); break;
            case '\r': buf_puts(b, "\\r"); break;
            case '\t': buf_puts(b, "\\t"); break;
            default: buf_printf(b, "\\u%04x", *p); break;
            }
            p++;
        } else {
            buf_append(b, (const char *)p, n);
            p += n;
        }
    }
    buf_append(b, "\"", 1);
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
    json_string(&b, msg);
    if (rule) {
        buf_puts(&b, ", \"rule\": ");
        json_string(&b, rule);
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
