/* test_ratelimit.c - the per-client token buckets of src/http/ratelimit.c
 * on a clock of our own (times are arguments): client keys, bursts,
 * refills, Retry-After, writes on top of reads, refusals that take
 * nothing, and a flood of addresses in a table of bounded size. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "http/http_int.h"

#define S(x) ((uint64_t)((x) * 1000000.0)) /* seconds to microseconds */
#define T0 S(1000)

static void key_of(const char *text, unsigned char key[RL_KEY_LEN])
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, text, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        rl_key((struct sockaddr *)&v4, key);
    } else {
        assert_int_equal(inet_pton(AF_INET6, text, &v6.sin6_addr), 1);
        v6.sin6_family = AF_INET6;
        rl_key((struct sockaddr *)&v6, key);
    }
}

static bool same_client(const char *a, const char *b)
{
    unsigned char ka[RL_KEY_LEN], kb[RL_KEY_LEN];
    key_of(a, ka);
    key_of(b, kb);
    return memcmp(ka, kb, RL_KEY_LEN) == 0;
}

static void test_keys(void **state)
{
    static const struct {
        const char *a, *b;
        bool same;
    } cases[] = {
        { "192.0.2.1", "192.0.2.1", true },
        { "192.0.2.1", "192.0.2.2", false },
        { "192.0.2.1", "::ffff:192.0.2.1", true },  /* dual-stack */
        { "2001:db8:1:2::1", "2001:db8:1:2:ffff::9", true }, /* one /64 */
        { "2001:db8:1:2::1", "2001:db8:1:3::1", false },
        { "::1", "::2", true },                     /* the same /64 too */
        { "::ffff:192.0.2.1", "::ffff:192.0.2.2", false },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(same_client(cases[i].a, cases[i].b), cases[i].same);
}

/* One step: at time t (seconds after T0) a request; want is the wait
 * (0: allowed). */
struct take {
    double t;
    bool write;
    unsigned want;
    bool by_write;
};

static void run(struct rate_limiter *rl, const char *client,
                const struct take *steps, size_t n)
{
    unsigned char key[RL_KEY_LEN];
    key_of(client, key);
    for (size_t i = 0; i < n; i++) {
        bool by_write = true;
        unsigned w = rl_take(rl, key, steps[i].write,
                             T0 + S(steps[i].t), &by_write);
        if (w != steps[i].want)
            fail_msg("step %zu (t %.2f): wait %u, not %u", i, steps[i].t, w,
                     steps[i].want);
        assert_int_equal(by_write, steps[i].by_write);
    }
}

static void test_burst_and_refill(void **state)
{
    /* 2 a second, bursts of 5 */
    static const struct take steps[] = {
        { 0, false, 0, false },   { 0, false, 0, false },
        { 0, false, 0, false },   { 0, false, 0, false },
        { 0, false, 0, false },   { 0, false, 1, false }, /* empty */
        { 0.25, false, 1, false },                        /* half a token */
        { 0.5, false, 0, false },                         /* one token */
        { 0.5, false, 1, false },
        { 10, false, 0, false },  { 10, false, 0, false }, /* full: 5, */
        { 10, false, 0, false },  { 10, false, 0, false }, /* not 20 */
        { 10, false, 0, false },  { 10, false, 1, false },
        { 9, false, 1, false }, /* a clock read before the last: no refill */
    };
    (void)state;
    struct rate_limiter *rl =
        rl_new((struct rl_limit){ 2, 5 }, (struct rl_limit){ 0, 0 });
    assert_non_null(rl);
    run(rl, "192.0.2.1", steps, sizeof steps / sizeof *steps);
    /* another client is untouched */
    run(rl, "192.0.2.2", steps, 5);
    rl_free(rl);
}

static void test_retry_after(void **state)
{
    /* 1 a second, bursts of 1: the wait is rounded up, never 0 */
    static const struct take steps[] = {
        { 0, false, 0, false },  { 0, false, 1, false },
        { 0.9, false, 1, false }, { 1.0, false, 0, false },
    };
    (void)state;
    struct rate_limiter *rl =
        rl_new((struct rl_limit){ 1, 1 }, (struct rl_limit){ 0, 0 });
    run(rl, "198.51.100.7", steps, sizeof steps / sizeof *steps);
    rl_free(rl);
}

static void test_writes_on_top(void **state)
{
    /* all: 10 a second, bursts of 10; writes: 1 a second, bursts of 2 */
    static const struct take steps[] = {
        { 0, true, 0, false }, { 0, true, 0, false },
        { 0, true, 1, true },  { 0, true, 1, true }, /* write bucket empty */
        /* the refused writes took nothing: 10 - 2 reads are left */
        { 0, false, 0, false }, { 0, false, 0, false },
        { 0, false, 0, false }, { 0, false, 0, false },
        { 0, false, 0, false }, { 0, false, 0, false },
        { 0, false, 0, false }, { 0, false, 0, false },
        { 0, false, 1, false },                       /* all bucket empty */
        { 0.1, true, 1, true }, /* both empty: the write's wait is longer */
        { 1.05, true, 0, false },
    };
    (void)state;
    struct rate_limiter *rl =
        rl_new((struct rl_limit){ 10, 10 }, (struct rl_limit){ 1, 2 });
    run(rl, "203.0.113.9", steps, sizeof steps / sizeof *steps);
    rl_free(rl);
}

static void test_off(void **state)
{
    unsigned char key[RL_KEY_LEN];
    bool by_write;
    (void)state;
    assert_null(rl_new((struct rl_limit){ 0, 5 }, (struct rl_limit){ 0, 5 }));
    key_of("192.0.2.1", key);
    assert_int_equal(rl_take(NULL, key, true, T0, &by_write), 0);
    /* writes limited, reads not */
    struct rate_limiter *rl =
        rl_new((struct rl_limit){ 0, 0 }, (struct rl_limit){ 1, 1 });
    for (int i = 0; i < 1000; i++)
        assert_int_equal(rl_take(rl, key, false, T0, &by_write), 0);
    assert_int_equal(rl_take(rl, key, true, T0, &by_write), 0);
    assert_int_equal(rl_take(rl, key, true, T0, &by_write), 1);
    assert_true(by_write);
    rl_free(rl);
}

/* Client i of a flood: 10.x.y.z. */
static void flood_key(int i, unsigned char key[RL_KEY_LEN])
{
    char ip[32];
    snprintf(ip, sizeof ip, "10.%d.%d.%d", (i >> 16) & 255, (i >> 8) & 255,
             i & 255);
    key_of(ip, key);
}

static void test_flood_of_addresses(void **state)
{
    enum { N = 20000 };
    unsigned char key[RL_KEY_LEN];
    bool by_write;
    int refused = 0, first_refused = -1;
    (void)state;
    struct rate_limiter *rl =
        rl_new((struct rl_limit){ 1, 2 }, (struct rl_limit){ 0, 0 });
    /* Each address takes a token and stays below its burst: the table
     * fills, and the addresses beyond it share one bucket. */
    for (int i = 0; i < N; i++) {
        flood_key(i, key);
        if (rl_take(rl, key, false, T0, &by_write) != 0) {
            refused++;
            if (first_refused < 0)
                first_refused = i;
        }
    }
    assert_true(first_refused >= 1000); /* a table of thousands */
    assert_true(refused >= N / 2);     /* the rest is limited together */
    /* A known client keeps its own bucket meanwhile. */
    flood_key(0, key);
    assert_int_equal(rl_take(rl, key, false, T0, &by_write), 0);
    assert_int_equal(rl_take(rl, key, false, T0, &by_write), 1);
    /* Once their buckets are full again the flood is forgotten: new
     * clients get buckets of their own. */
    for (int i = N; i < N + 100; i++) {
        flood_key(i, key);
        assert_int_equal(rl_take(rl, key, false, T0 + S(5), &by_write), 0);
        assert_int_equal(rl_take(rl, key, false, T0 + S(5), &by_write), 0);
        assert_int_equal(rl_take(rl, key, false, T0 + S(5), &by_write), 1);
    }
    rl_free(rl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_burst_and_refill),
        cmocka_unit_test(test_retry_after),
        cmocka_unit_test(test_writes_on_top),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_flood_of_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
