/* darmstadt.c - Darmstadt as a unit, as JCloisterZone plays it: two
 * churches and a city of darmstadtium, on with the set (the save names no
 * element for them).
 *  - A church is a monastery for every purpose (monk, abbot, wagon,
 *    flier, scoring). When its 3x3 block is completed during play,
 *    occupied or not, every player with the most followers standing on
 *    the church's tile and its 8 neighbours (any follower, on any feature
 *    there, counted as figures, not strength; at least one) gets 3: one
 *    event "church" for all of them, besides the monastery's own. The
 *    followers are counted before the turn's completed features send
 *    theirs home. Nothing at the end.
 *  - A completed city with the darmstadtium segment scores 3 more (the
 *    term "darmstadtium", once a city); unfinished, nothing more.
 * Tiles: darmstadt.tiles. */
#include "core/game_int.h"
#include "core/log.h"
#include "core/text.h"

enum { CHURCH_POINTS = 3, DARMSTADTIUM_POINTS = 3 };

/* "church at (1,1), completed: 3 for the most followers on it and its 8
 * neighbours" (the receipt then lists who stood there). */
static int explain_church(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "church");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, ", completed: ");
    text_int(&t, ev->points);
    text_put(&t, " for the most followers on it and its 8 neighbours");
    return (int)t.n;
}

/* The church bonus: no board feature of its own (the church is a
 * monastery). */
const struct feature_class feature_class_CHURCH = {
    .name = "church", .explain = explain_church,
};

/* The followers of each seat standing on the 3x3 block around c, and
 * of each kind (for the receipt). */
static void count_block(const struct game *g, struct pos c,
                        int counts[GAME_MAX_PLAYERS], struct score_event *ev)
{
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || m->owner < 0 || m->owner >= GAME_MAX_PLAYERS ||
            !figure_class(m->kind)->follower)
            continue;
        struct pos q = game_tile_pos(g, g->segs[m->seg].tile);
        if (q.x >= c.x - 1 && q.x <= c.x + 1 && q.y >= c.y - 1 &&
            q.y <= c.y + 1)
        {
            counts[m->owner]++;
            if (ev->figures[m->owner][m->kind] < UINT8_MAX)
                ev->figures[m->owner][m->kind]++;
        }
    }
}

/* The bonus of the church whose segment is root, completed this turn:
 * its event, dropped again when no follower stands on the block. */
static void church_bonus(struct game *g, int root)
{
    int counts[GAME_MAX_PLAYERS] = { 0 }, most = 0;
    unsigned who = 0;
    struct score_event *ev = game_new_event(g);
    count_block(g, game_tile_pos(g, g->segs[root].tile), counts, ev);
    for (int p = 0; p < g->rules.n_players; p++)
        most = counts[p] > most ? counts[p] : most;
    for (int p = 0; p < g->rules.n_players && most > 0; p++)
        if (counts[p] == most)
            who |= 1u << p;
    if (!who) {
        g->n_events--;
        return;
    }
    game_measure(g, root, ev); /* the church's tile, for the receipt */
    ev->feature = FEAT_CHURCH;
    ev->completed = true;
    ev->seg = (uint16_t)root;
    ev->players = (uint8_t)who;
    ev->points = CHURCH_POINTS;
    score_add_item(ev, SI_CHURCH, -1, CHURCH_POINTS);
    for (int p = 0; p < g->rules.n_players; p++) {
        ev->meeples[p] = (uint8_t)counts[p];
        ev->strength[p] = (uint8_t)counts[p];
        if (who >> p & 1)
            g->score[p] += CHURCH_POINTS;
    }
}

/* Before the completed features score: their followers still stand. */
static void turn_scoring(struct game *g)
{
    for (int j = 0; j < g->n_done; j++) {
        const struct seg *s = &g->segs[g->done[j]];
        if (s->kind == FEAT_MONASTERY && (s->attrs & SA_CHURCH))
            church_bonus(g, g->done[j]);
    }
}

/* A completed city of darmstadtium: 3 more, after the other terms. */
static void score(const struct rules *r, struct score_event *ev)
{
    (void)r;
    if (ev->feature != FEAT_CITY || !ev->completed ||
        !ev->attrs[SA_BIT_DARMSTADTIUM])
        return;
    ev->points += DARMSTADTIUM_POINTS;
    score_add_item(ev, SI_DARMSTADTIUM, -1, DARMSTADTIUM_POINTS);
}

const struct expansion expansion_darmstadt = {
    .id = "darmstadt",
    .name = "Darmstadt",
    .score = score,
    .turn_scoring = turn_scoring,
};
