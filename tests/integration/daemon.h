/* daemon.h - runs `flierd serve --listen 127.0.0.1:0 --db DB ...` as a
 * child process for the integration tests. Readiness is the "listening on
 * http://127.0.0.1:PORT" line on its stdout (never a sleep); its stderr
 * (the request log, spool lines) is collected by a thread, and a test can
 * wait for a line to appear there. */
#ifndef IT_DAEMON_H
#define IT_DAEMON_H
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "util/buf.h"

struct daemon {
    pid_t pid;
    unsigned port;
    int out_fd, err_fd;
    pthread_t reader;
    pthread_mutex_t lock;
    pthread_cond_t grew;
    struct buf err_text; /* all of stderr so far (under lock) */
    bool err_eof;
};

/* Starts flierd serve on db with the extra arguments (NULL-terminated,
 * may be NULL) and waits up to 30 s for the listening line. Returns
 * false (and leaves nothing running) when it does not come. */
bool daemon_start(struct daemon *d, const char *db, const char *const *extra);
/* The same, run in the folder cwd (NULL: ours): a daemon that must find
 * nothing beside it, such as the dashboard built in. */
bool daemon_start_in(struct daemon *d, const char *cwd, const char *db,
                     const char *const *extra);
/* Waits up to timeout_ms for needle to appear in stderr. */
bool daemon_wait_log(struct daemon *d, const char *needle, int timeout_ms);
/* SIGTERM, then waits for the exit. Returns the exit status, or 128 +
 * the signal that killed it. Prints the daemon's stderr to ours. */
int daemon_stop(struct daemon *d);

#endif
