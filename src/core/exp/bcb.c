/* bcb.c - Bridges, Castles & Bazaars as a unit, as JCloisterZone 5
 * plays it. Tiles: bcb.tiles (the bazaar mark; '/nocastle', a city that
 * is no castle base).
 *
 * Modelled: the castles (element "castle"). Not yet: bridges and the
 * bazaar (elements "bridge", "bazaar"), so a save naming them is still
 * "not audited yet" (expansion_unsupported()).
 *
 * Castles. Each player holds 3 (2 with five or six players). After the
 * turn's action, before its COMMIT, a city on the turn's tile that is a
 * castle base on every segment, completed, of exactly two segments and
 * held by exactly one follower may become its owner's castle (any seat,
 * not only the player on turn: JCloisterZone asks them in seat order).
 * Its segments turn into the kind "castle": it is no city any more (it
 * never scores as one, a field counts it as a castle, 4, no flier lands
 * on it) and the knight stays in it. After a later turn's features have
 * scored, each occupied castle whose turn tile is not among its own
 * takes the feature of the most points completed that turn (occupied or
 * not) one of whose tiles lies in its vicinity (its two tiles and those
 * beside them across its length: six squares), scores its owner those
 * points and sends the knight home; a castle with a scored castle's tile
 * in its vicinity then scores the same, and so on. At the end an
 * occupied castle gets a 0-point event. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/bcb.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/replay.h"
#include "core/text.h"
#include "core/words.h"

enum {
    CASTLE_POINTS_IN_FIELD = 4,
    MAX_CASTLES = GAME_MAX_PLAYERS * 3,
};

struct castle {
    int16_t seg;     /* a segment of it (its root) */
    int16_t tile[2]; /* its two tiles */
    int8_t owner;
    bool open;       /* its knight still in it */
};

struct bridge {
    int16_t tile;
    uint8_t axis;    /* edge mask: N|S or W|E */
};

/* The bazaar's auction, and the tiles it gave. */
enum { SALE_OWN, SALE_BUY, SALE_SELL };
enum { STAGE_CHOOSE, STAGE_BID, STAGE_DECIDE };

struct sale {
    int8_t index, selector, high, how;
    int16_t price;
};

struct bazaar {
    bool open;          /* an auction round is on */
    bool drawn;         /* its supply is drawn (at the tile after it) */
    bool given;         /* the turn's tile was bought */
    bool paid;          /* the sales' points are paid */
    double r;           /* the random number the supply was drawn with */
    uint8_t n;          /* tiles in the supply, 0: none pending */
    uint8_t stage;
    uint8_t n_sales;
    int8_t sel, asking, high, index;
    int16_t price;
    int8_t owner[GAME_MAX_PLAYERS]; /* seat that got supply tile i */
    int8_t got[GAME_MAX_PLAYERS];   /* supply tile seat p got; -1 none,
                                       -2 placed */
    int16_t def[GAME_MAX_PLAYERS];
    struct sale sale[GAME_MAX_PLAYERS];
};

struct bcb {
    int8_t castles_left[GAME_MAX_PLAYERS];
    int8_t bridges_left[GAME_MAX_PLAYERS];
    uint8_t n_castles, n_bridges;
    int16_t bridge_turn; /* the turn of the last bridge (one a turn) */
    struct castle castle[MAX_CASTLES];
    struct bridge bridge[MAX_CASTLES];
    struct bazaar bz;
};
UNIT_STATE_FITS(struct bcb);

static struct bcb *state(struct game *g)
{
    return UNIT_STATE(g, EXP_BCB, struct bcb);
}

static const struct bcb *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_BCB, const struct bcb);
}

/* "castle (0,-1)-(0,0): a road completed beside it scored 3" (refs:
 * the castle's two tiles). */
static int explain_castle(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    static const struct {
        int item;
        const char *why;
    } whys[] = {
        { SI_CASTLE_ROAD, "a road completed beside it scored " },
        { SI_CASTLE_CITY, "a city completed beside it scored " },
        { SI_CASTLE_CLOISTER, "a cloister completed beside it scored " },
        { SI_CASTLE_CASTLE, "a castle beside it scored " },
        { SI_CASTLE_UNSCORED, "still held at the end: " },
    };
    (void)log;
    struct text t = text_at(out, len);
    text_put(&t, "castle");
    for (int i = 0; i < ev->n_refs && i < 2; i++) {
        text_put(&t, i ? "-(" : " (");
        text_int(&t, refs[i].x);
        text_put(&t, ",");
        text_int(&t, refs[i].y);
        text_put(&t, ")");
    }
    text_put(&t, ": ");
    for (size_t k = 0; k < sizeof whys / sizeof *whys; k++)
        if (ev->n_items && ev->items[0].kind == whys[k].item)
            text_put(&t, whys[k].why);
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The castle: a feature of no board tile (city segments turn into it),
 * never completed, on which no figure is put. */
const struct feature_class feature_class_CASTLE = {
    .name = "castle", .jcz = "Castle", .role = "castellan",
    .roles = "castellans", .explain = explain_castle,
};

static void start(struct game *g)
{
    struct bcb *st = state(g);
    memset(st, 0, sizeof *st);
    int each = g->rules.n_players < 5 ? 3 : 2;
    st->bridge_turn = -1;
    for (int p = 0; p < g->rules.n_players; p++) {
        st->castles_left[p] = (int8_t)(g->rules.counts[COUNT_CASTLES] ? each
                                                                      : 0);
        st->bridges_left[p] = (int8_t)(g->rules.counts[COUNT_BRIDGES] ? each
                                                                      : 0);
    }
}

int bcb_castles_left(const struct game *g, int player)
{
    return player >= 0 && player < g->rules.n_players
               ? cstate(g)->castles_left[player]
               : 0;
}

/* The tiles of the feature of seg, at most max, each once; how many. */
static int feature_tiles(const struct game *g, int seg, int16_t *out,
                         int max)
{
    int root = game_root(g, seg), s = root, n = 0;
    do {
        int t = g->segs[s].tile, k = 0;
        while (k < n && out[k] != t)
            k++;
        if (k == n && n < max)
            out[n++] = (int16_t)t;
        s = g->segs[s].next;
    } while (s != root && n <= max);
    return n;
}

/* Why the city of seg cannot become player's castle now (NULL: it can). */
static const char *castle_fault(const struct game *g, int player, int seg)
{
    int16_t tiles[3];
    int per[GAME_MAX_PLAYERS];
    if (g->now.tile < 0)
        return "a castle is made only in a turn, before its COMMIT";
    if (seg < 0 || g->segs[seg].kind != FEAT_CITY)
        return "there is no city there";
    if (bcb_castles_left(g, player) <= 0)
        return "that player has no castle left";
    if (feature_tiles(g, seg, tiles, 3) != 2 || g->segs[game_root(g, seg)].size != 2)
        return "the city is not of two segments";
    if (!game_feature_complete(g, seg))
        return "the city is not completed";
    if (tiles[0] != g->now.tile && tiles[1] != g->now.tile)
        return "the city is not on the turn's tile";
    uint8_t attrs[SA__COUNT];
    game_feature_attrs(g, seg, attrs);
    if (attrs[SA_BIT_NOCASTLE])
        return "a segment of the city is no castle base";
    if (game_feature_meeples(g, seg, per) != 1 || per[player] != 1)
        return "the city holds not exactly one follower, the player's";
    return NULL;
}

enum rule bcb_check_castle(const struct game *g, int player, int seg,
                           char *why, size_t why_len)
{
    const char *fault = castle_fault(g, player, seg);
    if (!fault)
        return RULE_OK;
    snprintf(why, why_len, "%s", fault);
    return RULE_CASTLE_PLACEMENT;
}

void bcb_castle(struct game *g, int player, int seg)
{
    struct bcb *st = state(g);
    if (st->n_castles == MAX_CASTLES)
        return;
    struct castle *c = &st->castle[st->n_castles++];
    int root = game_root(g, seg), s = root;
    c->seg = (int16_t)root;
    c->owner = (int8_t)player;
    c->open = true;
    feature_tiles(g, seg, c->tile, 2);
    do { /* the city's segments become the castle's */
        g->segs[s].kind = FEAT_CASTLE;
        s = g->segs[s].next;
    } while (s != root);
    st->castles_left[player]--;
}

/* ---- bridges ------------------------------------------------------- */

enum { AXIS_NS = 1 << 0 | 1 << 2, AXIS_WE = 1 << 1 | 1 << 3 };

static unsigned edge_at(unsigned edges, int side)
{
    return edges >> 4 * side & 15;
}

int bcb_bridges_left(const struct game *g, int player)
{
    return player >= 0 && player < g->rules.n_players
               ? cstate(g)->bridges_left[player]
               : 0;
}

static bool bridged(const struct game *g, int tile)
{
    const struct bcb *st = cstate(g);
    for (int i = 0; i < st->n_bridges; i++)
        if (st->bridge[i].tile == tile)
            return true;
    return false;
}

/* Is the square beside q on side empty (or the square `same`, the tile
 * being placed, which counts as empty)? */
static bool empty_beside(const struct game *g, struct pos q, int side,
                         struct pos same)
{
    struct pos n = pos_step(q, side);
    return (n.x == same.x && n.y == same.y) || game_tile_at(g, n) < 0;
}

/* May a bridge go on tile q across axis: both its ends field edges, no
 * tile beyond either (but `same`), no bridge on q yet? */
static bool bridge_allowed(const struct game *g, int q, unsigned axis,
                           struct pos same)
{
    struct pos at = game_tile_pos(g, q);
    for (int side = 0; side < 4; side++)
        if ((axis >> side & 1) &&
            (edge_at(g->tiles[q].edges, side) != FEAT_FIELD ||
             !empty_beside(g, at, side, same)))
            return false;
    return !bridged(g, q);
}

/* Do the edges (board frame) of a tile at p meet every neighbour's, the
 * one on side road_side (-1: none) seen with a road edge there? */
static bool edges_meet(const struct game *g, unsigned edges, struct pos p,
                       int road_side)
{
    for (int side = 0; side < 4; side++) {
        int nb = game_tile_at(g, pos_step(p, side));
        if (nb < 0)
            continue;
        unsigned theirs = side == road_side
                              ? FEAT_ROAD
                              : edge_at(g->tiles[nb].edges, (side + 2) & 3);
        if (edge_at(edges, side) != theirs)
            return false;
    }
    return true;
}

/* The bridge a tile with these edges at p needs to fit, as
 * JCloisterZone picks it: none when the edges meet; else one on the tile
 * itself (N-S, then W-E) whose road ends make them meet; else one on a
 * neighbour (north, east, south, west) across the side it shares. False
 * when none makes them meet. *tile: -1 for the tile at p. */
static bool pick_bridge(const struct game *g, unsigned edges, struct pos p,
                        int *tile, unsigned *axis)
{
    static const unsigned axes[2] = { AXIS_NS, AXIS_WE };
    *tile = -1;
    *axis = 0;
    if (edges_meet(g, edges, p, -1))
        return true;
    if (bcb_bridges_left(g, g->seat) <= 0)
        return false;
    for (int a = 0; a < 2; a++) {
        unsigned e = edges;
        bool fields = true;
        for (int side = 0; side < 4; side++)
            if (axes[a] >> side & 1) {
                fields &= edge_at(e, side) == FEAT_FIELD;
                e = (e & ~(15u << 4 * side)) | (unsigned)FEAT_ROAD << 4 * side;
            }
        if (fields && edges_meet(g, e, p, -1)) {
            *axis = axes[a];
            return true;
        }
    }
    for (int side = 0; side < 4; side++) {
        int q = game_tile_at(g, pos_step(p, side));
        unsigned ax = side & 1 ? AXIS_WE : AXIS_NS;
        if (q >= 0 && bridge_allowed(g, q, ax, p) &&
            edges_meet(g, edges, p, side)) {
            *tile = q;
            *axis = ax;
            return true;
        }
    }
    return false;
}

static bool excuse_edges(const struct game *g, int def, struct pos p,
                         int rot)
{
    int tile;
    unsigned axis;
    return pick_bridge(g, tile_get(def)->turn[rot & 3].edges, p, &tile,
                       &axis) &&
           axis != 0;
}

/* The bridge across axis of tile ti becomes a road: the latent segment
 * placed() gave the tile turns into a road on both sides, which join
 * what lies beyond. */
static void build_bridge(struct game *g, int ti, unsigned axis)
{
    struct bcb *st = state(g);
    struct placed *pl = &g->tiles[ti];
    int seg = -1;
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (g->segs[i].kind == FEAT_NONE && g->segs[i].mask == axis)
            seg = i;
    if (seg < 0 || st->n_bridges == MAX_CASTLES)
        return;
    st->bridge[st->n_bridges++] = (struct bridge){ (int16_t)ti,
                                                   (uint8_t)axis };
    st->bridge_turn = (int16_t)g->turn;
    if (st->bridges_left[g->seat] > 0)
        st->bridges_left[g->seat]--;
    g->segs[seg].kind = FEAT_ROAD;
    g->segs[seg].open = 2;
    for (int side = 0; side < 4; side++)
        if (axis >> side & 1) {
            pl->side_slots = (uint16_t)((pl->side_slots & ~(15u << 4 * side)) |
                                        (unsigned)(seg - pl->seg0 + 1)
                                            << 4 * side);
            pl->edges = (uint16_t)((pl->edges & ~(15u << 4 * side)) |
                                   (unsigned)FEAT_ROAD << 4 * side);
        }
    for (int side = 0; side < 4; side++)
        if (axis >> side & 1)
            game_join_side(g, ti, side);
}

/* A tile placed: it gets a latent bridge (a segment of no kind yet)
 * across each pair of opposite field edges, so that a bridge built later
 * keeps the tile's segments together; a placement whose edges do not
 * meet builds the bridge that makes them. */
static void placed(struct game *g, int ti)
{
    if (!g->rules.counts[COUNT_BRIDGES])
        return;
    struct placed *pl = &g->tiles[ti];
    static const unsigned axes[2] = { AXIS_NS, AXIS_WE };
    for (int a = 0; a < 2; a++) {
        bool fields = true;
        for (int side = 0; side < 4; side++)
            if (axes[a] >> side & 1)
                fields &= edge_at(pl->edges, side) == FEAT_FIELD;
        if (!fields || pl->n_seg >= 15 || g->n_segs >= GAME_MAX_SEGS)
            continue;
        int si = g->n_segs++;
        struct seg *s = &g->segs[si];
        memset(s, 0, sizeof *s);
        s->kind = FEAT_NONE;
        s->mask = (uint8_t)axes[a];
        s->tile = (uint16_t)ti;
        s->parent = s->next = s->min = (uint16_t)si;
        s->size = 1;
        pl->n_seg++;
    }
    struct pos p = game_tile_pos(g, ti);
    int tile;
    unsigned axis;
    if (pick_bridge(g, pl->edges, p, &tile, &axis) && axis)
        build_bridge(g, tile < 0 ? ti : tile, axis);
}

enum rule bcb_check_bridge(const struct game *g, struct pos at,
                           unsigned axis, char *why, size_t why_len)
{
    const char *fault = NULL;
    int ti = game_tile_at(g, at);
    if (ti < 0 || ti != g->now.tile)
        fault = "a bridge goes on the turn's tile";
    else if (axis != AXIS_NS && axis != AXIS_WE)
        fault = "a bridge goes north-south or west-east";
    else if (bcb_bridges_left(g, g->seat) <= 0)
        fault = "the player has no bridge left";
    else if (cstate(g)->bridge_turn == g->turn)
        fault = "a turn has one bridge at most";
    else if (!bridge_allowed(g, ti, axis, (struct pos){ INT16_MIN, 0 }))
        fault = "its ends are not both field edges with no tile beyond";
    if (!fault)
        return RULE_OK;
    snprintf(why, why_len, "%s", fault);
    return RULE_BRIDGE_PLACEMENT;
}

void bcb_bridge(struct game *g, struct pos at, unsigned axis)
{
    build_bridge(g, game_tile_at(g, at), axis);
}

/* ---- scoring ------------------------------------------------------- */

/* Is square q in the vicinity of castle c: its two tiles and the four
 * beside them across its length? */
static bool in_vicinity(const struct game *g, const struct castle *c,
                        struct pos q)
{
    struct pos a = game_tile_pos(g, c->tile[0]);
    struct pos b = game_tile_pos(g, c->tile[1]);
    bool vertical = a.x == b.x;
    for (int i = 0; i < 2; i++) {
        struct pos p = i ? b : a;
        int dx = vertical ? q.x - p.x : 0, dy = vertical ? 0 : q.y - p.y;
        if ((vertical ? q.y == p.y : q.x == p.x) && dx >= -1 && dx <= 1 &&
            dy >= -1 && dy <= 1)
            return true;
    }
    return false;
}

/* Does a tile of the feature of seg lie in castle c's vicinity? */
static bool feature_near(const struct game *g, const struct castle *c,
                         int seg)
{
    int root = game_root(g, seg), s = root;
    do {
        if (in_vicinity(g, c, game_tile_pos(g, g->segs[s].tile)))
            return true;
        s = g->segs[s].next;
    } while (s != root);
    return false;
}

/* The points a completed feature is worth (as its class and the units
 * score it, whoever stands there). */
static int feature_points(struct game *g, int root)
{
    struct score_event ev;
    memset(&ev, 0, sizeof ev);
    ev.feature = g->segs[root].kind;
    ev.completed = true;
    int refs = g->n_refs;
    game_measure(g, root, &ev);
    game_score_points(g, &ev);
    g->n_refs = refs; /* a scratch measure: its refs go */
    return ev.points;
}

/* The item that says what a castle scored from. */
static int castle_item(int kind)
{
    if (kind == FEAT_ROAD)
        return SI_CASTLE_ROAD;
    if (kind == FEAT_CITY)
        return SI_CASTLE_CITY;
    return kind == FEAT_CASTLE ? SI_CASTLE_CASTLE : SI_CASTLE_CLOISTER;
}

/* Castle c scores points (item: from what) for its owner; its knight
 * goes home. */
static void castle_scores(struct game *g, struct castle *c, int points,
                          int item, int turn)
{
    struct score_event *ev = game_new_event(g);
    ev->turn = turn;
    ev->feature = FEAT_CASTLE;
    ev->completed = turn >= 0;
    ev->seg = (uint16_t)c->seg;
    game_measure(g, c->seg, ev);
    ev->tiles = 2;
    ev->players = (uint8_t)(1u << c->owner);
    ev->points = points;
    ev->meeples[c->owner] = 1;
    ev->strength[c->owner] = 1;
    score_add_item(ev, item, -1, points);
    g->score[c->owner] += points;
    if (turn >= 0) {
        game_return_figures(g, c->seg, true);
        c->open = false;
    }
}

/* The turn's completed features (not castles), most points first. */
static int done_by_points(struct game *g, int16_t *roots, int *points)
{
    int n = 0;
    for (int j = 0; j < g->n_done; j++) {
        int r = g->done[j], p = feature_points(g, r), k = n;
        for (; k > 0 && points[k - 1] < p; k--) {
            roots[k] = roots[k - 1];
            points[k] = points[k - 1];
        }
        roots[k] = (int16_t)r;
        points[k] = p;
        n++;
    }
    return n;
}

/* After the turn's features scored: the castles near them, then the
 * castles near those, and so on. */
static void castles_score(struct game *g)
{
    struct bcb *st = state(g);
    int16_t roots[GAME_MAX_DONE];
    int points[GAME_MAX_DONE], scored[MAX_CASTLES], n_scored = 0;
    if (!st->n_castles || !g->n_done)
        return;
    int n = done_by_points(g, roots, points);
    for (int i = 0; i < st->n_castles; i++) {
        struct castle *c = &st->castle[i];
        if (!c->open || c->tile[0] == g->now.tile || c->tile[1] == g->now.tile)
            continue;
        for (int k = 0; k < n; k++)
            if (feature_near(g, c, roots[k])) {
                castle_scores(g, c, points[k],
                              castle_item(g->segs[roots[k]].kind), g->turn);
                scored[n_scored++] = points[k] << 8 | i;
                break;
            }
    }
    for (int s = 0; s < n_scored; s++) { /* the chain: castles near them */
        const struct castle *from = &st->castle[scored[s] & 255];
        for (int i = 0; i < st->n_castles; i++) {
            struct castle *c = &st->castle[i];
            if (!c->open || n_scored == MAX_CASTLES ||
                (!in_vicinity(g, c, game_tile_pos(g, from->tile[0])) &&
                 !in_vicinity(g, c, game_tile_pos(g, from->tile[1]))))
                continue;
            castle_scores(g, c, scored[s] >> 8, SI_CASTLE_CASTLE, g->turn);
            scored[n_scored++] = (scored[s] >> 8) << 8 | i;
        }
    }
}

/* At the end an occupied castle scores nothing, in an event of its own. */
static void final_scoring(struct game *g)
{
    struct bcb *st = state(g);
    for (int i = 0; i < st->n_castles; i++)
        if (st->castle[i].open)
            castle_scores(g, &st->castle[i], 0, SI_CASTLE_UNSCORED, -1);
}

/* A field touching castles: 4 each for its winners, besides its cities
 * (the castle is no city any more, so the field's own terms skip it). */
static int bonus(const struct game *g, const struct score_event *ev,
                 int root, int p, struct score_item *item)
{
    (void)ev;
    (void)p;
    if (g->segs[root].kind != FEAT_FIELD)
        return 0;
    int seen[MAX_CASTLES], n = 0, s = root;
    do {
        const struct seg *sp = &g->segs[s];
        for (unsigned m = sp->cities; m; m &= m - 1) {
            int c = game_side_seg(g, sp->tile, __builtin_ctz(m));
            if (c < 0 || g->segs[c].kind != FEAT_CASTLE)
                continue;
            int k = 0, cr = game_root(g, c);
            while (k < n && seen[k] != cr)
                k++;
            if (k == n && n < MAX_CASTLES)
                seen[n++] = cr;
        }
        s = sp->next;
    } while (s != root);
    if (!n)
        return 0;
    *item = (struct score_item){ SI_CASTLES, (int16_t)n,
                                 (int16_t)(n * CASTLE_POINTS_IN_FIELD) };
    return n * CASTLE_POINTS_IN_FIELD;
}

/* For a replay: the bridges and castles (a token on their segment),
 * and what each seat holds yet. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct bcb *st = cstate(g);
    for (int i = 0; i < st->n_bridges; i++)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_TOKEN, .name = "bridge", .seat = -1,
            .feature = FEAT_ROAD, .mask = st->bridge[i].axis,
            .at = game_tile_pos(g, st->bridge[i].tile) });
    for (int i = 0; i < st->n_castles; i++)
        for (int k = 0; k < 2; k++) {
            const struct placed *t = &g->tiles[st->castle[i].tile[k]];
            for (int sg = t->seg0; sg < t->seg0 + t->n_seg; sg++)
                if (game_root(g, sg) == st->castle[i].seg)
                    replay_put(out, (struct replay_item){
                        .kind = REPLAY_TOKEN,
                        .name = st->castle[i].open ? "castle"
                                                   : "castle-scored",
                        .seat = st->castle[i].owner, .feature = FEAT_CASTLE,
                        .mask = g->segs[sg].mask,
                        .at = game_tile_pos(g, st->castle[i].tile[k]) });
        }
    for (int p = 0; p < g->rules.n_players; p++) {
        if (g->rules.counts[COUNT_BRIDGES])
            replay_put(out, (struct replay_item){
                .kind = REPLAY_COUNTER, .name = "bridges", .seat = (int8_t)p,
                .value = st->bridges_left[p] });
        if (g->rules.counts[COUNT_CASTLES])
            replay_put(out, (struct replay_item){
                .kind = REPLAY_COUNTER, .name = "castles", .seat = (int8_t)p,
                .value = st->castles_left[p] });
    }
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct bcb *st = cstate(g);
    for (int p = 0; p < g->rules.n_players; p++)
        h = game_hash_mix(h, st->castles_left[p]);
    for (int i = 0; i < st->n_castles; i++)
        h = game_hash_mix(h, (int64_t)st->castle[i].seg << 8 |
                                 st->castle[i].open);
    for (int p = 0; p < g->rules.n_players; p++)
        h = game_hash_mix(h, st->bridges_left[p]);
    for (int i = 0; i < st->n_bridges; i++)
        h = game_hash_mix(h, (int64_t)st->bridge[i].tile << 4 |
                                 st->bridge[i].axis);
    const struct bazaar *bz = &st->bz;
    h = game_hash_mix(h, bz->open | bz->n << 1 | bz->stage << 4 |
                             (bz->sel + 1) << 8 | (bz->asking + 1) << 12);
    /* shifted unsigned: a seat that got none is -1 (the same bits) */
    for (int p = 0; p < g->rules.n_players; p++)
        h = game_hash_mix(h, (int32_t)((uint32_t)bz->got[p] << 16 |
                                       (uint16_t)bz->def[p]));
    return h;
}

/* ---- the bazaar ----------------------------------------------------- */

/* "bazaar: a tile bought at the auction, 2 paid to Alice" (the other
 * party in ev->xfer.with, seat + 1). */
static int explain_bazaar(const struct game_log *log,
                          const struct score_event *ev,
                          const struct feature_ref *refs, char *out,
                          size_t len)
{
    (void)refs;
    struct text t = text_at(out, len);
    int other = ev->xfer.with - 1, p = ev->points;
    text_put(&t, ev->expr == EXPR_SELL ? "bazaar: a tile sold at the auction, "
                                       : "bazaar: a tile bought at the "
                                         "auction, ");
    text_int(&t, p < 0 ? -p : p);
    text_put(&t, p < 0 ? " paid" : " received");
    if (other >= 0 && log && other < log->rules.n_players) {
        text_put(&t, p < 0 ? " to " : " from ");
        text_put(&t, log->names[other]);
    }
    return (int)t.n;
}

/* The bazaar's points: a score-only class. */
const struct feature_class feature_class_BAZAAR = {
    .name = "bazaar", .explain = explain_bazaar,
};

/* The next seat after `from` (round the table, `from` itself last) with
 * no tile from the auction yet; -1 when everybody has one. */
static int next_without(const struct game *g, int from)
{
    const struct bazaar *bz = &cstate(g)->bz;
    int n = g->rules.n_players;
    for (int k = 1; k <= n; k++) {
        int p = (from + k) % n;
        if (bz->got[p] == -1)
            return p;
    }
    return -1;
}

static int tiles_without(const struct game *g)
{
    int k = 0;
    for (int p = 0; p < g->rules.n_players; p++)
        k += cstate(g)->bz.got[p] == -1;
    return k;
}

/* After a sale: the next selector, or the last tile to the last player
 * for nothing, or the end of the auction. */
static void settle(struct game *g)
{
    struct bazaar *bz = &state(g)->bz;
    bz->stage = STAGE_CHOOSE;
    bz->index = -1;
    if (tiles_without(g) == 1) {
        int p = next_without(g, bz->sel), i = 0;
        while (i < bz->n && bz->owner[i] >= 0)
            i++;
        bz->owner[i] = (int8_t)p;
        bz->got[p] = (int8_t)i;
    }
    if (tiles_without(g) == 0) {
        bz->open = false;
        return;
    }
    bz->sel = (int8_t)next_without(g, bz->sel);
}

static void sell(struct game *g, int how)
{
    struct bazaar *bz = &state(g)->bz;
    int winner = how == SALE_SELL ? bz->high : bz->sel;
    bz->sale[bz->n_sales++] = (struct sale){ bz->index, bz->sel, bz->high,
                                             (int8_t)how, bz->price };
    bz->owner[bz->index] = (int8_t)winner;
    bz->got[winner] = bz->index;
    settle(g);
}

/* The bidding goes on to the next player without a tile; back at the
 * selector it is over. */
static void next_bidder(struct game *g)
{
    struct bazaar *bz = &state(g)->bz;
    int p = next_without(g, bz->asking);
    if (p >= 0 && p != bz->sel) {
        bz->asking = (int8_t)p;
        return;
    }
    if (bz->high == bz->sel)
        sell(g, SALE_OWN);
    else
        bz->stage = STAGE_DECIDE;
}

/* A bazaar tile from the pack, with a tile left for every player: the
 * auction follows the turn. */
static void open_auction(struct game *g)
{
    struct bazaar *bz = &state(g)->bz;
    int n = g->rules.n_players, t = g->now.tile;
    bool given = bz->given;
    bz->given = false;
    if (!(g->rules.flags & RF_BAZAAR) || given || t < 0 || n < 2 ||
        bz->n || !(tile_get(g->tiles[t].def)->marks & TILE_MARK(BAZAAR)) ||
        g->draw_left < n)
        return;
    memset(bz, 0, sizeof *bz);
    bz->open = true;
    bz->n = (uint8_t)n;
    bz->index = -1;
    for (int p = 0; p < n; p++)
        bz->owner[p] = bz->got[p] = -1;
    bz->sel = (int8_t)((g->seat + 1) % n);
}

int bcb_bazaar_asked(const struct game *g)
{
    const struct bazaar *bz = &cstate(g)->bz;
    if (!bz->open)
        return -1;
    return bz->stage == STAGE_BID ? bz->asking : bz->sel;
}

/* After the turn's scoring: the castles near what it completed, then
 * the auction of a bazaar tile. */
static void turn_done(struct game *g)
{
    castles_score(g);
    open_auction(g);
}

/* The points of the sales (each seat its own event), once the supply's
 * tiles are known. */
static void pay(struct game *g, int seat, int points, int how, int other)
{
    struct score_event *ev = game_new_event(g);
    ev->feature = FEAT_BAZAAR;
    ev->expr = (uint8_t)(how == SALE_SELL ? EXPR_SELL : EXPR_BUY);
    ev->completed = true;
    ev->players = (uint8_t)(1u << seat);
    ev->points = points;
    ev->xfer.with = (uint8_t)(other + 1);
    score_add_item(ev, SI_BAZAAR, -1, points);
    g->score[seat] += points;
}

static void pay_sales(struct game *g)
{
    struct bazaar *bz = &state(g)->bz;
    for (int i = 0; i < bz->n_sales; i++) {
        const struct sale *s = &bz->sale[i];
        if (!s->price)
            continue;
        int sign = s->how == SALE_SELL ? 1 : -1;
        pay(g, s->selector, sign * s->price, s->how,
            s->how == SALE_OWN ? -1 : s->high);
        if (s->how != SALE_OWN)
            pay(g, s->high, -sign * s->price, s->how, s->selector);
    }
}

/* The supply: JCloisterZone draws it with the bazaar turn's random
 * number r, then its generator's next numbers, as the draw does. */
void bcb_bazaar_supply(struct game *g, double r)
{
    struct bazaar *bz = &state(g)->bz;
    if (bz->drawn || !bz->n)
        return;
    bz->r = r;
    for (int i = 0; i < bz->n; i++) {
        bz->def[i] = (int16_t)(r >= 0 ? game_pack_draw(g, r) : -1);
        if (bz->def[i] >= 0)
            game_discard(g, bz->def[i]);
        r = r >= 0 ? game_redraw_random(r) : r;
    }
    bz->drawn = true;
}

double bcb_bazaar_draw(const struct game *g)
{
    const struct bazaar *bz = &cstate(g)->bz;
    for (int p = 0; p < g->rules.n_players; p++)
        if (bz->got[p] == -2)
            return -1.0;
    return bz->n && bz->drawn ? bz->r : -1.0;
}

int bcb_bazaar_tile(const struct game *g, int i)
{
    const struct bazaar *bz = &cstate(g)->bz;
    return i >= 0 && i < bz->n && bz->drawn ? bz->def[i] : -1;
}

void bcb_bazaar_view(const struct game *g, struct bcb_auction *out)
{
    const struct bazaar *bz = &cstate(g)->bz;
    memset(out, 0, sizeof *out);
    out->open = bz->open;
    out->n = bz->n;
    out->choosing = bz->open && bz->stage == STAGE_CHOOSE;
    out->deciding = bz->open && bz->stage == STAGE_DECIDE;
    out->price = bz->price;
    out->index = bz->index;
    for (int i = 0; i < bz->n; i++)
        out->sold[i] = bz->owner[i] >= 0;
}

enum rule bcb_bid(struct game *g, int index, int amount, char *why,
                  size_t why_len)
{
    struct bazaar *bz = &state(g)->bz;
    const char *fault = NULL;
    if (!bz->open || bz->stage == STAGE_DECIDE)
        fault = "no bid is due at the auction";
    else if (bz->stage == STAGE_CHOOSE &&
             (index < 0 || index >= bz->n || bz->owner[index] >= 0))
        fault = "no such tile left at the auction";
    else if (bz->stage == STAGE_BID && amount <= bz->price)
        fault = "a bid must be higher than the last";
    if (fault) {
        snprintf(why, why_len, "%s", fault);
        if (bz->open && bz->stage == STAGE_BID)
            next_bidder(g); /* the bidder's say is over all the same */
        return RULE_BAZAAR;
    }
    if (bz->stage == STAGE_CHOOSE) {
        bz->index = (int8_t)index;
        bz->high = bz->asking = bz->sel;
        bz->stage = STAGE_BID;
    } else {
        bz->high = bz->asking;
    }
    bz->price = (int16_t)amount;
    next_bidder(g);
    return RULE_OK;
}

enum rule bcb_bazaar_pass(struct game *g, char *why, size_t why_len)
{
    struct bazaar *bz = &state(g)->bz;
    if (!bz->open || bz->stage != STAGE_BID) {
        snprintf(why, why_len, "the auction's selector may not pass");
        return RULE_BAZAAR;
    }
    next_bidder(g);
    return RULE_OK;
}

enum rule bcb_bazaar_decide(struct game *g, bool buy, char *why,
                            size_t why_len)
{
    struct bazaar *bz = &state(g)->bz;
    if (!bz->open || bz->stage != STAGE_DECIDE) {
        snprintf(why, why_len, "no purchase or sale is due at the auction");
        return RULE_BAZAAR;
    }
    sell(g, buy ? SALE_BUY : SALE_SELL);
    return RULE_OK;
}

int bcb_bought(const struct game *g, int seat)
{
    const struct bazaar *bz = &cstate(g)->bz;
    if (!bz->n || !bz->drawn || bz->open || seat < 0 ||
        seat >= g->rules.n_players || bz->got[seat] < 0)
        return -1;
    return bz->def[bz->got[seat]];
}

/* The seat's bought tile is placed (take: back in the pack for it) or
 * lost. */
static void done_bought(struct game *g, int seat, bool take)
{
    struct bazaar *bz = &state(g)->bz;
    int def = bcb_bought(g, seat);
    if (def < 0)
        return;
    if (take)
        game_undiscard(g, def);
    bz->given = take;
    bz->got[seat] = -2;
    bool left = false;
    for (int p = 0; p < g->rules.n_players; p++)
        left |= bz->got[p] >= 0;
    if (!left)
        bz->n = 0;
}

void bcb_take_bought(struct game *g, int seat)
{
    done_bought(g, seat, true);
}

void bcb_lose_bought(struct game *g, int seat)
{
    done_bought(g, seat, false);
}

/* The points of the sales, once (each seat its own event). */
void bcb_bazaar_pay(struct game *g)
{
    struct bazaar *bz = &state(g)->bz;
    if (bz->paid || bz->open)
        return;
    bz->paid = true;
    pay_sales(g);
}

/* ---- the auditor's side ------------------------------------------- */

static void bazaar_fault(struct audit *a, const struct move *m,
                         const char *why)
{
    audit_violate(a, m, RULE_BAZAAR, "%s", why);
}

static bool bazaar_claims(const struct audit *a, const struct move *m)
{
    (void)m;
    return cstate(a->g)->bz.open;
}

static bool bazaar_answer(struct audit *a, const struct move *m)
{
    struct game *g = a->g;
    char why[120];
    int who = bcb_bazaar_asked(g);
    enum rule rule = RULE_OK;
    if (m->player >= 0 && m->player != who) {
        bazaar_fault(a, m, "it is another player's say at the auction");
        return false;
    }
    if (m->kind == MV_BID)
        rule = bcb_bid(g, m->index, m->amount, why, sizeof why);
    else
        rule = bcb_bazaar_decide(g, m->kind == MV_BUY, why, sizeof why);
    if (rule != RULE_OK)
        bazaar_fault(a, m, why);
    return false;
}

static bool bazaar_pass(struct audit *a, const struct move *m)
{
    char why[120];
    if (bcb_bazaar_pass(a->g, why, sizeof why) != RULE_OK)
        bazaar_fault(a, m, why);
    return false;
}

static int bazaar_asked(const struct game *g)
{
    return bcb_bazaar_asked(g);
}

/* The say of the seat asked at the auction, with the least amount a bid
 * may name (a page lets the player raise it): the selector's opening bid
 * on each tile left, a higher bid than the last, or buy and sell. */
static int bazaar_options(const struct audit *a, struct move *out, int max)
{
    const struct bazaar *bz = &cstate(a->g)->bz;
    int n = 0, who = bcb_bazaar_asked(a->g);
    if (!bz->open || who < 0)
        return 0;
    if (bz->stage == STAGE_DECIDE) {
        static const uint8_t kinds[] = { MV_BUY, MV_SELL };
        for (size_t k = 0; k < sizeof kinds && n < max; k++) {
            out[n] = audit_option(kinds[k]);
            out[n++].player = (int8_t)who;
        }
        return n;
    }
    for (int i = 0; i < bz->n && n < max; i++) {
        if (bz->stage == STAGE_CHOOSE ? bz->owner[i] >= 0 : i != bz->index)
            continue;
        out[n] = audit_option(MV_BID);
        out[n].player = (int8_t)who;
        out[n].index = (int16_t)i;
        out[n++].amount = (int16_t)(bz->stage == STAGE_BID ? bz->price + 1
                                                           : 0);
    }
    return n;
}

static const struct round_class rounds[] = {
    { .what = "the bazaar's auction", .role = STEP_BAZAAR,
      .pass_role = STEP_BAZAAR, .from = ROUND_FROM_NEXT,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_NONE,
      .answers = 1ull << MV_BID | 1ull << MV_BUY | 1ull << MV_SELL,
      .asked = bazaar_asked, .claims = bazaar_claims,
      .answer = bazaar_answer, .pass = bazaar_pass,
      .options = bazaar_options },
    { 0 },
};

/* A tile: the auction before it is over; the supply is drawn with its
 * number (a .jcz gives the bazaar turn's COMMIT random to the next
 * tile's message) and the sales paid; a player who bought a tile places
 * it, undrawn. */
static void before_place(struct audit *a, const struct move *m)
{
    struct game *g = a->g;
    struct bazaar *bz = &state(g)->bz;
    bz->given = false;
    if (!bz->n)
        return;
    if (bz->open) {
        bazaar_fault(a, m, "a tile while the auction is still on");
        bz->open = false;
    }
    bcb_bazaar_supply(g, m->draw);
    bcb_bazaar_pay(g);
    int def = bcb_bought(g, g->seat);
    if (def < 0)
        return;
    if (m->tile >= 0 && m->tile == def) {
        bcb_take_bought(g, g->seat);
        return;
    }
    /* a bought tile that fits nowhere is lost, and the seat draws */
    if (game_fits_anywhere(g, def)) {
        char why[200], tw[80];
        tile_words(def, tw, sizeof tw);
        snprintf(why, sizeof why, "%s bought %s at the bazaar and places "
                 "another tile", audit_who(a, g->seat), tw);
        bazaar_fault(a, m, why);
    }
    bcb_lose_bought(g, g->seat);
}

static bool tile_given(struct audit *a, const struct move *m)
{
    (void)m;
    return cstate(a->g)->bz.given;
}

static const struct audit_unit audit = {
    .rounds = rounds,
    .before_place = before_place,
    .tile_given = tile_given,
};

static void check_bazaar_move(struct audit *a, const struct move *m)
{
    bazaar_fault(a, m, "no auction is on");
}

/* ---- the auditor's side: castles and bridges ----------------------- */

/* The seat of the one follower in the city of seg, or -1. */
static int castle_owner(const struct game *g, int seg)
{
    int per[GAME_MAX_PLAYERS];
    if (seg < 0 || game_feature_meeples(g, seg, per) != 1)
        return -1;
    for (int p = 0; p < g->rules.n_players; p++)
        if (per[p])
            return p;
    return -1;
}

/* A castle is its knight's owner's, whoever's turn it is (a save names
 * the player on turn). */
static void check_castle(struct audit *a, const struct move *m)
{
    char why[160];
    int seg = audit_move_seg(a->g, m), owner = castle_owner(a->g, seg);
    int player = owner >= 0 ? owner : m->player >= 0 ? m->player : a->player;
    enum rule rule = bcb_check_castle(a->g, player, seg, why, sizeof why);
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "%s's castle: %s", audit_who(a, player),
                      why);
        return;
    }
    bcb_castle(a->g, player, seg);
}

static void check_bridge(struct audit *a, const struct move *m)
{
    char why[160];
    if (a->phase != PH_ACTION) {
        audit_violate(a, m, RULE_BRIDGE_PLACEMENT, "a bridge comes after "
                      "the turn's tile, before its action");
        return;
    }
    enum rule rule = bcb_check_bridge(a->g, m->at, m->mask, why, sizeof why);
    if (rule != RULE_OK) {
        audit_violate(a, m, rule, "%s", why);
        return;
    }
    bcb_bridge(a->g, m->at, m->mask);
}

/* A bridge across either axis of the turn's tile, before the action. */
static int bridge_options(const struct audit *a, struct move *out, int max)
{
    static const unsigned axes[2] = { AXIS_NS, AXIS_WE };
    const struct game *g = a->g;
    int n = 0;
    if (a->phase != PH_ACTION || g->now.tile < 0 ||
        bcb_bridges_left(g, a->player) <= 0)
        return 0;
    struct pos at = game_tile_pos(g, g->now.tile);
    for (int k = 0; k < 2 && n < max; k++) {
        if (bcb_check_bridge(g, at, axes[k], NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_BRIDGE);
        out[n].at = at;
        out[n].feature = FEAT_ROAD;
        out[n++].mask = (uint8_t)axes[k];
    }
    return n;
}

/* The castles the turn's tile allows, each its knight's owner's. */
static int castle_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    int n = 0;
    if (g->now.tile < 0 || !g->rules.counts[COUNT_CASTLES])
        return 0;
    const struct placed *t = &g->tiles[g->now.tile];
    for (int i = t->seg0; i < t->seg0 + t->n_seg && n < max; i++) {
        int owner = castle_owner(g, i);
        if (g->segs[i].kind != FEAT_CITY || owner < 0 ||
            bcb_check_castle(g, owner, i, NULL, 0) != RULE_OK)
            continue;
        out[n] = audit_option(MV_CASTLE);
        audit_option_on(&out[n++], g, i);
    }
    return n;
}

static const struct move_class moves[] = {
    {
        .kind = MV_BRIDGE,
        .slot = SLOT_ANY,
        .at = AT_FEATURE,
        .what = "a bridge",
        .check = check_bridge,
        .name = "bridge",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"BRIDGE\",\"pointer\":\"$pointer\"}",
        .fl_fields = "at segment",
        .options = bridge_options,
    },
    {
        .kind = MV_CASTLE,
        .slot = SLOT_AFTER,
        .at = AT_FEATURE,
        .what = "a castle",
        .check = check_castle,
        .name = "castle",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"CASTLE\",\"pointer\":\"$pointer\"}",
        .fl_fields = "at segment",
        .options = castle_options,
    },
    {
        .kind = MV_BID,
        .slot = SLOT_ANY,
        .what = "a bid",
        .check = check_bazaar_move,
        .name = "bid",
        .jcz = "BAZAAR_BID",
        .jcz_payload = "{\"supplyIndex\":\"$index\",\"price\":\"$amount\"}",
        .fl_fields = "index amount",
    },
    {
        .kind = MV_BUY,
        .slot = SLOT_ANY,
        .what = "a purchase at the bazaar",
        .check = check_bazaar_move,
        .name = "buy",
        .jcz = "BAZAAR_BUY_OR_SELL",
        .jcz_payload = "{\"value\":\"BUY\"}",
        .fl_fields = "",
    },
    {
        .kind = MV_SELL,
        .slot = SLOT_ANY,
        .what = "a sale at the bazaar",
        .check = check_bazaar_move,
        .name = "sell",
        .jcz = "BAZAAR_BUY_OR_SELL",
        .jcz_payload = "{\"value\":\"SELL\"}",
        .fl_fields = "",
    },
    { 0 },
};

static const struct element elements[] = {
    { "castle", EL_COUNT, COUNT_CASTLES, 1, true },
    { "bridge", EL_COUNT, COUNT_BRIDGES, 1, true },
    { "bazaar", EL_FLAG, RFB_BAZAAR, 1, false },
    { NULL, 0, 0, 0, false },
};

/* The tile the seat got at the bazaar, placed as its turn's tile. */
static int held_tiles(const struct game *g, int seat, int16_t *kinds,
                      int16_t *held, int max)
{
    int def = bcb_bought(g, seat);
    if (def < 0 || max < 1)
        return 0;
    kinds[0] = (int16_t)def;
    held[0] = 1;
    return 1;
}

const struct expansion expansion_bcb = {
    .id = "bcb",
    .name = "Bridges, Castles & Bazaars",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .excuse_edges = excuse_edges,
    .held_tiles = held_tiles,
    .start = start,
    .placed = placed,
    .turn_done = turn_done,
    .final_scoring = final_scoring,
    .bonus = bonus,
    .hash = hash,
    .replay = replay,
};
