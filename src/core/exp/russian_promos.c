/* russian_promos.c - the Russian promos (JCloisterZone's sets
 * russian-promos/2013 and russian-promos/2016; on with their sets, the
 * save names no element) as a unit, as JCloisterZone plays them.
 *
 *  - Baba Yaga's hut (RU/L) is a cloister of its own kind (not a
 *    monastery: no abbot, no shrine's challenge): small and large
 *    followers, the phantom, the wagon and the ringmaster stand on it and
 *    fly to it; it completes with its 3x3 block and scores 9 less one a
 *    neighbour ("yaga-hut": items "yaga" 9 and "tiles" -n), completed or
 *    not: the hut wants to be alone.
 *  - Two traps: the Solovei-Razboynik (RU/SR) catches every follower on
 *    the road through its tile, the Vodyanoy (RU/V) every follower
 *    standing on one of the eight tiles around its own (not on its own
 *    tile, where no figure is put nor lands). A caught follower leaves
 *    its feature and stands in the trap (a segment of its own inside the
 *    trap's tile). The traps close after every tile placed and again
 *    after the turn's action, so before the turn's scoring. Instead of
 *    the turn's action its owner may take a caught follower back
 *    (RETURN_MEEPLE, source TRAP). At the end each player loses 2 for
 *    each of its followers in a Vodyanoy ("vodyanoy": item "meeples").
 * Tiles: russian_promos.tiles. */
#include <stdio.h>

#include "core/audit_unit.h"
#include "core/exp/russian_promos.h"
#include "core/game_int.h"
#include "core/words.h"
#include "core/log.h"
#include "core/move.h"
#include "core/text.h"

enum { YAGA_POINTS = 9, VODYANOY_PENALTY = 2 };

/* "Baba Yaga's hut at (1,2): 9 - 3 neighbours = 6" */
static int explain_yaga(const struct game_log *log,
                        const struct score_event *ev,
                        const struct feature_ref *refs, char *out, size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    int n = ev->tiles > 0 ? ev->tiles - 1 : 0;
    text_put(&t, "Baba Yaga's hut");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, ev->completed ? ", completed: 9 - " : ": 9 - ");
    text_int(&t, n);
    text_put(&t, n == 1 ? " neighbour = " : " neighbours = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The same rate completed or not: 9 less a point for each tile around. */
static void score_yaga(const struct rules *r, struct score_event *ev)
{
    (void)r;
    int n = ev->tiles > 0 ? ev->tiles - 1 : 0;
    ev->expr = EXPR_DONE;
    ev->points = YAGA_POINTS - n;
    score_add_item(ev, SI_YAGA, -1, YAGA_POINTS);
    score_add_item(ev, SI_TILES, n, -n);
}

const struct feature_class feature_class_YAGA_HUT = {
    .claimable = true,
    .name = "yaga-hut", .jcz = "YagaHut", .done = DONE_BLOCK,
    .on_board = true, .landable = true,
    .role = "follower in Baba Yaga's hut",
    .roles = "followers in Baba Yaga's hut",
    .score = score_yaga, .explain = explain_yaga,
};

/* "Vodyanoy at (3,-8): 2 followers caught, -2 each = -4" */
static int explain_vodyanoy(const struct game_log *log,
                            const struct score_event *ev,
                            const struct feature_ref *refs, char *out,
                            size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    int n = ev->n_items ? ev->items[0].count : 0;
    text_put(&t, "Vodyanoy");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, ": ");
    text_int(&t, n);
    text_put(&t, n == 1 ? " follower caught" : " followers caught");
    text_put(&t, ", -2 each = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The traps: figures are caught there by the unit, never put there. */
const struct feature_class feature_class_VODYANOY = {
    .name = "vodyanoy", .jcz = "Vodyanoy", .done = DONE_NEVER,
    .on_board = true, .role = "follower caught by the Vodyanoy",
    .roles = "followers caught by the Vodyanoy",
    .explain = explain_vodyanoy,
};

const struct feature_class feature_class_RAZBOYNIK = {
    .name = "razboynik", .jcz = "SoloveiRazboynik", .done = DONE_NEVER,
    .on_board = true, .role = "follower caught by the Solovei-Razboynik",
    .roles = "followers caught by the Solovei-Razboynik",
};

static bool is_trap(int kind)
{
    return kind == FEAT_VODYANOY || kind == FEAT_RAZBOYNIK;
}

/* The segment of kind on tile t, -1 if none. */
static int seg_of(const struct game *g, int t, int kind)
{
    const struct placed *pl = &g->tiles[t];
    if (!(tile_get(pl->def)->kinds >> kind & 1))
        return -1;
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == kind)
            return i;
    return -1;
}

/* Is meeple i a follower standing on the board outside any trap (and
 * outside the City of Carcassonne's quarters, which JCloisterZone's
 * traps leave alone)? */
static bool free_follower(const struct game *g, int i)
{
    const struct meeple *m = &g->meeples[i];
    return m->seg >= 0 && figure_class(m->kind)->follower &&
           !is_trap(g->segs[m->seg].kind) &&
           g->segs[m->seg].kind != FEAT_QUARTER;
}

/* Every follower on the road through the Razboynik's tile t. */
static void razboynik_catches(struct game *g, int t, int trap)
{
    const struct placed *pl = &g->tiles[t];
    for (int r = pl->seg0; r < pl->seg0 + pl->n_seg; r++) {
        if (g->segs[r].kind != FEAT_ROAD)
            continue;
        int root = game_root(g, r);
        for (int i = 0; i < g->n_meeples && g->segs[root].meeples; i++)
            if (free_follower(g, i) &&
                game_root(g, g->meeples[i].seg) == root)
                game_put(g, i, trap);
    }
}

/* Every follower on a tile of the eight around the Vodyanoy's tile t
 * (the castle of Bridges, Castles & Bazaars is no tile's: JCloisterZone
 * leaves its knight alone). */
static void vodyanoy_catches(struct game *g, int t, int trap)
{
    struct pos c = game_tile_pos(g, t);
    for (int i = 0; i < g->n_meeples; i++) {
        if (!free_follower(g, i) ||
            !feature_class(g->segs[g->meeples[i].seg].kind)->claimable)
            continue;
        struct pos q = game_tile_pos(g, g->segs[g->meeples[i].seg].tile);
        int dx = q.x - c.x, dy = q.y - c.y;
        if ((dx || dy) && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
            game_put(g, i, trap);
    }
}

/* The traps close, in the order their tiles were placed. */
static void close_traps(struct game *g)
{
    for (int t = 0; t < g->n_tiles; t++) {
        int s = seg_of(g, t, FEAT_RAZBOYNIK);
        if (s >= 0)
            razboynik_catches(g, t, s);
        s = seg_of(g, t, FEAT_VODYANOY);
        if (s >= 0)
            vodyanoy_catches(g, t, s);
    }
}

static void placed(struct game *g, int tile)
{
    (void)tile;
    close_traps(g);
}

/* After the turn's action, before its features score. */
static void turn_scoring(struct game *g)
{
    close_traps(g);
}

static int check_stand(const struct game *g, int fig, int seg, char *why,
                       size_t why_len)
{
    (void)fig;
    int t = g->segs[seg].tile;
    if (seg_of(g, t, FEAT_VODYANOY) < 0)
        return RULE_OK;
    struct pos p = game_tile_pos(g, t);
    snprintf(why, why_len, "the Vodyanoy's tile (%d,%d) takes no figure",
             p.x, p.y);
    return RULE_VODYANOY_TILE;
}

/* -2 for each follower in a Vodyanoy. JCloisterZone gives one event for
 * a trap, and lists in one the players it gives the same points. */
static void final_scoring(struct game *g)
{
    for (int t = 0; t < g->n_tiles; t++) {
        int trap = seg_of(g, t, FEAT_VODYANOY);
        if (trap < 0 || !g->segs[game_root(g, trap)].meeples)
            continue;
        int counts[GAME_MAX_PLAYERS] = { 0 };
        for (int i = 0; i < g->n_meeples; i++)
            if (g->meeples[i].seg == trap &&
                figure_class(g->meeples[i].kind)->follower)
                counts[g->meeples[i].owner]++;
        unsigned done = 0;
        for (int p = 0; p < g->rules.n_players; p++) {
            if (!counts[p] || (done >> p & 1))
                continue;
            struct score_event *ev = game_new_event(g);
            ev->turn = -1;
            ev->feature = FEAT_VODYANOY;
            ev->seg = (uint16_t)trap;
            game_event_ref(g, ev, trap);
            ev->points = -VODYANOY_PENALTY * counts[p];
            score_add_item(ev, SI_MEEPLES, counts[p], ev->points);
            for (int q = p; q < g->rules.n_players; q++)
                if (counts[q] == counts[p]) {
                    done |= 1u << q;
                    ev->players = (uint8_t)(ev->players | 1u << q);
                    ev->meeples[q] = (uint8_t)counts[q];
                    g->score[q] += ev->points;
                }
        }
    }
}

/* ---- the auditor's side: a follower taken out of a trap ------------- */

enum rule game_check_trap_return(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len)
{
    if (m < 0 || g->meeples[m].owner != player) {
        snprintf(why, why_len, "a player takes back only its own "
                 "followers");
        return RULE_TRAP_RETURN;
    }
    int at = g->meeples[m].seg;
    if (at < 0 || !is_trap(g->segs[at].kind) || (seg >= 0 && at != seg)) {
        snprintf(why, why_len, "that %s is not caught in that trap",
                 figure_class(g->meeples[m].kind)->name);
        return RULE_TRAP_RETURN;
    }
    return game_check_action(g, g->meeples[m].kind, why, why_len);
}

void game_trap_return(struct game *g, int m)
{
    game_put(g, m, -1);
    game_act(g, g->meeples[m].kind);
}

static void check_trap_return(struct audit *a, const struct move *m)
{
    char why[200], nm[80], name[64];
    struct game *g = a->g;
    int mi = audit_meeple_on_spot(a, m), seg = audit_move_seg(g, m);
    enum rule r = game_check_trap_return(g, a->player, mi, seg, why,
                                         sizeof why);
    a->phase = PH_DONE;
    if (r != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, r, "%s taken out of the %s at (%d,%d): %s",
                      audit_meeple_name(a, m, nm, sizeof nm), name, m->at.x,
                      m->at.y, why);
        if (r != RULE_MEEPLE_SECOND_DEPLOY)
            return;
    }
    game_trap_return(g, mi);
}

/* Each follower of the player on turn caught in a trap. */
static int trap_options(const struct audit *a, struct move *out, int max)
{
    return audit_standing_options(a, MV_TRAP_RETURN, a->player,
                                  game_check_trap_return, out, max);
}

static const struct move_class moves[] = {
    {
        .kind = MV_TRAP_RETURN,
        .slot = SLOT_ACTION,
        .at = AT_FEATURE,
        .what = "a follower taken out of a trap",
        .check = check_trap_return,
        .meeple = audit_meeple_on_spot,
        .name = "trap-return",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"TRAP\"}",
        .fl_fields = "at segment meeple_id",
        .options = trap_options,
    },
    { .name = NULL },
};

const struct expansion expansion_russian_promos = {
    .id = "russian_promos",
    .name = "the Russian promos",
    .moves = moves,
    .placed = placed,
    .turn_scoring = turn_scoring,
    .check_stand = check_stand,
    .final_scoring = final_scoring,
};
