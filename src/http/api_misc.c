/* api_misc.c - players, statistics, health and metrics. */
#include <stdio.h>
#include <string.h>

#include "http/http_int.h"

typedef enum status (*store_read_fn)(struct store *s, struct buf *out,
                                     struct err *e);

static void read_reply(struct request *r, store_read_fn fn)
{
    struct buf b = BUF_INIT;
    struct err e;
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = fn(st, &b, &e);
    server_reader_put(r->srv, st);
    reply_read(r, s, &b, &e);
}

void h_players(struct request *r)
{
    read_reply(r, store_players_json);
}

void h_stats(struct request *r)
{
    read_reply(r, store_stats_json);
}

void h_player(struct request *r)
{
    struct buf b = BUF_INIT;
    struct err e;
    err_clear(&e);
    struct store *st = server_reader(r->srv);
    enum status s = store_player_json(st, r->params[0], &b, &e);
    server_reader_put(r->srv, st);
    reply_read(r, s, &b, &e);
}

void h_healthz(struct request *r)
{
    struct buf b = BUF_INIT;
    buf_puts(&b, "{\"status\": \"ok\"}");
    reply_json(r, 200, &b);
}

void h_upload_info(struct request *r)
{
    struct buf b = BUF_INIT;
    buf_printf(&b, "{\"max_bytes\": %zu, \"token_required\": %s, "
               "\"formats\": [\"jcz\", \"flierlog\"], \"gzip\": true, "
               "\"multipart\": true}",
               r->srv->cfg.max_body, r->srv->cfg.token ? "true" : "false");
    reply_json(r, 200, &b);
}

void h_metrics(struct request *r)
{
    struct buf b = BUF_INIT;
    struct store_counts games;
    struct err e;
    struct store *st = server_reader(r->srv);
    bool read = store_counts(st, &games, &e) == ST_OK;
    server_reader_put(r->srv, st);
    metrics_render(&r->srv->m, r->srv->replays, read ? &games : NULL, &b);
    buf_release(&r->out);
    r->out = b;
    r->status = 200;
    r->ctype = "text/plain; version=0.0.4; charset=utf-8";
}
