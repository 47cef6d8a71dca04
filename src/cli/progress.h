/* progress.h - the one progress display of the long subcommands (ingest,
 * reaudit, simulate, export, copy): on a terminal, one line redrawn in
 * place:
 *
 *   [##########--------------] 1200/3000 games  312/s  0:05 left
 *
 * and cleared at the end, so the summary that follows starts on a clean
 * line. Silent when stderr is not a terminal (a pipe, a log file, a
 * service's journal) or with --quiet: progress_stream() decides, and a
 * display without a stream does nothing.
 *
 * The clock is read here, in src/cli, never in src/core. Everything else
 * takes "now" (monotonic seconds) from the caller, so that a test can
 * draw frames at the times it likes; progress_clock() is the real one.
 * Internal to src/cli. */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Seconds between two frames: often enough to look alive, rarely enough
 * that drawing costs nothing next to the work. */
#define PROGRESS_INTERVAL 0.1

struct progress {
    FILE *tty;        /* NULL: silent */
    const char *what; /* what is counted: "games", "files"; static */
    size_t total;
    double start;     /* now at progress_start */
    double last;      /* now at the last frame */
    bool drawn;       /* a frame is on the line */
};

/* errs when it is a terminal and quiet is false, else NULL. */
FILE *progress_stream(FILE *errs, bool quiet);

/* Monotonic seconds (CLOCK_MONOTONIC). */
double progress_clock(void);

/* Starts a display of total items on tty (NULL: silent) and draws its
 * first frame. total may be 0 when it is not known yet: the first update
 * after progress_set_total() draws then. p is caller-owned; nothing to
 * release but progress_end. */
void progress_start(struct progress *p, FILE *tty, const char *what,
                    size_t total, double now);

/* The total, learnt late (or changed). */
void progress_set_total(struct progress *p, size_t total);

/* done items of total are finished: draws a frame if PROGRESS_INTERVAL
 * has passed since the last one, or when done reaches total. */
void progress_update(struct progress *p, size_t done, double now);

/* Clears the line if a frame is on it. */
void progress_end(struct progress *p);

/* One frame, from the start of the line: the bar, done/total and what,
 * and once a rate is known (some done, some time passed) the rate and
 * the time left ("m:ss", or "h:mm:ss" from an hour on). Ends by clearing
 * the rest of the line, in case the previous frame was longer. */
void progress_draw(FILE *f, const char *what, size_t done, size_t total,
                   double elapsed);

#endif
