#include "core/log.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void game_log_init(struct game_log *l)
{
    memset(l, 0, sizeof *l);
    l->end_turn = -1;
    l->start_tile = -1;
    l->rules.tiny_city = 4;
}

void game_log_release(struct game_log *l)
{
    free(l->moves);
    l->moves = NULL;
    l->n_moves = l->cap_moves = 0;
}

struct move *game_log_push(struct game_log *l)
{
    xgrow((void **)&l->moves, &l->cap_moves, l->n_moves + 1, sizeof *l->moves);
    struct move *m = &l->moves[l->n_moves++];
    memset(m, 0, sizeof *m);
    m->player = -1;
    m->tile = -1;
    m->meeple_owner = -1;
    m->draw = -1.0;
    return m;
}
