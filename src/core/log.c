#include "core/log.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void game_log_init(struct game_log *l)
{
    memset(l, 0, sizeof *l);
    l->end_turn = -1;
    l->end_draw = -1.0;
    l->start_tile = -1;
    rules_init(&l->rules);
}

void game_log_release(struct game_log *l)
{
    for (size_t i = 0; i < l->n_notes; i++) {
        free(l->notes[i].time);
        free(l->notes[i].text);
    }
    free(l->moves);
    free(l->claims);
    free(l->totals);
    free(l->notes);
    l->moves = NULL;
    l->claims = NULL;
    l->totals = NULL;
    l->notes = NULL;
    l->n_moves = l->cap_moves = 0;
    l->n_claims = l->cap_claims = 0;
    l->n_totals = l->cap_totals = 0;
    l->n_notes = l->cap_notes = 0;
}

struct claim_event *game_log_push_claim(struct game_log *l)
{
    xgrow((void **)&l->claims, &l->cap_claims, l->n_claims + 1,
          sizeof *l->claims);
    struct claim_event *c = &l->claims[l->n_claims++];
    memset(c, 0, sizeof *c);
    return c;
}

struct claim_total *game_log_push_total(struct game_log *l)
{
    xgrow((void **)&l->totals, &l->cap_totals, l->n_totals + 1,
          sizeof *l->totals);
    struct claim_total *t = &l->totals[l->n_totals++];
    memset(t, 0, sizeof *t);
    return t;
}

void game_log_add_note(struct game_log *l, int turn, const char *time,
                       const char *text)
{
    xgrow((void **)&l->notes, &l->cap_notes, l->n_notes + 1,
          sizeof *l->notes);
    struct turn_note *n = &l->notes[l->n_notes++];
    n->turn = turn;
    n->time = time ? xstrdup(time) : NULL;
    n->text = text ? xstrdup(text) : NULL;
}

int game_log_seat(const struct game_log *l, const char *name)
{
    for (int p = 0; p < l->rules.n_players; p++)
        if (strcmp(l->names[p], name) == 0)
            return p;
    return -1;
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

int game_log_n_starts(const struct game_log *l)
{
    return l->start_tile < 0 ? 0 : 1 + l->n_more_starts;
}

struct start_place game_log_start(const struct game_log *l, int i)
{
    if (i <= 0)
        return (struct start_place){ (int16_t)l->start_tile,
                                     (uint8_t)(l->start_rot & 3),
                                     l->start_at };
    return l->more_starts[i - 1];
}
