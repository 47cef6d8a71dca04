/* api_manage.c - an organiser's changes: DELETE /api/games/{id} and
 * POST /api/games/{id}/name (the body is the new name, plain text).
 * Both need the upload token, and a daemon started without one refuses
 * them: a deletion is recorded with who asked (a fingerprint of the
 * token, never the token itself) and when, and without a token there is
 * no one to name. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "http/http_int.h"
#include "util/sha256.h"

/* A file name has at most this many bytes, as the upload's does. */
#define NAME_MAX_LEN 255

/* "sha256:" and the first 16 hex digits of the token's digest: enough to
 * tell tokens apart in the record, too few to test guesses against. */
static void token_fingerprint(const char *token, char out[24])
{
    char hex[SHA256_HEX_LEN];
    sha256_hex(token, strlen(token), hex);
    snprintf(out, 24, "sha256:%.16s", hex);
}

static int64_t managed_id(struct request *r)
{
    if (!r->srv->cfg.token) {
        reply_error(r, 403, "deleting and renaming games need the daemon "
                    "started with an upload token (--token-file)");
        return 0;
    }
    int64_t id = http_parse_id(r->params[0]);
    if (id == 0)
        reply_error(r, 404, "no such game (ids are positive integers)");
    return id;
}

void h_game_delete(struct request *r)
{
    struct err e;
    char fp[24];
    int64_t id = managed_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    token_fingerprint(r->srv->cfg.token, fp);
    struct store *w = server_writer(r->srv);
    enum status st = store_delete_game(w, id, (int64_t)time(NULL), fp, &e);
    server_writer_put(r->srv);
    if (st != ST_OK) {
        reply_status(r, st, &e);
        return;
    }
    struct buf b = BUF_INIT;
    buf_printf(&b, "{\"id\": %" PRId64 ", \"deleted\": true}", id);
    reply_json(r, 200, &b);
}

/* A name is one line of printable text: control characters would break
 * the search text (one name a line) and the list. */
static bool name_ok(const char *p, size_t len)
{
    if (len == 0 || len > NAME_MAX_LEN)
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
            return false;
    return true;
}

void h_game_rename(struct request *r)
{
    struct err e;
    int64_t id = managed_id(r);
    if (id == 0)
        return;
    const char *body = r->body.p ? r->body.p : "";
    size_t len = r->body.len;
    while (len > 0 && (body[len - 1] == '\n' || body[len - 1] == '\r'))
        len--;
    if (!name_ok(body, len)) {
        reply_error(r, 400, "the body must be the new name: 1 to 255 bytes "
                    "of text on one line");
        return;
    }
    char *name = ra_strndup(&r->arena, body, len);
    if (!buf_is_utf8(name)) {
        reply_error(r, 400, "the new name is not UTF-8");
        return;
    }
    err_clear(&e);
    struct store *w = server_writer(r->srv);
    enum status st = store_rename_game(w, id, name, &e);
    server_writer_put(r->srv);
    if (st != ST_OK) {
        reply_status(r, st, &e);
        return;
    }
    struct buf b = BUF_INIT;
    buf_printf(&b, "{\"id\": %" PRId64 ", \"name\": ", id);
    buf_json_string(&b, name);
    buf_puts(&b, "}");
    reply_json(r, 200, &b);
}
