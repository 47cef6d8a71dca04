/* monasteries.c - The German Monasteries and The Dutch & Belgian
 * Monasteries as a unit. A special monastery (monasteries.tiles) is an
 * ordinary monastery, whose followers are monks scored as any monastery's,
 * with a second place on it, the abbot's: a feature of its own that any
 * follower may take (not a builder, pig or barn: no figure class but the
 * followers' lists it), that no turn's scoring takes (its followers stay
 * when the monastery completes) and that scores only at the end. Then the greatest strength among the followers
 * there (ties all) scores 1 + the rows of placed tiles running from the
 * monastery north, east, south and west until the first empty square,
 * over the whole board. An abbot recalled from there (C3) scores the
 * monastery, as from the monk's place, and a flier lands on either place
 * while the monastery is unfinished (part_of: JCloisterZone's places of
 * one feature). A deployment, though, finds a special monastery occupied
 * when anyone stands on either of its places (JCloisterZone counts the
 * monastery's meeples with its abbot's): on the turn's tile that is the
 * phantom's second deployment (a deployment through the magic portal is
 * the dragon unit's to judge, before this one). Keeping the base game's monasteries is the rule variant
 * keep-monasteries (the set's removals wait for it). */
#include "core/exp/monasteries.h"

#include <stdio.h>

#include "core/exp/units.h"
#include "core/game_int.h"
#include "core/text.h"

static int explain_abbot(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len);

const struct feature_class feature_class_ABBOT_SEAT = {
    .claimable = true,
    .name = "special-monastery", .jcz = "Monastery", .done = DONE_NEVER,
    .on_board = true, .landable = true, .part_of = FEAT_MONASTERY,
    .role = "abbot", .roles = "abbots", .explain = explain_abbot,
};

int monasteries_rows(const struct game *g, int seg, int rows[4])
{
    const struct placed *t = &g->tiles[g->segs[seg].tile];
    int total = 1;
    for (int d = 0; d < 4; d++) {
        struct pos p = { t->x, t->y };
        rows[d] = 0;
        for (p = pos_step(p, d); game_tile_at(g, p) >= 0; p = pos_step(p, d))
            rows[d]++;
        total += rows[d];
    }
    return total;
}

/* The other place of a special monastery's seg (its abbot's place, or
 * its monastery), -1 for any other segment. */
static int other_place(const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    if (s->kind == FEAT_ABBOT_SEAT)
        return game_find_seg(g, s->tile, FEAT_MONASTERY, 0);
    if (s->kind == FEAT_MONASTERY)
        return game_find_seg(g, s->tile, FEAT_ABBOT_SEAT, 1u << SPOT_ABBOT);
    return -1;
}

/* Only once the generic checks before occupancy pass (the tile, the
 * place itself), so that their rules keep their precedence. */
static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    (void)player;
    int other = other_place(g, seg);
    if (other < 0 || game_feature_meeples(g, other, NULL) == 0 ||
        game_feature_meeples(g, seg, NULL) > 0 ||
        game_check_on_tile(g, seg, NULL, 0) != RULE_OK ||
        !game_kind_allowed(g, g->meeples[m].kind, g->segs[seg].kind))
        return -1;
    snprintf(why, why_len, "the special monastery already holds a meeple "
             "on its %s", g->segs[other].kind == FEAT_ABBOT_SEAT
                              ? "abbot's place" : "monastery");
    return RULE_MEEPLE_FEATURE_OCCUPIED;
}

/* The generic majority scores the place for nothing, then its events
 * take their points: a feature class's score sees no board. */
static void nothing(const struct rules *r, struct score_event *ev)
{
    (void)r;
    ev->points = 0;
}

static const uint8_t row_items[4] = { SI_TILES_N, SI_TILES_E, SI_TILES_S,
                                      SI_TILES_W };

static void final_scoring(struct game *g)
{
    static const struct score_how how = { EXPR_DONE, nothing };
    for (int s = 0; s < g->n_segs; s++) {
        int rows[4], e0 = g->n_events;
        if (g->segs[s].kind != FEAT_ABBOT_SEAT || !g->segs[s].meeples ||
            !game_score_feature(g, s, false, -1, &how, NULL))
            continue;
        int points = monasteries_rows(g, s, rows);
        for (int e = e0; e < g->n_events; e++) {
            struct score_event *ev = &g->events[e];
            if (ev->feature != FEAT_ABBOT_SEAT || ev->expr != EXPR_DONE)
                continue; /* another unit's, after it (the fairy's) */
            ev->points = points;
            ev->n_items = 0;
            score_add_item(ev, SI_TILES, 1, 1);
            for (int d = 0; d < 4; d++)
                score_add_item(ev, row_items[d], rows[d], rows[d]);
            for (unsigned w = ev->players; w; w &= w - 1)
                g->score[__builtin_ctz(w)] += points;
        }
    }
}

/* "special monastery's abbot place: 1 + N 1 + E 1 + S 0 + W 3 = 6" */
static int explain_abbot(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len)
{
    static const char *const dirs[4] = { " + N ", " + E ", " + S ",
                                         " + W " };
    (void)log;
    (void)refs;
    struct text t = text_at(out, len);
    text_put(&t, "special monastery's abbot place, the rows of tiles from "
                 "it: 1");
    for (int i = 1; i < ev->n_items && i <= 4; i++) {
        text_put(&t, dirs[i - 1]);
        text_int(&t, ev->items[i].points);
    }
    text_put(&t, " = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

const struct expansion expansion_monasteries = {
    .id = "monasteries",
    .name = "The Monasteries",
    .check_deploy = check_deploy,
    .final_scoring = final_scoring,
};
