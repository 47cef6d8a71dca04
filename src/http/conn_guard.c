/* conn_guard.c - the request deadline, against slowloris clients.
 *
 * libmicrohttpd's connection timeout (--timeout) is an idle timeout:
 * every byte received starts it again, so a client that trickles its
 * headers a byte a second holds a connection for ever, and a few
 * addresses hold all of them. So every connection also gets a
 * deadline: from its opening, or from the end of its previous request,
 * it has cfg.timeout_s + cfg.request_timeout_s seconds to deliver a whole
 * request (head and body). While our handler answers there is no
 * deadline (an upload may wait for the writer).
 *
 * A thread checks the deadlines five times a second and shuts a late
 * connection's socket down; libmicrohttpd then sees the stream end and
 * closes the connection itself. The descriptor stays libmicrohttpd's:
 * it is shut down only under glock while the connection is registered,
 * and libmicrohttpd unregisters it (guard_close) before closing it. */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "http/http_int.h"

#define GUARD_TICK_MS 200

static uint64_t budget_us(const struct server *s)
{
    return ((uint64_t)s->cfg.timeout_s + s->cfg.request_timeout_s) *
           1000000u;
}

void guard_open(struct server *s, struct conn_state *c)
{
    pthread_mutex_lock(&s->glock);
    c->deadline_us = http_now_us() + budget_us(s);
    c->prev = NULL;
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    pthread_mutex_unlock(&s->glock);
}

void guard_close(struct server *s, struct conn_state *c)
{
    pthread_mutex_lock(&s->glock);
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    pthread_mutex_unlock(&s->glock);
}

void guard_set(struct server *s, struct conn_state *c, bool waiting)
{
    pthread_mutex_lock(&s->glock);
    c->deadline_us = waiting ? http_now_us() + budget_us(s) : 0;
    pthread_mutex_unlock(&s->glock);
}

/* Shuts down the connections past their deadline (under glock). */
static void cut_late(struct server *s)
{
    uint64_t now = http_now_us();
    for (struct conn_state *c = s->conns; c; c = c->next) {
        if (c->deadline_us == 0 || now < c->deadline_us || c->cut)
            continue;
        c->cut = true;
        shutdown(c->fd, SHUT_RDWR);
        if (s->cfg.log)
            fprintf(s->cfg.log,
                    "flierd: http: closed a connection of %s: no whole "
                    "request within %u s (--timeout %u + --request-timeout "
                    "%u)\n",
                    c->addr, s->cfg.timeout_s + s->cfg.request_timeout_s,
                    s->cfg.timeout_s, s->cfg.request_timeout_s);
    }
}

static void *guard_main(void *arg)
{
    struct server *s = arg;
    pthread_mutex_lock(&s->glock);
    while (!s->guard_stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += GUARD_TICK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&s->gwake, &s->glock, &until);
        if (!s->guard_stopping)
            cut_late(s);
    }
    pthread_mutex_unlock(&s->glock);
    return NULL;
}

enum status guard_start(struct server *s, struct err *e)
{
    if (s->cfg.request_timeout_s == 0)
        return ST_OK; /* no deadline asked for */
    int rc = pthread_create(&s->guard_thread, NULL, guard_main, s);
    if (rc != 0)
        return err_set(e, ST_IO, "cannot start the connection guard: %s",
                       strerror(rc));
    s->guarding = true;
    return ST_OK;
}

void guard_stop(struct server *s)
{
    if (!s->guarding)
        return;
    pthread_mutex_lock(&s->glock);
    s->guard_stopping = true;
    pthread_cond_signal(&s->gwake);
    pthread_mutex_unlock(&s->glock);
    pthread_join(s->guard_thread, NULL);
    s->guarding = false;
}
