/* festival.c - The Festival (the set "festival" and the element
 * "festival") as a unit, as JCloisterZone plays it.
 *
 * Each of its ten tiles carries a festival (the tile mark). The player who
 * places one may, instead of the turn's action (no deployment, no
 * flight), take one of its own figures standing anywhere on the board
 * back to supply (RETURN_MEEPLE with the source FESTIVAL); nobody scores
 * for it, an abbot's monastery included. Under the rule variant
 * festival-return "follower" only a follower may be taken back (a barn,
 * a builder, a pig may not); JCloisterZone's default is any figure.
 * Tiles: festival.tiles. */
#include <stdio.h>

#include "core/audit_unit.h"
#include "core/exp/festival.h"
#include "core/game_int.h"
#include "core/words.h"
#include "core/move.h"

static const struct element elements[] = {
    { "festival", EL_FLAG, RFB_FESTIVAL, 1, false },
    { NULL, 0, 0, 0, false },
};

/* Is the turn's tile a festival, with the element on? */
static bool festival_now(const struct game *g)
{
    return g->now.tile >= 0 && (g->rules.flags & RF_FESTIVAL) &&
           (tile_get(g->tiles[g->now.tile].def)->marks &
            TILE_MARK(FESTIVAL));
}

enum rule game_check_festival_return(const struct game *g, int player,
                                     int m, int seg, char *why,
                                     size_t why_len)
{
    if (!festival_now(g)) {
        snprintf(why, why_len, "the turn's tile holds no festival");
        return RULE_FESTIVAL_RETURN;
    }
    if (m < 0 || g->meeples[m].owner != player || g->meeples[m].seg < 0 ||
        (seg >= 0 && g->meeples[m].seg != seg)) {
        snprintf(why, why_len, "a player takes back only a figure of its "
                 "own standing where the move says");
        return RULE_FESTIVAL_RETURN;
    }
    if (g->rules.opt[OPT_FESTIVAL_RETURN] &&
        !figure_class(g->meeples[m].kind)->follower) {
        snprintf(why, why_len, "under festival-return: follower a %s "
                 "stays", figure_class(g->meeples[m].kind)->name);
        return RULE_FESTIVAL_RETURN;
    }
    return game_check_action(g, g->meeples[m].kind, why, why_len);
}

void game_festival_return(struct game *g, int m)
{
    game_put(g, m, -1);
    game_act(g, g->meeples[m].kind);
}

/* ---- the auditor's side ---------------------------------------------- */

static void check_festival_return(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = audit_meeple_on_spot(a, m), seg = audit_move_seg(g, m);
    enum rule r = game_check_festival_return(g, a->player, mi, seg, why,
                                             sizeof why);
    a->phase = PH_DONE;
    if (r != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, r, "%s taken back by a festival from %s at "
                      "(%d,%d): %s", audit_meeple_name(a, m, nm, sizeof nm),
                      name, m->at.x, m->at.y, why);
        if (r != RULE_MEEPLE_SECOND_DEPLOY)
            return;
    }
    game_festival_return(g, mi);
}

/* Each figure of the player on turn that the festival may send home. */
static int festival_options(const struct audit *a, struct move *out, int max)
{
    return audit_standing_options(a, MV_FESTIVAL_RETURN, a->player,
                                  game_check_festival_return, out, max);
}

static const struct move_class moves[] = {
    {
        .kind = MV_FESTIVAL_RETURN,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "a figure taken back by a festival",
        .check = check_festival_return,
        .meeple = audit_meeple_on_spot,
        .name = "festival-return",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"FESTIVAL\"}",
        .fl_fields = "at segment meeple_id",
        .options = festival_options,
    },
    { .name = NULL },
};

const struct expansion expansion_festival = {
    .id = "festival",
    .name = "The Festival",
    .elements = elements,
    .moves = moves,
};
