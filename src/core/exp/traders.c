/* traders.c - Traders & Builders as a unit, as JCloisterZone plays it.
 *
 * The builder goes (instead of a follower) on a road or city of the tile
 * just placed whose whole feature is unfinished and holds a follower of
 * its owner; when a later tile its owner draws extends that feature, the
 * owner plays a second tile at once (once: the second tile never earns a
 * third). The pig goes on a field where its owner has a farmer; a farmer
 * majority with a pig in the field scores 1 more per city (two pigs are
 * no more than one; a pig herd on a river tile gives every majority the
 * same). Trade goods on city tiles go to the player who completes the city,
 * whoever stands in it; at the end each kind's most (at least one) score 10
 * each. Builder and pig are no followers: no strength, never a flier.
 * Tiles: traders.tiles (and the pig herd in river.tiles). */
#include <stdio.h>
#include <string.h>

#include "core/game_int.h"
#include "core/log.h"

const struct figure_class figure_class_BUILDER = {
    .jcz = "builder", .name = "builder", .names = "builders",
    .stands = 1u << FEAT_ROAD | 1u << FEAT_CITY,
};

const struct figure_class figure_class_PIG = {
    .jcz = "pig", .name = "pig", .names = "pigs",
    .stands = 1u << FEAT_FIELD,
};

enum builder_state { BS_UNUSED, BS_USED, BS_SECOND };

static const int goods_attr[3] = { SA_BIT_WINE, SA_BIT_CLOTH, SA_BIT_GRAIN };
static const int goods_item[3] = { SI_WINE, SI_CLOTH, SI_GRAIN };
static const char *const goods_name[3] = { "wine", "cloth", "grain" };

/* "trade goods, wine: Ada 3, Ben 2; 10 for the most (3)": what each
 * player holds of the kind (the event's strength) and the majority's
 * points. */
static int explain_goods(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len)
{
    (void)refs;
    int k = 0, most = 0;
    while (k < 2 && (ev->n_items == 0 || ev->items[0].kind != goods_item[k]))
        k++;
    size_t n = (size_t)snprintf(out, len, "trade goods, %s:", goods_name[k]);
    for (int p = 0; p < log->rules.n_players && n < len; p++) {
        n += (size_t)snprintf(out + n, len - n, "%s %s %d", p ? "," : "",
                              log->names[p], ev->strength[p]);
        most = ev->strength[p] > most ? ev->strength[p] : most;
    }
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, "; %d for the most (%d)",
                              ev->points, most);
    return (int)n;
}

/* Final scoring's trade goods: no board feature, one event per kind. */
const struct feature_class feature_class_TRADE_GOODS = {
    .name = "trade-goods", .explain = explain_goods,
};

struct traders {
    uint8_t builder[GAME_MAX_PLAYERS]; /* enum builder_state */
    uint16_t goods[GAME_MAX_PLAYERS][3];
};
UNIT_STATE_FITS(struct traders);

static struct traders *state(struct game *g)
{
    return UNIT_STATE(g, EXP_TRADERS, struct traders);
}

/* Meeple index of seat p's figure of kind fig on the feature of root,
 * or -1. */
static int figure_on(const struct game *g, int root, int p, int fig)
{
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->owner == p && m->kind == fig && m->seg >= 0 &&
            game_root(g, m->seg) == root)
            return i;
    }
    return -1;
}

/* Does seat p have a follower on the feature of root? */
static bool follower_on(const struct game *g, int root, int p)
{
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (m->owner == p && m->seg >= 0 && game_root(g, m->seg) == root &&
            figure_class(m->kind)->follower)
            return true;
    }
    return false;
}

static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    int fig = g->meeples[m].kind, root = game_root(g, seg);
    const struct seg *s = &g->segs[seg];
    if (fig != FIG_BUILDER && fig != FIG_PIG)
        return -1;
    int rule = game_check_on_tile(g, seg, why, why_len);
    if (rule != RULE_OK)
        return rule;
    if (!game_kind_allowed(g, fig, s->kind)) {
        snprintf(why, why_len, "a %s may not stand on a %s",
                 figure_class(fig)->name, feat_name(s->kind));
        return RULE_MEEPLE_WRONG_TYPE;
    }
    int owner = g->meeples[m].owner;
    (void)player;
    int placement = fig == FIG_BUILDER ? RULE_BUILDER_PLACEMENT
                                       : RULE_PIG_PLACEMENT;
    if (!follower_on(g, root, owner)) {
        snprintf(why, why_len, "a %s goes where its owner has a follower, "
                 "and this %s has none of theirs", figure_class(fig)->name,
                 feat_name(s->kind));
        return placement;
    }
    if (fig == FIG_BUILDER && game_feature_complete(g, seg)) {
        snprintf(why, why_len, "the %s is already completed",
                 feat_name(s->kind));
        return placement;
    }
    if (fig == FIG_BUILDER && figure_on(g, root, owner, FIG_BUILDER) >= 0) {
        snprintf(why, why_len, "the %s already holds that player's builder",
                 feat_name(s->kind));
        return placement;
    }
    return game_check_action(g, fig, why, why_len);
}

/* A tile its owner placed extends the builder's feature: a second tile
 * this turn (never a third). */
static void placed(struct game *g, int tile)
{
    struct traders *st = state(g);
    int p = g->seat;
    if (st->builder[p] != BS_UNUSED)
        return;
    int b = game_meeple(g, p, FIG_BUILDER, 1);
    if (b < 0 || g->meeples[b].seg < 0 ||
        g->segs[g->meeples[b].seg].tile == tile)
        return;
    int root = game_root(g, g->meeples[b].seg);
    const struct placed *t = &g->tiles[tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg; i++)
        if (game_root(g, i) == root) {
            st->builder[p] = BS_USED;
            return;
        }
}

static bool extra_part(struct game *g)
{
    struct traders *st = state(g);
    int p = g->seat;
    if (st->builder[p] == BS_USED) {
        st->builder[p] = BS_SECOND;
        return true;
    }
    st->builder[p] = BS_UNUSED;
    return false;
}

/* A pig of the winning seat in a field: 1 a city more; and each pig
 * herd in the field 1 more again, pig or not (JCloisterZone's engine
 * test gq11/pig-herd-scoring: a pig and a herd, 5 a city). */
static int bonus(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item)
{
    if (ev->feature != FEAT_FIELD || ev->cities == 0)
        return 0;
    int herds = g->rules.flags & RF_PIG_HERD ? ev->attrs[SA_BIT_PIG_HERD] : 0;
    int per = herds + (figure_on(g, root, p, FIG_PIG) >= 0);
    if (per == 0)
        return 0;
    *item = (struct score_item){ SI_PIGS, -1, (int16_t)(per * ev->cities) };
    return per * ev->cities;
}

/* The goods of the cities the turn completed go to the seat on turn. */
static void turn_done(struct game *g)
{
    if (!(g->rules.flags & RF_TRADERS))
        return;
    struct traders *st = state(g);
    for (int j = 0; j < g->n_done; j++) {
        uint8_t attrs[SA__COUNT];
        if (g->segs[g->done[j]].kind != FEAT_CITY)
            continue;
        game_feature_attrs(g, g->done[j], attrs);
        for (int k = 0; k < 3; k++)
            st->goods[g->seat][k] =
                (uint16_t)(st->goods[g->seat][k] + attrs[goods_attr[k]]);
    }
}

/* Each kind: 10 to every player holding the most (one at least). */
static void final_scoring(struct game *g)
{
    if (!(g->rules.flags & RF_TRADERS))
        return;
    const struct traders *st = state(g);
    for (int k = 0; k < 3; k++) {
        int most = 0;
        unsigned who = 0;
        for (int p = 0; p < g->rules.n_players; p++)
            most = st->goods[p][k] > most ? st->goods[p][k] : most;
        for (int p = 0; p < g->rules.n_players && most > 0; p++)
            if (st->goods[p][k] == most)
                who |= 1u << p;
        if (!who)
            continue;
        struct score_event *ev = game_new_event(g);
        ev->turn = -1;
        ev->feature = FEAT_TRADE_GOODS;
        ev->players = (uint8_t)who;
        ev->points = 10;
        score_add_item(ev, goods_item[k], -1, 10);
        for (int p = 0; p < g->rules.n_players; p++) /* the majority */
            ev->strength[p] = (uint8_t)(st->goods[p][k] < UINT8_MAX
                                            ? st->goods[p][k]
                                            : UINT8_MAX);
        for (int p = 0; p < g->rules.n_players; p++)
            if (who >> p & 1)
                g->score[p] += 10;
    }
}

static const struct element elements[] = {
    { "builder", EL_FIGURES, FIG_BUILDER, 2, true },
    { "pig", EL_FIGURES, FIG_PIG, 2, true },
    { "traders", EL_FLAG, RFB_TRADERS, 1, false },
    { "pig-herd", EL_FLAG, RFB_PIG_HERD, 1, false },
    { NULL, 0, 0, 0, false },
};

const struct expansion expansion_traders = {
    .id = "traders",
    .name = "Traders & Builders",
    .elements = elements,
    .check_deploy = check_deploy,
    .placed = placed,
    .extra_part = extra_part,
    .bonus = bonus,
    .turn_done = turn_done,
    .final_scoring = final_scoring,
};
