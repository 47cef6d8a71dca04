/* cult.c - the shrines (Cult, Siege & Creativity: JCloisterZone's sets
 * cult/6 and cult/5, the element "shrine") as a unit, as JCloisterZone
 * plays them.
 *
 * A shrine is a cloister of its own kind (FEAT_SHRINE, a kind of
 * monastery: .like): figures stand on it as on a monastery, it completes
 * with its 3x3 block and scores like one ("shrine", "shrine.incomplete"),
 * and .jcz saves call it a Monastery. Without the element it is a plain
 * monastery. Monasteries and shrines are the two kinds of cloister (any
 * kind of monastery counts as a monastery; gardens are none):
 *  - placement: a tile with a cloister goes next to (of the eight squares
 *    around) at most one cloister of the other kind, and not next to one
 *    that already has a neighbour of the new one's kind;
 *  - the challenge: when a turn completes a cloister someone scores, each
 *    unfinished cloister of the other kind next to it with figures on it
 *    loses them all (back to supply, no wagon move) and its first
 *    figure's owner gets a 0-point ".challenged" event. Not at the end,
 *    not on an abbot's recall.
 * Tiles: cult.tiles. */
#include <stdio.h>

#include "core/exp/units.h"
#include "core/game_int.h"

const struct feature_class feature_class_SHRINE = {
    .claimable = true,
    .name = "shrine", .jcz = "Monastery", .done = DONE_BLOCK,
    .on_board = true, .landable = true, .needs = RF_SHRINE,
    .like = FEAT_MONASTERY, .role = "monk", .roles = "monks",
    .score = base_score_cloister, .explain = base_explain_cloister,
};

enum { NO_CLOISTER = -1, MONASTERY_KIND, SHRINE_KIND };

static int cloister_kind(int feat)
{
    if (feat == FEAT_SHRINE)
        return SHRINE_KIND;
    return feat_is(feat, FEAT_MONASTERY) ? MONASTERY_KIND : NO_CLOISTER;
}

/* The cloister segment of the tile at p (-1: none, no tile). */
static int cloister_seg(const struct game *g, struct pos p)
{
    int t = game_tile_at(g, p);
    if (t < 0)
        return -1;
    const struct placed *pl = &g->tiles[t];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (cloister_kind(g->segs[i].kind) != NO_CLOISTER)
            return i;
    return -1;
}

static int kind_at(const struct game *g, struct pos p)
{
    int s = cloister_seg(g, p);
    return s < 0 ? NO_CLOISTER : cloister_kind(g->segs[s].kind);
}

/* How many of the eight squares around p hold a cloister of kind k; the
 * last one found in *at. */
static int around(const struct game *g, struct pos p, int k, struct pos *at)
{
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            struct pos q = { p.x + dx, p.y + dy };
            if ((dx || dy) && kind_at(g, q) == k) {
                n++;
                if (at)
                    *at = q;
            }
        }
    return n;
}

static const char *const kind_names[2] = { "monastery", "shrine" };

static int check_place(const struct game *g, int def, struct pos p, int rot,
                       char *why, size_t why_len)
{
    (void)rot;
    if (!(g->kinds_on_board >> FEAT_SHRINE & 1))
        return RULE_OK; /* no shrines in play: no rule */
    const struct tile_def *t = tile_get(def);
    int k = NO_CLOISTER;
    for (int i = 0; i < t->n_seg && k == NO_CLOISTER; i++)
        k = cloister_kind(t->seg[i].kind);
    if (k == NO_CLOISTER)
        return RULE_OK;
    struct pos o = { 0, 0 }; /* set when around() finds one */
    int n = around(g, p, !k, &o);
    if (n > 1) {
        snprintf(why, why_len, "a %s goes next to at most one %s, and "
                 "(%d,%d) has %d around it", kind_names[k], kind_names[!k],
                 p.x, p.y, n);
        return RULE_SHRINE_PLACEMENT;
    }
    if (n == 1 && around(g, o, k, NULL) > 0) {
        snprintf(why, why_len, "the %s at (%d,%d) next to (%d,%d) already "
                 "has a %s next to it", kind_names[!k], o.x, o.y, p.x, p.y,
                 kind_names[k]);
        return RULE_SHRINE_PLACEMENT;
    }
    return RULE_OK;
}

/* The figure on the feature of root that came first: JCloisterZone names
 * the owner of the first in its order of deployment. Only a flier joins
 * a figure already there, so one that did not fly came first; among
 * fliers alone, the lowest meeple index stands in for that order. */
static int first_figure(const struct game *g, int root)
{
    int first = -1;
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || game_root(g, m->seg) != root)
            continue;
        if (!m->flew)
            return i;
        if (first < 0)
            first = i;
    }
    return first;
}

/* Does a follower of some strength stand on the feature (someone scores
 * it)? */
static bool owned(const struct game *g, int root)
{
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].seg >= 0 && g->meeples[i].strength &&
            game_root(g, g->meeples[i].seg) == root)
            return true;
    return false;
}

/* The cloister of seg loses its figures: a 0-point ".challenged" event
 * for the first one's owner, and all go back to supply (as taken off,
 * not as scored: no wagon waits to move). */
static void challenge(struct game *g, int seg)
{
    int root = game_root(g, seg), first = first_figure(g, root);
    struct score_event *ev = game_new_event(g);
    ev->feature = g->segs[root].kind;
    ev->expr = EXPR_CHALLENGED;
    ev->seg = g->segs[root].min;
    game_measure(g, root, ev);
    ev->points = 0;
    ev->n_items = 0;
    score_add_item(ev, SI_SHRINE_CHALLENGE, -1, 0);
    ev->players = (uint8_t)(1u << g->meeples[first].owner);
    for (int i = 0; i < g->n_meeples; i++) {
        struct meeple *m = &g->meeples[i];
        if (m->seg < 0 || game_root(g, m->seg) != root)
            continue;
        ev->meeples[m->owner]++;
        ev->figures[m->owner][m->kind]++;
        ev->strength[m->owner] = (uint8_t)(ev->strength[m->owner] +
                                           m->strength);
        game_put(g, i, MEEPLE_SUPPLY);
    }
}

/* Before the completed features score, with their figures still there:
 * each completed cloister someone scores challenges the unfinished
 * cloisters of the other kind around it. */
static void turn_scoring(struct game *g)
{
    for (int j = 0; j < g->n_done; j++) {
        int root = g->done[j], k = cloister_kind(g->segs[root].kind);
        if (k == NO_CLOISTER || !owned(g, root))
            continue;
        struct pos p = game_tile_pos(g, g->segs[root].tile);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int s = cloister_seg(g, (struct pos){ p.x + dx, p.y + dy });
                if (s >= 0 && cloister_kind(g->segs[s].kind) == !k &&
                    g->segs[game_root(g, s)].meeples > 0 &&
                    !game_feature_complete(g, s))
                    challenge(g, s);
            }
    }
}

static const struct element elements[] = {
    { "shrine", EL_FLAG, RFB_SHRINE, 1, false },
    { NULL, 0, 0, 0, false },
};

const struct expansion expansion_cult = {
    .id = "cult",
    .name = "the shrines (Cult, Siege & Creativity)",
    .elements = elements,
    .check_place = check_place,
    .turn_scoring = turn_scoring,
};
