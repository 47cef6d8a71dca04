/* watchtowers.c - The Watchtowers as a unit, as JCloisterZone plays them:
 * on with the set (the save names no element; JCloisterZone's engine has
 * "watchtower").
 *  - Each tile of the set has a watchtower (a tile mark) that counts one
 *    thing on its tile and the 8 around it: pennants (2 each), monasteries
 *    (3), tiles with a city (1), tiles with a road (1) or figures standing
 *    there (2).
 *  - When a turn completes a road or city, before it scores (its figures
 *    still stand), every figure standing on it on a watchtower's tile
 *    earns its owner the tower's count times its worth: won or not, a
 *    figure each (two of one player's there, twice), one event of the
 *    score-only class "watchtower" per tower (its one term the count:
 *    "pennants", "monasteries", "cities", "roads" or "meeples"), listing
 *    the players; a player earning it twice gets a second event. A count
 *    of 0 gives no event. Never at the end, nor on an abbot's recall.
 *  - What is counted is JCloisterZone's: a tile with a city is one whose
 *    cities are still cities (a castle is none); pennants are those of
 *    the whole city a city of a tile there belongs to, once for each of
 *    the tile's cities; figures are every player's figure on the board,
 *    followers or not, the scoring ones included.
 * The tower is no feature: nothing stands on it and fliers land on the
 * tile's roads and cities as on any. Tiles: watchtowers.tiles. */
#include <string.h>

#include "core/game_int.h"
#include "core/log.h"
#include "core/text.h"

/* The watchtowers: their mark, what each counted thing is worth, the
 * count's term and its name for people. */
static const struct tower {
    unsigned mark;
    int worth;
    int term;
    const char *one, *many;
} towers[] = {
    { TILE_MARK(WT_PENNANTS), 2, SI_PENNANTS, "pennant", "pennants" },
    { TILE_MARK(WT_MONASTERIES), 3, SI_MONASTERIES, "monastery",
      "monasteries" },
    { TILE_MARK(WT_CITIES), 1, SI_CITIES, "tile with a city",
      "tiles with a city" },
    { TILE_MARK(WT_ROADS), 1, SI_ROADS, "tile with a road",
      "tiles with a road" },
    { TILE_MARK(WT_MEEPLES), 2, SI_MEEPLES, "figure", "figures" },
};
#define N_TOWERS (int)(sizeof towers / sizeof towers[0])

static const struct tower *tower_of(unsigned marks)
{
    for (int i = 0; i < N_TOWERS; i++)
        if (marks & towers[i].mark)
            return &towers[i];
    return NULL;
}

static const struct tower *tower_of_term(int term)
{
    for (int i = 0; i < N_TOWERS; i++)
        if (towers[i].term == term)
            return &towers[i];
    return NULL;
}

/* "watchtower at (2,-1): 3 tiles with a road on its tile and the 8
 * around it × 1 = 3, for a figure on the road or city it scored". */
static int explain_watchtower(const struct game_log *log,
                              const struct score_event *ev,
                              const struct feature_ref *refs, char *out,
                              size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "watchtower");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    const struct tower *w = ev->n_items ? tower_of_term(ev->items[0].kind)
                                        : NULL;
    if (w) {
        int n = ev->items[0].count;
        text_put(&t, ": ");
        text_int(&t, n);
        text_put(&t, " ");
        text_put(&t, n == 1 ? w->one : w->many);
        text_put(&t, " on its tile and the 8 around it × ");
        text_int(&t, w->worth);
        text_put(&t, " = ");
    } else {
        text_put(&t, ": ");
    }
    text_int(&t, ev->points);
    text_put(&t, ", for a figure on the feature scored there");
    return (int)t.n;
}

/* The tower's points: no board feature of their own. */
const struct feature_class feature_class_WATCHTOWER = {
    .name = "watchtower", .explain = explain_watchtower,
};

/* Pennants of the whole feature of root. */
static int feature_pennants(const struct game *g, int root)
{
    int n = 0, s = root;
    do {
        n += g->segs[s].pennants;
        s = g->segs[s].next;
    } while (s != root);
    return n;
}

/* What the tower w at c counts on the 3x3 block around it. */
static int count_around(const struct game *g, const struct tower *w,
                        struct pos c)
{
    int n = 0;
    if (w->term == SI_MEEPLES) {
        for (int i = 0; i < g->n_meeples; i++) {
            const struct meeple *m = &g->meeples[i];
            if (m->seg < 0 || m->owner < 0)
                continue;
            struct pos q = game_tile_pos(g, g->segs[m->seg].tile);
            n += q.x >= c.x - 1 && q.x <= c.x + 1 && q.y >= c.y - 1 &&
                 q.y <= c.y + 1;
        }
        return n;
    }
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int ti = game_tile_at(g, (struct pos){ c.x + dx, c.y + dy });
            if (ti < 0)
                continue;
            const struct placed *pl = &g->tiles[ti];
            bool city = false, road = false;
            for (int s = pl->seg0; s < pl->seg0 + pl->n_seg; s++) {
                int kind = g->segs[s].kind;
                city |= kind == FEAT_CITY;
                road |= kind == FEAT_ROAD;
                if (w->term == SI_PENNANTS && kind == FEAT_CITY)
                    n += feature_pennants(g, game_root(g, s));
                else if (w->term == SI_MONASTERIES &&
                         feat_is(kind, FEAT_MONASTERY))
                    n++;
            }
            n += (w->term == SI_CITIES && city) + (w->term == SI_ROADS && road);
        }
    return n;
}

/* Is root the root of a feature the turn completed? */
static bool completed(const struct game *g, int root)
{
    for (int j = 0; j < g->n_done; j++)
        if (game_root(g, g->done[j]) == root)
            return true;
    return false;
}

/* The tower on tile ti: its figures standing on the features the turn
 * completed earn its count. */
static void score_tower(struct game *g, int ti, const struct tower *w)
{
    int per[GAME_MAX_PLAYERS] = { 0 }, most = 0;
    unsigned flew = 0;
    uint8_t figures[GAME_MAX_PLAYERS][FIG__COUNT];
    memset(figures, 0, sizeof figures);
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || m->owner < 0 || m->owner >= GAME_MAX_PLAYERS ||
            g->segs[m->seg].tile != ti ||
            !completed(g, game_root(g, m->seg)))
            continue;
        per[m->owner]++;
        most = per[m->owner] > most ? per[m->owner] : most;
        if (figures[m->owner][m->kind] < UINT8_MAX)
            figures[m->owner][m->kind]++;
        if (m->flew)
            flew |= 1u << m->owner;
    }
    if (!most)
        return;
    struct pos c = game_tile_pos(g, ti);
    int n = count_around(g, w, c);
    if (!n)
        return;
    /* one event for those with a figure there, one more for those with
     * a second, ... (JCloisterZone pays a figure each) */
    for (int k = 1; k <= most; k++) {
        struct score_event *ev = game_new_event(g);
        ev->feature = FEAT_WATCHTOWER;
        ev->completed = true;
        ev->seg = g->tiles[ti].seg0;
        ev->points = n * w->worth;
        score_add_item(ev, w->term, n, n * w->worth);
        game_event_ref(g, ev, g->tiles[ti].seg0);
        for (int p = 0; p < g->rules.n_players && p < GAME_MAX_PLAYERS; p++) {
            if (per[p] < k)
                continue;
            ev->players = (uint8_t)(ev->players | 1u << p);
            ev->fliers = (uint8_t)(ev->fliers | (flew & 1u << p));
            ev->meeples[p] = (uint8_t)per[p];
            ev->strength[p] = (uint8_t)per[p];
            memcpy(ev->figures[p], figures[p], sizeof figures[p]);
            g->score[p] += ev->points;
        }
    }
}

/* Before the turn's completed features score: their figures still
 * stand. Each tower's tile once. */
static void turn_scoring(struct game *g)
{
    if (!g->n_done)
        return;
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0)
            continue;
        int ti = g->segs[m->seg].tile;
        if (seen[ti >> 6] >> (ti & 63) & 1)
            continue;
        seen[ti >> 6] |= 1ull << (ti & 63);
        const struct tower *w = tower_of(tile_get(g->tiles[ti].def)->marks);
        if (w)
            score_tower(g, ti, w);
    }
}

const struct expansion expansion_watchtowers = {
    .id = "watchtowers",
    .name = "The Watchtowers",
    .turn_scoring = turn_scoring,
};
