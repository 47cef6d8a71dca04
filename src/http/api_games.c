/* api_games.c - GET/POST /api/games, one game, its raw bytes and its
 * replay. Reads borrow a read-only store connection; uploads go through
 * the writer. The store returns JSON text, so these handlers only check
 * arguments and move bytes. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/expansion.h"
#include "http/http_int.h"
#include "http/replay_cache.h"
#include "ingest/ingest.h"

int64_t http_parse_id(const char *s)
{
    char *end;
    if (!s || !isdigit((unsigned char)s[0]))
        return 0;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || v <= 0)
        return 0;
    return (int64_t)v;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's
 * days_from_civil), so no time zone or timegm() is involved. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* "YYYY-MM-DD" (UTC; the end of that day when end_of_day) or unix
 * seconds. */
static bool parse_time(const char *s, bool end_of_day, int64_t *out)
{
    int y, m, d, n = 0;
    char *end;
    if (strlen(s) == 10 && sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 &&
        n == 10 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
        *out = days_from_civil(y, (unsigned)m, (unsigned)d) * 86400 +
               (end_of_day ? 86399 : 0);
        return true;
    }
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < 0)
        return false;
    *out = (int64_t)v;
    return true;
}

static bool parse_bool(const char *s, int *out)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0 ||
        strcmp(s, "yes") == 0)
        *out = 1;
    else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0 ||
             strcmp(s, "no") == 0)
        *out = 0;
    else
        return false;
    return true;
}

static bool parse_count(const char *s, int max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > max)
        return false;
    *out = (int)v;
    return true;
}

/* Reads one query parameter into f; false when the value is not one of
 * those the parameter takes. */
typedef bool (*param_ok_fn)(const char *v, struct game_filter *f);

static bool p_verdict(const char *v, struct game_filter *f)
{
    f->verdict = strcmp(v, "valid") == 0;
    return f->verdict || strcmp(v, "invalid") == 0;
}

static bool p_finished(const char *v, struct game_filter *f)
{
    return parse_bool(v, &f->finished);
}

static bool p_edition(const char *v, struct game_filter *f)
{
    f->edition = strcasecmp(v, "C2") == 0   ? "C2"
                 : strcasecmp(v, "C3") == 0 ? "C3"
                                            : NULL;
    return f->edition != NULL;
}

static bool p_status(const char *v, struct game_filter *f)
{
    f->status = strcmp(v, "audited") == 0       ? "audited"
                : strcmp(v, "unsupported") == 0 ? "unsupported"
                                                : NULL;
    return f->status != NULL;
}

/* An expansion unit this engine has ("base", "river", "inns", ...). */
static bool p_expansion(const char *v, struct game_filter *f)
{
    int x = expansion_find(v);
    f->expansion = x >= 0 ? expansion_get(x)->id : NULL;
    return f->expansion != NULL;
}

static bool p_from(const char *v, struct game_filter *f)
{
    return parse_time(v, false, &f->from);
}

static bool p_to(const char *v, struct game_filter *f)
{
    return parse_time(v, true, &f->to);
}

static bool p_sort(const char *v, struct game_filter *f)
{
    const char *col;
    struct err e;
    err_clear(&e);
    f->sort = v; /* the store names the keys there are */
    return store_sort_column(v, &col, &e) == ST_OK;
}

static bool p_order(const char *v, struct game_filter *f)
{
    f->ascending = strcmp(v, "asc") == 0;
    return f->ascending || strcmp(v, "desc") == 0;
}

static bool p_limit(const char *v, struct game_filter *f)
{
    return parse_count(v, 1000, &f->limit);
}

static bool p_offset(const char *v, struct game_filter *f)
{
    return parse_count(v, 1000 * 1000 * 1000, &f->offset);
}

static const struct {
    const char *name;
    param_ok_fn ok;
} params[] = {
    { "verdict", p_verdict },     { "finished", p_finished },
    { "edition", p_edition },     { "status", p_status },
    { "expansion", p_expansion }, { "from", p_from },
    { "to", p_to },               { "sort", p_sort },
    { "order", p_order },         { "limit", p_limit },
    { "offset", p_offset },
};

/* Fills f from the query; on a bad value writes the reason to msg. */
static bool parse_filter(struct request *r, struct game_filter *f, char *msg,
                         size_t msg_len)
{
    memset(f, 0, sizeof *f);
    f->verdict = f->finished = -1;
    f->limit = 50;
    f->player = req_query(r, "player");
    f->rule = req_query(r, "rule");
    f->q = req_query(r, "q");
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        const char *v = req_query(r, params[i].name);
        if (v && !params[i].ok(v, f)) {
            snprintf(msg, msg_len, "bad query parameter %s=%.60s (see "
                     "docs/api.md)", params[i].name, v);
            return false;
        }
    }
    return true;
}

void h_games_list(struct request *r)
{
    struct game_filter f;
    struct buf b = BUF_INIT;
    struct err e;
    char msg[200];

    err_clear(&e);
    if (!parse_filter(r, &f, msg, sizeof msg)) {
        reply_error(r, 400, msg);
        return;
    }
    struct store *st = server_reader(r->srv);
    enum status s = store_list_games(st, &f, &b, &e);
    server_reader_put(r->srv, st);
    reply_read(r, s, &b, &e);
}

/* 201 {"id", "status": "audited", "valid", "finished", "duplicate",
 * "url"}; for a log this engine cannot audit yet, stored all the same,
 * 202 {"id", "status": "unsupported", "reason", "valid": null,
 * "finished": null, "duplicate", "url"}; a duplicate is 200 either way. */
static void reply_upload(struct request *r, const struct ingest_result *res)
{
    struct buf b = BUF_INIT;
    char *url = ra_alloc(&r->arena, 48);
    snprintf(url, 48, "/api/games/%" PRId64, res->id);
    buf_printf(&b, "{\"id\": %" PRId64 ", \"status\": \"%s\", ", res->id,
               res->unsupported ? "unsupported" : "audited");
    if (res->unsupported) {
        buf_puts(&b, "\"reason\": ");
        buf_json_string(&b, res->reason);
        buf_puts(&b, ", \"valid\": null, \"finished\": null, ");
    } else {
        buf_printf(&b, "\"valid\": %s, \"finished\": %s, ",
                   res->valid ? "true" : "false",
                   res->finished ? "true" : "false");
    }
    buf_printf(&b, "\"duplicate\": %s, \"url\": \"%s\"}",
               res->duplicate ? "true" : "false", url);
    req_add_header(r, "Location", url);
    reply_json(r, res->duplicate ? 200 : res->unsupported ? 202 : 201, &b);
}

/* The first occurrence of needle[0..n) in hay[0..len), or NULL. */
static const char *find_bytes(const char *hay, size_t len,
                              const char *needle, size_t n)
{
    for (size_t i = 0; n && i + n <= len; i++)
        if (hay[i] == needle[0] && memcmp(hay + i, needle, n) == 0)
            return hay + i;
    return NULL;
}

/* A multipart/form-data body (curl -F file=@game.jcz, a browser form):
 * its first part that carries a file, else its first part. Sets *data,
 * *len to that part's bytes inside body and name (name_len bytes) to its
 * file name ("" when none). False when the body is not such a form. */
static bool multipart_file(const char *ctype, const char *body, size_t n,
                           const char **data, size_t *len, char *name,
                           size_t name_len)
{
    char delim[80];
    const char *b = ctype ? strstr(ctype, "boundary=") : NULL;
    size_t k;
    name[0] = '\0';
    if (!b)
        return false;
    b += 9;
    bool quoted = *b == '"';
    b += quoted;
    k = strcspn(b, quoted ? "\"" : "; \t");
    if (k == 0 || k > 70) /* RFC 2046: 1 to 70 characters */
        return false;
    snprintf(delim, sizeof delim, "\r\n--%.*s", (int)k, b);
    size_t dl = strlen(delim);
    /* the first delimiter may open the body, without its CRLF */
    const char *end = body + n, *head = NULL;
    if (n >= dl - 2 && memcmp(body, delim + 2, dl - 2) == 0) {
        head = body + dl - 2;
    } else {
        const char *at = find_bytes(body, n, delim, dl);
        head = at ? at + dl : NULL;
    }
    bool first = true;
    while (head) {
        if (end - head < 2 || memcmp(head, "--", 2) == 0)
            break; /* the closing delimiter */
        const char *blank = find_bytes(head, (size_t)(end - head),
                                       "\r\n\r\n", 4);
        if (!blank)
            break;
        const char *part = blank + 4;
        const char *next = find_bytes(part, (size_t)(end - part), delim, dl);
        if (!next)
            break;
        const char *fn = find_bytes(head, (size_t)(blank - head),
                                    "filename=\"", 10);
        if (fn || first) {
            *data = part;
            *len = (size_t)(next - part);
            if (fn) {
                fn += 10;
                size_t m = 0;
                while (fn + m < blank && fn[m] != '"' && m + 1 < name_len)
                    m++;
                memcpy(name, fn, m);
                name[m] = '\0';
                return true;
            }
            first = false;
        }
        head = next + dl;
    }
    return !first;
}

void h_games_upload(struct request *r)
{
    struct ingest_result res;
    struct err e;
    const char *name = req_query(r, "name");
    const char *data = r->body.p ? r->body.p : "";
    size_t len = r->body.len;
    const char *ctype = req_header(r, "Content-Type");
    char form_name[256];

    err_clear(&e);
    memset(&res, 0, sizeof res);
    /* what people type: curl -F file=@game.jcz */
    if (ctype && strncasecmp(ctype, "multipart/form-data", 19) == 0) {
        if (!multipart_file(ctype, data, len, &data, &len, form_name,
                            sizeof form_name)) {
            reply_error(r, 400, "a multipart/form-data upload without a "
                        "file in it: send the log as a form field "
                        "(curl -F file=@game.jcz) or as the body (curl "
                        "--data-binary @game.jcz)");
            return;
        }
        if (!name && form_name[0])
            name = form_name;
    }
    if (!name)
        name = req_header(r, "X-Filename");
    /* parse, audit, render and compress outside the writer's lock */
    struct ingest_job *job = NULL;
    enum status st = ingest_prepare(data, len, "http", name,
                                    (int64_t)time(NULL), &job, &e);
    if (st == ST_OK)
        ingest_pack(server_store(r->srv), job);
    if (st == ST_OK) {
        struct store *w = server_writer(r->srv);
        st = ingest_commit(w, job, &res, &e);
        server_writer_put(r->srv);
    }
    ingest_job_free(job);
    metrics_ingest(&r->srv->m, st, &res);
    if (st != ST_OK) {
        reply_status(r, st, &e);
        return;
    }
    reply_upload(r, &res);
}

/* The {id} of the route, or 0 after replying 404. */
static int64_t game_id(struct request *r)
{
    int64_t id = http_parse_id(r->params[0]);
    if (id == 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "no game '%.80s' (ids are positive "
                 "integers)", r->params[0]);
        reply_error(r, 404, msg);
    }
    return id;
}

typedef enum status (*game_read_fn)(struct store *s, int64_t id,
                                    struct buf *out, struct err *e);

static void read_game(struct request *r, game_read_fn fn)
{
    struct buf b = BUF_INIT;
    struct err e;
    int64_t id = game_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = fn(st, id, &b, &e);
    server_reader_put(r->srv, st);
    reply_read(r, s, &b, &e);
}

void h_game(struct request *r)
{
    read_game(r, store_game_json);
}

/* The replay from the cache when the game's upload has not changed since
 * it was rendered; else rendered (and kept). */
void h_game_replay(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    char now[SHA256_HEX_LEN], rendered[SHA256_HEX_LEN];
    int64_t id = game_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = store_game_sha(st, id, now, &e);
    if (s == ST_OK && !replay_cache_get(r->srv->replays, id, now, &b)) {
        s = ingest_replay(st, id, rendered, &b, &e);
        if (s == ST_OK)
            replay_cache_put(r->srv->replays, id, rendered, b.p, b.len);
    }
    server_reader_put(r->srv, st);
    reply_read(r, s, &b, &e);
}

/* A name the page asks the raw log to download under (its upload's own,
 * tower-c2-3p.jcz): a plain file name of at most 120 bytes, letters,
 * digits and ._+- only, ending in a log's extension; anything else is
 * not put in a header. */
static bool safe_file_name(const char *n)
{
    static const char *const ext[] = { ".jcz", ".flierlog", ".json", ".gz" };
    size_t len = n ? strlen(n) : 0;
    if (len == 0 || len > 120 || n[0] == '.' ||
        strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789._+-") != len)
        return false;
    for (size_t k = 0; k < sizeof ext / sizeof *ext; k++) {
        size_t m = strlen(ext[k]);
        if (len > m && strcmp(n + len - m, ext[k]) == 0)
            return true;
    }
    return false;
}

void h_game_raw(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    const char *format = NULL;
    int64_t id = game_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = store_game_raw(st, id, &b, &format, NULL, &e);
    server_reader_put(r->srv, st);
    if (s != ST_OK) {
        reply_status(r, s, &e);
        buf_release(&b);
        return;
    }
    bool jcz = format && strcmp(format, "jcz") == 0;
    const char *as = req_query(r, "as");
    if (as && strcmp(as, "jcz") != 0 && strcmp(as, "flierlog") != 0) {
        reply_error(r, 400, "as: 'jcz' or 'flierlog' (the format to download "
                    "the game in)");
        buf_release(&b);
        return;
    }
    if (as && (strcmp(as, "jcz") == 0) != jcz) { /* the other format */
        struct buf conv = BUF_INIT;
        jcz = !jcz;
        s = ingest_convert(b.p, b.len, jcz, &conv, &e);
        buf_release(&b);
        b = conv;
        if (s != ST_OK) {
            reply_status(r, s, &e);
            buf_release(&b);
            return;
        }
    }
    char *disp = ra_alloc(&r->arena, 200);
    const char *want = req_query(r, "filename");
    if (safe_file_name(want))
        snprintf(disp, 200, "inline; filename=\"%s\"", want);
    else
        snprintf(disp, 200, "inline; filename=\"game-%" PRId64 ".%s\"", id,
                 jcz ? "jcz" : "flierlog");
    req_add_header(r, "Content-Disposition", disp);
    buf_release(&r->out);
    r->out = b; /* the bytes as uploaded, no newline added */
    r->status = 200;
    r->ctype = jcz ? "application/json" : "application/octet-stream";
}
