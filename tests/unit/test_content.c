/* test_content.c - a game's content digest: the same for a .jcz, its
 * flierlog and back (flierd convert's writers), over every sample; another
 * for a game that differs by one roll, one name or one seat order. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content.h"
#include "mlog/mlog.h"

#ifndef FLIERD_SAMPLES_DIR
#error "FLIERD_SAMPLES_DIR must be defined"
#endif

static char *slurp(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *out_len = (size_t)n;
    return p;
}

/* The digest of the game data holds; ST_UNSUPPORTED: none. */
static enum status digest_of(const char *data, size_t len,
                             char out[SHA256_HEX_LEN], struct game_log *l)
{
    enum mlog_format fmt;
    struct err e = { 0 };
    game_log_init(l);
    enum status st = mlog_parse(data, len, l, &fmt, &e);
    if (st == ST_OK)
        game_log_content_sha(l, out);
    return st;
}

typedef void (*writer_fn)(const struct game_log *l, struct buf *out);

static void check_file(const char *path)
{
    static const writer_fn writers[] = { mlog_write_flierlog,
                                         mlog_write_jcz,
                                         mlog_write_flierlog_ndjson };
    size_t len = 0;
    char *data = slurp(path, &len);
    char want[SHA256_HEX_LEN], got[SHA256_HEX_LEN];
    struct game_log l, back;
    if (digest_of(data, len, want, &l) != ST_OK) {
        game_log_release(&l);
        free(data);
        return;
    }
    for (size_t w = 0; w < sizeof writers / sizeof *writers; w++) {
        struct buf out = BUF_INIT;
        writers[w](&l, &out);
        assert_int_equal(digest_of(out.p, out.len, got, &back), ST_OK);
        if (strcmp(want, got) != 0)
            fail_msg("%s: writer %zu gives another content digest", path, w);
        game_log_release(&back);
        buf_release(&out);
    }
    game_log_release(&l);
    free(data);
}

static void test_formats_agree(void **state)
{
    (void)state;
    DIR *d = opendir(FLIERD_SAMPLES_DIR);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de = readdir(d); de; de = readdir(d)) {
        const char *dot = strrchr(de->d_name, '.');
        if (!dot || (strcmp(dot, ".jcz") && strcmp(dot, ".flierlog")))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FLIERD_SAMPLES_DIR, de->d_name);
        check_file(path);
        n++;
    }
    closedir(d);
    assert_true(n > 10);
}

/* The sample pair c2-2p.jcz and c2-2p.flierlog is one game in two files. */
static void test_sample_pair(void **state)
{
    (void)state;
    char a[SHA256_HEX_LEN], b[SHA256_HEX_LEN];
    struct game_log la, lb;
    size_t n1, n2;
    char *j = slurp(FLIERD_SAMPLES_DIR "/c2-2p.jcz", &n1);
    char *f = slurp(FLIERD_SAMPLES_DIR "/c2-2p.flierlog", &n2);
    assert_int_equal(digest_of(j, n1, a, &la), ST_OK);
    assert_int_equal(digest_of(f, n2, b, &lb), ST_OK);
    assert_string_equal(a, b);
    game_log_release(&la);
    game_log_release(&lb);
    free(j);
    free(f);
}

/* Any change of the setup or of one move is another game. */
static void test_changes_differ(void **state)
{
    (void)state;
    size_t n;
    char *j = slurp(FLIERD_SAMPLES_DIR "/c2-2p.jcz", &n);
    char base[SHA256_HEX_LEN], got[SHA256_HEX_LEN];
    struct game_log l;
    assert_int_equal(digest_of(j, n, base, &l), ST_OK);
    size_t flight = l.n_moves;
    for (size_t i = 0; i < l.n_moves; i++)
        if (l.moves[i].roll > 0) {
            flight = i;
            break;
        }
    assert_true(flight < l.n_moves);
    l.moves[flight].roll = l.moves[flight].roll % 3 + 1;
    game_log_content_sha(&l, got);
    assert_string_not_equal(base, got);
    l.moves[flight].roll = (l.moves[flight].roll + 1) % 3 + 1; /* back */
    game_log_content_sha(&l, got);
    assert_string_equal(base, got);
    l.moves[flight].src += 7; /* where it was in the file: no matter */
    game_log_content_sha(&l, got);
    assert_string_equal(base, got);
    char keep[LOG_NAME_MAX];
    memcpy(keep, l.names[0], sizeof keep);
    memcpy(l.names[0], l.names[1], sizeof keep);
    memcpy(l.names[1], keep, sizeof keep); /* seats swapped */
    game_log_content_sha(&l, got);
    assert_string_not_equal(base, got);
    game_log_release(&l);
    free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_agree),
        cmocka_unit_test(test_sample_pair),
        cmocka_unit_test(test_changes_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
