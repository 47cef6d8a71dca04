/* kr.c - King & Robber as a unit, as JCloisterZone plays it: two cards,
 * each switched on by its own element (king, robber).
 *  - The king goes to the player on turn when the turn completes a city
 *    of more tiles than any city completed before it (occupied or not;
 *    the first city completed takes it); the robber baron likewise for
 *    roads. A card changes hands only so; nobody plays a move for it.
 *  - The rule variant king-and-robber-scoring says what a card is worth:
 *    "default": at the end, 1 a completed city (the king; one more with
 *    the City of Carcassonne in play, which is one) or road (the robber);
 *    "10/20": 10 a card at the end; "15/40": 15 for one card, 40 for
 *    both (one event, "king+robber"); "continuously": each turn that
 *    completes cities (roads), the holder of the king (robber) before
 *    that turn's award gets 1 a city (road) it completed, and nothing at
 *    the end.
 * Nothing of it flies: the cards lie beside the board. Tiles: kr.tiles. */
#include "core/exp/kr.h"
#include "core/game_int.h"
#include "core/log.h"
#include "core/replay.h"
#include "core/text.h"

enum kr_scoring { KR_DEFAULT, KR_10_20, KR_15_40, KR_CONTINUOUSLY };
enum { CARD_KING = KR_KING, CARD_ROBBER = KR_ROBBER, N_CARDS };

struct kr {
    int8_t holder[N_CARDS];     /* seat, -1: nobody yet */
    uint16_t largest[N_CARDS];  /* tiles of the largest completed */
    uint16_t completed[N_CARDS]; /* completed cities, roads */
};
UNIT_STATE_FITS(struct kr);

/* What sets each card apart: its switch, the feature it rewards, its
 * score event's class and the term it counts. */
static const struct card {
    uint32_t flag;
    uint8_t feature;
    uint8_t event;
    uint8_t counted;  /* the default's term */
    uint8_t flat;     /* 10/20 and 15/40's term */
} cards[N_CARDS] = {
    { RF_KING, FEAT_CITY, FEAT_KING, SI_CITIES, SI_KING },
    { RF_ROBBER, FEAT_ROAD, FEAT_ROBBER, SI_ROADS, SI_ROBBER },
};

static struct kr *state(struct game *g)
{
    return UNIT_STATE(g, EXP_KR, struct kr);
}

static const struct kr *cstate(const struct game *g)
{
    return UNIT_STATE(g, EXP_KR, const struct kr);
}

/* "king: 4 completed cities" and the like, from the event's one item. */
static int explain_card(const struct game_log *log,
                        const struct score_event *ev,
                        const struct feature_ref *refs, char *out,
                        size_t len)
{
    (void)log;
    (void)refs;
    struct text t = text_at(out, len);
    const struct score_item *it = ev->n_items ? &ev->items[0] : NULL;
    text_put(&t, feat_name(ev->feature));
    if (ev->expr == EXPR_KING_ROBBER)
        text_put(&t, " and robber baron together");
    if (it && it->count >= 0) {
        text_put(&t, ": ");
        text_int(&t, it->count);
        text_put(&t, it->kind == SI_ROADS ? " completed road" :
                                            " completed cit");
        text_put(&t, it->kind == SI_ROADS ? (it->count == 1 ? "" : "s")
                                          : (it->count == 1 ? "y" : "ies"));
        text_put(&t, ev->turn < 0 ? " at the end" : " this turn");
    }
    text_put(&t, ": ");
    text_int(&t, ev->points);
    return (int)t.n;
}

/* The cards are no board features; their points are events of these. */
const struct feature_class feature_class_KING = {
    .name = "king", .explain = explain_card,
};
const struct feature_class feature_class_ROBBER = {
    .name = "robber", .explain = explain_card,
};

int kr_holder(const struct game *g, int c)
{
    return game_in_play(g, EXP_KR) && (unsigned)c < N_CARDS
               ? cstate(g)->holder[c]
               : -1;
}

static void start(struct game *g)
{
    struct kr *st = state(g);
    for (int c = 0; c < N_CARDS; c++)
        st->holder[c] = -1;
}

/* An event of card c's class for seat p: points, with one term. */
static void card_event(struct game *g, int c, int p, int turn, int expr,
                       int kind, int count, int points)
{
    struct score_event *ev = game_new_event(g);
    ev->turn = turn;
    ev->feature = cards[c].event;
    ev->expr = (uint8_t)expr;
    ev->players = (uint8_t)(1u << p);
    ev->points = points;
    score_add_item(ev, kind, count, points);
    g->score[p] += points;
}

/* The tiles the feature of root covers, each once. */
static int feature_tiles(const struct game *g, int root)
{
    uint64_t seen[GAME_MAX_TILES / 64] = { 0 };
    int n = 0, s = root;
    do {
        unsigned t = g->segs[s].tile;
        n += !(seen[t >> 6] >> (t & 63) & 1);
        seen[t >> 6] |= 1ull << (t & 63);
        s = g->segs[s].next;
    } while (s != root);
    return n;
}

/* Before the completed features score: the continuous points of the
 * cards' holders, then the cards' new holders. The largest size is that
 * of the features completed before this turn. */
static void turn_scoring(struct game *g)
{
    struct kr *st = state(g);
    for (int c = 0; c < N_CARDS; c++) {
        if (!(g->rules.flags & cards[c].flag))
            continue;
        int n = 0, largest = st->largest[c];
        bool won = false;
        for (int j = 0; j < g->n_done; j++) {
            int root = g->done[j];
            if (g->segs[root].kind != cards[c].feature)
                continue;
            int size = feature_tiles(g, root);
            n++;
            won |= size > st->largest[c];
            largest = size > largest ? size : largest;
        }
        if (n && st->holder[c] >= 0 &&
            g->rules.opt[OPT_KR_SCORING] == KR_CONTINUOUSLY)
            card_event(g, c, st->holder[c], g->turn, EXPR_DONE,
                       cards[c].counted, n, n);
        st->completed[c] = (uint16_t)(st->completed[c] + n);
        st->largest[c] = (uint16_t)largest;
        if (won)
            st->holder[c] = (int8_t)g->seat;
    }
}

/* At the end, each card to its holder as the variant says. */
static void final_scoring(struct game *g)
{
    const struct kr *st = cstate(g);
    int rule = g->rules.opt[OPT_KR_SCORING];
    if (rule == KR_CONTINUOUSLY)
        return;
    for (int c = 0; c < N_CARDS; c++) {
        int p = st->holder[c];
        if (!(g->rules.flags & cards[c].flag) || p < 0)
            continue;
        int n = st->completed[c];
        if (c == CARD_KING && game_in_play(g, EXP_COUNT))
            n++; /* the City of Carcassonne is a completed city */
        bool both = rule == KR_15_40 && st->holder[1 - c] == p &&
                    (g->rules.flags & cards[1 - c].flag);
        if (rule == KR_DEFAULT)
            card_event(g, c, p, -1, EXPR_DONE, cards[c].counted, n, n);
        else if (rule == KR_10_20 || (rule == KR_15_40 && !both))
            card_event(g, c, p, -1, EXPR_DONE, cards[c].flat, -1,
                       rule == KR_10_20 ? 10 : 15);
        else if (c == CARD_KING) /* both cards: one event, the king's */
            card_event(g, c, p, -1, EXPR_KING_ROBBER, SI_KING_ROBBER, -1,
                       40);
    }
}

/* Who holds each card: not on the board, but it decides points. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct kr *st = cstate(g);
    for (int c = 0; c < N_CARDS; c++) {
        h = game_hash_mix(h, st->holder[c]);
        h = game_hash_mix(h, st->largest[c]);
    }
    return h;
}

/* For a replay: each card in play as a counter of every seat, its
 * holder's the size of the feature that won it, the others' 0. */
static void replay(const struct game *g, struct replay_out *out)
{
    static const char *const names[N_CARDS] = { "king", "robber" };
    const struct kr *st = cstate(g);
    for (int c = 0; c < N_CARDS; c++)
        for (int p = 0; p < g->rules.n_players &&
                        (g->rules.flags & cards[c].flag); p++)
            replay_put(out, (struct replay_item){
                .kind = REPLAY_COUNTER, .name = names[c], .seat = (int8_t)p,
                .value = st->holder[c] == p ? st->largest[c] : 0 });
}

static const struct element elements[] = {
    { "king", EL_FLAG, RFB_KING, 1, false },
    { "robber", EL_FLAG, RFB_ROBBER, 1, false },
    { NULL, 0, 0, 0, false },
};

const struct expansion expansion_kr = {
    .id = "kr",
    .name = "King & Robber",
    .elements = elements,
    .start = start,
    .turn_scoring = turn_scoring,
    .final_scoring = final_scoring,
    .hash = hash,
    .replay = replay,
};
