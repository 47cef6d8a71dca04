/* test_rating.c - the rating on worked examples computed by hand (the
 * arithmetic is in the comments), and the flier's luck on flights whose
 * odds are known. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "core/rating.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-3)

/* Two new players, Ada wins.
 *   sigma^2 = 625/9 = 69.4444, beta^2 = 625/36 = 17.3611
 *   c^2 = 2 (69.4444 + 17.3611) = 173.6111, c = 13.1762
 *   both mu 25: exp(mu/c) equal (call it x); S_Ada = 2x, S_Ben = x
 *   Ada: q = Ada only: p = x / 2x = 1/2
 *        Omega = 69.4444 / 13.1762 * (1 - 1/2) = 2.6352 -> mu 27.6352
 *        Delta = (8.3333 / 13.1762) * 69.4444 / 173.6111 * 1/4
 *              = 0.63246 * 0.4 * 0.25 = 0.063246
 *        sigma = 8.3333 * sqrt(1 - 0.063246) = 8.0655
 *   Ben: q = Ada: p = 1/2; q = Ben: p = x / x = 1
 *        Omega = 5.27046 * ((0 - 1/2) + (1 - 1)) = -2.6352 -> mu 22.3648
 *        Delta = 0.25298 * (1/4 + 0) = 0.063246 -> sigma 8.0655 */
static void test_two_players(void **state)
{
    (void)state;
    struct rating r[2] = { rating_new(), rating_new() };
    int rank[2] = { 1, 2 };
    rating_update(r, rank, 2);
    NEAR(r[0].mu, 27.6352);
    NEAR(r[1].mu, 22.3648);
    NEAR(r[0].sigma, 8.0655);
    NEAR(r[1].sigma, 8.0655);
    NEAR(rating_shown(r[0]), 27.6352 - 3 * 8.0655);
}

/* A tie between two new players moves no mean:
 *   A = 2 for both, S = 2x for both; for each, q over both seats:
 *   Omega = 5.27046 * ((1 - 1/2) / 2 + (0 - 1/2) / 2) = 0
 *   Delta = 0.25298 * (1/8 + 1/8) = 0.063246: both less uncertain. */
static void test_tie(void **state)
{
    (void)state;
    struct rating r[2] = { rating_new(), rating_new() };
    int rank[2] = { 1, 1 };
    rating_update(r, rank, 2);
    NEAR(r[0].mu, 25.0);
    NEAR(r[1].mu, 25.0);
    NEAR(r[0].sigma, 8.0655);
}

/* Three new players, ranks 1, 2, 3:
 *   c^2 = 3 * 86.8056 = 260.4167, c = 16.1374; S_1 = 3x, S_2 = 2x, S_3 = x
 *   sigma^2 / c = 4.30331
 *   first:  Omega = 4.30331 * (1 - 1/3) = 2.86887        -> 27.8689
 *   second: Omega = 4.30331 * (-1/3 + 1 - 1/2) = 0.71722 -> 25.7172
 *   third:  Omega = 4.30331 * (-1/3 - 1/2 + 0) = -3.58609 -> 21.4139
 * and the means still sum to 75. */
static void test_three_players(void **state)
{
    (void)state;
    struct rating r[3] = { rating_new(), rating_new(), rating_new() };
    int rank[3] = { 1, 2, 3 };
    rating_update(r, rank, 3);
    NEAR(r[0].mu, 27.8689);
    NEAR(r[1].mu, 25.7172);
    NEAR(r[2].mu, 21.4139);
    NEAR(r[0].mu + r[1].mu + r[2].mu, 75.0);
}

/* One seat, or none: nothing to learn. */
static void test_alone(void **state)
{
    (void)state;
    struct rating r = rating_new();
    int rank = 1;
    rating_update(&r, &rank, 1);
    NEAR(r.mu, RATING_MU0);
    NEAR(r.sigma, RATING_SIGMA0);
}

/* Flights with known odds: a sure landing (3 of 3) that lands is no
 * luck; a 1-in-3 chance that lands is +2/3; a 2-in-3 that returns is
 * -2/3; no target with a landing (a forced return) is no luck either.
 *   expected = 1 + 1/3 + 2/3 + 0 = 2, landed 2, luck 0
 *   variance = 0 + 2/9 + 2/9 + 0 = 4/9, spread 2/3 */
static void test_luck(void **state)
{
    (void)state;
    struct luck l = { 0 };
    luck_add(&l, 3, true);
    luck_add(&l, 1, true);
    NEAR(luck_value(&l), 2.0 / 3.0);
    luck_add(&l, 2, false);
    luck_add(&l, 0, false);
    assert_int_equal(l.flights, 4);
    assert_int_equal(l.landed, 2);
    NEAR(l.expected, 2.0);
    NEAR(luck_value(&l), 0.0);
    NEAR(luck_spread(&l), 2.0 / 3.0);
}

/* An audit's flight: its odds are the targets with a landing; a pending
 * flight and a bad roll count for nothing. */
static void test_luck_of_flights(void **state)
{
    (void)state;
    struct flight f[3] = { 0 };
    f[0].n_by_roll[0] = 2; /* roll 1: two landings, roll 3 one */
    f[0].n_by_roll[2] = 1;
    f[0].landed = false;   /* rolled 2: returned, with chance 2/3 */
    f[1] = f[0];
    f[1].pending = true;
    f[2] = f[0];
    f[2].bad_roll = true;
    struct luck l = { 0 };
    for (int i = 0; i < 3; i++)
        luck_add_flight(&l, &f[i]);
    assert_int_equal(l.flights, 1);
    NEAR(luck_value(&l), -2.0 / 3.0);
    NEAR(luck_spread(&l), sqrt(2.0 / 9.0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_players),
        cmocka_unit_test(test_tie),
        cmocka_unit_test(test_three_players),
        cmocka_unit_test(test_alone),
        cmocka_unit_test(test_luck),
        cmocka_unit_test(test_luck_of_flights),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
