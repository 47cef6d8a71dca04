/* lowprio.c - uploads run behind the reads.
 *
 * Storing an upload (parse, audit, render, compress, and a transaction
 * of its own, whose pages written to the WAL are most of it) takes
 * about a millisecond of CPU; a replay the cache misses takes a fifth of
 * that. On a machine whose cores were all busy, uploads on an equal
 * footing took their share from the reads, and the replays' p99 went
 * past 5 ms. So uploads run on threads of their own at a lower priority
 * (a higher nice value, cfg.upload_nice): on idle cores an upload runs
 * as fast as before; when reads wait, they come first. Its commit runs
 * there too (only the parse and audit at the lower priority left the
 * reads' p99 where it was): a live move, which takes the same writer's
 * lock at the normal priority, may wait for one such commit.
 *
 * The request's thread waits for its job (libmicrohttpd runs a thread
 * per connection, so no other connection waits with it). With
 * upload_nice 0 there are no such threads and the work runs inline. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "http/http_int.h"
#include "util/xalloc.h"

struct low_job {
    void (*fn)(void *arg);
    void *arg;
    bool done;
    struct low_job *next;
};

static void *low_main(void *arg)
{
    struct server *s = arg;
    /* Linux: the nice value is the calling thread's alone. Raising it is
     * always allowed; failing leaves the thread at the normal priority,
     * which is only slower for the reads. */
    (void)setpriority(PRIO_PROCESS, 0, (int)s->cfg.upload_nice);
    pthread_mutex_lock(&s->low_lock);
    for (;;) {
        while (!s->low_head && !s->low_stopping)
            pthread_cond_wait(&s->low_wake, &s->low_lock);
        if (!s->low_head)
            break; /* stopping, and nothing left to do */
        struct low_job *j = s->low_head;
        s->low_head = j->next;
        if (!s->low_head)
            s->low_tail = NULL;
        pthread_mutex_unlock(&s->low_lock);
        j->fn(j->arg);
        pthread_mutex_lock(&s->low_lock);
        j->done = true;
        pthread_cond_broadcast(&s->low_done);
    }
    pthread_mutex_unlock(&s->low_lock);
    return NULL;
}

enum status low_start(struct server *s, struct err *e)
{
    pthread_mutex_init(&s->low_lock, NULL);
    pthread_cond_init(&s->low_wake, NULL);
    pthread_cond_init(&s->low_done, NULL);
    s->low_ready = true;
    if (s->cfg.upload_nice == 0)
        return ST_OK;
    /* as many as the readers: uploads in parallel as before */
    s->low_threads = xcalloc(s->cfg.threads, sizeof *s->low_threads);
    for (unsigned i = 0; i < s->cfg.threads; i++) {
        int rc = pthread_create(&s->low_threads[i], NULL, low_main, s);
        if (rc != 0)
            return err_set(e, ST_IO, "cannot start the upload threads: %s",
                           strerror(rc));
        s->n_low++;
    }
    return ST_OK;
}

void low_run(struct server *s, void (*fn)(void *arg), void *arg)
{
    if (s->n_low == 0) {
        fn(arg);
        return;
    }
    struct low_job j = { fn, arg, false, NULL };
    pthread_mutex_lock(&s->low_lock);
    if (s->low_tail)
        s->low_tail->next = &j;
    else
        s->low_head = &j;
    s->low_tail = &j;
    pthread_cond_signal(&s->low_wake);
    while (!j.done)
        pthread_cond_wait(&s->low_done, &s->low_lock);
    pthread_mutex_unlock(&s->low_lock);
}

void low_stop(struct server *s)
{
    if (!s->low_ready)
        return;
    pthread_mutex_lock(&s->low_lock);
    s->low_stopping = true;
    pthread_cond_broadcast(&s->low_wake);
    pthread_mutex_unlock(&s->low_lock);
    for (size_t i = 0; i < s->n_low; i++)
        pthread_join(s->low_threads[i], NULL);
    free(s->low_threads);
    pthread_mutex_destroy(&s->low_lock);
    pthread_cond_destroy(&s->low_wake);
    pthread_cond_destroy(&s->low_done);
    s->low_ready = false;
}
