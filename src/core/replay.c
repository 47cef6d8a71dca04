/* replay.c - snapshots of the board after each turn. A turn's tile and
 * meeples are read off the game once its COMMIT (or the next tile) has
 * been applied, so completions and returned meeples are already shown. */
#include "core/replay.h"

#include <stdlib.h>
#include <string.h>

#include "core/game_int.h" /* FOR_UNITS */
#include "util/xalloc.h"

struct replay_out {
    struct replay *r;
    struct replay_turn *t;
    uint8_t unit;
};

void replay_put(struct replay_out *out, struct replay_item it)
{
    struct replay *r = out->r;
    xgrow((void **)&r->items, &r->cap_items, r->n_items + 1,
          sizeof *r->items);
    it.unit = out->unit;
    r->items[r->n_items++] = it;
    out->t->n_items++;
}

/* Every unit in play lists what it shows (towers' heights, the dragon,
 * prisoners held), in registry order. */
static void unit_items(struct replay *r, struct replay_turn *t,
                       const struct game *g)
{
    struct replay_out out = { r, t, 0 };
    t->item0 = r->n_items;
    FOR_UNITS(g, u, replay) {
        out.unit = 0;
        while (out.unit < EXP__COUNT && expansion_get(out.unit) != u)
            out.unit++;
        u->replay(g, &out);
    }
}

static void snapshot(struct replay *r, const struct game *g, int turn,
                     int player, int tile)
{
    xgrow((void **)&r->turns, &r->cap_turns, r->n_turns + 1,
          sizeof *r->turns);
    struct replay_turn *t = &r->turns[r->n_turns++];
    memset(t, 0, sizeof *t);
    t->turn = turn;
    t->player = player;
    t->tile = tile >= 0 ? g->tiles[tile].def : -1;
    if (tile >= 0) {
        t->at = game_tile_pos(g, tile);
        t->rot = g->tiles[tile].rot;
    }
    memcpy(t->score, g->score, sizeof t->score);
    t->meeple0 = r->n_meeples;
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0)
            continue;
        const struct seg *s = &g->segs[m->seg];
        xgrow((void **)&r->meeples, &r->cap_meeples, r->n_meeples + 1,
              sizeof *r->meeples);
        r->meeples[r->n_meeples++] = (struct replay_meeple){
            m->owner, m->kind, s->kind, s->mask, m->flew,
            game_tile_pos(g, s->tile)
        };
        t->n_meeples++;
    }
    unit_items(r, t, g);
}

void replay_build(const struct game_log *log, const struct audit_opts *o,
                  struct replay *out, struct report *rep_out)
{
    struct report rep;
    struct game *g = NULL;
    bool own_moves = false; /* a COMMIT of ours went into the pass */
    memset(out, 0, sizeof *out);
    struct audit *a = audit_begin(log, &rep);
    const struct game *cur = audit_game(a);
    out->n_starts = game_log_n_starts(log);
    for (int i = 0; i < out->n_starts; i++)
        out->starts[i] = game_log_start(log, i);
    int placed = cur->n_tiles; /* tiles shown by the last snapshot */
    snapshot(out, cur, 0, -1, placed > 0 ? 0 : -1);
    bool due = false; /* a COMMIT came; the scoring may wait (held) */
    for (size_t i = 0; i < log->n_moves; i++) {
        const struct move *m = &log->moves[i];
        if (m->kind == MV_PLACE && cur->n_tiles > placed) {
            /* the last turn had no COMMIT: end it as the auditor would */
            struct move commit = { .kind = MV_COMMIT, .src = m->src };
            audit_step(a, &commit);
            own_moves = true;
            snapshot(out, cur, cur->turn, audit_player(a), cur->n_tiles - 1);
            placed = cur->n_tiles;
            due = false;
        }
        audit_step(a, m);
        due = due || (m->kind == MV_COMMIT && cur->n_tiles > placed);
        if (due && !cur->held) { /* scored: followers out of the City came
                                    first */
            snapshot(out, cur, cur->turn, audit_player(a), cur->n_tiles - 1);
            placed = cur->n_tiles;
            due = false;
        }
    }
    bool open_turn = cur->n_tiles > placed;
    if (open_turn) /* the log ends inside a turn: show it as it stands */
        snapshot(out, cur, cur->turn, audit_player(a), cur->n_tiles - 1);
    audit_finish(a, o, &g);
    if (rep.finished)
        snapshot(out, g, -1, -1, -1);
    game_free(g);
    /* the pass is the audit's own unless a COMMIT was added (violations
     * then point at it, not at the tile whose placing ended the turn) */
    if (rep_out && !own_moves) {
        *rep_out = rep;
        return;
    }
    report_release(&rep);
    if (rep_out)
        audit_run(log, o, rep_out, NULL);
}

void replay_release(struct replay *r)
{
    free(r->turns);
    free(r->meeples);
    free(r->items);
    memset(r, 0, sizeof *r);
}
