/* hs.c - Hills & Sheep (JCloisterZone's sets hills-and-sheep:1 and :2,
 * the elements "shepherd", "hill" and "vineyard") as a unit, as
 * JCloisterZone plays it.
 *  - The shepherd (FIG_SHEPHERD, no follower, never flies) goes onto an
 *    unoccupied field of the turn's tile instead of a follower. After the
 *    turn's action (and its flight), before its COMMIT: a shepherd of the
 *    player on turn deployed this turn draws a token from the bag at once;
 *    one whose field the turn's tile extended waits for its owner's
 *    choice (MV_FLOCK_EXPAND: a token drawn with the move's own random
 *    number; MV_FLOCK_SCORE: the flock comes home), one choice for each
 *    field, in the order of the shepherds. Then every field with a
 *    shepherd that no longer touches an empty square scores its flock.
 *    The bag holds 4, 5, 5 and 2 tokens of one to four sheep and 2
 *    wolves; a token is drawn at floor(random x tokens in the bag), in
 *    that order. A wolf sends every shepherd of its field home, its
 *    flock back into the bag. A flock that scores gives every player
 *    with a shepherd on the field (once each) the sheep of all their
 *    flocks there: one event, "flock", with a term per token kind; the
 *    shepherds go home, their tokens back into the bag. Flocks left at
 *    the end score nothing. JCloisterZone draws the deployment's token
 *    with its turn generator's number after the tile's draw (the
 *    generator's next number after the one that drew the tile).
 *  - Hills (tile mark "hill", with the element "hill"): each hill tile
 *    placed while tiles are left to draw hides one of them (JCloisterZone
 *    counts them; the draw itself is unchanged), so the game ends with
 *    that many tiles in the pack (pack_kept). A tie of strength goes to
 *    the tied players with a follower of the feature on a hill
 *    (hill-tiebreaker "at-least-one-follower"), or with the most there
 *    ("number-of-followers").
 *  - Vineyards (tile mark "vineyard", with the element "vineyard"): a
 *    completed monastery scores 3 more for each vineyard among the eight
 *    tiles around it (the term "vineyards"); gardens do not.
 *  - HS/CC!.v has a second city on its north edge (JCloisterZone's
 *    multi-edge, the tile mark "multi-edge"): its one-edge city counts
 *    the shared edge as one more open end, and joins the two-edge city
 *    when a tile comes onto that edge.
 *  - The Flier: the shepherd never flies; every follower flies and lands
 *    on these tiles as on any.
 * Tiles: hs.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/hs.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/replay.h"
#include "core/text.h"

enum {
    KINDS = 5,         /* one to four sheep, the wolf */
    WOLF = 4,
    MAX_SHEPHERDS = 2, /* a seat's shepherds the unit keeps flocks for */
    SLOTS = GAME_MAX_PLAYERS * MAX_SHEPHERDS,
    VINEYARD_POINTS = 3,
};

/* The bag, in JCloisterZone's order. */
static const uint8_t token_count[KINDS] = { 4, 5, 5, 2, 2 };

struct hs_state {
    double gen;            /* JCloisterZone's generator after the turn's
                              draw (-1: unknown) */
    uint8_t flock[SLOTS][KINDS - 1]; /* sheep tokens by shepherd */
    int16_t pending[SLOTS];/* shepherds whose choice is due, in order */
    uint8_t n_pending;
    bool entered;          /* the turn's flocks are worked out */
    int16_t kept;          /* tiles under hills */
    int16_t closed;        /* a one-edge city a closed tile (the abbey)
                              closed this turn, for its scoring; -1 */
};
UNIT_STATE_FITS(struct hs_state);

static struct hs_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_HS, struct hs_state);
}

static const struct hs_state *cst(const struct game *g)
{
    return UNIT_STATE(g, EXP_HS, const struct hs_state);
}

/* ---- classes ------------------------------------------------------------ */

/* "flock at (1,2): 2 × 3 sheep + 1 × 1 sheep = 7" */
static int explain_flock(const struct game_log *log,
                         const struct score_event *ev,
                         const struct feature_ref *refs, char *out,
                         size_t len)
{
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "flock");
    if (ev->n_refs) {
        text_put(&t, " at ");
        text_square(&t, refs[0].x, refs[0].y);
    }
    text_put(&t, " brought home: ");
    for (int i = 0; i < ev->n_items; i++) {
        int n = ev->items[i].count;
        if (i)
            text_put(&t, " + ");
        text_int(&t, n);
        text_put(&t, " × ");
        text_int(&t, n ? ev->items[i].points / n : 0);
        text_put(&t, " sheep");
    }
    text_put(&t, " = ");
    text_int(&t, ev->points);
    return (int)t.n;
}

const struct feature_class feature_class_FLOCK = {
    .name = "flock", .explain = explain_flock,
};

#define STANDS(f) (1u << FEAT_##f)

const struct figure_class figure_class_SHEPHERD = {
    .jcz = "shepherd", .name = "shepherd", .names = "shepherds",
    .strength = 0, .stands = STANDS(FIELD),
};

static const struct element elements[] = {
    { "shepherd", EL_FIGURES, FIG_SHEPHERD, MAX_SHEPHERDS, true },
    { "hill", EL_FLAG, RFB_HILL, 1, false },
    { "vineyard", EL_FLAG, RFB_VINEYARD, 1, false },
    { NULL, 0, 0, 0, false },
};

/* ---- the board ---------------------------------------------------------- */

static uint32_t marks_of(const struct game *g, int t)
{
    return t < 0 ? 0 : tile_get(g->tiles[t].def)->marks;
}

static struct pos beside(struct pos p, int side)
{
    static const int dx[4] = { 0, 1, 0, -1 }, dy[4] = { -1, 0, 1, 0 };
    return (struct pos){ p.x + dx[side], p.y + dy[side] };
}

/* Does the field of root touch a square with no tile (a half-edge of it
 * on a side no tile lies beyond)? */
static bool field_open(const struct game *g, int root)
{
    int s = root;
    do {
        const struct seg *sg = &g->segs[s];
        struct pos p = game_tile_pos(g, sg->tile);
        for (int side = 0; side < 4; side++)
            if ((sg->mask >> (2 * side) & 3) &&
                game_tile_at(g, beside(p, side)) < 0)
                return true;
        s = sg->next;
    } while (s != root);
    return false;
}

/* Does the feature of root hold a segment of tile t? */
static bool feature_on(const struct game *g, int root, int t)
{
    const struct placed *pl = &g->tiles[t];
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (game_root(g, i) == root)
            return true;
    return false;
}

/* The flock slot of shepherd meeple m, or -1. */
static int slot_of(const struct game *g, int m)
{
    if (m < 0 || g->meeples[m].kind != FIG_SHEPHERD)
        return -1;
    int p = g->meeples[m].owner, first = game_meeple(g, p, FIG_SHEPHERD, 1);
    int n = m - first;
    return first < 0 || n < 0 || n >= MAX_SHEPHERDS ? -1
                                                     : p * MAX_SHEPHERDS + n;
}

static bool on_board(const struct game *g, int m)
{
    return m >= 0 && g->meeples[m].seg >= 0;
}

/* ---- the bag ------------------------------------------------------------ */

/* The token kind the number r draws from what is left in the bag. */
static int draw_token(const struct hs_state *s, double r)
{
    int left[KINDS], n = 0;
    for (int k = 0; k < KINDS; k++) {
        left[k] = token_count[k];
        for (int sl = 0; k < WOLF && sl < SLOTS; sl++)
            left[k] -= s->flock[sl][k];
        if (left[k] < 0)
            left[k] = 0;
        n += left[k];
    }
    int i = r >= 0 && r < 1 ? (int)(r * n) : 0; /* unknown: the first */
    for (int k = 0; k < KINDS; k++) {
        if (i < left[k])
            return k;
        i -= left[k];
    }
    return WOLF;
}

/* Sends the shepherds on the field of root home, their flocks back into
 * the bag; the seats they belonged to. */
static unsigned send_home(struct game *g, int root)
{
    struct hs_state *s = st(g);
    unsigned seats = 0;
    for (int m = 0; m < g->n_meeples; m++) {
        if (g->meeples[m].kind != FIG_SHEPHERD || !on_board(g, m) ||
            game_root(g, g->meeples[m].seg) != root)
            continue;
        seats |= 1u << g->meeples[m].owner;
        int sl = slot_of(g, m);
        if (sl >= 0)
            memset(s->flock[sl], 0, sizeof s->flock[sl]);
        game_put(g, m, -1);
    }
    return seats;
}

/* The flocks on the field of root score: one event for every seat with
 * a shepherd there, and they go home. */
static void score_flock(struct game *g, int root)
{
    const struct hs_state *s = cst(g);
    int sheep[KINDS - 1] = { 0 };
    struct score_event *ev = game_new_event(g);
    ev->turn = g->turn;
    ev->feature = FEAT_FLOCK;
    ev->completed = true;
    ev->seg = (uint16_t)g->segs[root].min;
    for (int m = 0; m < g->n_meeples; m++) {
        if (g->meeples[m].kind != FIG_SHEPHERD || !on_board(g, m) ||
            game_root(g, g->meeples[m].seg) != root)
            continue;
        int sl = slot_of(g, m);
        for (int k = 0; sl >= 0 && k < WOLF; k++)
            sheep[k] += s->flock[sl][k];
        game_event_ref(g, ev, g->meeples[m].seg);
    }
    for (int k = 0; k < WOLF; k++)
        if (sheep[k]) {
            score_add_item(ev, SI_SHEEP_1X + k, sheep[k], sheep[k] * (k + 1));
            ev->points += sheep[k] * (k + 1);
        }
    unsigned seats = send_home(g, root);
    ev->players = (uint8_t)seats;
    for (unsigned w = seats; w; w &= w - 1)
        g->score[__builtin_ctz(w)] += ev->points;
}

/* Shepherd m's flock grows by the token r draws (a wolf ends it). */
static void expand(struct game *g, int m, double r)
{
    struct hs_state *s = st(g);
    int k = draw_token(s, r), sl = slot_of(g, m);
    if (k == WOLF) {
        send_home(g, game_root(g, g->meeples[m].seg));
        return;
    }
    if (sl >= 0 && s->flock[sl][k] < UINT8_MAX)
        s->flock[sl][k]++;
}

/* Every field with a shepherd that touches no empty square scores; when
 * the turn's flocks are first worked out, but those whose choice is due
 * (after a choice, JCloisterZone scores them all). */
static void score_closed(struct game *g, bool skip_due)
{
    const struct hs_state *s = cst(g);
    for (int m = 0; m < g->n_meeples; m++) {
        if (g->meeples[m].kind != FIG_SHEPHERD || !on_board(g, m))
            continue;
        int root = game_root(g, g->meeples[m].seg);
        bool due = false;
        for (int i = 0; skip_due && i < s->n_pending; i++)
            due |= on_board(g, s->pending[i]) &&
                   game_root(g, g->meeples[s->pending[i]].seg) == root;
        if (!due && !field_open(g, root))
            score_flock(g, root);
    }
}

static double next_random(double r)
{
    return r >= 0 ? game_redraw_random(r) : r;
}

void game_hs_turn_random(struct game *g, double r)
{
    st(g)->gen = next_random(r);
}

void game_hs_enter(struct game *g)
{
    struct hs_state *s = st(g);
    if (s->entered || g->now.tile < 0)
        return;
    s->entered = true;
    s->n_pending = 0;
    int p = g->seat, t = g->now.tile;
    for (int n = 1; n <= g->rules.figures[FIG_SHEPHERD]; n++) {
        int m = game_meeple(g, p, FIG_SHEPHERD, n);
        if (!on_board(g, m))
            continue;
        int root = game_root(g, g->meeples[m].seg);
        if (g->segs[g->meeples[m].seg].tile == t) { /* deployed now */
            expand(g, m, s->gen);
            s->gen = next_random(s->gen);
            continue;
        }
        if (!feature_on(g, root, t))
            continue;
        bool seen = false;
        for (int i = 0; i < s->n_pending; i++)
            seen |= game_root(g, g->meeples[s->pending[i]].seg) == root;
        if (!seen && s->n_pending < SLOTS)
            s->pending[s->n_pending++] = (int16_t)m;
    }
    score_closed(g, true);
}

int game_hs_pending(const struct game *g)
{
    const struct hs_state *s = cst(g);
    return s->n_pending ? s->pending[0] : -1;
}

enum rule game_check_flock(const struct game *g, int player, char *why,
                           size_t why_len)
{
    const struct hs_state *s = cst(g);
    if (g->now.tile < 0 || !s->n_pending) {
        snprintf(why, why_len, "no shepherd's field was extended by the "
                 "turn's tile (or its choice was made)");
        return RULE_FLOCK;
    }
    if (player != g->meeples[s->pending[0]].owner) {
        snprintf(why, why_len, "the flock is not that player's");
        return RULE_FLOCK;
    }
    return RULE_OK;
}

void game_hs_flock(struct game *g, bool grow, double r)
{
    struct hs_state *s = st(g);
    if (!s->n_pending)
        return;
    int m = s->pending[0];
    memmove(s->pending, s->pending + 1,
            (size_t)(--s->n_pending) * sizeof s->pending[0]);
    if (!on_board(g, m))
        return;
    if (grow)
        expand(g, m, r);
    else
        score_flock(g, game_root(g, g->meeples[m].seg));
    score_closed(g, false);
}

int game_hs_flock_size(const struct game *g, int m)
{
    int sl = slot_of(g, m), n = 0;
    for (int k = 0; sl >= 0 && k < WOLF; k++)
        n += cst(g)->flock[sl][k] * (k + 1);
    return n;
}

/* ---- hooks -------------------------------------------------------------- */

static void start(struct game *g)
{
    struct hs_state *s = st(g);
    memset(s, 0, sizeof *s);
    s->gen = -1.0;
    s->entered = true;
    s->closed = -1;
}

/* The one-edge city of a multi-edge tile t and the side it shares with
 * the two-edge city (board frame), or -1. */
static int multi_edge(const struct game *g, int t, int *two, int *side)
{
    const struct placed *pl = &g->tiles[t];
    int one = -1;
    *two = -1;
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++) {
        if (g->segs[i].kind != FEAT_CITY)
            continue;
        if (__builtin_popcount(g->segs[i].mask) == 1)
            one = i;
        else
            *two = i;
    }
    if (one < 0 || *two < 0)
        return -1;
    int e = __builtin_ctz(g->segs[one].mask);
    for (int d = 1; d < 4; d += 2)
        if (g->segs[*two].mask >> ((e + d) & 3) & 1) {
            *side = (e + d) & 3;
            return one;
        }
    return -1;
}

/* The shared edge of multi-edge tile t met a tile: its cities join
 * through the city beyond it (a closed tile, the abbey, only closes
 * both there). */
static void join_multi(struct game *g, int t)
{
    int two, side, one = multi_edge(g, t, &two, &side);
    int nb = one < 0 ? -1 : game_tile_at(g, beside(game_tile_pos(g, t), side));
    if (nb < 0)
        return;
    if (tile_get(g->tiles[nb].def)->edges)
        game_join_segs(g, one, two);
    struct seg *r = &g->segs[game_root(g, one)];
    if (r->open > 0) /* the one-edge city's extra open end is closed */
        r->open--;
    if (!tile_get(g->tiles[nb].def)->edges && g->now.tile == nb)
        st(g)->closed = (int16_t)one; /* no side of the turn's tile */
}

static void placed(struct game *g, int t)
{
    struct hs_state *s = st(g);
    uint32_t marks = marks_of(g, t);
    struct pos p = game_tile_pos(g, t);
    if (marks & TILE_MARK(MULTI_EDGE)) {
        int two, side, one = multi_edge(g, t, &two, &side);
        if (one >= 0)
            g->segs[game_root(g, one)].open++;
        join_multi(g, t);
    }
    for (int side = 0; side < 4; side++) { /* onto a shared edge */
        int nb = game_tile_at(g, beside(p, side));
        int two, sh;
        if (nb >= 0 && (marks_of(g, nb) & TILE_MARK(MULTI_EDGE)) &&
            multi_edge(g, nb, &two, &sh) >= 0 && sh == ((side + 2) & 3))
            join_multi(g, nb);
    }
    if (t == 0 || g->turn == 0) /* a start tile */
        return;
    s->entered = false;
    s->n_pending = 0;
    if ((marks & TILE_MARK(HILL)) && (g->rules.flags & RF_HILL) &&
        game_pack_left(g) > s->kept)
        s->kept++;
}

/* A one-edge city the turn's closed tile completed scores with the
 * turn's features (the generic search looks at the sides it touches). */
static void turn_scoring(struct game *g)
{
    struct hs_state *s = st(g);
    if (s->closed >= 0 && g->segs[game_root(g, s->closed)].open == 0)
        game_note_done(g, s->closed);
    s->closed = -1;
}

static void returned(struct game *g, int m)
{
    int sl = slot_of(g, m);
    if (sl >= 0)
        memset(st(g)->flock[sl], 0, sizeof st(g)->flock[sl]);
}

/* The shepherd's deployment: onto a field of the turn's tile that holds
 * no shepherd (followers there do not matter), as the turn's action. */
static int check_deploy(const struct game *g, int player, int m, int seg,
                        char *why, size_t why_len)
{
    (void)player;
    if (g->meeples[m].kind != FIG_SHEPHERD)
        return -1;
    if (!game_kind_allowed(g, FIG_SHEPHERD, g->segs[seg].kind)) {
        snprintf(why, why_len, "a shepherd stands only on a field");
        return RULE_MEEPLE_WRONG_TYPE;
    }
    enum rule r = game_check_on_tile(g, seg, why, why_len);
    if (r != RULE_OK)
        return r;
    int root = game_root(g, seg);
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].kind == FIG_SHEPHERD && on_board(g, i) &&
            game_root(g, g->meeples[i].seg) == root) {
            snprintf(why, why_len, "the field already holds a shepherd");
            return RULE_MEEPLE_FEATURE_OCCUPIED;
        }
    r = game_check_stand(g, FIG_SHEPHERD, seg, why, why_len);
    return r != RULE_OK ? r : game_check_action(g, FIG_SHEPHERD, why, why_len);
}

/* A follower may join a field where only shepherds stand. */
static bool excuse_occupied(const struct game *g, int seg)
{
    int root = game_root(g, seg);
    for (int i = 0; i < g->n_meeples; i++)
        if (on_board(g, i) && g->meeples[i].kind != FIG_SHEPHERD &&
            game_root(g, g->meeples[i].seg) == root)
            return false;
    return true;
}

static int pack_kept(const struct game *g)
{
    return cst(g)->kept;
}

/* A completed monastery scores 3 for each vineyard around it. */
static int bonus(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item)
{
    (void)p;
    if (!(g->rules.flags & RF_VINEYARD) || !ev->completed ||
        !feat_is(g->segs[root].kind, FEAT_MONASTERY) ||
        feature_class(g->segs[root].kind)->part_of)
        return 0;
    struct pos c = game_tile_pos(g, g->segs[root].tile);
    int n = 0;
    for (int k = 0; k < 9; k++)
        if (k != 4)
            n += (marks_of(g, game_tile_at(g, (struct pos){
                               c.x + k % 3 - 1, c.y + k / 3 - 1 })) &
                  TILE_MARK(VINEYARD)) != 0;
    if (!n)
        return 0;
    *item = (struct score_item){ SI_VINEYARDS, (int16_t)n,
                                 (int16_t)(VINEYARD_POINTS * n) };
    return VINEYARD_POINTS * n;
}

/* A tie goes to the tied seats with followers of the feature on hills. */
static unsigned break_tie(const struct game *g, int root, const int *roots,
                          unsigned left)
{
    if (!(g->rules.flags & RF_HILL))
        return left;
    bool count = g->rules.opt[OPT_HILL_TIEBREAKER] != 0;
    int on[GAME_MAX_PLAYERS] = { 0 }, best = 0;
    for (int i = 0; i < g->n_meeples; i++) {
        const struct meeple *m = &g->meeples[i];
        if (roots[i] != root || m->seg < 0 || m->owner < 0 ||
            !(left >> m->owner & 1) || !figure_class(m->kind)->follower ||
            !(marks_of(g, g->segs[m->seg].tile) & TILE_MARK(HILL)))
            continue;
        on[m->owner] = count ? on[m->owner] + 1 : 1;
    }
    for (unsigned w = left; w; w &= w - 1)
        if (on[__builtin_ctz(w)] > best)
            best = on[__builtin_ctz(w)];
    unsigned won = 0;
    for (unsigned w = left; w; w &= w - 1)
        if (on[__builtin_ctz(w)] == best)
            won |= 1u << __builtin_ctz(w);
    return won;
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct hs_state *s = cst(g);
    h = game_hash_mix(h, s->kept);
    for (int sl = 0; sl < SLOTS; sl++)
        for (int k = 0; k < WOLF; k++)
            h = game_hash_mix(h, s->flock[sl][k]);
    return h;
}

static void replay(const struct game *g, struct replay_out *out)
{
    for (int m = 0; m < g->n_meeples; m++) {
        if (g->meeples[m].kind != FIG_SHEPHERD || !on_board(g, m))
            continue;
        const struct seg *sg = &g->segs[g->meeples[m].seg];
        replay_put(out, (struct replay_item){
                            .kind = REPLAY_MARK, .feature = sg->kind,
                            .mask = sg->mask, .seat = g->meeples[m].owner,
                            .at = game_tile_pos(g, sg->tile),
                            .value = game_hs_flock_size(g, m),
                            .name = "flock" });
    }
    if (cst(g)->kept)
        replay_put(out, (struct replay_item){ .kind = REPLAY_COUNTER,
                                              .seat = -1,
                                              .value = cst(g)->kept,
                                              .name = "under-hills" });
}

/* ---- the auditor -------------------------------------------------------- */

/* The tile's draw: JCloisterZone's generator holds the number after the
 * one that drew it; a tile a test scenario forced drew nothing. */
static void before_place(struct audit *a, const struct move *m)
{
    double forced = log_forced_random(m->draw);
    if (forced >= 0)
        st(a->g)->gen = forced;
    else
        game_hs_turn_random(a->g, m->draw);
}

/* The turn ends: the flocks are worked out, and a choice due is a
 * choice missed. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    if (void_turn)
        return;
    game_hs_enter(a->g);
    int sh = game_hs_pending(a->g);
    if (sh >= 0 && m) {
        const struct seg *sg = &a->g->segs[a->g->meeples[sh].seg];
        struct pos p = game_tile_pos(a->g, sg->tile);
        audit_violate(a, m, RULE_FLOCK, "%s's shepherd at (%d,%d): its field "
                      "was extended, but its flock was neither expanded nor "
                      "brought home", audit_who(a, a->player), p.x, p.y);
    }
    st(a->g)->n_pending = 0;
}

static const struct audit_unit audit = {
    .before_place = before_place,
    .turn_end = turn_end,
};

static void check_flock(struct audit *a, const struct move *m)
{
    char why[200];
    struct game *g = a->g;
    game_hs_enter(g);
    enum rule r = game_check_flock(g, a->player, why, sizeof why);
    if (r != RULE_OK) {
        audit_violate(a, m, r, "%s's flock %s: %s", audit_who(a, a->player),
                      m->kind == MV_FLOCK_EXPAND ? "expanded"
                                                 : "brought home",
                      why);
        return;
    }
    game_hs_flock(g, m->kind == MV_FLOCK_EXPAND, m->draw);
}

/* The choice due now, both ways (an expansion with no number: the
 * auditor draws the first token left). Asked after the turn's action,
 * when the flocks are worked out as the turn's end would. */
static int flock_options(const struct audit *a, struct move *out, int max)
{
    struct game *g = a->g;
    if (max < 2 || g->now.tile < 0)
        return 0;
    game_hs_enter(g); /* what the turn's end would work out anyway */
    int sh = game_hs_pending(g);
    if (sh < 0 || g->meeples[sh].owner != a->player)
        return 0;
    out[0] = audit_option(MV_FLOCK_EXPAND);
    out[1] = audit_option(MV_FLOCK_SCORE);
    return 2;
}

static const struct move_class moves[] = {
    {
        .kind = MV_FLOCK_EXPAND,
        .slot = SLOT_AFTER,
        .what = "a flock expanded",
        .check = check_flock,
        .name = "flock-expand",
        .jcz = "FLOCK_EXPAND_OR_SCORE",
        .jcz_payload = "{\"value\":\"EXPAND\",\"random\":\"$own_random\"}",
        .fl_fields = "draw",
        .options = flock_options,
    },
    {
        .kind = MV_FLOCK_SCORE,
        .slot = SLOT_AFTER,
        .what = "a flock brought home",
        .check = check_flock,
        .name = "flock-score",
        .jcz = "FLOCK_EXPAND_OR_SCORE",
        .jcz_payload = "{\"value\":\"SCORE\",\"random\":\"$own_random\"}",
        .fl_fields = "draw",
        .options = NULL,
    },
    { .name = NULL },
};

const struct expansion expansion_hs = {
    .id = "hs",
    .name = "Hills & Sheep",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .returned = returned,
    .turn_scoring = turn_scoring,
    .bonus = bonus,
    .check_deploy = check_deploy,
    .excuse_occupied = excuse_occupied,
    .hash = hash,
    .replay = replay,
    .break_tie = break_tie,
    .pack_kept = pack_kept,
};
