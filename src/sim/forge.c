/* forge.c - one illegal move in a legal game, checked with the auditor.
 *
 * Every forgery is built from the engine's own view of the game at the
 * chosen turn (a replay of the legal log up to there), and is kept only
 * when auditing the forged log reports that rule first, at that turn:
 * the manifest of `flierd simulate --forge` is true by construction. */
#include "sim/forge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "util/err.h" /* PRINTF_LIKE */
#include "util/xalloc.h"

struct forge {
    const struct game_log *in;
    struct game_log *out;
    int turn;        /* the turn being forged (1-based) */
    int seat;        /* the seat on turn */
    int prev_seat;   /* the seat of the turn before, -1 for the first */
    size_t place;    /* index of its MV_PLACE in the log */
    size_t commit;   /* index of its MV_COMMIT (or n_moves) */
    int want_turn;   /* where the violation must show; usually turn */
    int figure;      /* the figure a forged flight should use, -1: any */
    int flew;        /* the figure of the forged flight, -1: none */
    char how[SIM_FORGE_HOW_MAX];
};

/* What the forgery did, for the manifest (cut to its buffer). */
static void set_how(struct forge *f, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void set_how(struct forge *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->how, sizeof f->how, fmt, ap);
    va_end(ap);
}

/* ---- helpers ------------------------------------------------------------ */

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void log_copy(const struct game_log *in, struct game_log *out)
{
    game_log_init(out);
    out->rules = in->rules;
    memcpy(out->names, in->names, sizeof out->names);
    memcpy(out->colors, in->colors, sizeof out->colors);
    out->start_tile = in->start_tile;
    out->start_at = in->start_at;
    out->start_rot = in->start_rot;
    memcpy(out->more_starts, in->more_starts, sizeof out->more_starts);
    out->n_more_starts = in->n_more_starts;
    out->end_turn = in->end_turn;
    for (size_t i = 0; i < in->n_moves; i++)
        *game_log_push(out) = in->moves[i];
    for (size_t i = 0; i < in->n_claims; i++)
        *game_log_push_claim(out) = in->claims[i];
    for (size_t i = 0; i < in->n_totals; i++)
        *game_log_push_total(out) = in->totals[i];
    for (size_t i = 0; i < in->n_notes; i++)
        game_log_add_note(out, in->notes[i].turn, in->notes[i].time,
                          in->notes[i].text);
}

/* A zeroed move inserted at idx (src copied from its neighbour). */
static struct move *insert_move(struct game_log *l, size_t idx)
{
    (void)game_log_push(l);
    memmove(&l->moves[idx + 1], &l->moves[idx],
            (l->n_moves - 1 - idx) * sizeof *l->moves);
    struct move *m = &l->moves[idx];
    uint32_t src = idx + 1 < l->n_moves ? l->moves[idx + 1].src : 0;
    memset(m, 0, sizeof *m);
    m->player = -1;
    m->tile = -1;
    m->draw = -1;
    m->src = src;
    return m;
}

static void remove_moves(struct game_log *l, size_t from, size_t to)
{
    if (to <= from)
        return;
    memmove(&l->moves[from], &l->moves[to],
            (l->n_moves - to) * sizeof *l->moves);
    l->n_moves -= to - from;
}

/* Replaces the turn's action (between PLACE and COMMIT) by one move. */
static struct move *replace_action(struct forge *f)
{
    remove_moves(f->out, f->place + 1, f->commit);
    f->commit = f->place + 2;
    return insert_move(f->out, f->place + 1);
}

static void set_meeple(struct move *m, const struct game *g, int mi)
{
    m->meeple = g->meeples[mi].kind;
    m->meeple_n = g->meeples[mi].n;
    m->meeple_owner = g->meeples[mi].owner;
}

static const char *a_or_an(const char *word)
{
    return strchr("aeiou", word[0]) ? "an" : "a";
}

/* The engine's state after the first k moves of the legal log. The
 * caller ends it with state_end(). */
struct state {
    struct audit *a;
    struct report r;
};

static const struct game *state_at(struct state *s, const struct game_log *l,
                                   size_t k)
{
    s->a = audit_begin(l, &s->r);
    for (size_t i = 0; i < k && i < l->n_moves; i++)
        audit_step(s->a, &l->moves[i]);
    return audit_game(s->a);
}

static void state_end(struct state *s)
{
    struct game *g = NULL;
    audit_finish(s->a, NULL, &g);
    game_free(g);
    report_release(&s->r);
}

static const struct move *action(const struct forge *f)
{
    return f->place + 1 < f->commit ? &f->in->moves[f->place + 1] : NULL;
}

static bool is_deploy(const struct move *m)
{
    return m && m->kind == MV_DEPLOY && m->feature != FEAT_FLIER;
}

static bool is_flight(const struct move *m)
{
    return m && m->kind == MV_DEPLOY && m->feature == FEAT_FLIER;
}

/* Index of this turn's landing (the move after the flight), or 0. */
static size_t landing_index(const struct forge *f)
{
    size_t i = f->place + 2;
    return is_flight(action(f)) && i < f->commit &&
                   f->in->moves[i].kind == MV_DEPLOY
               ? i
               : 0;
}

static bool is_held(int def)
{
    return def >= 0 && tile_group_rank(tile_get(def)->group) < 0;
}

/* Does a seat of this game hold tiles of kind def (the abbey)? */
static bool held(const struct game *g, int def)
{
    return is_held(def) && game_in_play(g, tile_get(def)->expansion);
}

/* ---- tile rules --------------------------------------------------------- */

static bool f_tile_unknown(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->tile = -1;
    snprintf(m->tile_id, sizeof m->tile_id, "XX/Forged");
    set_how(f, "placed tile id XX/Forged instead of %s",
            f->in->moves[f->place].tile_id);
    return true;
}

static bool f_tile_not_in_pack(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    int pick = -1;
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (g->pack[t] <= 0 && t != f->in->start_tile &&
            !held(g, t)) { /* a held tile (the abbey) is in no pack */
            pick = t;
            if (tile_get(t)->flier_dir == NO_FLIER) /* keep flights apart */
                break;
        }
    state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = &f->out->moves[f->place];
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    set_how(f, "placed %s, of which no copy is left, "
            "instead of %s", m->tile_id, f->in->moves[f->place].tile_id);
    return true;
}

/* A legal placement of kind t, at `at` (the logged tile's square) when
 * it fits there; false when it fits nowhere. */
static bool placement_of(const struct game *g, int t, struct pos at,
                         struct placement *out)
{
    char why[8];
    for (int r = 0; r < 4; r++)
        if (game_check_place(g, t, at, r, why, sizeof why) == RULE_OK) {
            *out = (struct placement){ at, r };
            return true;
        }
    return game_list_placements(g, t, out, 1) > 0;
}

/* Another tile than the one the save's random number draws, one that may
 * be drawn now and fits: a swap, by hand or by another tool. The random
 * number is kept. */
static bool f_tile_not_drawn(struct forge *f)
{
    const struct move *m = &f->in->moves[f->place];
    struct placement pl = { { 0, 0 }, 0 };
    int pick = -1;
    if (m->draw < 0 || m->tile < 0)
        return false;
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    /* tiles without a flying machine first: keep flights apart */
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int t = 0; t < tile_count() && t < TILE_KINDS && pick < 0; t++)
            if (t != m->tile && game_drawable(g, t) &&
                (pass || tile_get(t)->flier_dir == NO_FLIER) &&
                placement_of(g, t, m->at, &pl))
                pick = t;
    state_end(&s);
    if (pick < 0)
        return false;
    struct move *o = &f->out->moves[f->place];
    o->tile = (int16_t)pick;
    snprintf(o->tile_id, sizeof o->tile_id, "%s", tile_get(pick)->id);
    o->at = pl.at;
    o->rot = (uint8_t)pl.rot;
    set_how(f, "placed %s at (%d,%d) where the save's "
            "random number draws %s", o->tile_id, pl.at.x, pl.at.y,
            m->tile_id);
    return true;
}

static bool f_tile_occupied(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->at = f->in->start_at;
    set_how(f, "placed %s on the start tile's square",
            m->tile_id);
    return true;
}

static bool f_tile_not_adjacent(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->at = (struct pos){ 120, -120 };
    set_how(f, "placed %s at (120,-120), far from the "
            "board", m->tile_id);
    return true;
}

static bool f_tile_edge_mismatch(struct forge *f)
{
    struct state s;
    const struct move *m = &f->in->moves[f->place];
    const struct game *g = state_at(&s, f->in, f->place);
    char why[8];
    int rot = -1;
    for (int r = 1; r < 4 && rot < 0; r++)
        if (game_check_place(g, m->tile, m->at, (m->rot + r) % 4, why,
                             sizeof why) == RULE_TILE_EDGE_MISMATCH)
            rot = (m->rot + r) % 4;
    state_end(&s);
    if (rot < 0)
        return false;
    f->out->moves[f->place].rot = (uint8_t)rot;
    set_how(f, "turned %s to R%d, where its edges do "
            "not match", m->tile_id, 90 * rot);
    return true;
}

static bool f_tile_discard_fits(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    int placed = f->in->moves[f->place].tile, pick = -1;
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (g->pack[t] > 0 && t != placed && game_fits_anywhere(g, t)) {
            pick = t;
            break;
        }
    state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = insert_move(f->out, f->place);
    m->kind = MV_DISCARD;
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    set_how(f, "discarded %s, which fits on the board",
            m->tile_id);
    return true;
}

/* ---- meeples ------------------------------------------------------------ */

static bool f_none_left(struct forge *f)
{
    const struct move *a = action(f);
    if (!is_deploy(a))
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    int have = f->in->rules.figures[a->meeple];
    m->meeple_n = (uint8_t)(have + 1);
    set_how(f, "deployed %s number %d of a supply of %d",
            figure_class(a->meeple)->name, have + 1, have);
    return true;
}

static bool f_not_on_placed_tile(struct forge *f)
{
    const struct move *a = action(f);
    if (!is_deploy(a))
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    m->at = f->in->start_at;
    set_how(f, "deployed on the start tile, not on this "
            "turn's tile");
    return true;
}

/* A deployment of a meeple in supply on a segment of the placed tile that
 * game_check_deploy() refuses with `want`; with say_why, f->how ends with
 * the engine's reason. */
static bool deploy_refused_as(struct forge *f, enum rule want, int kind,
                              bool say_why)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    const struct placed *t = &g->tiles[g->now.tile];
    int mi = game_meeple(g, f->seat, kind, 0), pick = -1;
    char why[120];
    for (int seg = t->seg0; mi >= 0 && seg < t->seg0 + t->n_seg; seg++)
        if (g->segs[seg].kind != FEAT_FLIER &&
            game_check_deploy(g, f->seat, mi, seg, why, sizeof why) == want) {
            pick = seg;
            break;
        }
    if (pick >= 0) {
        struct move *m = replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        set_meeple(m, g, mi);
        char name[40];
        seg_format(m->feature, m->mask, name, sizeof name);
        set_how(f, "deployed %s %s on %s",
                a_or_an(figure_class(kind)->name), figure_class(kind)->name,
                name);
        if (say_why) {
            strncat(f->how, ": ", sizeof f->how - strlen(f->how) - 1);
            strncat(f->how, why, sizeof f->how - strlen(f->how) - 1);
        }
    }
    state_end(&s);
    return pick >= 0;
}

static bool deploy_refused(struct forge *f, enum rule want, int kind)
{
    return deploy_refused_as(f, want, kind, false);
}

/* Traders & Builders, Abbey & Mayor: a builder on a road or city without
 * its owner's follower (or completed), a pig in a field without its
 * owner's farmer, a barn off a corner where four fields meet. */
static bool f_builder_placement(struct forge *f)
{
    return deploy_refused_as(f, RULE_BUILDER_PLACEMENT, FIG_BUILDER, true);
}

static bool f_pig_placement(struct forge *f)
{
    return deploy_refused_as(f, RULE_PIG_PLACEMENT, FIG_PIG, true);
}

static bool f_barn_placement(struct forge *f)
{
    return deploy_refused_as(f, RULE_BARN_PLACEMENT, FIG_BARN, true);
}

static bool f_feature_occupied(struct forge *f)
{
    if (!deploy_refused(f, RULE_MEEPLE_FEATURE_OCCUPIED, FIG_SMALL))
        return false;
    strncat(f->how, ", an occupied feature", sizeof f->how - strlen(f->how) - 1);
    return true;
}

/* A monastery on a tile without one, or an abbot on a road/city/field. */
static bool f_wrong_type(struct forge *f)
{
    if (f->in->rules.figures[FIG_ABBOT] && deploy_refused(f, RULE_MEEPLE_WRONG_TYPE,
                                              FIG_ABBOT))
        return true;
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    bool ok = mi >= 0 && game_find_seg(g, g->now.tile, FEAT_MONASTERY, 0) < 0;
    if (ok) {
        struct move *m = replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_MONASTERY;
        set_meeple(m, g, mi);
        set_how(f, "deployed a follower on the "
                "monastery of a tile without one");
    }
    state_end(&s);
    return ok;
}

static bool f_second_deploy(struct forge *f)
{
    const struct move *a = action(f);
    if (!is_deploy(a))
        return false;
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 2);
    const struct placed *t = &g->tiles[g->now.tile];
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0), pick = -1;
    char why[8];
    for (int seg = t->seg0; mi >= 0 && seg < t->seg0 + t->n_seg; seg++)
        if (g->segs[seg].kind != FEAT_FLIER &&
            game_check_deploy(g, f->seat, mi, seg, why, sizeof why) ==
                RULE_MEEPLE_SECOND_DEPLOY) {
            pick = seg;
            break;
        }
    if (pick >= 0) {
        struct move *m = insert_move(f->out, f->place + 2);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        set_meeple(m, g, mi);
        set_how(f, "deployed a second follower in the "
                "same turn");
    }
    state_end(&s);
    return pick >= 0;
}

/* ---- the flier ---------------------------------------------------------- */

static bool f_no_machine(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    bool ok = mi >= 0 && game_flier_dir(g, g->now.tile) == NO_FLIER;
    if (ok) {
        struct move *m = replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_FLIER;
        m->roll = 1;
        set_meeple(m, g, mi);
        set_how(f, "flew from %s, which has no flying "
                "machine", tile_get(g->tiles[g->now.tile].def)->id);
    }
    state_end(&s);
    return ok;
}


static bool f_wrong_target(struct forge *f)
{
    size_t li = landing_index(f);
    if (!li)
        return false;
    f->flew = f->in->moves[li].meeple;
    struct move *m = &f->out->moves[li];
    m->at.y += m->at.y > 0 ? -60 : 60; /* no tile there */
    set_how(f, "landed at (%d,%d) instead of the rolled "
            "target (%d,%d)", m->at.x, m->at.y, f->in->moves[li].at.x,
            f->in->moves[li].at.y);
    return true;
}

/* Changes this turn's flight to roll `roll` and lands it on (feature,
 * mask) at `at`, adding the landing when the log had none. */
static void relaunch(struct forge *f, int roll, struct pos at, int feature,
                     uint8_t mask)
{
    struct move *fl = &f->out->moves[f->place + 1];
    fl->roll = roll;
    fl->draw = -1;
    bool landed = f->place + 2 < f->out->n_moves &&
                  f->out->moves[f->place + 2].kind == MV_DEPLOY;
    struct move *m = landed ? &f->out->moves[f->place + 2]
                            : insert_move(f->out, f->place + 2);
    fl = &f->out->moves[f->place + 1];
    m->kind = MV_DEPLOY;
    m->meeple = fl->meeple;
    m->meeple_n = fl->meeple_n;
    m->meeple_owner = fl->meeple_owner;
    m->at = at;
    m->feature = (uint8_t)feature;
    m->mask = mask;
}

/* Makes this turn's action a flight of f->figure (any figure when -1: a
 * follower unless the turn flew already) when it is not one, and the tile
 * has a flying machine (g: the state after the PLACE); false when that
 * cannot be. Sets f->flew. */
static bool ensure_flight(struct forge *f, const struct game *g)
{
    const struct move *a = action(f);
    if (is_flight(a) && (f->figure < 0 || a->meeple == f->figure)) {
        f->flew = a->meeple;
        return true;
    }
    int fig = f->figure < 0 ? FIG_SMALL : f->figure;
    int mi = game_meeple(g, f->seat, fig, 0);
    if (mi < 0 || game_check_flight(g, fig, NULL, 0) != RULE_OK)
        return false;
    struct move *m = replace_action(f);
    m->kind = MV_DEPLOY;
    m->at = game_tile_pos(g, g->now.tile);
    m->feature = FEAT_FLIER;
    m->roll = 1;
    set_meeple(m, g, mi);
    f->flew = fig;
    return true;
}

enum land_kind { LAND_NO_TILE, LAND_FIELD, LAND_COMPLETED, LAND_BAD,
                 LAND_WRONG_TYPE, LAND_TOWER };

/* Looks for a roll whose target suits `want`; lands the flight there. */
static bool f_landing(struct forge *f, enum land_kind want)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    if (!ensure_flight(f, g)) {
        state_end(&s);
        return false;
    }
    const struct move *a = &f->out->moves[f->place + 1];
    int a_meeple = a->meeple;
    struct pos from = game_tile_pos(g, g->now.tile);
    int dir = game_flier_dir(g, g->now.tile), found = 0;
    static const char *const what[] = { "an empty square", "a field",
                                        "a completed feature",
                                        "a monastery the tile lacks",
                                        "a feature it may not stand on",
                                        "a tower" };
    char on[40] = "";
    for (int roll = 1; roll <= 3 && !found && dir != NO_FLIER; roll++) {
        struct pos tg = game_flight_target(from, dir, roll);
        int tile = game_tile_at(g, tg);
        if (want == LAND_NO_TILE && tile < 0) {
            relaunch(f, roll, tg, FEAT_ROAD, EDGE_N | EDGE_S);
            found = roll;
        } else if (want == LAND_BAD && tile >= 0 &&
                   game_find_seg(g, tile, FEAT_MONASTERY, 0) < 0) {
            relaunch(f, roll, tg, FEAT_MONASTERY, 0);
            found = roll;
        }
        if (tile < 0 || found)
            continue;
        const struct placed *t = &g->tiles[tile];
        for (int seg = t->seg0; seg < t->seg0 + t->n_seg && !found; seg++) {
            int k = g->segs[seg].kind;
            /* a figure that may not stand on a field would break
             * MEEPLE_WRONG_TYPE first */
            bool hit = want == LAND_FIELD
                           ? k == FEAT_FIELD &&
                                 (figure_class(a_meeple)->stands >> k & 1)
                       : want == LAND_COMPLETED
                           ? (k == FEAT_ROAD || k == FEAT_CITY ||
                              k == FEAT_MONASTERY || k == FEAT_GARDEN) &&
                                 game_kind_allowed(g, a_meeple, k) &&
                                 game_feature_complete(g, seg)
                       : want == LAND_WRONG_TYPE
                           ? feature_class(k)->claimable &&
                                 !(figure_class(a_meeple)->stands >> k & 1)
                       : want == LAND_TOWER
                           ? k == FEAT_TOWER &&
                                 (figure_class(a_meeple)->stands >> k & 1)
                           : false;
            if (hit) {
                relaunch(f, roll, tg, k, g->segs[seg].mask);
                found = roll;
                seg_format(k, g->segs[seg].mask, on, sizeof on);
            }
        }
    }
    state_end(&s);
    if (found && want == LAND_WRONG_TYPE)
        set_how(f, "%s %s flew, rolled %d and landed "
                "on %s, %s", a_or_an(figure_class(a_meeple)->name),
                figure_class(a_meeple)->name, found, on, what[want]);
    else if (found)
        set_how(f, "%s %s flew, rolled %d and landed "
                "on %s", a_or_an(figure_class(a_meeple)->name),
                figure_class(a_meeple)->name, found, what[want]);
    return found > 0;
}

static bool f_bad_roll(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    bool ok = ensure_flight(f, g);
    state_end(&s);
    if (!ok)
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    m->roll = 4;
    m->draw = -1;
    set_how(f, "a flight of %s %s with a roll of 4",
            a_or_an(figure_class(m->meeple)->name),
            figure_class(m->meeple)->name);
    return true;
}

static bool f_no_tile(struct forge *f) { return f_landing(f, LAND_NO_TILE); }
static bool f_field(struct forge *f) { return f_landing(f, LAND_FIELD); }
static bool f_completed(struct forge *f)
{
    return f_landing(f, LAND_COMPLETED);
}
static bool f_bad_feature(struct forge *f) { return f_landing(f, LAND_BAD); }
/* A mayor landing on a road, a wagon on a field: the landing breaks the
 * figure's own rule first (MEEPLE_WRONG_TYPE precedes the FLIER_* ids). */
static bool f_wrong_landing(struct forge *f)
{
    return f_landing(f, LAND_WRONG_TYPE);
}

/* ---- The Tower ----------------------------------------------------------- */

static bool f_flier_on_tower(struct forge *f)
{
    return f_landing(f, LAND_TOWER);
}

/* The turn's action becomes a floor on this turn's tile, which has no
 * tower. */
static bool f_tower_placement(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int tile = g->now.tile;
    bool ok = tile >= 0 && game_find_seg(g, tile, FEAT_TOWER, 0) < 0;
    if (ok) {
        struct move *m = replace_action(f);
        m->kind = MV_TOWER;
        m->at = game_tile_pos(g, tile);
        m->feature = FEAT_TOWER;
        set_how(f, "built a tower floor on %s at (%d,%d), which has no "
                "tower", tile_get(g->tiles[tile].def)->id, m->at.x, m->at.y);
    }
    state_end(&s);
    return ok;
}

/* The turn's action becomes a floor on a tower that may take one, then
 * the capture of a follower out of its sight. */
static bool f_tower_capture(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int tower = -1, victim = -1;
    for (int t = 0; t < g->n_tiles && tower < 0; t++)
        if (game_find_seg(g, t, FEAT_TOWER, 0) >= 0 &&
            game_check_tower(g, f->seat, game_tile_pos(g, t), NULL, 0) ==
                RULE_OK)
            tower = t;
    struct pos tp = tower >= 0 ? game_tile_pos(g, tower) : (struct pos){ 0, 0 };
    int reach = tower >= 0 ? game_tower_height(g, tower) + 1 : 0;
    for (int mi = 0; mi < g->n_meeples && tower >= 0 && victim < 0; mi++) {
        const struct meeple *mp = &g->meeples[mi];
        if (mp->seg < 0 || !figure_class(mp->kind)->follower)
            continue;
        struct pos p = game_tile_pos(g, g->segs[mp->seg].tile);
        int d = p.x == tp.x ? abs(p.y - tp.y) : p.y == tp.y ? abs(p.x - tp.x)
                                                            : 1000;
        if (d > reach)
            victim = mi;
    }
    if (victim >= 0) {
        const struct seg *sg = &g->segs[g->meeples[victim].seg];
        struct move *m = replace_action(f);
        m->kind = MV_TOWER;
        m->at = tp;
        m->feature = FEAT_TOWER;
        m = insert_move(f->out, f->place + 2);
        f->commit++;
        m->kind = MV_CAPTURE;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        set_meeple(m, g, victim);
        set_how(f, "a floor on the tower at (%d,%d) (%d high), then the "
                "capture of a follower at (%d,%d), out of its sight",
                tp.x, tp.y, reach, m->at.x, m->at.y);
    }
    state_end(&s);
    return victim >= 0;
}

/* A ransom, right after the tile, for a follower of the seat's own that
 * nobody holds. */
static bool f_tower_ransom(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    if (mi >= 0) {
        struct move *m = insert_move(f->out, f->place + 1);
        f->commit++;
        m->kind = MV_RANSOM;
        set_meeple(m, g, mi);
        set_how(f, "paid a ransom for %d.small.%d, which is in its owner's "
                "supply", f->seat, g->meeples[mi].n);
    }
    state_end(&s);
    return mi >= 0;
}

static bool f_must_land(struct forge *f)
{
    size_t li = landing_index(f);
    if (!li)
        return false;
    f->flew = f->in->moves[li].meeple;
    remove_moves(f->out, li, li + 1);
    set_how(f, "the flier went back to supply although "
            "it could land");
    return true;
}

/* ---- the river and a second figure's flight ---------------------------- */

/* A square next to the board and a turn of def there for which
 * game_check_place() answers `want`; false when there is none. */
static bool find_spot(const struct game *g, int def, enum rule want,
                      struct pos *at, int *rot)
{
    char why[8];
    for (int t = 0; t < g->n_tiles; t++)
        for (int side = 0; side < 4; side++) {
            struct pos q = pos_step(game_tile_pos(g, t), side);
            if (game_tile_at(g, q) >= 0)
                continue;
            for (int r = 0; r < 4; r++)
                if (game_check_place(g, def, q, r, why, sizeof why) == want) {
                    *at = q;
                    *rot = r;
                    return true;
                }
        }
    return false;
}

/* A tile of a group not open yet (a base tile while the river flows, the
 * lake before the river's other tiles) placed where its edges match. The
 * save cannot say what was drawn, so the draw is left unknown. */
static bool f_river_order(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    struct pos at = { 0, 0 };
    int pick = -1, rot = 0;
    /* tiles without a flying machine first: keep flights apart */
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int t = 0; t < tile_count() && t < TILE_KINDS && pick < 0; t++)
            if (g->pack[t] > 0 && !game_drawable(g, t) &&
                (pass || tile_get(t)->flier_dir == NO_FLIER) &&
                find_spot(g, t, RULE_RIVER_ORDER, &at, &rot))
                pick = t;
    state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = &f->out->moves[f->place];
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    m->at = at;
    m->rot = (uint8_t)rot;
    m->draw = -1;
    set_how(f, "placed %s at (%d,%d) instead of %s, "
            "whose tile group is drawn first", m->tile_id, at.x, at.y,
            f->in->moves[f->place].tile_id);
    return true;
}

/* The turn's own river tile where its edges match but the river cannot
 * flow on (it does not continue the river, or turns back on itself). */
static bool f_river_flow(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    const struct move *m = &f->in->moves[f->place];
    struct pos at = { 0, 0 };
    int rot = 0;
    bool ok = m->tile >= 0 &&
              find_spot(g, m->tile, RULE_RIVER_FLOW, &at, &rot);
    state_end(&s);
    if (!ok)
        return false;
    f->out->moves[f->place].at = at;
    f->out->moves[f->place].rot = (uint8_t)rot;
    set_how(f, "placed %s at (%d,%d) R%d, where the "
            "river cannot flow on", m->tile_id, at.x, at.y, 90 * rot);
    return true;
}

/* Makes the turn's action a legal flight when it is none (g: the state
 * after the PLACE): the first figure in supply that may fly, the roll
 * from the turn, a landing on the target's first valid feature when it
 * has one. Returns the index after the flight and its landing in f->out,
 * or 0 when the tile has no flying machine or no figure may fly. */
static size_t legal_flight(struct forge *f, const struct game *g)
{
    size_t li = landing_index(f);
    if (is_flight(action(f)))
        return li ? li + 1 : f->place + 2;
    int fig = 0, segs[TILE_MAX_SEGS];
    while (fig < FIG__COUNT && (game_meeple(g, f->seat, fig, 0) < 0 ||
                                game_check_flight(g, fig, NULL, 0) != RULE_OK))
        fig++;
    if (fig == FIG__COUNT)
        return 0;
    int mi = game_meeple(g, f->seat, fig, 0), roll = 1 + f->turn % 3;
    struct pos from = game_tile_pos(g, g->now.tile);
    struct pos tg = game_flight_target(from, game_flier_dir(g, g->now.tile),
                                       roll);
    struct move *m = replace_action(f);
    m->kind = MV_DEPLOY;
    m->at = from;
    m->feature = FEAT_FLIER;
    m->roll = roll;
    set_meeple(m, g, mi);
    if (game_landings(g, tg, fig, segs, TILE_MAX_SEGS) == 0)
        return f->place + 2;
    m = insert_move(f->out, f->place + 2);
    m->kind = MV_DEPLOY;
    m->at = tg;
    m->feature = g->segs[segs[0]].kind;
    m->mask = g->segs[segs[0]].mask;
    set_meeple(m, g, mi);
    f->commit++;
    return f->place + 3;
}

/* After the turn's flight (and its landing), a second figure the turn
 * allows (the phantom) flies from the same flying machine: the seeds'
 * clarification of 5/2013 forbids it. */
static bool f_flier_used(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    size_t after = legal_flight(f, g);
    state_end(&s);
    if (!after)
        return false;
    const struct move first = f->out->moves[f->place + 1];
    g = state_at(&s, f->out, after);
    int fig = -1, mi = -1;
    char why[8];
    for (int k = 0; k < FIG__COUNT && fig < 0; k++) {
        mi = game_meeple(g, f->seat, k, 0);
        if (k != first.meeple && mi >= 0 &&
            game_check_flight(g, k, why, sizeof why) == RULE_FLIER_USED)
            fig = k;
    }
    if (fig >= 0) {
        remove_moves(f->out, after, f->commit);
        struct move *m = insert_move(f->out, after);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_FLIER;
        m->roll = 1 + f->turn % 3;
        set_meeple(m, g, mi);
        f->flew = fig;
        set_how(f, "after %s %s flew, %s %s flew from "
                "the same flying machine",
                a_or_an(figure_class(first.meeple)->name),
                figure_class(first.meeple)->name,
                a_or_an(figure_class(fig)->name), figure_class(fig)->name);
    }
    state_end(&s);
    return fig >= 0;
}

/* ---- Abbey & Mayor: the abbey, the wagons; a builder's second tile ------ */

/* Did the legal game place a held tile (an abbey) anywhere? */
static bool any_held(const struct game_log *l)
{
    for (size_t i = 0; i < l->n_moves; i++)
        if (l->moves[i].kind == MV_PLACE && is_held(l->moves[i].tile))
            return true;
    return false;
}

/* The held tile (the abbey) of a unit in play, as the engine knows it. */
static int held_kind(const struct game *g)
{
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (held(g, t))
            return t;
    return -1;
}

/* The turn's abbey moved off its hole to a square next to the board that
 * is none (the turn's moves on it follow it); in a game where no abbey
 * was placed, the turn's drawn tile replaced by an abbey on a square
 * that is no hole, the turn's action by a pass. */
static bool f_abbey_placement(struct forge *f)
{
    const struct move *m = &f->in->moves[f->place];
    bool moved = is_held(m->tile);
    if (!moved && any_held(f->in))
        return false; /* forge the abbeys the game has */
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place);
    int def = moved ? m->tile : held_kind(g), rot = moved ? m->rot : 0;
    struct pos at = { 0, 0 };
    bool ok = false;
    char why[120] = "";
    /* the logged square first when it is no hole, then the board's edge */
    if (def >= 0 && !moved &&
        game_check_place(g, def, m->at, rot, why, sizeof why) ==
            RULE_ABBEY_PLACEMENT) {
        at = m->at;
        ok = true;
    }
    for (int t = 0; def >= 0 && t < g->n_tiles && !ok; t++)
        for (int side = 0; side < 4 && !ok; side++) {
            struct pos q = pos_step(game_tile_pos(g, t), side);
            if (game_check_place(g, def, q, rot, why, sizeof why) ==
                RULE_ABBEY_PLACEMENT) {
                at = q;
                ok = true;
            }
        }
    state_end(&s);
    if (!ok)
        return false;
    struct move *o = &f->out->moves[f->place];
    if (moved) {
        for (size_t i = f->place + 1; i < f->commit; i++)
            if (f->out->moves[i].at.x == m->at.x &&
                f->out->moves[i].at.y == m->at.y)
                f->out->moves[i].at = at;
        set_how(f, "moved the abbey from the hole "
                "(%d,%d) to (%d,%d): %s", m->at.x, m->at.y, at.x, at.y, why);
    } else {
        o->tile = (int16_t)def;
        snprintf(o->tile_id, sizeof o->tile_id, "%s", tile_get(def)->id);
        o->rot = (uint8_t)rot;
        replace_action(f)->kind = MV_PASS;
        set_how(f, "placed an abbey at (%d,%d) instead "
                "of %s: %s", at.x, at.y, m->tile_id, why);
    }
    o->at = at;
    return true;
}

/* The first move between turns after this turn's COMMIT, when a wagon
 * the turn sent back waits (it is that wagon's move or pass), becomes a
 * move of the wagon where game_check_wagon_move() refuses it: an
 * unoccupied unfinished road, city or monastery out of its reach if
 * there is one, else an occupied or finished one; the owner's COMMIT
 * follows. */
static bool f_wagon_move(struct forge *f)
{
    size_t at = f->commit + 1;
    if (at >= f->in->n_moves)
        return false;
    struct state s;
    /* the replay's own game: asking it for the next wagon drops those
     * with nowhere to go, as the auditor's next step does */
    struct game *g = (struct game *)state_at(&s, f->in, at);
    int w = game_wagon_next(g), pick = -1, best = 0;
    if (f->in->moves[at].kind != MV_DEPLOY && f->in->moves[at].kind != MV_PASS)
        w = -1;
    char why[120] = "";
    for (int i = 0; w >= 0 && i < g->n_segs && best < 2; i++) {
        char reason[120];
        if (!game_kind_allowed(g, FIG_WAGON, g->segs[i].kind) ||
            game_check_wagon_move(g, w, i, reason, sizeof reason) !=
                RULE_WAGON_MOVE)
            continue;
        int rank = game_feature_meeples(g, i, NULL) == 0 &&
                           !game_feature_complete(g, i)
                       ? 2
                       : 1;
        if (rank > best) {
            best = rank;
            pick = i;
            memcpy(why, reason, sizeof why);
        }
    }
    if (pick >= 0) {
        const struct move *was = &f->in->moves[at];
        bool pass = was->kind == MV_PASS;
        struct move *m = &f->out->moves[at];
        char name[40];
        memset(m, 0, sizeof *m);
        m->kind = MV_DEPLOY;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->src = was->src;
        m->at = game_tile_pos(g, g->segs[pick].tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        set_meeple(m, g, w);
        if (pass && (at + 1 >= f->in->n_moves ||
                     f->in->moves[at + 1].kind != MV_COMMIT))
            insert_move(f->out, at + 1)->kind = MV_COMMIT;
        seg_format(m->feature, m->mask, name, sizeof name);
        set_how(f, "%s the wagon to %s at (%d,%d): %s",
                pass ? "instead of a pass, moved" : "moved", name, m->at.x,
                m->at.y, why);
    }
    state_end(&s);
    return pick >= 0;
}

/* The turn's tile placed by the player of the turn before, as a
 * builder's second tile is: without the builder's right to it. */
static bool f_builder_bonus(struct forge *f)
{
    if (f->prev_seat < 0 || f->prev_seat == f->seat)
        return false;
    f->out->moves[f->place].player = (int8_t)f->prev_seat;
    set_how(f, "%s placed a second tile in a row, "
            "without a builder's right to it, on %s's turn",
            f->in->names[f->prev_seat], f->in->names[f->seat]);
    return true;
}

/* ---- The Count of Carcassonne ------------------------------------------ */

/* Between this turn's COMMIT and the next tile, where the log has
 * nothing (no City offer, no wagon, no scoring held): the state there,
 * and a quarter other than the count's (its segment), or -1. */
static int quiet_quarter(struct forge *f, struct state *s,
                         const struct game **out)
{
    size_t at = f->commit + 1;
    *out = NULL;
    if (at >= f->in->n_moves || f->in->moves[at].kind != MV_PLACE)
        return -1;
    const struct game *g = state_at(s, f->in, at);
    *out = g;
    if (g->held || game_city_offer(g) >= 0 ||
        game_city_count_mover(g) >= 0 || game_count_seg(g) < 0)
        return -1;
    for (int i = 0; i < g->n_segs; i++)
        if (g->segs[i].kind == FEAT_QUARTER && i != game_count_seg(g))
            return i;
    return -1;
}

/* A follower of the player on turn sent into a quarter after the turn,
 * with no offer (nobody else scored, or that player did). */
static bool f_quarter_deploy(struct forge *f)
{
    struct state s;
    const struct game *g;
    int q = quiet_quarter(f, &s, &g);
    int mi = q >= 0 ? game_meeple(g, f->seat, FIG_SMALL, 0) : -1;
    if (mi >= 0) {
        struct move *m = insert_move(f->out, f->commit + 1);
        char name[40];
        m->kind = MV_DEPLOY;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->at = game_tile_pos(g, g->segs[q].tile);
        m->feature = FEAT_QUARTER;
        m->mask = g->segs[q].mask;
        set_meeple(m, g, mi);
        seg_format(m->feature, m->mask, name, sizeof name);
        set_how(f, "after the turn, a follower sent into the City (%s) "
                "without an offer", name);
    }
    if (g)
        state_end(&s);
    return mi >= 0;
}

/* The count moved after the turn, with no follower sent into the City. */
static bool f_count_move(struct forge *f)
{
    struct state s;
    const struct game *g;
    int q = quiet_quarter(f, &s, &g);
    if (q >= 0) {
        struct move *m = insert_move(f->out, f->commit + 1);
        char name[40];
        m->kind = MV_NEUTRAL;
        m->neutral = FIG_COUNT;
        m->player = -1;
        m->tile = -1;
        m->draw = -1;
        m->meeple_owner = -1;
        m->at = game_tile_pos(g, g->segs[q].tile);
        m->feature = FEAT_QUARTER;
        m->mask = g->segs[q].mask;
        seg_format(m->feature, m->mask, name, sizeof name);
        set_how(f, "after the turn, the count moved to %s without a "
                "follower sent into the City", name);
    }
    if (g)
        state_end(&s);
    return q >= 0;
}

/* ---- turns and claims --------------------------------------------------- */

static bool f_abbot_recall(struct forge *f)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    struct move *m = replace_action(f);
    m->kind = MV_RECALL;
    m->at = game_tile_pos(g, g->now.tile);
    m->feature = FEAT_MONASTERY;
    m->meeple = FIG_ABBOT;
    m->meeple_n = 1;
    m->meeple_owner = (int8_t)f->seat;
    state_end(&s);
    set_how(f, "recalled an abbot from this turn's "
            "tile, where none stands");
    return true;
}

static bool f_turn_order(struct forge *f)
{
    if (f->in->rules.n_players < 2)
        return false;
    int other = (f->seat + 1) % f->in->rules.n_players;
    f->out->moves[f->place].player = (int8_t)other;
    set_how(f, "the tile placed by %s on %s's turn",
            f->in->names[other], f->in->names[f->seat]);
    return true;
}

static bool f_turn_sequence(struct forge *f)
{
    struct move *m = insert_move(f->out, f->place);
    m->kind = MV_PASS;
    f->want_turn = f->turn - 1;
    set_how(f, "a pass before the turn's tile");
    return true;
}

static bool f_score_mismatch(struct forge *f)
{
    struct report r;
    audit_run(f->in, NULL, &r, NULL);
    bool ok = (size_t)f->turn < r.n_running;
    if (ok) {
        struct claim_total *c = game_log_push_total(f->out);
        c->turn = f->turn;
        c->src = (uint32_t)f->out->n_totals - 1;
        for (int p = 0; p < f->in->rules.n_players; p++) {
            c->seats |= (uint8_t)(1u << p);
            c->score[p] = r.running[f->turn][p] + (p == f->seat ? 5 : 0);
        }
        set_how(f, "claimed 5 points too many for %s "
                "after the turn", f->in->names[f->seat]);
    }
    report_release(&r);
    return ok;
}

/* ---- driver ------------------------------------------------------------- */

typedef bool (*forge_fn)(struct forge *f);

/* Which figure a forger's flight is made by: none (the forgery is no
 * flight of a figure asked for), any figure that flies, or one that
 * flies but may not stand on every feature a flier may reach (a mayor,
 * a wagon, an abbot: their wrong landings). */
enum by_figure { BY_NONE, BY_FLIER, BY_PICKY_FLIER };

/* The forgers of each rule, tried in this order, each with the unit it
 * needs in play (-1: none) and how it picks the figure of its flight. */
/* ---- The Princess & the Dragon ----------------------------------------- */

/* A dragon step where it may not go: the turn's first step moved two
 * squares on, or, in a turn where the dragon does not move, a step
 * added before the COMMIT. */
static bool f_dragon_move(struct forge *f)
{
    for (size_t i = f->place + 1; i < f->commit; i++) {
        struct move *m = &f->out->moves[i];
        if (m->kind != MV_NEUTRAL || m->neutral != FIG_DRAGON)
            continue;
        m->at.x += 2;
        set_how(f, "moved the dragon's first step to (%d,%d), two squares "
                "from where it stood", m->at.x, m->at.y);
        return true;
    }
    struct move *m = insert_move(f->out, f->commit);
    m->kind = MV_NEUTRAL;
    m->neutral = FIG_DRAGON;
    m->at = f->in->moves[f->place].at;
    f->commit++;
    set_how(f, "added a dragon step to (%d,%d) in a turn where the dragon "
            "does not move", m->at.x, m->at.y);
    return true;
}

/* The turn's action replaced by the fairy (or the princess) naming a
 * follower of the seat that stands nowhere. */
static bool beside_nothing(struct forge *f, bool princess)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    int tile = g->now.tile;
    if (mi >= 0 && tile >= 0) {
        const struct seg *sg = &g->segs[g->tiles[tile].seg0];
        struct move *m = replace_action(f);
        m->kind = princess ? MV_PRINCESS : MV_NEUTRAL;
        m->neutral = princess ? 0 : FIG_FAIRY;
        m->at = game_tile_pos(g, tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        set_meeple(m, g, mi);
        set_how(f, "%s beside follower %d.small.%d, which is in supply",
                princess ? "the princess sent home" : "put the fairy",
                g->meeples[mi].owner, g->meeples[mi].n);
    }
    state_end(&s);
    return mi >= 0 && tile >= 0;
}

static bool f_fairy_placement(struct forge *f)
{
    return beside_nothing(f, false);
}

static bool f_princess(struct forge *f)
{
    return beside_nothing(f, true);
}

/* The turn's action replaced by a follower on a feature of the tile the
 * dragon stands on (f: the placed tile, a volcano; the portal's: another
 * tile), or, with the magic portal, on a completed feature elsewhere. */
static bool deploy_where(struct forge *f, bool dragon)
{
    struct state s;
    const struct game *g = state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0), pick = -1;
    int tile = g->now.tile;
    struct pos d;
    bool portal = tile >= 0 &&
                  (tile_get(g->tiles[tile].def)->marks & TILE_MARK(PORTAL));
    bool on = tile >= 0 && game_dragon_at(g, &d) &&
              game_tile_at(g, d) == tile;
    if (mi >= 0 && tile >= 0 && (dragon ? on : portal))
        for (int i = 0; i < g->n_segs && pick < 0; i++) {
            const struct seg *sg = &g->segs[i];
            bool here = sg->tile == tile;
            if ((dragon ? !here : here) ||
                !game_kind_allowed(g, FIG_SMALL, sg->kind) ||
                game_feature_meeples(g, i, NULL) > 0 ||
                (!dragon && !game_feature_complete(g, i)))
                continue;
            pick = i;
        }
    if (pick >= 0) {
        const struct seg *sg = &g->segs[pick];
        char name[40];
        struct move *m = replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, sg->tile);
        m->feature = sg->kind;
        m->mask = sg->mask;
        set_meeple(m, g, mi);
        seg_format(sg->kind, sg->mask, name, sizeof name);
        set_how(f, "deployed a follower on %s at (%d,%d), %s", name, m->at.x,
                m->at.y, dragon ? "where the dragon stands"
                                : "completed, through the magic portal");
    }
    state_end(&s);
    return pick >= 0;
}

static bool f_dragon_tile(struct forge *f)
{
    return deploy_where(f, true);
}

static bool f_portal(struct forge *f)
{
    return deploy_where(f, false);
}

static const struct {
    enum rule rule;
    forge_fn fn;
    int needs;
    enum by_figure by_figure;
} forgers[] = {
    { RULE_TILE_UNKNOWN, f_tile_unknown, -1, BY_NONE },
    { RULE_TILE_NOT_IN_PACK, f_tile_not_in_pack, -1, BY_NONE },
    { RULE_TILE_NOT_DRAWN, f_tile_not_drawn, -1, BY_NONE },
    { RULE_TILE_OCCUPIED, f_tile_occupied, -1, BY_NONE },
    { RULE_TILE_NOT_ADJACENT, f_tile_not_adjacent, -1, BY_NONE },
    { RULE_TILE_EDGE_MISMATCH, f_tile_edge_mismatch, -1, BY_NONE },
    { RULE_ABBEY_PLACEMENT, f_abbey_placement, EXP_ABBEY, BY_NONE },
    { RULE_RIVER_ORDER, f_river_order, EXP_RIVER, BY_NONE },
    { RULE_RIVER_FLOW, f_river_flow, EXP_RIVER, BY_NONE },
    { RULE_TILE_DISCARD_FITS, f_tile_discard_fits, -1, BY_NONE },
    { RULE_MEEPLE_NONE_LEFT, f_none_left, -1, BY_NONE },
    { RULE_MEEPLE_NOT_ON_PLACED_TILE, f_not_on_placed_tile, -1, BY_NONE },
    { RULE_MEEPLE_FEATURE_OCCUPIED, f_feature_occupied, -1, BY_NONE },
    /* with mayors and wagons: their landings first */
    { RULE_MEEPLE_WRONG_TYPE, f_wrong_landing, EXP_ABBEY, BY_PICKY_FLIER },
    { RULE_MEEPLE_WRONG_TYPE, f_wrong_type, -1, BY_NONE },
    { RULE_BUILDER_PLACEMENT, f_builder_placement, EXP_TRADERS, BY_NONE },
    { RULE_PIG_PLACEMENT, f_pig_placement, EXP_TRADERS, BY_NONE },
    { RULE_BARN_PLACEMENT, f_barn_placement, EXP_ABBEY, BY_NONE },
    { RULE_MEEPLE_SECOND_DEPLOY, f_second_deploy, -1, BY_NONE },
    { RULE_FLIER_NO_MACHINE, f_no_machine, -1, BY_NONE },
    { RULE_FLIER_USED, f_flier_used, EXP_PHANTOM, BY_NONE },
    { RULE_FLIER_BAD_ROLL, f_bad_roll, -1, BY_FLIER },
    { RULE_FLIER_WRONG_TARGET, f_wrong_target, -1, BY_NONE },
    { RULE_FLIER_NO_TILE, f_no_tile, -1, BY_FLIER },
    { RULE_FLIER_FIELD, f_field, -1, BY_FLIER },
    { RULE_FLIER_COMPLETED, f_completed, -1, BY_FLIER },
    { RULE_FLIER_BAD_FEATURE, f_bad_feature, -1, BY_FLIER },
    { RULE_FLIER_MUST_LAND, f_must_land, -1, BY_NONE },
    { RULE_ABBOT_RECALL, f_abbot_recall, -1, BY_NONE },
    { RULE_WAGON_MOVE, f_wagon_move, EXP_ABBEY, BY_NONE },
    { RULE_BUILDER_BONUS, f_builder_bonus, EXP_TRADERS, BY_NONE },
    { RULE_TURN_ORDER, f_turn_order, -1, BY_NONE },
    { RULE_TURN_SEQUENCE, f_turn_sequence, -1, BY_NONE },
    { RULE_SCORE_MISMATCH, f_score_mismatch, -1, BY_NONE },
    { RULE_TOWER_PLACEMENT, f_tower_placement, EXP_TOWER, BY_NONE },
    { RULE_TOWER_CAPTURE, f_tower_capture, EXP_TOWER, BY_NONE },
    { RULE_TOWER_RANSOM, f_tower_ransom, EXP_TOWER, BY_NONE },
    { RULE_FLIER_ON_TOWER, f_flier_on_tower, EXP_TOWER, BY_FLIER },
    { RULE_DRAGON_TILE, f_dragon_tile, EXP_DRAGON, BY_NONE },
    { RULE_DRAGON_MOVE, f_dragon_move, EXP_DRAGON, BY_NONE },
    { RULE_FAIRY_PLACEMENT, f_fairy_placement, EXP_DRAGON, BY_NONE },
    { RULE_PRINCESS, f_princess, EXP_DRAGON, BY_NONE },
    { RULE_PORTAL, f_portal, EXP_DRAGON, BY_NONE },
    { RULE_QUARTER_DEPLOY, f_quarter_deploy, EXP_COUNT, BY_NONE },
    { RULE_COUNT_MOVE, f_count_move, EXP_COUNT, BY_NONE },
};

#define N_FORGERS (sizeof forgers / sizeof forgers[0])

/* Does forger i suit a game whose rules put these units in play? */
static bool forger_for(size_t i, uint32_t units)
{
    return forgers[i].needs < 0 || (units >> forgers[i].needs & 1);
}

/* The rules of enum order with a forger whose unit units holds. */
static int rules_in(uint32_t units, enum rule *out, int max)
{
    int n = 0;
    for (int r = RULE_OK + 1; r < RULE__COUNT; r++) {
        bool any = false;
        for (size_t i = 0; i < N_FORGERS && !any; i++)
            any = forgers[i].rule == (enum rule)r && forger_for(i, units);
        if (!any)
            continue;
        if (n < max)
            out[n] = (enum rule)r;
        n++;
    }
    return n;
}

int sim_forge_rules(enum rule *out, int max)
{
    return rules_in(~0u, out, max);
}

int sim_forge_rules_for(const struct rules *r, enum rule *out, int max)
{
    return rules_in(game_rules_units(r), out, max);
}

bool sim_forgery_flagged(const struct report *r, const struct sim_forgery *f)
{
    return r->n_violations > 0 && !r->halted &&
           r->violations[0].rule == f->rule &&
           r->violations[0].turn == f->turn;
}

/* Turn t's PLACE and COMMIT indexes in l; false past the last turn. */
static bool find_turn(const struct game_log *l, int t, size_t *place,
                      size_t *commit)
{
    int seen = 0;
    for (size_t i = 0; i < l->n_moves; i++) {
        if (l->moves[i].kind != MV_PLACE || ++seen != t)
            continue;
        *place = i;
        size_t j = i + 1;
        while (j < l->n_moves && l->moves[j].kind != MV_COMMIT &&
               l->moves[j].kind != MV_PLACE)
            j++;
        *commit = j;
        return true;
    }
    return false;
}

static int count_turns(const struct game_log *l)
{
    int n = 0;
    for (size_t i = 0; i < l->n_moves; i++)
        n += l->moves[i].kind == MV_PLACE;
    return n;
}

/* May figure k not stand on some feature a flier lands on, or on a
 * field (a mayor, a wagon, an abbot; not a follower)? */
static bool picky(int k)
{
    unsigned all = 0;
    for (int feat = 0; feat < FEAT__COUNT; feat++)
        if (feature_class(feat)->landable || feat == FEAT_FIELD)
            all |= 1u << feat;
    all &= ~(1u << FEAT_GARDEN); /* only the abbot's, C3 */
    return (figure_class(k)->stands & all) != all;
}

/* The figure forged flights use: one of the flying figures the rules
 * give (that may not stand everywhere, when how says so), picked by the
 * seed (base games: the follower alone, the abbot in C3 too), or -1
 * when there is none. */
static int flight_figure(const struct game_log *in, enum by_figure how,
                         uint64_t seed)
{
    int figs[FIG__COUNT], n = 0;
    for (int k = 0; k < FIG__COUNT; k++)
        if (in->rules.figures[k] && figure_class(k)->flies &&
            (how != BY_PICKY_FLIER || picky(k)))
            figs[n++] = k;
    return n ? figs[mix(seed ^ 0x5eed) % (uint64_t)n] : -1;
}

/* One attempt at turn t with forger fi: true when the forged log is
 * flagged as wanted. */
static bool try_turn(const struct game_log *in, size_t fi, int t,
                     const int *seats, int figure, struct game_log *out,
                     struct sim_forgery *out_f)
{
    enum rule rule = forgers[fi].rule;
    struct forge f = { .in = in, .out = out, .turn = t, .want_turn = t,
                       .figure = figure, .flew = -1 };
    if (!find_turn(in, t, &f.place, &f.commit))
        return false;
    f.seat = seats[t - 1];
    f.prev_seat = t > 1 ? seats[t - 2] : -1;
    log_copy(in, out);
    bool ok = forgers[fi].fn(&f);
    if (ok) {
        struct report r;
        out_f->rule = rule;
        out_f->turn = f.want_turn;
        out_f->figure = f.flew;
        memcpy(out_f->how, f.how, sizeof out_f->how);
        audit_run(out, NULL, &r, NULL);
        ok = sim_forgery_flagged(&r, out_f);
        report_release(&r);
    }
    if (!ok)
        game_log_release(out);
    return ok;
}

/* The seat on turn at each turn of the legal log (the engine keeps it:
 * it need not go round, a builder's second tile keeps it), into seats[]
 * (n entries). */
static void turn_seats(const struct game_log *in, int *seats, int n)
{
    struct report r;
    struct audit *a = audit_begin(in, &r);
    int t = 0;
    for (size_t i = 0; i < in->n_moves && t < n; i++) {
        audit_step(a, &in->moves[i]);
        if (in->moves[i].kind == MV_PLACE)
            seats[t++] = audit_player(a);
    }
    audit_finish(a, NULL, NULL);
    report_release(&r);
}

/* Tries each turn from one the seed picks, with forger fi and the
 * forged flight's figure (-1: any). */
static bool forge_turns(const struct game_log *in, size_t fi, int figure,
                        uint64_t seed, struct game_log *out,
                        struct sim_forgery *out_f)
{
    int n = count_turns(in);
    int first = n ? (int)(mix(seed) % (uint64_t)n) : 0;
    int *seats = xcalloc((size_t)n + 1, sizeof *seats);
    bool ok = false;
    turn_seats(in, seats, n);
    for (int k = 0; k < n && !ok; k++)
        ok = try_turn(in, fi, 1 + (first + k) % n, seats, figure, out,
                      out_f);
    free(seats);
    return ok;
}

static bool forge_start(const struct game_log *in, struct game_log *out,
                        struct sim_forgery *out_f)
{
    memset(out_f, 0, sizeof *out_f);
    out_f->figure = -1;
    game_log_init(out);
    return count_turns(in) > 0 && in->rules.n_players >= 1;
}

bool sim_forge(const struct game_log *in, enum rule rule, uint64_t seed,
               struct game_log *out, struct sim_forgery *out_f)
{
    uint32_t units = game_rules_units(&in->rules);
    if (!forge_start(in, out, out_f))
        return false;
    for (size_t i = 0; i < N_FORGERS; i++) {
        if (forgers[i].rule != rule || !forger_for(i, units))
            continue;
        /* a forged flight: first by the seed's figure, then by whichever
         * figure a turn allows */
        int want = forgers[i].by_figure != BY_NONE
                       ? flight_figure(in, forgers[i].by_figure, seed)
                       : -1;
        if ((want >= 0 && forge_turns(in, i, want, seed, out, out_f)) ||
            forge_turns(in, i, -1, seed, out, out_f))
            return true;
    }
    game_log_init(out);
    return false;
}

bool sim_forge_flight(const struct game_log *in, enum rule rule, int figure,
                      uint64_t seed, struct game_log *out,
                      struct sim_forgery *out_f)
{
    uint32_t units = game_rules_units(&in->rules);
    if (!forge_start(in, out, out_f) || !figure_class(figure))
        return false;
    for (size_t i = 0; i < N_FORGERS; i++)
        if (forgers[i].rule == rule && forgers[i].by_figure != BY_NONE &&
            forger_for(i, units) &&
            forge_turns(in, i, figure, seed, out, out_f))
            return true;
    game_log_init(out);
    return false;
}
