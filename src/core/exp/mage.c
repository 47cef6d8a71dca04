/* mage.c - Mage & Witch as a unit, as JCloisterZone plays it.
 *
 * Two neutral figures, the mage and the witch, switched on by the
 * element mage (the witch comes with it). Both start beside the board.
 *  - When a tile with the magic symbol is placed, or a placement joins
 *    the features of the mage and the witch into one, the player on turn
 *    moves one of them, before the turn's action, onto any unfinished
 *    road or city of the board but the features the mage and the witch
 *    stand on (a figure beside the board may come on; the one that does
 *    not move stays where it is). A feature completed by the tile is
 *    finished, so no target.
 *  - With no such road or city: when both stand on the board, the player
 *    takes one of them off (a message of its own); else the one on the
 *    board leaves it by itself.
 *  - A road or city scores 1 more a tile with the mage on it (mage); with
 *    the witch, half its points (the mage's included) are taken away, the
 *    half rounded down (witch): so at the end of the game too. The figures
 *    stay on a completed feature until they move again; they hold no
 *    feature: followers are deployed, and fliers land, beside them.
 * Tiles: mage.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/mage.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/move.h"
#include "core/replay.h"

const struct figure_class figure_class_MAGE = {
    .jcz = "mage", .name = "mage", .names = "mages",
};

const struct figure_class figure_class_WITCH = {
    .jcz = "witch", .name = "witch", .names = "witches",
};

enum { MAGE, WITCH, N_FIGS };

struct mage {
    int16_t seg[N_FIGS]; /* the segment each stands on, -1: off the board */
    uint8_t due;         /* enum mage_due: what the turn owes */
};
UNIT_STATE_FITS(struct mage);

static struct mage *state(struct game *g)
{
    return UNIT_STATE(g, EXP_MAGE, struct mage);
}

static const struct mage *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_MAGE, const struct mage);
}

static int fig_index(int fig)
{
    return fig == FIG_WITCH ? WITCH : MAGE;
}

static const char *fig_name(int fig)
{
    return fig == FIG_WITCH ? "the witch" : "the mage";
}

static bool on(const struct game *g)
{
    return game_in_play(g, EXP_MAGE) && (g->rules.flags & RF_MAGE);
}

int mage_root(const struct game *g, int fig)
{
    if (!on(g))
        return -1;
    int seg = cstate(g)->seg[fig_index(fig)];
    return seg >= 0 ? game_root(g, seg) : -1;
}

int mage_seg(const struct game *g, int fig)
{
    return on(g) ? cstate(g)->seg[fig_index(fig)] : -1;
}

enum mage_due mage_due(const struct game *g)
{
    return on(g) ? (enum mage_due)cstate(g)->due : MAGE_DUE_NONE;
}

enum rule mage_check_target(const struct game *g, int fig, int seg,
                            char *why, size_t why_len)
{
    if (seg < 0 || seg >= g->n_segs) {
        snprintf(why, why_len, "%s goes onto a road or city of the board",
                 fig_name(fig));
        return RULE_MAGE_TARGET;
    }
    const struct seg *s = &g->segs[seg];
    if (s->kind != FEAT_ROAD && s->kind != FEAT_CITY) {
        snprintf(why, why_len, "%s goes onto a road or city, not a %s",
                 fig_name(fig), feat_name(s->kind));
        return RULE_MAGE_TARGET;
    }
    if (game_feature_complete(g, seg)) {
        snprintf(why, why_len, "%s goes onto an unfinished %s; this one is "
                 "completed", fig_name(fig), feat_name(s->kind));
        return RULE_MAGE_TARGET;
    }
    int root = game_root(g, seg);
    for (int k = MAGE; k < N_FIGS; k++)
        if (mage_root(g, k == MAGE ? FIG_MAGE : FIG_WITCH) == root) {
            snprintf(why, why_len, "%s stands on that %s already: %s moves "
                     "to another feature", k == MAGE ? "the mage" :
                     "the witch", feat_name(s->kind), fig_name(fig));
            return RULE_MAGE_TARGET;
        }
    return RULE_OK;
}

int mage_targets(const struct game *g, int *out, int max)
{
    int n = 0;
    for (int i = 0; i < g->n_segs; i++) {
        const struct seg *s = &g->segs[i];
        if ((s->kind != FEAT_ROAD && s->kind != FEAT_CITY) ||
            game_root(g, i) != i ||
            mage_check_target(g, FIG_MAGE, i, NULL, 0) != RULE_OK)
            continue;
        if (out && n < max)
            out[n] = g->segs[i].min;
        n++;
    }
    return n;
}

void mage_move(struct game *g, int fig, int seg)
{
    struct mage *st = state(g);
    st->seg[fig_index(fig)] = (int16_t)seg;
    st->due = MAGE_DUE_NONE;
}

static void start(struct game *g)
{
    struct mage *st = state(g);
    st->seg[MAGE] = st->seg[WITCH] = -1;
    st->due = MAGE_DUE_NONE;
}

/* A tile placed in a turn: the magic symbol, or the mage and the witch
 * joined, call for a move; none possible, for one to leave the board. */
static void placed(struct game *g, int tile)
{
    struct mage *st = state(g);
    st->due = MAGE_DUE_NONE;
    if (!on(g) || g->turn == 0)
        return;
    int mr = mage_root(g, FIG_MAGE), wr = mage_root(g, FIG_WITCH);
    bool joined = mr >= 0 && mr == wr;
    if (!(tile_get(g->tiles[tile].def)->marks & TILE_MARK(MAGE)) && !joined)
        return;
    if (mage_targets(g, NULL, 0) > 0)
        st->due = MAGE_DUE_MOVE;
    else if (mr >= 0 && wr >= 0)
        st->due = MAGE_DUE_OFF;
    else
        st->seg[MAGE] = st->seg[WITCH] = -1;
}

/* The turn ends: what it owed lapses (the auditor said so). */
static void turn_scoring(struct game *g)
{
    if (on(g))
        state(g)->due = MAGE_DUE_NONE;
}

/* A road or city with the mage: 1 a tile more; with the witch: half the
 * points taken away (JCloisterZone's integer half). */
static void adjust_points(const struct game *g, int root,
                          struct score_event *ev)
{
    if (!on(g) || (ev->feature != FEAT_ROAD && ev->feature != FEAT_CITY))
        return;
    if (mage_root(g, FIG_MAGE) == root) {
        ev->points += ev->tiles;
        score_add_item(ev, SI_MAGE, -1, ev->tiles);
    }
    if (mage_root(g, FIG_WITCH) == root) {
        int half = ev->points / 2;
        ev->points -= half;
        score_add_item(ev, SI_WITCH, -1, -half);
    }
}

static const struct element elements[] = {
    { "mage", EL_FLAG, RFB_MAGE, 1, true },
    { "witch", EL_FLAG, RFB_WITCH, 1, true },
    { NULL, 0, 0, 0, false },
};

/* Where the mage and the witch stand, and what the turn owes. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct mage *st = cstate(g);
    if (!on(g))
        return h;
    for (int k = MAGE; k < N_FIGS; k++)
        h = game_hash_mix(h, st->seg[k] >= 0 ? game_feature(g, st->seg[k])
                                             : -1);
    return game_hash_mix(h, st->due);
}

/* ---- the auditor's side ---------------------------------------------- */

/* Before the turn's action: false (with a violation) when it comes
 * after. The slot (SLOT_ACTION) saw to the rest. */
static bool before_action(struct audit *a, const struct move *m,
                          const char *what)
{
    if (a->phase == PH_ACTION && a->g->now.actions == 0)
        return true;
    audit_violate(a, m, RULE_MAGE_MOVE, "%s after the turn's action: the "
                  "mage or the witch moves right after the tile is placed",
                  what);
    return false;
}

static void check_move(struct audit *a, const struct move *m)
{
    char why[200];
    struct game *g = a->g;
    const char *who = fig_name(m->neutral);
    if (!before_action(a, m, m->neutral == FIG_WITCH ? "the witch moved" :
                                                      "the mage moved"))
        return;
    enum mage_due due = mage_due(g);
    if (due != MAGE_DUE_MOVE) {
        audit_violate(a, m, RULE_MAGE_MOVE, "%s moved to (%d,%d), but %s",
                      who, m->at.x, m->at.y, due == MAGE_DUE_OFF ?
                      "no unfinished road or city is left for it: one of "
                      "the two leaves the board" :
                      "no tile with the magic symbol was placed, nor were "
                      "the mage and the witch joined");
        return;
    }
    int seg = audit_move_seg(g, m);
    enum rule rule = mage_check_target(g, m->neutral, seg, why, sizeof why);
    if (rule != RULE_OK) {
        state(g)->due = MAGE_DUE_NONE; /* reported here, not again */
        audit_violate(a, m, rule, "%s moved to the %s at (%d,%d): %s", who,
                      feat_name(m->feature), m->at.x, m->at.y, why);
        return;
    }
    mage_move(g, m->neutral, seg);
}

static void check_off(struct audit *a, const struct move *m)
{
    struct game *g = a->g;
    const char *who = fig_name(m->neutral);
    if (!before_action(a, m, m->neutral == FIG_WITCH ? "the witch left the "
                                                       "board" :
                                                       "the mage left the "
                                                       "board"))
        return;
    if (mage_due(g) != MAGE_DUE_OFF) {
        audit_violate(a, m, RULE_MAGE_MOVE, "%s taken off the board, but %s",
                      who, mage_due(g) == MAGE_DUE_MOVE ?
                      "an unfinished road or city is left to move it to" :
                      "neither the mage nor the witch had to move");
        return;
    }
    mage_move(g, m->neutral, -1);
}

/* The turn ends: the move it owed must have come. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    enum mage_due due = mage_due(a->g);
    if (!void_turn && due == MAGE_DUE_MOVE)
        audit_violate(a, m, RULE_MAGE_MOVE, "the mage or the witch had to "
                      "move onto an unfinished road or city this turn");
    else if (!void_turn && due == MAGE_DUE_OFF)
        audit_violate(a, m, RULE_MAGE_MOVE, "no unfinished road or city was "
                      "left: the mage or the witch had to leave the board "
                      "this turn");
    if (on(a->g))
        state(a->g)->due = MAGE_DUE_NONE;
}

static const struct audit_unit audit = {
    .turn_end = turn_end,
};

/* ---- what may be done next (the moves' options hooks) ---------------- */

static bool may_act(const struct audit *a)
{
    return a->phase == PH_ACTION && a->g->now.actions == 0 && !a->passed;
}

/* Each unfinished road or city the figure may go to, once a feature. */
static int move_options(const struct audit *a, int fig, struct move *out,
                        int max)
{
    int segs[GAME_MAX_SEGS];
    if (mage_due(a->g) != MAGE_DUE_MOVE || !may_act(a))
        return 0;
    const struct game *g = a->g;
    int n_targets = mage_targets(g, segs, GAME_MAX_SEGS), n = 0;
    /* every segment of each feature it may go to: a log names any */
    for (int i = 0; i < n_targets && i < GAME_MAX_SEGS; i++) {
        int seg = segs[i];
        do {
            if (n == max)
                return n;
            out[n] = audit_option(MV_NEUTRAL);
            out[n].neutral = (uint8_t)fig;
            audit_option_on(&out[n++], g, seg);
            seg = g->segs[seg].next;
        } while (seg != segs[i]);
    }
    return n;
}

static int off_options(const struct audit *a, int fig, struct move *out,
                       int max)
{
    if (mage_due(a->g) != MAGE_DUE_OFF || !may_act(a) || max < 1)
        return 0;
    out[0] = audit_option(MV_MAGE_OFF);
    out[0].neutral = (uint8_t)fig;
    return 1;
}

static int mage_options(const struct audit *a, struct move *out, int max)
{
    return move_options(a, FIG_MAGE, out, max);
}

static int witch_options(const struct audit *a, struct move *out, int max)
{
    return move_options(a, FIG_WITCH, out, max);
}

static int mage_off_options(const struct audit *a, struct move *out, int max)
{
    return off_options(a, FIG_MAGE, out, max);
}

static int witch_off_options(const struct audit *a, struct move *out,
                             int max)
{
    return off_options(a, FIG_WITCH, out, max);
}

/* The rows taking a figure off come first: a .jcz message with "to":
 * null is theirs, one with a pointer the moves'. */
static const struct move_class moves[] = {
    {
        .kind = MV_MAGE_OFF,
        .neutral = FIG_MAGE,
        .slot = SLOT_ACTION,
        .what = "the mage left the board",
        .check = check_off,
        .name = "mage-off",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"mage.1\",\"to\":null}",
        .fl_fields = "",
        .options = mage_off_options,
    },
    {
        .kind = MV_MAGE_OFF,
        .neutral = FIG_WITCH,
        .slot = SLOT_ACTION,
        .what = "the witch left the board",
        .check = check_off,
        .name = "witch-off",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"witch.1\",\"to\":null}",
        .fl_fields = "",
        .options = witch_off_options,
    },
    {
        .kind = MV_NEUTRAL,
        .neutral = FIG_MAGE,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "the mage moved",
        .check = check_move,
        .name = "mage",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"mage.1\",\"to\":\"$pointer\"}",
        .fl_fields = "at segment",
        .options = mage_options,
    },
    {
        .kind = MV_NEUTRAL,
        .neutral = FIG_WITCH,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "the witch moved",
        .check = check_move,
        .name = "witch",
        .jcz = "MOVE_NEUTRAL_FIGURE",
        .jcz_payload = "{\"figureId\":\"witch.1\",\"to\":\"$pointer\"}",
        .fl_fields = "at segment",
        .options = witch_options,
    },
    { .name = NULL },
};

/* For a replay: where the mage and the witch stand. */
static void replay(const struct game *g, struct replay_out *out)
{
    static const char *const names[N_FIGS] = { "mage", "witch" };
    const struct mage *st = cstate(g);
    if (!on(g))
        return;
    for (int k = MAGE; k < N_FIGS; k++) {
        int seg = st->seg[k];
        if (seg < 0)
            continue;
        replay_put(out, (struct replay_item){
            .kind = REPLAY_FIGURE, .name = names[k], .seat = -1,
            .at = game_tile_pos(g, g->segs[seg].tile),
            .feature = g->segs[seg].kind, .mask = g->segs[seg].mask });
    }
}

const struct expansion expansion_mage = {
    .id = "mage",
    .name = "Mage & Witch",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .turn_scoring = turn_scoring,
    .hash = hash,
    .replay = replay,
    .adjust_points = adjust_points,
};
