/* api_live.c - live recording: POST /api/live (the setup), one turn at a
 * time to /api/live/{id}/moves, /api/live/{id}/finish. Every turn is
 * validated by ingest before it is stored; an illegal one is refused
 * with 422, its rule id and message, and leaves the game unchanged. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/options.h"
#include "http/http_int.h"
#include "ingest/ingest.h"

/* The rule id at the start of "RULE_ID: message", copied to out. */
static bool rule_prefix(const char *msg, char *out, size_t len)
{
    size_t n = 0;
    while (isupper((unsigned char)msg[n]) || msg[n] == '_' ||
           isdigit((unsigned char)msg[n]))
        n++;
    if (n == 0 || n >= len || msg[n] != ':')
        return false;
    memcpy(out, msg, n);
    out[n] = '\0';
    return true;
}

static int64_t live_id(struct request *r)
{
    int64_t id = http_parse_id(r->params[0]);
    if (id == 0)
        reply_error(r, 404, "no such live game (ids are positive integers)");
    return id;
}

void h_live_start(struct request *r)
{
    struct err e;
    int64_t id = 0;

    err_clear(&e);
    struct store *w = server_writer(r->srv);
    enum status st = ingest_live_start(w, r->body.p ? r->body.p : "",
                                       r->body.len, (int64_t)time(NULL), &id,
                                       &e);
    server_writer_put(r->srv);
    if (st != ST_OK) {
        reply_status(r, st, &e);
        return;
    }
    struct buf b = BUF_INIT;
    char *url = ra_alloc(&r->arena, 48);
    snprintf(url, 48, "/api/games/%" PRId64, id);
    buf_printf(&b, "{\"id\": %" PRId64 ", \"url\": \"%s\", \"moves\": "
               "\"/api/live/%" PRId64 "/moves\", \"finish\": "
               "\"/api/live/%" PRId64 "/finish\"}", id, url, id, id);
    req_add_header(r, "Location", url);
    reply_json(r, 201, &b);
}

void h_live_move(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    int64_t id = live_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    struct store *w = server_writer(r->srv);
    enum status st = ingest_live_move(w, id, r->body.p ? r->body.p : "",
                                      r->body.len, (int64_t)time(NULL), &b,
                                      &e);
    server_writer_put(r->srv);
    if (st == ST_OK) {
        atomic_fetch_add(&r->srv->m.live_moves, 1);
        watch_notify(r->srv, id);
        reply_json(r, 200, &b);
    } else if (st == ST_RULE) {
        char rule[48];
        atomic_fetch_add(&r->srv->m.live_refused, 1);
        reply_error_rule(r, 422, rule_prefix(e.msg, rule, sizeof rule)
                                     ? rule : NULL, e.msg);
    } else {
        reply_status(r, st, &e);
    }
    buf_release(&b);
}

void h_live_finish(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    int64_t id = live_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    struct store *w = server_writer(r->srv);
    enum status st = ingest_live_finish(w, id, (int64_t)time(NULL), &b, &e);
    server_writer_put(r->srv);
    if (st == ST_OK) {
        watch_notify(r->srv, id);
        reply_json(r, 200, &b);
    } else {
        reply_status(r, st, &e);
    }
    buf_release(&b);
}

/* GET /api/live/{id}/options?tile=&at=&rot=&fly=&roll=: the next turn's
 * options, each parameter a step of the turn already chosen; or
 * ?turn=ENTRY: the turn so far as a flierlog turn entry. */
void h_live_options(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    struct options_query q;
    int64_t id = live_id(r);
    if (id == 0)
        return;
    err_clear(&e);
    if (options_query_parse(&q, req_query(r, "tile"), req_query(r, "at"),
                            req_query(r, "rot"), req_query(r, "fly"),
                            req_query(r, "roll"), &e) != ST_OK) {
        reply_error(r, 400, e.msg);
        return;
    }
    const char *turn = req_query(r, "turn");
    if (turn && q.tile >= 0) {
        reply_error(r, 400, "turn: the turn so far replaces tile, at, rot, "
                    "fly and roll; send one or the others");
        return;
    }
    struct store *st = server_reader(r->srv);
    enum status s = ingest_live_options(st, id, &q, turn,
                                        turn ? strlen(turn) : 0, &b, &e);
    server_reader_put(r->srv, st);
    if (s == ST_RULE) {
        char rule[48];
        reply_error_rule(r, 422, rule_prefix(e.msg, rule, sizeof rule)
                                     ? rule : NULL, e.msg);
        buf_release(&b);
        return;
    }
    reply_read(r, s, &b, &e);
}

/* POST /api/live/{id}/undo[?turn=N]: the last turn taken back. */
void h_live_undo(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    int64_t id = live_id(r);
    if (id == 0)
        return;
    const char *t = req_query(r, "turn");
    int64_t turn = t ? http_parse_id(t) : 0;
    if (t && turn == 0) {
        reply_error(r, 400, "turn: expected the number of the last turn "
                    "(1, 2, ...)");
        return;
    }
    err_clear(&e);
    struct store *w = server_writer(r->srv);
    enum status st = ingest_live_undo(w, id, (int)(turn > 100000 ? -2 : turn),
                                      (int64_t)time(NULL), &b, &e);
    server_writer_put(r->srv);
    if (st == ST_OK) {
        watch_notify(r->srv, id);
        reply_json(r, 200, &b);
    } else {
        reply_status(r, st, &e);
    }
    buf_release(&b);
}

/* GET /api/games/{id}/wait?version=V: the game's version (its upload's
 * fingerprint, 16 hex digits) and whether it is live, at once when it is
 * not V or the game is not live, else when it changes or after a while
 * (watch.c): a spectator's page asks again with what it got. */
void h_game_wait(struct request *r)
{
    struct err e;
    char sha[65];
    bool live = false;
    int64_t id = http_parse_id(r->params[0]);
    if (id == 0) {
        reply_error(r, 404, "no such game (ids are positive integers)");
        return;
    }
    const char *version = req_query(r, "version");
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = store_game_sha(st, id, sha, &e);
    if (s == ST_OK)
        s = store_game_is_live(st, id, &live, &e);
    server_reader_put(r->srv, st);
    if (s != ST_OK) {
        reply_status(r, s, &e);
        return;
    }
    sha[16] = '\0';
    if (!r->watched && live && version && strcmp(version, sha) == 0 &&
        watch_park(r, id))
        return; /* answered when its game changes or its time is up */
    struct buf b = BUF_INIT;
    buf_printf(&b, "{\"game\": %" PRId64 ", \"version\": \"%s\", "
               "\"live\": %s}", id, sha, live ? "true" : "false");
    reply_json(r, 200, &b);
}
