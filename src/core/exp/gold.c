/* gold.c - Gold Mines (the set "goldmines" and the element "gold") as a
 * unit, as JCloisterZone plays it.
 *
 * Each of its eight tiles has a gold mine (the tile mark "goldmine").
 * When one is placed a gold bar goes on it, and a second on a tile of
 * the eight squares around it: the player on turn chooses, right after
 * the tile (PLACE_TOKEN GOLD with the square), when there are two or
 * more; with one the bar goes there by itself (a log may still say so,
 * as a table's might), with none nowhere.
 *
 * When the turn's completed features score, the players who win each
 * one (the greatest strength; ties all) claim the gold bars on its tiles
 * (a cloister's: its 3x3 block; a castle of Bridges, Castles & Bazaars
 * that scores claims its vicinity for its owner). The claimed bars are
 * handed out one at a time, from the player on turn round the table,
 * each to a player who claims a square that still has one, until none
 * is left; a player who claims none that has any left gets none that
 * round. As JCloisterZone does for the players, a player takes from the
 * square the most players claim (among squares as many claim, in the
 * order of JCloisterZone's table of squares, gold_order()). Fields never
 * complete: their farmers take no gold, nor does an abbot's recall or
 * the final scoring.
 *
 * At the end each player scores the bars it holds: 1 a bar for 1 to 3,
 * 2 a bar for 4 to 6, 3 for 7 to 9, 4 for 10 or more (the score class
 * "gold", term "gold").
 *
 * Nothing of it flies: figures fly over the tiles and land as anywhere;
 * the bars are no features. Tiles: gold.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/gold.h"
#include "core/game_int.h"
#include "core/move.h"
#include "core/replay.h"
#include "core/text.h"

/* two bars a gold mine, 8 of them a copy of the set: squares with bars,
 * a square whose bars were all taken reused */
enum { MAX_SQUARES = 32 };

struct gold_square {
    int16_t x, y;
    uint8_t bars;
};

struct gold_state {
    uint8_t held[GAME_MAX_PLAYERS];
    uint8_t n;                          /* slots of sq in use */
    bool pending;                       /* a second bar is to be placed */
    bool claiming;                      /* in the turn's scoring */
    bool lone;                          /* the second bar went by itself
                                           this turn, to lone_x, lone_y */
    int16_t mine_x, mine_y;             /* the gold mine waiting for it */
    int16_t lone_x, lone_y;
    struct gold_square sq[MAX_SQUARES];
    uint8_t claims[MAX_SQUARES];        /* seats claiming each square now */
    uint8_t claim_order[MAX_SQUARES];   /* squares in order first claimed */
    uint8_t n_claims;
};
UNIT_STATE_FITS(struct gold_state);

static struct gold_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_GOLD, struct gold_state);
}

static const struct gold_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_GOLD, const struct gold_state);
}

static bool gold_on(const struct game *g)
{
    return (g->rules.flags & RF_GOLD) != 0;
}

/* The index of the square at (x, y), -1 when it never had a bar. */
static int square_at(const struct gold_state *s, int x, int y)
{
    for (int i = 0; i < s->n; i++)
        if (s->sq[i].x == x && s->sq[i].y == y)
            return i;
    return -1;
}

static void add_bar(struct gold_state *s, int x, int y)
{
    int i = square_at(s, x, y);
    for (int k = 0; i < 0 && k < s->n; k++)
        if (!s->sq[k].bars) /* all taken: the slot is free */
            i = k;
    if (i < 0) {
        if (s->n >= MAX_SQUARES)
            return;
        i = s->n++;
    }
    if (s->sq[i].x != x || s->sq[i].y != y || !s->sq[i].bars)
        s->sq[i] = (struct gold_square){ (int16_t)x, (int16_t)y, 0 };
    if (s->sq[i].bars < UINT8_MAX)
        s->sq[i].bars++;
}

int gold_bars_at(const struct game *g, struct pos at)
{
    if (!game_in_play(g, EXP_GOLD))
        return 0;
    int i = square_at(cst(g), at.x, at.y);
    return i < 0 ? 0 : cst(g)->sq[i].bars;
}

int gold_held(const struct game *g, int seat)
{
    if (!game_in_play(g, EXP_GOLD) || seat < 0 ||
        seat >= g->rules.n_players)
        return 0;
    return cst(g)->held[seat];
}

bool gold_pending(const struct game *g, struct pos *mine)
{
    if (!game_in_play(g, EXP_GOLD) || !cst(g)->pending)
        return false;
    if (mine)
        *mine = (struct pos){ cst(g)->mine_x, cst(g)->mine_y };
    return true;
}

/* The squares around (x, y) with a tile, into out (may be NULL); how
 * many. */
static int around(const struct game *g, int x, int y, struct pos *out)
{
    int n = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            struct pos p = { x + dx, y + dy };
            if ((dx || dy) && game_tile_at(g, p) >= 0) {
                if (out)
                    out[n] = p;
                n++;
            }
        }
    return n;
}

int gold_second_squares(const struct game *g, struct pos out[8])
{
    struct pos mine;
    if (!gold_pending(g, &mine))
        return 0;
    return around(g, mine.x, mine.y, out);
}

static void start(struct game *g)
{
    memset(st(g), 0, sizeof(struct gold_state));
}

/* A gold mine placed: its bar, and the second where it can only go. */
static void placed(struct game *g, int tile)
{
    struct gold_state *s = st(g);
    s->pending = s->lone = false;
    if (!gold_on(g) ||
        !(tile_get(g->tiles[tile].def)->marks & TILE_MARK(GOLDMINE)))
        return;
    struct pos p = game_tile_pos(g, tile), only[8];
    add_bar(s, p.x, p.y);
    int n = around(g, p.x, p.y, only);
    if (n == 1) {
        add_bar(s, only[0].x, only[0].y);
        s->lone = true;
        s->lone_x = (int16_t)only[0].x;
        s->lone_y = (int16_t)only[0].y;
    } else if (n > 1) {
        s->pending = true;
        s->mine_x = (int16_t)p.x;
        s->mine_y = (int16_t)p.y;
    }
}

enum rule game_check_gold(const struct game *g, struct pos at, char *why,
                          size_t why_len)
{
    struct pos mine;
    if (g->now.tile < 0) {
        snprintf(why, why_len, "no tile was placed this turn");
        return RULE_TURN_SEQUENCE;
    }
    const struct gold_state *s = cst(g);
    if (!gold_pending(g, &mine) && s->lone && at.x == s->lone_x &&
        at.y == s->lone_y)
        return RULE_OK; /* a log that says where the lone bar went */
    if (!gold_pending(g, &mine)) {
        snprintf(why, why_len, "no gold mine waits for its second bar "
                 "(the turn's tile has none, or its bars are placed)");
        return RULE_GOLD;
    }
    int dx = at.x - mine.x, dy = at.y - mine.y;
    if ((!dx && !dy) || dx < -1 || dx > 1 || dy < -1 || dy > 1 ||
        game_tile_at(g, at) < 0) {
        snprintf(why, why_len, "the second bar goes on a tile beside the "
                 "gold mine at (%d,%d), diagonally too", mine.x, mine.y);
        return RULE_GOLD;
    }
    return RULE_OK;
}

void game_gold(struct game *g, struct pos at)
{
    struct gold_state *s = st(g);
    if (s->pending)
        add_bar(s, at.x, at.y);
    s->pending = s->lone = false;
}

/* ---- the claims of the turn's scoring -------------------------------- */

static void turn_scoring(struct game *g)
{
    struct gold_state *s = st(g);
    s->claiming = gold_on(g);
    s->n_claims = 0;
    memset(s->claims, 0, sizeof s->claims);
}

static void claim(struct gold_state *s, int x, int y, unsigned seats)
{
    int i = square_at(s, x, y);
    if (i < 0 || !s->sq[i].bars)
        return;
    if (!s->claims[i])
        s->claim_order[s->n_claims++] = (uint8_t)i;
    s->claims[i] = (uint8_t)(s->claims[i] | seats);
}

/* A completed feature scored in the turn: its winners (those its events
 * of this turn paid; a majority of no strength wins nothing) claim the
 * bars on its tiles, a cloister's on its block. */
static void scored(struct game *g, int root, int turn, const int *roots)
{
    (void)roots;
    struct gold_state *s = st(g);
    if (!s->claiming || turn < 0 || !s->n)
        return;
    const struct seg *r = &g->segs[root];
    unsigned winners = 0;
    for (int e = g->n_events - 1; e >= 0 && g->events[e].turn == turn;
         e--) {
        const struct score_event *ev = &g->events[e];
        if (ev->seg == r->min && ev->feature == r->kind &&
            ev->expr != EXPR_EMPTY)
            winners |= ev->players;
    }
    if (!winners)
        return;
    if (feature_class(r->kind)->done == DONE_BLOCK) {
        struct pos c = game_tile_pos(g, r->tile);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                claim(s, c.x + dx, c.y + dy, winners);
        return;
    }
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    int seg = root;
    do {
        unsigned t = g->segs[seg].tile;
        if (!(seen[t >> 6] >> (t & 63) & 1)) {
            seen[t >> 6] |= 1ull << (t & 63);
            struct pos p = game_tile_pos(g, (int)t);
            claim(s, p.x, p.y, winners);
        }
        seg = g->segs[seg].next;
    } while (seg != root);
}

/* A castle (Bridges, Castles & Bazaars) that scored in the turn, after
 * the features (its event of the turn): its owner claims the bars on its
 * vicinity, its two tiles and the four beside them across its length. */
static void claim_castles(struct game *g, struct gold_state *s)
{
    for (int e = g->n_events - 1; e >= 0 && g->events[e].turn == g->turn;
         e--) {
        const struct score_event *ev = &g->events[e];
        if (ev->feature != FEAT_CASTLE || !ev->completed || !ev->players ||
            ev->seg >= g->n_segs)
            continue;
        int root = game_root(g, ev->seg), seg = root, n = 0;
        struct pos t[2];
        do {
            struct pos p = game_tile_pos(g, g->segs[seg].tile);
            if (n < 2 && (n == 0 || p.x != t[0].x || p.y != t[0].y))
                t[n++] = p;
            seg = g->segs[seg].next;
        } while (seg != root);
        bool vertical = n == 2 && t[0].x == t[1].x;
        for (int i = 0; i < n; i++)
            for (int d = -1; d <= 1; d++)
                claim(s, t[i].x + (vertical ? d : 0),
                      t[i].y + (vertical ? 0 : d), ev->players);
    }
}

/* The bucket of square (x, y) in JCloisterZone's table of squares (a
 * hash table of cap buckets, keyed by x * 65536 ^ y, its bits folded). */
static unsigned bucket(int x, int y, unsigned cap)
{
    uint32_t h = (uint32_t)x << 16 ^ (uint32_t)y;
    return (h ^ h >> 16) & (cap - 1);
}

/* The claimed squares in the order the players take from them: the
 * squares more players claim first; among as many, in the table's order
 * (by bucket, then as claimed). */
static int gold_order(const struct gold_state *s, uint8_t *order)
{
    int n = s->n_claims;
    unsigned cap = 16;
    while ((unsigned)n * 4 > cap * 3)
        cap *= 2;
    for (int i = 0; i < n; i++)
        order[i] = s->claim_order[i];
    for (int i = 1; i < n; i++) { /* insertion sort: stable, a handful */
        uint8_t q = order[i];
        int k = i;
        for (; k > 0; k--) {
            uint8_t o = order[k - 1];
            int cq = __builtin_popcount(s->claims[q]),
                co = __builtin_popcount(s->claims[o]);
            unsigned bq = bucket(s->sq[q].x, s->sq[q].y, cap),
                     bo = bucket(s->sq[o].x, s->sq[o].y, cap);
            if (co > cq || (co == cq && bo <= bq))
                break;
            order[k] = o;
        }
        order[k] = q;
    }
    return n;
}

/* After the turn's features scored: the claimed bars handed out. */
static void turn_done(struct game *g)
{
    struct gold_state *s = st(g);
    if (!s->claiming)
        return;
    s->claiming = false;
    if (s->n)
        claim_castles(g, s);
    uint8_t order[MAX_SQUARES];
    int n = gold_order(s, order), left = 0, players = g->rules.n_players;
    for (int i = 0; i < n; i++)
        left += s->sq[order[i]].bars;
    int p = g->seat, idle = 0;
    while (left > 0 && idle < players) {
        bool took = false;
        for (int i = 0; i < n && !took; i++) {
            struct gold_square *q = &s->sq[order[i]];
            if (q->bars && (s->claims[order[i]] >> p & 1)) {
                q->bars--;
                if (s->held[p] < UINT8_MAX)
                    s->held[p]++;
                left--;
                took = true;
            }
        }
        idle = took ? 0 : idle + 1;
        p = p + 1 >= players ? 0 : p + 1;
    }
    s->n_claims = 0;
}

/* 1 a bar for 1 to 3, 2 for 4 to 6, 3 for 7 to 9, 4 for 10 and more. */
int gold_points(int bars)
{
    return bars * (bars < 4 ? 1 : bars < 7 ? 2 : bars < 10 ? 3 : 4);
}

static void final_scoring(struct game *g)
{
    const struct gold_state *s = cst(g);
    for (int p = 0; p < g->rules.n_players; p++) {
        int n = s->held[p];
        if (!n)
            continue;
        struct score_event *ev = game_new_event(g);
        int points = gold_points(n);
        ev->turn = -1;
        ev->feature = FEAT_GOLD;
        ev->expr = EXPR_DONE;
        ev->players = (uint8_t)(1u << p);
        ev->points = points;
        ev->strength[p] = (uint8_t)n;
        score_add_item(ev, SI_GOLD, n, points);
        g->score[p] += points;
    }
}

/* "gold: 5 bars at the end, 2 a bar: 10". */
static int explain_gold(const struct game_log *log,
                        const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len)
{
    (void)log;
    (void)refs;
    struct text t = text_at(out, len);
    const struct score_item *it = ev->n_items ? &ev->items[0] : NULL;
    text_put(&t, "gold");
    if (it && it->count > 0) {
        text_put(&t, ": ");
        text_int(&t, it->count);
        text_put(&t, it->count == 1 ? " bar" : " bars");
        text_put(&t, " at the end, ");
        text_int(&t, it->points / it->count);
        text_put(&t, " a bar");
    }
    text_put(&t, ": ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The gold bars players hold are no board feature; their points at the
 * end are events of this class. */
const struct feature_class feature_class_GOLD = {
    .name = "gold", .explain = explain_gold,
};

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct gold_state *s = cst(g);
    for (int p = 0; p < g->rules.n_players; p++)
        h = game_hash_mix(h, s->held[p]);
    for (int i = 0; i < s->n; i++)
        h = game_hash_mix(h, (int64_t)((uint64_t)(uint16_t)s->sq[i].x << 24 ^
                                       (uint64_t)(uint16_t)s->sq[i].y << 8 ^
                                       s->sq[i].bars));
    return game_hash_mix(h, s->pending);
}

/* For a replay: the bars on each square (a mark: how many), and the
 * bars each seat holds. */
static void replay(const struct game *g, struct replay_out *out)
{
    const struct gold_state *s = cst(g);
    for (int i = 0; i < s->n; i++)
        if (s->sq[i].bars)
            replay_put(out, (struct replay_item){
                .kind = REPLAY_MARK, .name = "gold-bars", .seat = -1,
                .at = { s->sq[i].x, s->sq[i].y }, .value = s->sq[i].bars });
    for (int p = 0; p < g->rules.n_players; p++)
        replay_put(out, (struct replay_item){
            .kind = REPLAY_COUNTER, .name = "gold", .seat = (int8_t)p,
            .value = s->held[p] });
}

static const struct element elements[] = {
    { "gold", EL_FLAG, RFB_GOLD, 1, false },
    { NULL, 0, 0, 0, false },
};

/* ---- the auditor's side: the second bar, in the turn ----------------- */

static void check_gold(struct audit *a, const struct move *m)
{
    char why[200];
    struct game *g = a->g;
    if (a->phase == PH_IDLE || a->phase == PH_ROUND) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "a gold bar between "
                      "turns");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    enum rule r = game_check_gold(g, m->at, why, sizeof why);
    if (r != RULE_OK) {
        audit_violate(a, m, r, "a gold bar on (%d,%d): %s", m->at.x,
                      m->at.y, why);
        return;
    }
    game_gold(g, m->at);
}

/* The turn ends: a gold mine still waiting for its second bar had one
 * to get. */
static void turn_end(struct audit *a, const struct move *m, bool void_turn)
{
    struct pos mine;
    if (void_turn || !gold_pending(a->g, &mine))
        return;
    audit_violate(a, m, RULE_GOLD, "no second gold bar was placed beside "
                  "the gold mine at (%d,%d), though tiles lie around it",
                  mine.x, mine.y);
    st(a->g)->pending = false;
}

static int gold_options(const struct audit *a, struct move *out, int max)
{
    struct pos sq[8];
    int n = 0, k = gold_second_squares(a->g, sq);
    if (a->phase != PH_ACTION && a->phase != PH_DONE)
        return 0;
    for (int i = 0; i < k && n < max; i++) {
        out[n] = audit_option(MV_GOLD);
        out[n++].at = sq[i];
    }
    return n;
}

static const struct audit_unit audit = {
    .turn_end = turn_end,
};

static const struct move_class moves[] = {
    {
        .kind = MV_GOLD,
        .slot = SLOT_ANY,
        .at = AT_TILE,
        .what = "a gold bar",
        .check = check_gold,
        .name = "gold",
        .jcz = "PLACE_TOKEN",
        .jcz_payload = "{\"token\":\"GOLD\",\"pointer\":\"$position\"}",
        .fl_fields = "at",
        .options = gold_options,
    },
    { .name = NULL },
};

const struct expansion expansion_gold = {
    .id = "gold",
    .name = "Gold Mines",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .turn_scoring = turn_scoring,
    .scored = scored,
    .turn_done = turn_done,
    .final_scoring = final_scoring,
    .hash = hash,
    .replay = replay,
};
