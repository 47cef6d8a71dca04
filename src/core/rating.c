/* rating.c - rating.h's formulas, term by term. */
#include "core/rating.h"

#include <math.h>

struct rating rating_new(void)
{
    return (struct rating){ RATING_MU0, RATING_SIGMA0 };
}

double rating_shown(struct rating r)
{
    return r.mu - 3.0 * r.sigma;
}

void rating_update(struct rating *r, const int *rank, int n)
{
    double c2 = 0, sum_q[GAME_MAX_PLAYERS], omega[GAME_MAX_PLAYERS],
           delta[GAME_MAX_PLAYERS];
    int a[GAME_MAX_PLAYERS];
    if (n < 2 || n > GAME_MAX_PLAYERS)
        return;
    for (int i = 0; i < n; i++)
        c2 += r[i].sigma * r[i].sigma + RATING_BETA * RATING_BETA;
    double c = sqrt(c2);
    for (int q = 0; q < n; q++) {
        sum_q[q] = 0;
        a[q] = 0;
        for (int s = 0; s < n; s++) {
            if (rank[s] >= rank[q])
                sum_q[q] += exp(r[s].mu / c);
            a[q] += rank[s] == rank[q];
        }
    }
    /* all from the ratings before the game: no seat sees another's new */
    for (int i = 0; i < n; i++) {
        double om = 0, de = 0, s2 = r[i].sigma * r[i].sigma;
        for (int q = 0; q < n; q++) {
            if (rank[q] > rank[i])
                continue;
            double p = exp(r[i].mu / c) / sum_q[q];
            om += ((q == i ? 1.0 : 0.0) - p) / a[q];
            de += p * (1.0 - p) / a[q];
        }
        omega[i] = s2 / c * om;
        delta[i] = (r[i].sigma / c) * s2 / c2 * de;
    }
    for (int i = 0; i < n; i++) {
        r[i].mu += omega[i];
        r[i].sigma *= sqrt(fmax(1.0 - delta[i], RATING_KAPPA));
    }
}

void luck_add(struct luck *l, int rolls_with_landing, bool landed)
{
    double p = rolls_with_landing / 3.0;
    l->flights++;
    l->landed += landed;
    l->expected += p;
    l->variance += p * (1.0 - p);
}

void luck_add_flight(struct luck *l, const struct flight *f)
{
    int k = 0;
    if (f->pending || f->bad_roll)
        return;
    for (int r = 0; r < 3; r++)
        k += f->n_by_roll[r] > 0;
    luck_add(l, k, f->landed);
}

double luck_value(const struct luck *l)
{
    return l->landed - l->expected;
}

double luck_spread(const struct luck *l)
{
    return sqrt(l->variance);
}
