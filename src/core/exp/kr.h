/* kr.h - what King & Robber tells the simulator and tests: who holds a
 * card now. */
#ifndef CORE_EXP_KR_H
#define CORE_EXP_KR_H
#include "core/game.h"

enum kr_card { KR_KING, KR_ROBBER };

/* The seat holding card c (enum kr_card) in g, -1: nobody (or King &
 * Robber not in play). */
int kr_holder(const struct game *g, int c);

#endif
