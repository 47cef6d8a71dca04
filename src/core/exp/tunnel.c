/* tunnel.c - The Tunnel (the set "tunnel" and the element "tunnel") as a
 * unit, as JCloisterZone plays it.
 *
 * The roads of its four tiles end in tunnels (the segment attribute
 * "tunnel"): each such end is an open end of its road, so the road is
 * unfinished while it stays open. Each player holds tunnel tokens of
 * its own colours, two a colour (tunnel_tokens()). Once a turn, before
 * or after the turn's action, the player on turn may put one on any open
 * tunnel end on the board (PLACE_TOKEN TUNNEL_A, _B or _C, the road's
 * pointer); the second token of a colour joins its road to the road of
 * the first, through the earth: one road from then on, and both ends
 * closed, so a road may be completed by the token (it scores with the
 * turn's completed features). Roads under a city on other expansions'
 * tiles carry the attribute too, but no tunnel end (JCloisterZone's
 * tunnelize-other-expansions is not followed: see docs/architecture.md).
 * Tiles: tunnel.tiles. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/tunnel.h"
#include "core/game_int.h"
#include "core/words.h"
#include "core/move.h"
#include "core/replay.h"

enum { MAX_TOKENS = 2 * TUNNEL__COLOURS * GAME_MAX_PLAYERS };

struct tunnel_token {
    int16_t seg;      /* the tunnel end's road segment */
    int8_t owner;
    uint8_t colour;
};

struct tunnel_state {
    int8_t left[GAME_MAX_PLAYERS][TUNNEL__COLOURS];
    bool placed_now; /* a token went down this turn */
    bool joined_now; /* ... and joined two roads */
    int16_t joined_seg;
    uint8_t n;
    struct tunnel_token tokens[MAX_TOKENS];
};
UNIT_STATE_FITS(struct tunnel_state);

static struct tunnel_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_TUNNEL, struct tunnel_state);
}

static const struct tunnel_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_TUNNEL,
                      const struct tunnel_state);
}

static const char *const colour_names[TUNNEL__COLOURS] = { "A", "B", "C" };

/* Tokens of each colour a player holds, by players and the variant
 * (more-tunnel-tokens: 0 "3/2", 1 "2/1", 2 "1/1"). */
static int tunnel_tokens(int players, int variant, int colour)
{
    switch (colour) {
    case TUNNEL_A:
        return 2;
    case TUNNEL_B:
        return (players == 3 && variant == 0) || (players < 3 && variant != 2)
                   ? 2 : 0;
    default:
        return players < 3 && variant == 0 ? 2 : 0;
    }
}

static void start(struct game *g)
{
    struct tunnel_state *s = st(g);
    int variant = g->rules.opt[OPT_MORE_TUNNEL_TOKENS];
    memset(s, 0, sizeof *s);
    if (variant < 0 || variant > 2)
        variant = 0;
    for (int p = 0; p < g->rules.n_players; p++)
        for (int c = 0; c < TUNNEL__COLOURS; c++)
            s->left[p][c] = (int8_t)(g->rules.counts[COUNT_TUNNEL]
                                         ? tunnel_tokens(g->rules.n_players,
                                                         variant, c)
                                         : 0);
}

int game_tunnels_left(const struct game *g, int player, int colour)
{
    if (!game_in_play(g, EXP_TUNNEL) || player < 0 ||
        player >= g->rules.n_players || colour < 0 ||
        colour >= TUNNEL__COLOURS)
        return 0;
    return cst(g)->left[player][colour];
}

/* Is seg a tunnel end: a road with the attribute on a tile of ours? */
static bool tunnel_end(const struct game *g, int seg)
{
    const struct seg *s = &g->segs[seg];
    return s->kind == FEAT_ROAD && (s->attrs & SA_TUNNEL) &&
           tile_get(g->tiles[s->tile].def)->expansion == EXP_TUNNEL;
}

static int token_on(const struct tunnel_state *s, int seg)
{
    for (int i = 0; i < s->n; i++)
        if (s->tokens[i].seg == seg)
            return i;
    return -1;
}

bool game_tunnel_open(const struct game *g, int seg)
{
    return seg >= 0 && game_in_play(g, EXP_TUNNEL) && tunnel_end(g, seg) &&
           token_on(cst(g), seg) < 0;
}

/* A new turn: no token yet; each tunnel end of a tile of ours leaves its
 * road open. */
static void placed(struct game *g, int tile)
{
    struct tunnel_state *s = st(g);
    const struct placed *pl = &g->tiles[tile];
    s->placed_now = s->joined_now = false;
    for (int i = pl->seg0; i < pl->seg0 + pl->n_seg; i++)
        if (tunnel_end(g, i))
            g->segs[game_root(g, i)].open++;
}

enum rule game_check_tunnel(const struct game *g, int player, int colour,
                            int seg, char *why, size_t why_len)
{
    const struct tunnel_state *s = cst(g);
    if (g->now.tile < 0) {
        snprintf(why, why_len, "no tile was placed this turn");
        return RULE_TURN_SEQUENCE;
    }
    if (s->placed_now) {
        snprintf(why, why_len, "a tunnel token went down this turn "
                 "already");
        return RULE_TUNNEL;
    }
    if (game_tunnels_left(g, player, colour) <= 0) {
        snprintf(why, why_len, "the player has no tunnel token %s left",
                 colour_names[colour]);
        return RULE_TUNNEL;
    }
    if (!game_tunnel_open(g, seg)) {
        snprintf(why, why_len, "no open tunnel end is there");
        return RULE_TUNNEL;
    }
    return RULE_OK;
}

void game_tunnel(struct game *g, int player, int colour, int seg)
{
    struct tunnel_state *s = st(g);
    int other = -1;
    for (int i = 0; i < s->n; i++)
        if (s->tokens[i].owner == player && s->tokens[i].colour == colour)
            other = s->tokens[i].seg;
    if (s->n < MAX_TOKENS)
        s->tokens[s->n++] = (struct tunnel_token){ (int16_t)seg,
                                                   (int8_t)player,
                                                   (uint8_t)colour };
    if (player >= 0 && player < g->rules.n_players &&
        s->left[player][colour] > 0)
        s->left[player][colour]--;
    s->placed_now = true;
    if (other < 0)
        return;
    /* the second of a colour: the two roads are one, both ends closed */
    game_join_segs(g, seg, other);
    struct seg *root = &g->segs[game_root(g, seg)];
    root->open = (uint16_t)(root->open >= 2 ? root->open - 2 : 0);
    s->joined_now = true;
    s->joined_seg = (int16_t)seg;
}

/* Is the tunnel end seg joined to another by a pair of tokens? */
static bool tunnel_joined(const struct tunnel_state *s, int seg)
{
    int i = token_on(s, seg);
    for (int j = 0; i >= 0 && j < s->n; j++)
        if (j != i && s->tokens[j].owner == s->tokens[i].owner &&
            s->tokens[j].colour == s->tokens[i].colour)
            return true;
    return false;
}

/* A road re-formed after a ferry moved: each tunnel end of ours among
 * its segments open again unless its pair of tokens joins it, and the
 * pairs joined again. */
static void reformed(struct game *g, const int16_t *segs, int n)
{
    const struct tunnel_state *s = cst(g);
    for (int i = 0; i < n; i++)
        if (tunnel_end(g, segs[i]) && !tunnel_joined(s, segs[i]))
            g->segs[game_root(g, segs[i])].open++;
    for (int i = 0; i < s->n; i++)
        for (int j = i + 1; j < s->n; j++)
            if (s->tokens[j].owner == s->tokens[i].owner &&
                s->tokens[j].colour == s->tokens[i].colour)
                game_join_segs(g, s->tokens[i].seg, s->tokens[j].seg);
}

/* A road a token completed scores with the turn's completed features. */
static void turn_scoring(struct game *g)
{
    struct tunnel_state *s = st(g);
    if (s->joined_now && game_feature_complete(g, s->joined_seg))
        game_note_done(g, s->joined_seg);
    s->joined_now = false;
}

static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct tunnel_state *s = cst(g);
    for (int p = 0; p < g->rules.n_players; p++)
        for (int c = 0; c < TUNNEL__COLOURS; c++)
            h = game_hash_mix(h, s->left[p][c]);
    for (int i = 0; i < s->n; i++)
        h = game_hash_mix(h, (int64_t)s->tokens[i].seg << 16 ^
                                 s->tokens[i].owner << 4 ^
                                 s->tokens[i].colour);
    return h;
}

/* For a replay: each token on its tunnel end (in its owner's colour,
 * named by its own), and the tokens each seat has left. */
static void replay(const struct game *g, struct replay_out *out)
{
    static const char *const names[TUNNEL__COLOURS] = { "tunnel-a",
                                                        "tunnel-b",
                                                        "tunnel-c" };
    const struct tunnel_state *s = cst(g);
    for (int i = 0; i < s->n; i++) {
        const struct seg *sg = &g->segs[s->tokens[i].seg];
        replay_put(out, (struct replay_item){
            .kind = REPLAY_TOKEN, .name = names[s->tokens[i].colour],
            .feature = sg->kind, .mask = sg->mask,
            .seat = s->tokens[i].owner, .at = game_tile_pos(g, sg->tile) });
    }
    for (int p = 0; p < g->rules.n_players; p++) {
        int left = 0;
        for (int c = 0; c < TUNNEL__COLOURS; c++)
            left += s->left[p][c];
        replay_put(out, (struct replay_item){
            .kind = REPLAY_COUNTER, .name = "tunnels", .seat = (int8_t)p,
            .value = left });
    }
}

static const struct element elements[] = {
    { "tunnel", EL_COUNT, COUNT_TUNNEL, 1, true },
    { NULL, 0, 0, 0, false },
};

/* ---- the auditor's side: a token before or after the action --------- */

static int colour_of(const struct move *m)
{
    return m->kind == MV_TUNNEL_C ? TUNNEL_C
           : m->kind == MV_TUNNEL_B ? TUNNEL_B : TUNNEL_A;
}

/* In the turn, after its tile: before the action (which it does not
 * take) or after it, before the COMMIT. */
static void check_tunnel(struct audit *a, const struct move *m)
{
    char why[200], name[40];
    struct game *g = a->g;
    if (a->phase == PH_IDLE || a->phase == PH_ROUND) {
        audit_violate(a, m, RULE_TURN_SEQUENCE, "a tunnel token between "
                      "turns");
        return;
    }
    if (a->phase == PH_VOID)
        return;
    if (a->phase == PH_FLYING)
        audit_close_flight(a, m);
    int colour = colour_of(m), seg = audit_move_seg(g, m);
    enum rule r = game_check_tunnel(g, a->player, colour, seg, why,
                                    sizeof why);
    if (r != RULE_OK) {
        seg_words(m->feature, m->mask, name, sizeof name);
        audit_violate(a, m, r, "tunnel token %s on %s at (%d,%d): %s",
                      colour_names[colour], name, m->at.x, m->at.y, why);
        return;
    }
    game_tunnel(g, a->player, colour, seg);
}

/* The PASS of the offer after the action, when a token could go down. */
static bool turn_pass(struct audit *a, const struct move *m)
{
    (void)m;
    const struct game *g = a->g;
    if (cst(g)->placed_now)
        return false;
    for (int c = 0; c < TUNNEL__COLOURS; c++)
        if (game_tunnels_left(g, a->player, c) > 0)
            return true;
    return false;
}

static const struct audit_unit audit = {
    .turn_pass = turn_pass,
};

/* Token colour on each open tunnel end, in the turn once its tile is
 * down (check_tunnel's phases). */
static int colour_options(const struct audit *a, int colour, int kind,
                          struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    int n = 0;
    if (a->phase == PH_IDLE || a->phase == PH_ROUND || a->phase == PH_VOID)
        return 0;
    for (int seg = 0; seg < g->n_segs && n < max; seg++) {
        if (g->segs[seg].kind != FEAT_ROAD ||
            game_check_tunnel(g, a->player, colour, seg, why, sizeof why) !=
                RULE_OK)
            continue;
        out[n] = audit_option(kind);
        audit_option_on(&out[n++], g, seg);
    }
    return n;
}

#define TUNNEL_OPTIONS(KIND)                                               \
    static int options_##KIND(const struct audit *a, struct move *out,     \
                              int max)                                     \
    {                                                                      \
        return colour_options(a, TUNNEL_##KIND, MV_TUNNEL_##KIND, out,     \
                              max);                                        \
    }
TUNNEL_OPTIONS(A)
TUNNEL_OPTIONS(B)
TUNNEL_OPTIONS(C)

#define TUNNEL_ROW(KIND, LETTER)                                           \
    {                                                                      \
        .kind = MV_TUNNEL_##KIND, .at = AT_FEATURE,                        \
        .what = "a tunnel token", .check = check_tunnel,                   \
        .options = options_##KIND,                                         \
        .name = "tunnel-" LETTER, .jcz = "PLACE_TOKEN",                    \
        .jcz_payload = "{\"token\":\"TUNNEL_" #KIND                        \
                       "\",\"pointer\":\"$pointer\"}",                     \
        .feature = FEAT_ROAD, .fl_fields = "at segment",                   \
    }

static const struct move_class moves[] = {
    TUNNEL_ROW(A, "a"),
    TUNNEL_ROW(B, "b"),
    TUNNEL_ROW(C, "c"),
    { .name = NULL },
};

const struct expansion expansion_tunnel = {
    .id = "tunnel",
    .name = "The Tunnel",
    .elements = elements,
    .moves = moves,
    .audit = &audit,
    .start = start,
    .placed = placed,
    .turn_scoring = turn_scoring,
    .hash = hash,
    .replay = replay,
    .reformed = reformed,
};
