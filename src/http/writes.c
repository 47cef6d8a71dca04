/* writes.c - the write requests' own thread.
 *
 * A write (an upload, a live game's move) parses, audits and commits:
 * milliseconds of CPU, a wait for the writer's lock, and the commit's
 * I/O. libmicrohttpd's pool threads keep the connections they accept, so
 * a write run on one would hold up every read on its thread's other
 * connections (replays with uploads going on, two cores: p99 9.5-11.6 ms
 * with writes on the pool, 8.0-9.4 ms off it). Instead the pool thread
 * suspends the connection and queues the request here; this thread runs
 * the handler, then resumes the connection, and the pool thread sends
 * the reply.
 *
 * The thread runs at a lower priority than the pool: a person browsing
 * feels a read's latency, while an upload's answer can wait a few
 * milliseconds. Writes are serialised by the writer's lock anyway, so one
 * thread loses nothing. The queue holds at most one request a connection
 * (a connection waits for its answer), so the connection limit bounds it. */
#define _GNU_SOURCE /* syscall(): a thread's own id, for its nice value */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "http/http_int.h"

/* Nice 5: under a full read load on two cores uploads still went through
 * at about a hundred a second (nice 10: about thirty). */
#define WRITES_NICE 5

void http_lower_priority(void)
{
    /* Linux's nice is per thread; failure only costs the read latency. */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), WRITES_NICE);
}

static void reply_stopping(struct request *r)
{
    struct err e;
    err_set(&e, ST_BUSY, "the server is stopping");
    reply_status(r, ST_BUSY, &e);
}

static void *writes_main(void *arg)
{
    struct server *s = arg;
    http_lower_priority();
    pthread_mutex_lock(&s->qlock);
    for (;;) {
        while (!s->q_head && !s->q_stopping)
            pthread_cond_wait(&s->qwake, &s->qlock);
        struct request *r = s->q_head;
        if (!r)
            break; /* stopping, and nothing is left */
        s->q_head = r->q_next;
        if (!s->q_head)
            s->q_tail = NULL;
        bool stopping = s->q_stopping;
        pthread_mutex_unlock(&s->qlock);
        if (stopping)
            reply_stopping(r);
        else
            r->handler(r);
        server_resume(r);
        pthread_mutex_lock(&s->qlock);
    }
    pthread_mutex_unlock(&s->qlock);
    return NULL;
}

enum status writes_start(struct server *s, struct err *e)
{
    if (pthread_create(&s->q_thread, NULL, writes_main, s) != 0)
        return err_set(e, ST_IO, "cannot start the writes' thread: %s",
                       strerror(errno));
    s->q_running = true;
    return ST_OK;
}

bool writes_submit(struct request *r)
{
    struct server *s = r->srv;
    pthread_mutex_lock(&s->qlock);
    if (!s->q_running || s->q_stopping) {
        pthread_mutex_unlock(&s->qlock);
        reply_stopping(r);
        return false;
    }
    /* Suspended before the thread can see it, so that its resume can
     * never come first. */
    server_suspend(r);
    r->q_next = NULL;
    if (s->q_tail)
        s->q_tail->q_next = r;
    else
        s->q_head = r;
    s->q_tail = r;
    pthread_cond_signal(&s->qwake);
    pthread_mutex_unlock(&s->qlock);
    return true;
}

void writes_stop(struct server *s)
{
    if (!s->q_running)
        return;
    pthread_mutex_lock(&s->qlock);
    s->q_stopping = true;
    pthread_cond_signal(&s->qwake);
    pthread_mutex_unlock(&s->qlock);
    pthread_join(s->q_thread, NULL);
    /* under the lock: a pool thread may still read it in writes_submit()
     * until libmicrohttpd stops */
    pthread_mutex_lock(&s->qlock);
    s->q_running = false;
    pthread_mutex_unlock(&s->qlock);
}
