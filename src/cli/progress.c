/* progress.c - see progress.h. */
#include "cli/progress.h"

#include <time.h>
#include <unistd.h>

#define BAR_WIDTH 24

FILE *progress_stream(FILE *errs, bool quiet)
{
    return !quiet && errs && isatty(fileno(errs)) ? errs : NULL;
}

double progress_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* "0:05", "12:34", "1:02:03" */
static void format_duration(double s, char *out, size_t len)
{
    unsigned long t = s < 0 ? 0 : s > 359999 ? 359999 : (unsigned long)(s + 0.5);
    if (t >= 3600)
        snprintf(out, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(out, len, "%lu:%02lu", t / 60, t % 60);
}

void progress_draw(FILE *f, const char *what, size_t done, size_t total,
                   double elapsed)
{
    char bar[BAR_WIDTH + 1];
    if (done > total)
        done = total;
    size_t fill = total ? done * BAR_WIDTH / total : BAR_WIDTH;
    for (size_t i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '-';
    bar[BAR_WIDTH] = '\0';
    fprintf(f, "\r[%s] %zu/%zu %s", bar, done, total, what);
    if (done > 0 && elapsed > 0) {
        double rate = (double)done / elapsed;
        char left[32];
        format_duration((double)(total - done) / rate, left, sizeof left);
        fprintf(f, rate >= 10 ? "  %.0f/s  %s left" : "  %.1f/s  %s left",
                rate, left);
    }
    fputs("\033[K", f);
    fflush(f);
}

void progress_start(struct progress *p, FILE *tty, const char *what,
                    size_t total, double now)
{
    p->tty = tty;
    p->what = what;
    p->total = total;
    p->start = p->last = now;
    p->drawn = false;
    if (tty && total > 0) { /* else the first update draws */
        progress_draw(tty, what, 0, total, 0);
        p->drawn = true;
    }
}

void progress_set_total(struct progress *p, size_t total)
{
    p->total = total;
}

void progress_update(struct progress *p, size_t done, double now)
{
    if (!p->tty || (done < p->total && now - p->last < PROGRESS_INTERVAL))
        return;
    progress_draw(p->tty, p->what, done, p->total, now - p->start);
    p->last = now;
    p->drawn = true;
}

void progress_end(struct progress *p)
{
    if (p->tty && p->drawn) {
        fputs("\r\033[K", p->tty);
        fflush(p->tty);
    }
    p->drawn = false;
}
