/* units.h - what one expansion unit lends another (src/core/exp/ only). */
#ifndef CORE_EXP_UNITS_H
#define CORE_EXP_UNITS_H
#include "core/game.h"

/* A monastery's scoring (base.c): 9 complete, else its 3x3 block's tiles;
 * C3 gardens score the same way. */
void base_score_cloister(const struct rules *r, struct score_event *ev);
/* Its receipt: "monastery, incomplete: 1 + 4 neighbours = 5". */
int base_explain_cloister(const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len);

#endif
