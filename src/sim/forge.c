/* forge.c - one illegal move in a legal game, checked with the auditor.
 *
 * Every forgery is built from the engine's own view of the game at the
 * chosen turn (a replay of the legal log up to there), and is kept only
 * when auditing the forged log reports that rule first, at that turn:
 * the manifest of `flierd simulate --forge` is true by construction.
 * The forgeries of the rules every game has are here; a unit's are rows
 * of its file in src/sim/exp/ (struct sim_unit.forgers). */
#include "sim/forge_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void forge_how(struct forge *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->how, sizeof f->how, fmt, ap);
    va_end(ap);
}

void forge_how_add(struct forge *f, const char *text)
{
    strncat(f->how, text, sizeof f->how - strlen(f->how) - 1);
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
struct move *forge_insert(struct game_log *l, size_t idx)
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

void forge_remove(struct game_log *l, size_t from, size_t end)
{
    if (end <= from)
        return;
    memmove(&l->moves[from], &l->moves[end],
            (l->n_moves - end) * sizeof *l->moves);
    l->n_moves -= end - from;
}

/* Replaces the turn's action (between PLACE and COMMIT) by one move. */
struct move *forge_replace_action(struct forge *f)
{
    forge_remove(f->out, f->place + 1, f->commit);
    f->commit = f->place + 2;
    return forge_insert(f->out, f->place + 1);
}

void forge_set_meeple(struct move *m, const struct game *g, int mi)
{
    m->meeple = g->meeples[mi].kind;
    m->meeple_n = g->meeples[mi].n;
    m->meeple_owner = g->meeples[mi].owner;
}

const char *forge_a_or_an(const char *word)
{
    return strchr("aeiou", word[0]) ? "an" : "a";
}

const struct game *forge_state_at(struct forge_state *s,
                                  const struct game_log *l, size_t k)
{
    s->a = audit_begin(l, &s->r);
    for (size_t i = 0; i < k && i < l->n_moves; i++)
        audit_step(s->a, &l->moves[i]);
    return audit_game(s->a);
}

void forge_state_end(struct forge_state *s)
{
    struct game *g = NULL;
    audit_finish(s->a, NULL, &g);
    game_free(g);
    report_release(&s->r);
}

const struct move *forge_action(const struct forge *f)
{
    return f->place + 1 < f->commit ? &f->in->moves[f->place + 1] : NULL;
}

bool forge_is_deploy(const struct move *m)
{
    return m && m->kind == MV_DEPLOY && m->feature != FEAT_FLIER;
}

bool forge_is_flight(const struct move *m)
{
    return m && m->kind == MV_DEPLOY && m->feature == FEAT_FLIER;
}

/* Index of this turn's landing (the move after the flight), or 0. */
size_t forge_landing_index(const struct forge *f)
{
    size_t i = f->place + 2;
    return forge_is_flight(forge_action(f)) && i < f->commit &&
                   f->in->moves[i].kind == MV_DEPLOY
               ? i
               : 0;
}

bool forge_never_drawn(int def)
{
    return def >= 0 && tile_group_rank(tile_get(def)->group) < 0;
}

/* Does a seat of this game keep tiles of kind def, which no pack holds? */
static bool kept_by_seats(const struct game *g, int def)
{
    return forge_never_drawn(def) &&
           game_in_play(g, tile_get(def)->expansion);
}

/* ---- tile rules --------------------------------------------------------- */

static bool f_tile_unknown(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->tile = -1;
    snprintf(m->tile_id, sizeof m->tile_id, "XX/Forged");
    forge_how(f, "placed tile id XX/Forged instead of %s",
              f->in->moves[f->place].tile_id);
    return true;
}

static bool f_tile_not_in_pack(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    int pick = -1;
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (g->pack[t] <= 0 && t != f->in->start_tile &&
            !kept_by_seats(g, t)) { /* a seat's tile is in no pack */
            pick = t;
            if (tile_get(t)->flier_dir == NO_FLIER) /* keep flights apart */
                break;
        }
    forge_state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = &f->out->moves[f->place];
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    forge_how(f, "placed %s, of which no copy is left, "
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
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    /* tiles without a flying machine first: keep flights apart */
    for (int pass = 0; pass < 2 && pick < 0; pass++)
        for (int t = 0; t < tile_count() && t < TILE_KINDS && pick < 0; t++)
            if (t != m->tile && game_drawable(g, t) &&
                (pass || tile_get(t)->flier_dir == NO_FLIER) &&
                placement_of(g, t, m->at, &pl))
                pick = t;
    forge_state_end(&s);
    if (pick < 0)
        return false;
    struct move *o = &f->out->moves[f->place];
    o->tile = (int16_t)pick;
    snprintf(o->tile_id, sizeof o->tile_id, "%s", tile_get(pick)->id);
    o->at = pl.at;
    o->rot = (uint8_t)pl.rot;
    forge_how(f, "placed %s at (%d,%d) where the save's "
              "random number draws %s", o->tile_id, pl.at.x, pl.at.y,
              m->tile_id);
    return true;
}

static bool f_tile_occupied(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->at = f->in->start_at;
    forge_how(f, "placed %s on the start tile's square",
              m->tile_id);
    return true;
}

static bool f_tile_not_adjacent(struct forge *f)
{
    struct move *m = &f->out->moves[f->place];
    m->at = (struct pos){ 120, -120 };
    forge_how(f, "placed %s at (120,-120), far from the "
              "board", m->tile_id);
    return true;
}

static bool f_tile_edge_mismatch(struct forge *f)
{
    struct forge_state s;
    const struct move *m = &f->in->moves[f->place];
    const struct game *g = forge_state_at(&s, f->in, f->place);
    char why[8];
    int rot = -1;
    for (int r = 1; r < 4 && rot < 0; r++)
        if (game_check_place(g, m->tile, m->at, (m->rot + r) % 4, why,
                             sizeof why) == RULE_TILE_EDGE_MISMATCH)
            rot = (m->rot + r) % 4;
    forge_state_end(&s);
    if (rot < 0)
        return false;
    f->out->moves[f->place].rot = (uint8_t)rot;
    forge_how(f, "turned %s to R%d, where its edges do "
              "not match", m->tile_id, 90 * rot);
    return true;
}

static bool f_tile_discard_fits(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place);
    int placed = f->in->moves[f->place].tile, pick = -1;
    for (int t = 0; t < tile_count() && t < TILE_KINDS; t++)
        if (g->pack[t] > 0 && t != placed && game_fits_anywhere(g, t)) {
            pick = t;
            break;
        }
    forge_state_end(&s);
    if (pick < 0)
        return false;
    struct move *m = forge_insert(f->out, f->place);
    m->kind = MV_DISCARD;
    m->tile = (int16_t)pick;
    snprintf(m->tile_id, sizeof m->tile_id, "%s", tile_get(pick)->id);
    forge_how(f, "discarded %s, which fits on the board",
              m->tile_id);
    return true;
}

/* ---- meeples ------------------------------------------------------------ */

static bool f_none_left(struct forge *f)
{
    const struct move *a = forge_action(f);
    if (!forge_is_deploy(a))
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    int have = f->in->rules.figures[a->meeple];
    m->meeple_n = (uint8_t)(have + 1);
    forge_how(f, "deployed %s number %d of a supply of %d",
              figure_class(a->meeple)->name, have + 1, have);
    return true;
}

static bool f_not_on_placed_tile(struct forge *f)
{
    const struct move *a = forge_action(f);
    if (!forge_is_deploy(a))
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    m->at = f->in->start_at;
    forge_how(f, "deployed on the start tile, not on this "
              "turn's tile");
    return true;
}

/* A deployment of a meeple in supply on a segment of the placed tile that
 * game_check_deploy() refuses with `want`; with say_why, f->how ends with
 * the engine's reason. */
bool forge_deploy_refused(struct forge *f, enum rule want, int kind,
                              bool say_why)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
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
        struct move *m = forge_replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        forge_set_meeple(m, g, mi);
        char name[40];
        seg_format(m->feature, m->mask, name, sizeof name);
        const char *fig = figure_class(kind)->name;
        forge_how(f, "deployed %s %s on %s", forge_a_or_an(fig), fig, name);
        if (say_why) {
            forge_how_add(f, ": ");
            forge_how_add(f, why);
        }
    }
    forge_state_end(&s);
    return pick >= 0;
}

static bool deploy_refused(struct forge *f, enum rule want, int kind)
{
    return forge_deploy_refused(f, want, kind, false);
}

static bool f_feature_occupied(struct forge *f)
{
    if (!deploy_refused(f, RULE_MEEPLE_FEATURE_OCCUPIED, FIG_SMALL))
        return false;
    forge_how_add(f, ", an occupied feature");
    return true;
}

/* A unit's figure that stands on few feature kinds on one it may not
 * (an abbot on a road), or a monastery on a tile without one. */
static bool f_wrong_type(struct forge *f)
{
    for (int u = 0; u < EXP__COUNT; u++) {
        int fig = sim_units[u] ? sim_units[u]->wrong_type_figure : 0;
        if (fig && f->in->rules.figures[fig] &&
            deploy_refused(f, RULE_MEEPLE_WRONG_TYPE, fig))
            return true;
    }
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    bool ok = mi >= 0 && game_find_seg(g, g->now.tile, FEAT_MONASTERY, 0) < 0;
    if (ok) {
        struct move *m = forge_replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_MONASTERY;
        forge_set_meeple(m, g, mi);
        forge_how(f, "deployed a follower on the "
                  "monastery of a tile without one");
    }
    forge_state_end(&s);
    return ok;
}

static bool f_second_deploy(struct forge *f)
{
    const struct move *a = forge_action(f);
    if (!forge_is_deploy(a))
        return false;
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 2);
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
        struct move *m = forge_insert(f->out, f->place + 2);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = g->segs[pick].kind;
        m->mask = g->segs[pick].mask;
        forge_set_meeple(m, g, mi);
        forge_how(f, "deployed a second follower in the "
                  "same turn");
    }
    forge_state_end(&s);
    return pick >= 0;
}

/* ---- the flier ---------------------------------------------------------- */

static bool f_no_machine(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    int mi = game_meeple(g, f->seat, FIG_SMALL, 0);
    bool ok = mi >= 0 && game_flier_dir(g, g->now.tile) == NO_FLIER;
    if (ok) {
        struct move *m = forge_replace_action(f);
        m->kind = MV_DEPLOY;
        m->at = game_tile_pos(g, g->now.tile);
        m->feature = FEAT_FLIER;
        m->roll = 1;
        forge_set_meeple(m, g, mi);
        forge_how(f, "flew from %s, which has no flying "
                  "machine", tile_get(g->tiles[g->now.tile].def)->id);
    }
    forge_state_end(&s);
    return ok;
}


static bool f_wrong_target(struct forge *f)
{
    size_t li = forge_landing_index(f);
    if (!li)
        return false;
    f->flew = f->in->moves[li].meeple;
    struct move *m = &f->out->moves[li];
    m->at.y += m->at.y > 0 ? -60 : 60; /* no tile there */
    forge_how(f, "landed at (%d,%d) instead of the rolled "
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
                            : forge_insert(f->out, f->place + 2);
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
    const struct move *a = forge_action(f);
    if (forge_is_flight(a) && (f->figure < 0 || a->meeple == f->figure)) {
        f->flew = a->meeple;
        return true;
    }
    int fig = f->figure < 0 ? FIG_SMALL : f->figure;
    int mi = game_meeple(g, f->seat, fig, 0);
    if (mi < 0 || game_check_flight(g, fig, NULL, 0) != RULE_OK)
        return false;
    struct move *m = forge_replace_action(f);
    m->kind = MV_DEPLOY;
    m->at = game_tile_pos(g, g->now.tile);
    m->feature = FEAT_FLIER;
    m->roll = 1;
    forge_set_meeple(m, g, mi);
    f->flew = fig;
    return true;
}

enum land_kind { LAND_NO_TILE, LAND_FIELD, LAND_COMPLETED, LAND_BAD,
                 LAND_WRONG_TYPE, LAND_FEATURE };

/* Does segment seg of kind k suit a landing of figure fig that `want`s
 * it (LAND_FEATURE: a feature of kind feat)? */
static bool landing_hit(const struct game *g, enum land_kind want, int feat,
                        int fig, int seg)
{
    int k = g->segs[seg].kind;
    bool stands = figure_stands_on(fig, k);
    switch (want) {
    case LAND_FIELD: /* a figure that may not stand on a field would break
                      * MEEPLE_WRONG_TYPE first */
        return k == FEAT_FIELD && stands;
    case LAND_COMPLETED:
        return feature_class(k)->landable && game_kind_allowed(g, fig, k) &&
               game_feature_complete(g, seg);
    case LAND_WRONG_TYPE:
        return feature_class(k)->claimable && !stands;
    case LAND_FEATURE:
        return k == feat && stands;
    default:
        return false;
    }
}

/* Looks for a roll whose target suits `want`; lands the flight there. */
static bool f_landing(struct forge *f, enum land_kind want, int feat)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    if (!ensure_flight(f, g)) {
        forge_state_end(&s);
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
                                        "" };
    char on[40] = "", kind[48];
    const char *name = want == LAND_FEATURE ? feature_class(feat)->name : "";
    snprintf(kind, sizeof kind, "%s %s", forge_a_or_an(name), name);
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
            bool hit = landing_hit(g, want, feat, a_meeple, seg);
            if (hit) {
                relaunch(f, roll, tg, k, g->segs[seg].mask);
                found = roll;
                seg_format(k, g->segs[seg].mask, on, sizeof on);
            }
        }
    }
    forge_state_end(&s);
    if (found && want == LAND_WRONG_TYPE)
        forge_how(f, "%s %s flew, rolled %d and landed "
                  "on %s, %s", forge_a_or_an(figure_class(a_meeple)->name),
                  figure_class(a_meeple)->name, found, on, what[want]);
    else if (found)
        forge_how(f, "%s %s flew, rolled %d and landed "
                  "on %s", forge_a_or_an(figure_class(a_meeple)->name),
                  figure_class(a_meeple)->name, found,
                  want == LAND_FEATURE ? kind : what[want]);
    return found > 0;
}

static bool f_bad_roll(struct forge *f)
{
    struct forge_state s;
    const struct game *g = forge_state_at(&s, f->in, f->place + 1);
    bool ok = ensure_flight(f, g);
    forge_state_end(&s);
    if (!ok)
        return false;
    struct move *m = &f->out->moves[f->place + 1];
    m->roll = 4;
    m->draw = -1;
    forge_how(f, "a flight of %s %s with a roll of 4",
              forge_a_or_an(figure_class(m->meeple)->name),
              figure_class(m->meeple)->name);
    return true;
}

static bool f_no_tile(struct forge *f)
{
    return f_landing(f, LAND_NO_TILE, 0);
}
static bool f_field(struct forge *f) { return f_landing(f, LAND_FIELD, 0); }
static bool f_completed(struct forge *f)
{
    return f_landing(f, LAND_COMPLETED, 0);
}
static bool f_bad_feature(struct forge *f)
{
    return f_landing(f, LAND_BAD, 0);
}

bool forge_wrong_landing(struct forge *f)
{
    return f_landing(f, LAND_WRONG_TYPE, 0);
}

bool forge_landing_on(struct forge *f, int feat)
{
    return f_landing(f, LAND_FEATURE, feat);
}
static bool f_must_land(struct forge *f)
{
    size_t li = forge_landing_index(f);
    if (!li)
        return false;
    f->flew = f->in->moves[li].meeple;
    forge_remove(f->out, li, li + 1);
    forge_how(f, "the flier went back to supply although "
              "it could land");
    return true;
}

/* ---- the river and a second figure's flight ---------------------------- */

/* A square next to the board and a turn of def there for which
 * game_check_place() answers `want`; false when there is none. */
bool forge_find_spot(const struct game *g, int def, enum rule want,
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

/* Makes the turn's action a legal flight when it is none (g: the state
 * after the PLACE): the first figure in supply that may fly, the roll
 * from the turn, a landing on the target's first valid feature when it
 * has one. Returns the index after the flight and its landing in f->out,
 * or 0 when the tile has no flying machine or no figure may fly. */
size_t forge_legal_flight(struct forge *f, const struct game *g)
{
    size_t li = forge_landing_index(f);
    if (forge_is_flight(forge_action(f)))
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
    struct move *m = forge_replace_action(f);
    m->kind = MV_DEPLOY;
    m->at = from;
    m->feature = FEAT_FLIER;
    m->roll = roll;
    forge_set_meeple(m, g, mi);
    if (game_landings(g, tg, fig, segs, TILE_MAX_SEGS) == 0)
        return f->place + 2;
    m = forge_insert(f->out, f->place + 2);
    m->kind = MV_DEPLOY;
    m->at = tg;
    m->feature = g->segs[segs[0]].kind;
    m->mask = g->segs[segs[0]].mask;
    forge_set_meeple(m, g, mi);
    f->commit++;
    return f->place + 3;
}

/* ---- turns and claims --------------------------------------------------- */

static bool f_turn_order(struct forge *f)
{
    if (f->in->rules.n_players < 2)
        return false;
    int other = (f->seat + 1) % f->in->rules.n_players;
    f->out->moves[f->place].player = (int8_t)other;
    forge_how(f, "the tile placed by %s on %s's turn",
              f->in->names[other], f->in->names[f->seat]);
    return true;
}

static bool f_turn_sequence(struct forge *f)
{
    struct move *m = forge_insert(f->out, f->place);
    m->kind = MV_PASS;
    f->want_turn = f->turn - 1;
    forge_how(f, "a pass before the turn's tile");
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
        forge_how(f, "claimed 5 points too many for %s "
                  "after the turn", f->in->names[f->seat]);
    }
    report_release(&r);
    return ok;
}

/* ---- driver ------------------------------------------------------------- */

/* The generic forgers of each rule, tried in this order after the
 * units' own (sim_unit.forgers), each with the unit it needs in play (-1:
 * none) and how it picks the figure of its flight. */
static const struct forger generic[] = {
    { RULE_TILE_UNKNOWN, f_tile_unknown, -1, BY_NONE },
    { RULE_TILE_NOT_IN_PACK, f_tile_not_in_pack, -1, BY_NONE },
    { RULE_TILE_NOT_DRAWN, f_tile_not_drawn, -1, BY_NONE },
    { RULE_TILE_OCCUPIED, f_tile_occupied, -1, BY_NONE },
    { RULE_TILE_NOT_ADJACENT, f_tile_not_adjacent, -1, BY_NONE },
    { RULE_TILE_EDGE_MISMATCH, f_tile_edge_mismatch, -1, BY_NONE },
    { RULE_TILE_DISCARD_FITS, f_tile_discard_fits, -1, BY_NONE },
    { RULE_MEEPLE_NONE_LEFT, f_none_left, -1, BY_NONE },
    { RULE_MEEPLE_NOT_ON_PLACED_TILE, f_not_on_placed_tile, -1, BY_NONE },
    { RULE_MEEPLE_FEATURE_OCCUPIED, f_feature_occupied, -1, BY_NONE },
    { RULE_MEEPLE_WRONG_TYPE, f_wrong_type, -1, BY_NONE },
    { RULE_MEEPLE_SECOND_DEPLOY, f_second_deploy, -1, BY_NONE },
    { RULE_FLIER_NO_MACHINE, f_no_machine, -1, BY_NONE },
    { RULE_FLIER_BAD_ROLL, f_bad_roll, -1, BY_FLIER },
    { RULE_FLIER_WRONG_TARGET, f_wrong_target, -1, BY_NONE },
    { RULE_FLIER_NO_TILE, f_no_tile, -1, BY_FLIER },
    { RULE_FLIER_FIELD, f_field, -1, BY_FLIER },
    { RULE_FLIER_COMPLETED, f_completed, -1, BY_FLIER },
    { RULE_FLIER_BAD_FEATURE, f_bad_feature, -1, BY_FLIER },
    { RULE_FLIER_MUST_LAND, f_must_land, -1, BY_NONE },
    { RULE_TURN_ORDER, f_turn_order, -1, BY_NONE },
    { RULE_TURN_SEQUENCE, f_turn_sequence, -1, BY_NONE },
    { RULE_SCORE_MISMATCH, f_score_mismatch, -1, BY_NONE },
};

#define N_GENERIC (sizeof generic / sizeof generic[0])
/* Every forger, the units' and the generic ones. */
#define MAX_FORGERS 96

/* The forgers in the order they are tried: each unit's rows in registry
 * order (a unit's figures break a rule before the common follower does),
 * then the generic ones. Returns the count. */
static size_t all_forgers(const struct forger **out)
{
    size_t n = 0;
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct forger *r = sim_units[u] ? sim_units[u]->forgers
                                                   : NULL;
             r && r->fn && n < MAX_FORGERS; r++)
            out[n++] = r;
    for (size_t i = 0; i < N_GENERIC && n < MAX_FORGERS; i++)
        out[n++] = &generic[i];
    return n;
}

/* Does forger r suit a game whose rules put these units in play? */
static bool forger_for(const struct forger *r, uint64_t units)
{
    return r->needs < 0 || (units >> r->needs & 1);
}

/* The rules of enum order with a forger whose unit units holds. */
static int rules_in(uint64_t units, enum rule *out, int max)
{
    const struct forger *fs[MAX_FORGERS];
    size_t nf = all_forgers(fs);
    int n = 0;
    for (int r = RULE_OK + 1; r < RULE__COUNT; r++) {
        bool any = false;
        for (size_t i = 0; i < nf && !any; i++)
            any = fs[i]->rule == (enum rule)r && forger_for(fs[i], units);
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
    return rules_in(~0ull, out, max);
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

static int turns_in(const struct game_log *l)
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
    /* not those only a unit's figure stands on (the abbot's garden) */
    all &= figure_class(FIG_SMALL)->stands;
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

/* One attempt at turn t with forger fr: true when the forged log is
 * flagged as wanted. */
static bool try_turn(const struct game_log *in, const struct forger *fr,
                     int t,
                     const int *seats, int figure, struct game_log *out,
                     struct sim_forgery *out_f)
{
    enum rule rule = fr->rule;
    struct forge f = { .in = in, .out = out, .turn = t, .want_turn = t,
                       .figure = figure, .flew = -1 };
    if (!find_turn(in, t, &f.place, &f.commit))
        return false;
    f.seat = seats[t - 1];
    f.prev_seat = t > 1 ? seats[t - 2] : -1;
    log_copy(in, out);
    bool ok = fr->fn(&f);
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

/* Tries each turn from one the seed picks, with forger fr and the
 * forged flight's figure (-1: any). */
static bool forge_turns(const struct game_log *in, const struct forger *fr,
                        int figure,
                        uint64_t seed, struct game_log *out,
                        struct sim_forgery *out_f)
{
    int n = turns_in(in);
    int first = n ? (int)(mix(seed) % (uint64_t)n) : 0;
    int *seats = xcalloc((size_t)n + 1, sizeof *seats);
    bool ok = false;
    turn_seats(in, seats, n);
    for (int k = 0; k < n && !ok; k++)
        ok = try_turn(in, fr, 1 + (first + k) % n, seats, figure, out,
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
    return turns_in(in) > 0 && in->rules.n_players >= 1;
}

bool sim_forge(const struct game_log *in, enum rule rule, uint64_t seed,
               struct game_log *out, struct sim_forgery *out_f)
{
    uint64_t units = game_rules_units(&in->rules);
    if (!forge_start(in, out, out_f))
        return false;
    const struct forger *fs[MAX_FORGERS];
    size_t nf = all_forgers(fs);
    for (size_t i = 0; i < nf; i++) {
        if (fs[i]->rule != rule || !forger_for(fs[i], units))
            continue;
        /* a forged flight: first by the seed's figure, then by whichever
         * figure a turn allows */
        int want = fs[i]->by_figure != BY_NONE
                       ? flight_figure(in, fs[i]->by_figure, seed)
                       : -1;
        if ((want >= 0 && forge_turns(in, fs[i], want, seed, out, out_f)) ||
            forge_turns(in, fs[i], -1, seed, out, out_f))
            return true;
    }
    game_log_init(out);
    return false;
}

bool sim_forge_flight(const struct game_log *in, enum rule rule, int figure,
                      uint64_t seed, struct game_log *out,
                      struct sim_forgery *out_f)
{
    uint64_t units = game_rules_units(&in->rules);
    if (!forge_start(in, out, out_f) || !figure_class(figure))
        return false;
    const struct forger *fs[MAX_FORGERS];
    size_t nf = all_forgers(fs);
    for (size_t i = 0; i < nf; i++)
        if (fs[i]->rule == rule && fs[i]->by_figure != BY_NONE &&
            forger_for(fs[i], units) &&
            forge_turns(in, fs[i], figure, seed, out, out_f))
            return true;
    game_log_init(out);
    return false;
}
