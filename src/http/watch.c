/* watch.c - spectators waiting for a live game's next move: long polling,
 * GET /api/games/{id}/wait?version=V (docs/api.md).
 *
 * A spectator's page holds one request open per game; the answer comes
 * when the game changes (a live move, an undo, the finish) or after
 * WATCH_SECONDS, and the page asks again. Long polling rather than
 * Server-Sent Events: an answer is a whole ordinary reply, so the
 * connection guard, the rate limits and a proxy's buffering see nothing
 * new, and a page that lost the connection simply asks again.
 *
 * A waiting request is suspended (no pool thread is held); this thread
 * keeps them and resumes one when its game is told of a change
 * (watch_notify(), from the writes' thread after a live write) or its
 * time is up. Resumed, the request's handler runs again on its pool
 * thread and answers the game's version as it is then. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "http/http_int.h"

/* Under the usual 30 s idle timeouts of proxies and of --timeout. */
#define WATCH_SECONDS 20

static void *watch_main(void *arg)
{
    struct server *s = arg;
    pthread_mutex_lock(&s->wlist_lock);
    while (!s->wlist_stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1; /* a waiting request's time is checked each second */
        pthread_cond_timedwait(&s->wlist_wake, &s->wlist_lock, &until);
        uint64_t now = http_now_us();
        for (struct request **p = &s->wlist; *p;) {
            struct request *r = *p;
            if (r->watch_changed || r->watch_until_us <= now ||
                s->wlist_stopping) {
                *p = r->w_next;
                server_resume(r);
            } else {
                p = &r->w_next;
            }
        }
    }
    for (struct request *r = s->wlist; r; r = r->w_next)
        server_resume(r);
    s->wlist = NULL;
    pthread_mutex_unlock(&s->wlist_lock);
    return NULL;
}

enum status watch_start(struct server *s, struct err *e)
{
    if (pthread_create(&s->wlist_thread, NULL, watch_main, s) != 0)
        return err_set(e, ST_IO, "cannot start the spectators' thread: %s",
                       strerror(errno));
    s->wlist_running = true;
    return ST_OK;
}

bool watch_park(struct request *r, int64_t game)
{
    struct server *s = r->srv;
    pthread_mutex_lock(&s->wlist_lock);
    if (!s->wlist_running || s->wlist_stopping) {
        pthread_mutex_unlock(&s->wlist_lock);
        return false;
    }
    /* suspended before the thread can see it: its resume never comes
     * first */
    server_suspend(r);
    r->watched = true;
    r->watch_game = game;
    r->watch_changed = false;
    r->watch_until_us = http_now_us() + WATCH_SECONDS * 1000000ull;
    r->w_next = s->wlist;
    s->wlist = r;
    pthread_mutex_unlock(&s->wlist_lock);
    return true;
}

void watch_notify(struct server *s, int64_t game)
{
    bool any = false;
    pthread_mutex_lock(&s->wlist_lock);
    for (struct request *r = s->wlist; r; r = r->w_next)
        if (r->watch_game == game) {
            r->watch_changed = true;
            any = true;
        }
    if (any)
        pthread_cond_signal(&s->wlist_wake);
    pthread_mutex_unlock(&s->wlist_lock);
}

void watch_stop(struct server *s)
{
    if (!s->wlist_running)
        return;
    pthread_mutex_lock(&s->wlist_lock);
    s->wlist_stopping = true;
    pthread_cond_signal(&s->wlist_wake);
    pthread_mutex_unlock(&s->wlist_lock);
    pthread_join(s->wlist_thread, NULL);
    pthread_mutex_lock(&s->wlist_lock);
    s->wlist_running = false;
    pthread_mutex_unlock(&s->wlist_lock);
}
