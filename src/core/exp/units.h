/* units.h - what one expansion unit lends another (src/core/exp/ only). */
#ifndef CORE_EXP_UNITS_H
#define CORE_EXP_UNITS_H
#include "core/game.h"

/* A monastery's scoring (base.c): 9 complete, else its 3x3 block's tiles;
 * C3 gardens score the same way. */
void base_score_cloister(const struct rules *r, struct score_event *ev);
/* Its receipt: "monastery, incomplete: 1 + 4 neighbours = 5". */
int base_explain_cloister(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len);
/* What a field's receipt and a barn's say: " touching 2 completed cities
 * [(0,-1) 2 tiles, (3,1) 5 tiles]" (refs: the cities), and the formula
 * ": 2×3 + 2 (pigs) = 8", rate points a city and the units' terms. Both
 * return what snprintf() does. */
int base_touched_cities(const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len);
int base_cities_formula(const struct score_event *ev, int rate, char *out,
                        size_t len);

#endif
