/* test_replay_cache.c - the rendered replays' LRU: hits only for the same
 * upload, a newer rendering replaces the older, the bytes stay within
 * the bound by dropping the least recently used, and the counters say
 * so. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "http/replay_cache.h"

static void sha_of(int k, char sha[SHA256_HEX_LEN])
{
    snprintf(sha, SHA256_HEX_LEN, "%064d", k);
}

static bool get(struct replay_cache *c, int64_t id, int k, const char *want)
{
    char sha[SHA256_HEX_LEN];
    struct buf b = BUF_INIT;
    sha_of(k, sha);
    bool hit = replay_cache_get(c, id, sha, &b);
    if (hit)
        assert_string_equal(b.p, want);
    else
        assert_int_equal(b.len, 0);
    buf_release(&b);
    return hit;
}

static void put(struct replay_cache *c, int64_t id, int k, const char *data)
{
    char sha[SHA256_HEX_LEN];
    sha_of(k, sha);
    replay_cache_put(c, id, sha, data, strlen(data));
}

static void test_hit_only_for_the_same_upload(void **state)
{
    (void)state;
    struct replay_cache *c = replay_cache_new(1u << 20);
    struct replay_cache_stats st;
    assert_false(get(c, 1, 1, NULL));
    put(c, 1, 1, "{\"turns\":1}");
    assert_true(get(c, 1, 1, "{\"turns\":1}"));
    assert_false(get(c, 1, 2, NULL)); /* the game changed: a live move */
    assert_false(get(c, 2, 1, NULL)); /* another game, same bytes */
    put(c, 1, 2, "{\"turns\":2}");    /* replaces the older rendering */
    assert_true(get(c, 1, 2, "{\"turns\":2}"));
    assert_false(get(c, 1, 1, NULL));
    replay_cache_stats(c, &st);
    assert_int_equal(st.hits, 2);
    assert_int_equal(st.misses, 4);
    assert_int_equal(st.entries, 1);
    assert_int_equal(st.bytes, strlen("{\"turns\":2}"));
    replay_cache_free(c);
}

static void test_bytes_bounded_lru_first_out(void **state)
{
    (void)state;
    char data[1001];
    memset(data, 'x', 1000);
    data[1000] = '\0';
    struct replay_cache *c = replay_cache_new(10000); /* 10 entries */
    struct replay_cache_stats st;
    for (int id = 1; id <= 10; id++)
        put(c, id, id, data);
    assert_true(get(c, 1, 1, data)); /* 1 is now the most recent */
    put(c, 11, 11, data);            /* 2, the least recent, goes */
    assert_false(get(c, 2, 2, NULL));
    assert_true(get(c, 1, 1, data));
    assert_true(get(c, 3, 3, data));
    assert_true(get(c, 11, 11, data));
    replay_cache_stats(c, &st);
    assert_int_equal(st.entries, 10);
    assert_int_equal(st.bytes, 10000);
    assert_int_equal(st.evictions, 1);
    /* many more than fit, with the table's tombstones: still bounded */
    for (int id = 100; id < 5000; id++)
        put(c, id, id, data);
    replay_cache_stats(c, &st);
    assert_int_equal(st.entries, 10);
    assert_true(st.bytes <= st.max_bytes);
    for (int id = 4990; id < 5000; id++)
        assert_true(get(c, id, id, data));
    assert_false(get(c, 4989, 4989, NULL));
    replay_cache_free(c);
}

static void test_oversized_and_disabled(void **state)
{
    (void)state;
    char big[2001];
    memset(big, 'y', 2000);
    big[2000] = '\0';
    struct replay_cache *c = replay_cache_new(10000);
    put(c, 1, 1, big); /* more than an eighth of the cache: not kept */
    assert_false(get(c, 1, 1, NULL));
    replay_cache_free(c);
    c = replay_cache_new(0); /* --replay-cache 0 */
    put(c, 1, 1, "{}");
    assert_false(get(c, 1, 1, NULL));
    replay_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_only_for_the_same_upload),
        cmocka_unit_test(test_bytes_bounded_lru_first_out),
        cmocka_unit_test(test_oversized_and_disabled),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
