/* c3.c - the third edition's additions to the base game as a unit: the
 * abbot, gardens, and the abbot's recall (instead of deploying, its owner
 * takes it back and scores its monastery or garden at once, as at the
 * end of the game). The garden tiles are in base.tiles (set basic:2). */
#include "core/exp/units.h"
#include "core/game_int.h"
#include "core/move.h"

const struct feature_class feature_class_GARDEN = {
    .claimable = true,
    .name = "garden", .jcz = "Garden", .done = DONE_BLOCK, .on_board = true,
    .landable = true, .needs = RF_GARDENS, .role = "abbot",
    .roles = "abbots", .score = base_score_cloister,
    .explain = base_explain_cloister,
};

const struct figure_class figure_class_ABBOT = {
    .jcz = "abbot", .name = "abbot", .names = "abbots", .strength = 1,
    .stands = 1u << FEAT_MONASTERY | 1u << FEAT_GARDEN,
    .follower = true, .flies = true,
};

void game_recall(struct game *g, int m)
{
    struct meeple *mp = &g->meeples[m];
    int seg = mp->seg;
    if (seg < 0)
        return;
    /* the abbot's owner scores alone, as at game end */
    struct score_event *ev = game_new_event(g);
    ev->feature = g->segs[seg].kind;
    ev->completed = game_feature_complete(g, seg);
    ev->recall = true;
    ev->seg = (uint16_t)seg;
    game_measure(g, seg, ev);
    game_score_points(g, ev);
    ev->players = (uint8_t)(1u << mp->owner);
    ev->meeples[mp->owner] = 1;
    ev->figures[mp->owner][mp->kind] = 1;
    ev->strength[mp->owner] = figure_class(mp->kind)->strength;
    g->score[mp->owner] += ev->points;
    g->segs[game_root(g, seg)].meeples--;
    mp->seg = -1;
    mp->flew = false;
    game_act(g, mp->kind);
}

static const struct element elements[] = {
    { "abbot", EL_FIGURES, FIG_ABBOT, 1, true },
    { "garden", EL_FLAG, RFB_GARDENS, 1, true },
    { NULL, 0, 0, 0, false },
};

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_RECALL,
        .name = "recall",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"ABBOT_RETURN\"}",
        .fl_fields = "at segment? meeple=abbot.1",
    },
    { .name = NULL },
};

const struct expansion expansion_c3 = {
    .id = "c3",
    .name = "the third edition's abbot and gardens",
    .elements = elements,
    .moves = moves,
};
