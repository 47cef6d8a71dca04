/* c3.c - the third edition's additions to the base game as a unit: the
 * abbot, gardens, and the abbot's recall (instead of deploying, its owner
 * takes it back and scores its monastery or garden at once, as at the
 * end of the game). The garden tiles are in base.tiles (set basic:2). */
#include "core/audit_unit.h"
#include "core/exp/c3.h"
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
    .stands = 1u << FEAT_MONASTERY | 1u << FEAT_GARDEN |
              1u << FEAT_ABBOT_SEAT,
    .follower = true, .flies = true,
};

void game_recall(struct game *g, int m)
{
    struct meeple *mp = &g->meeples[m];
    int seg = mp->seg, as;
    if (seg < 0)
        return;
    int scored = seg;
    if ((as = feature_class(g->segs[seg].kind)->part_of) != 0 &&
        game_find_seg(g, g->segs[seg].tile, as, 0) >= 0)
        scored = game_find_seg(g, g->segs[seg].tile, as, 0);
    /* the abbot's owner scores alone, as at game end */
    struct score_event *ev = game_new_event(g);
    ev->feature = g->segs[scored].kind;
    ev->completed = game_feature_complete(g, scored);
    ev->recall = true;
    ev->seg = (uint16_t)scored;
    game_measure(g, scored, ev);
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

/* ---- the auditor's side: the recall ------------------------------- */

/* A recall: the abbot on the feature when the log leaves it open. */
static int resolve_abbot(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int seg = game_find_seg(g, game_tile_at(g, m->at), m->feature, m->mask);
    int mi = audit_resolve_meeple(a, m);
    if (m->meeple_n == 0) /* "the abbot": the one standing there */
        for (int i = 0; i < g->n_meeples; i++)
            if (g->meeples[i].owner == audit_meeple_owner(a, m) &&
                g->meeples[i].kind == FIG_ABBOT && g->meeples[i].seg >= 0 &&
                g->meeples[i].seg == seg)
                mi = i;
    return mi;
}

/* Instead of the turn's action (a held scoring takes place first). */
static void check_recall(struct audit *a, const struct move *m)
{
    char nm[80];
    struct game *g = a->g;
    if (a->phase == PH_ROUND)
        audit_end_turn(a, m);
    if (a->phase == PH_IDLE) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "an abbot recalled before the "
                "turn's tile was placed");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    int tile = game_tile_at(g, m->at);
    int seg = game_find_seg(g, tile, m->feature, m->mask);
    int mi = resolve_abbot(a, m);
    if (mi < 0 || g->meeples[mi].kind != FIG_ABBOT ||
        g->meeples[mi].owner != a->player) {
        audit_violate(a, m, RULE_ABBOT_RECALL, "%s is not %s's abbot",
                audit_meeple_name(a, m, nm, sizeof nm), audit_who(a, a->player));
        return;
    }
    if (g->meeples[mi].seg < 0 || g->meeples[mi].seg != seg) {
        audit_violate(a, m, RULE_ABBOT_RECALL, "%s's abbot is not on a %s at "
                      "(%d,%d)", audit_who(a, a->player),
                      feat_name(m->feature), m->at.x, m->at.y);
        return;
    }
    if (game_check_action(g, FIG_ABBOT, NULL, 0) != RULE_OK) {
        audit_violate(a, m, RULE_MEEPLE_SECOND_DEPLOY, "an abbot recall "
                      "after a meeple was already deployed this turn");
    }
    game_recall(g, mi);
    a->phase = PH_DONE;
}

/* The abbots of the player on turn, each recalled instead of the
 * action. */
static int recall_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    if (a->phase == PH_IDLE || a->phase == PH_VOID ||
        game_check_action(g, FIG_ABBOT, NULL, 0) != RULE_OK)
        return 0;
    for (int mi = 0; mi < g->n_meeples && n < max; mi++) {
        const struct meeple *mp = &g->meeples[mi];
        if (mp->kind != FIG_ABBOT || mp->owner != a->player || mp->seg < 0)
            continue;
        out[n] = audit_option(MV_RECALL);
        audit_option_on(&out[n], g, mp->seg);
        audit_option_meeple(&out[n++], g, mi);
    }
    return n;
}

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_RECALL,
        .at = AT_FEATURE,
        .check = check_recall,
        .meeple = resolve_abbot,
        .name = "recall",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"ABBOT_RETURN\"}",
        .fl_fields = "at segment? meeple=abbot.1",
        .options = recall_options,
    },
    { .name = NULL },
};

const struct expansion expansion_c3 = {
    .id = "c3",
    .name = "the third edition's abbot and gardens",
    .elements = elements,
    .moves = moves,
};
