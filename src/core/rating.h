/* rating.h - a skill rating per player over games of any number of
 * seats, and the flier's luck. Pure: no I/O; the store and the pages
 * feed it games in the order they were played.
 *
 * Rating: Weng & Lin's Bayesian approximation (J. Mach. Learn. Res. 12,
 * 2011), the Plackett-Luce model as OpenSkill implements it, a team per
 * player. Each player has a belief N(mu, sigma^2) about their skill;
 * after a game with ranks r (1 the best, ties share a rank):
 *
 *   c      = sqrt(sum_i (sigma_i^2 + beta^2))
 *   S_q    = sum over players s with r_s >= r_q of exp(mu_s / c)
 *   A_q    = the number of players ranked r_q
 *   p_iq   = exp(mu_i / c) / S_q
 *   Omega_i = sigma_i^2 / c * sum over q with r_q <= r_i of
 *             ([q = i] - p_iq) / A_q
 *   Delta_i = gamma_i * sigma_i^2 / c^2 * sum over q with r_q <= r_i of
 *             p_iq (1 - p_iq) / A_q,   gamma_i = sigma_i / c
 *   mu_i'    = mu_i + Omega_i
 *   sigma_i' = sigma_i * sqrt(max(1 - Delta_i, kappa))
 *
 * with mu0 = 25, sigma0 = 25/3, beta = 25/6, kappa = 0.0001 (OpenSkill's
 * defaults). The figure shown is the conservative mu - 3 sigma (a new
 * player: 0). */
#ifndef CORE_RATING_H
#define CORE_RATING_H
#include <stdbool.h>

#include "core/audit.h"

#define RATING_MU0 25.0
#define RATING_SIGMA0 (25.0 / 3.0)
#define RATING_BETA (25.0 / 6.0)
#define RATING_KAPPA 0.0001

struct rating {
    double mu, sigma;
};

/* A player never rated: mu0, sigma0. */
struct rating rating_new(void);
/* mu - 3 sigma: the skill the player has at least, nearly surely. */
double rating_shown(struct rating r);
/* Updates r[0..n) in place after one game where seat i ranked rank[i]
 * (1 the best; equal ranks tie). n < 2 changes nothing. */
void rating_update(struct rating *r, const int *rank, int n);

/* The flier's luck: landings against what the dice promised. A flight
 * whose roll gave k of the three targets a valid landing had chance p =
 * k / 3 to land; over flights, expected = sum p, luck = landed -
 * expected, and its spread (one standard deviation of landed, were the
 * die fair) sqrt(sum p (1 - p)). luck / spread beyond about 2 either way
 * is more than a fair die gives one player in twenty. */
struct luck {
    int flights; /* with an outcome: landed or returned */
    int landed;
    double expected, variance;
};

/* Adds a flight whose roll offered rolls_with_landing of the 3 targets
 * a landing (0..3), landed or not. */
void luck_add(struct luck *l, int rolls_with_landing, bool landed);
/* Adds a flight of an audit: nothing for a pending flight (no outcome
 * yet) or one whose roll was no die's (FLIER_BAD_ROLL). */
void luck_add_flight(struct luck *l, const struct flight *f);
double luck_value(const struct luck *l);  /* landed - expected */
double luck_spread(const struct luck *l); /* sqrt(variance) */

#endif
