/* test_progress.c - the progress display of the long subcommands
 * (src/cli/progress.c): frames drawn into a memory stream at the times
 * the test picks, the throttle, and the terminal test against a real
 * pseudo-terminal and a pipe. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/progress.h"

/* A stream into memory, and what was written to it so far. */
struct mem {
    FILE *f;
    char *p;
    size_t len;
};

static void mem_open(struct mem *m)
{
    m->p = NULL;
    m->len = 0;
    m->f = open_memstream(&m->p, &m->len);
    assert_non_null(m->f);
}

static const char *mem_text(struct mem *m)
{
    fflush(m->f);
    return m->p;
}

static void mem_close(struct mem *m)
{
    fclose(m->f);
    free(m->p);
}

static const struct {
    size_t done, total;
    double elapsed;
    const char *frame;
} frames[] = {
    { 0, 300, 0, "\r[------------------------] 0/300 games\033[K" },
    /* no rate before anything is done */
    { 0, 300, 5, "\r[------------------------] 0/300 games\033[K" },
    { 150, 300, 0.5,
      "\r[############------------] 150/300 games  300/s  0:01 left\033[K" },
    { 1, 3, 2, "\r[########----------------] 1/3 games  0.5/s  0:04 left\033[K" },
    { 100, 7300, 10,
      "\r[------------------------] 100/7300 games  10/s  12:00 left\033[K" },
    { 1, 3601, 1,
      "\r[------------------------] 1/3601 games  1.0/s  1:00:00 left\033[K" },
    { 300, 300, 2,
      "\r[########################] 300/300 games  150/s  0:00 left\033[K" },
    /* more than announced: shown as done */
    { 310, 300, 2,
      "\r[########################] 300/300 games  150/s  0:00 left\033[K" },
    { 0, 0, 0, "\r[########################] 0/0 games\033[K" },
};

static void test_frames(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
        struct mem m;
        mem_open(&m);
        progress_draw(m.f, "games", frames[i].done, frames[i].total,
                      frames[i].elapsed);
        assert_string_equal(mem_text(&m), frames[i].frame);
        mem_close(&m);
    }
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A frame at the start, then at most one per PROGRESS_INTERVAL, always
 * the last one; the end clears the line. */
static void test_throttle(void **state)
{
    struct mem m;
    struct progress p;
    (void)state;
    mem_open(&m);
    progress_start(&p, m.f, "files", 10, 100.0);
    assert_int_equal(count(mem_text(&m), "0/10 files"), 1);
    progress_update(&p, 1, 100.01);
    progress_update(&p, 2, 100.05);
    assert_null(strstr(mem_text(&m), "2/10"));
    progress_update(&p, 3, 100.2);
    assert_non_null(strstr(mem_text(&m), "3/10 files  15/s  0:00 left"));
    progress_update(&p, 4, 100.21);
    assert_null(strstr(mem_text(&m), "4/10"));
    progress_update(&p, 10, 100.22); /* the last: at once */
    assert_non_null(strstr(mem_text(&m), "10/10 files"));
    progress_end(&p);
    const char *t = mem_text(&m);
    assert_int_equal(count(t, "\r["), 3);
    assert_string_equal(t + strlen(t) - 4, "\r\033[K");
    assert_null(strchr(t, '\n')); /* one line, drawn over */
    mem_close(&m);
}

/* A total learnt late: nothing until it is known. */
static void test_total_later(void **state)
{
    struct mem m;
    struct progress p;
    (void)state;
    mem_open(&m);
    progress_start(&p, m.f, "games", 0, 0);
    assert_int_equal(m.len, 0);
    progress_set_total(&p, 4);
    progress_update(&p, 1, 1.0);
    assert_non_null(strstr(mem_text(&m), "1/4 games"));
    progress_end(&p);
    mem_close(&m);
}

/* Without a stream nothing is written, and nothing fails. */
static void test_silent(void **state)
{
    struct progress p;
    (void)state;
    progress_start(&p, NULL, "games", 10, 0);
    progress_update(&p, 5, 1);
    progress_update(&p, 10, 2);
    progress_end(&p);
    /* a stream that is no terminal (memory, a pipe) or --quiet: none */
    struct mem m;
    mem_open(&m);
    assert_null(progress_stream(m.f, false));
    mem_close(&m);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    FILE *w = fdopen(fds[1], "w");
    assert_null(progress_stream(w, false));
    fclose(w);
    close(fds[0]);
}

/* A pseudo-terminal is a terminal: the display draws there, unless
 * quiet, and the bytes reach the other side. */
static void test_pty(void **state)
{
    (void)state;
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(master >= 0);
    assert_int_equal(grantpt(master), 0);
    assert_int_equal(unlockpt(master), 0);
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    FILE *tty = fdopen(slave, "w");
    assert_non_null(tty);
    assert_ptr_equal(progress_stream(tty, false), tty);
    assert_null(progress_stream(tty, true));

    struct progress p;
    progress_start(&p, progress_stream(tty, false), "games", 2, 0);
    progress_update(&p, 2, 1);
    progress_end(&p);
    char got[512];
    size_t n = 0;
    struct pollfd pfd = { master, POLLIN, 0 };
    while (n < sizeof got - 1 && poll(&pfd, 1, 1000) > 0) {
        ssize_t k = read(master, got + n, sizeof got - 1 - n);
        if (k <= 0)
            break;
        n += (size_t)k;
        got[n] = '\0';
        if (strstr(got, "2/2 games  2.0/s  0:00 left\033[K\r\033[K"))
            break;
    }
    got[n] = '\0';
    assert_non_null(strstr(got, "0/2 games"));
    assert_non_null(strstr(got, "2/2 games  2.0/s  0:00 left\033[K\r\033[K"));
    fclose(tty);
    close(master);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_throttle),
        cmocka_unit_test(test_total_later),
        cmocka_unit_test(test_silent),
        cmocka_unit_test(test_pty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
