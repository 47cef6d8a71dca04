/* corn.c - The Crop Circles as a unit, as JCloisterZone plays it.
 *
 * Each tile of the sets carries a crop circle of one kind: city, road or
 * field (a tile mark, corn.tiles). After the turn that places one, once
 * its completed features scored, and when some figure stands on the
 * board, the player on turn chooses: every player adds a follower, or
 * every player takes one back. Then the players are asked one after the
 * other, from the one after the player on turn round to that player:
 * - adding: a follower from supply that may stand on the circle's kind
 *   goes onto the very spot where one of the player's own followers of
 *   that kind stands (anywhere on the board), a COMMIT follows; or the
 *   player passes;
 * - taking back: one of the player's followers on a feature of that kind
 *   goes back to supply, a COMMIT follows; no pass.
 * A player with no follower on a feature of the kind, or (adding) none
 * in supply that may stand there, is not asked. Nobody scores. The next
 * tile is drawn with the random number of the last COMMIT, the round's
 * when it had one. */
#include <stdio.h>
#include <string.h>

#include "core/audit_unit.h"
#include "core/exp/corn.h"
#include "core/game_int.h"
#include "core/move.h"
#include "core/words.h"

struct corn_state {
    int8_t chooser; /* the seat to choose, -1 */
    int8_t asked;   /* the seat asked now, -1 */
    int8_t last;    /* the seat asked last: the turn's player */
    uint8_t mode;   /* enum corn_mode */
    uint8_t kind;   /* enum feat of the circle */
};
UNIT_STATE_FITS(struct corn_state);

static struct corn_state *st(struct game *g)
{
    return UNIT_STATE(g, EXP_CORN, struct corn_state);
}

static const struct corn_state *cst(const struct game *g)
{
    return UNIT_STATE((struct game *)g, EXP_CORN, const struct corn_state);
}

/* The circle's kind of each mark. */
static const struct {
    unsigned mark;
    uint8_t kind;
} circles[] = {
    { TILE_MARK(CORN_CITY), FEAT_CITY },
    { TILE_MARK(CORN_ROAD), FEAT_ROAD },
    { TILE_MARK(CORN_FIELD), FEAT_FIELD },
};

int corn_kind_of(int def)
{
    const struct tile_def *t = def >= 0 ? tile_get(def) : NULL;
    for (size_t i = 0; t && i < sizeof circles / sizeof *circles; i++)
        if (t->marks & circles[i].mark)
            return circles[i].kind;
    return 0;
}

static void start(struct game *g)
{
    struct corn_state *s = st(g);
    memset(s, 0, sizeof *s);
    s->chooser = s->asked = s->last = -1;
}

/* Is meeple i a follower of seat p on a feature of the circle's kind? */
static bool follower_on_kind(const struct game *g, int i, int p)
{
    const struct meeple *mp = &g->meeples[i];
    const struct figure_class *c = figure_class(mp->kind);
    return mp->owner == p && mp->seg >= 0 && c && c->follower &&
           feat_is(g->segs[mp->seg].kind, cst(g)->kind);
}

/* May meeple i (in supply) go onto a feature of the circle's kind? */
static bool may_add(const struct game *g, int i)
{
    const struct meeple *mp = &g->meeples[i];
    const struct figure_class *c = figure_class(mp->kind);
    return mp->seg < 0 && c && c->follower &&
           game_kind_allowed(g, mp->kind, cst(g)->kind);
}

/* Is seat p asked: a follower on a feature of the kind, and (adding) one
 * in supply that may go there? */
static bool has_a_say(const struct game *g, int p)
{
    bool on = false, spare = cst(g)->mode != CORN_DEPLOY;
    for (int i = 0; i < g->n_meeples; i++) {
        on = on || follower_on_kind(g, i, p);
        spare = spare || (g->meeples[i].owner == p && may_add(g, i));
    }
    return on && spare;
}

/* After the turn's scoring: a crop circle opens the round when some
 * figure stands on the board. */
static void turn_done(struct game *g)
{
    struct corn_state *s = st(g);
    int kind = g->now.tile >= 0 ? corn_kind_of(g->tiles[g->now.tile].def)
                                : 0;
    s->chooser = s->asked = -1;
    s->mode = CORN_NONE;
    if (!kind)
        return;
    for (int i = 0; i < g->n_meeples; i++)
        if (g->meeples[i].seg >= 0) {
            s->kind = (uint8_t)kind;
            s->chooser = s->last = (int8_t)g->seat;
            return;
        }
}

/* The round: who chooses, who is asked, what and of which kind. */
static uint64_t hash(const struct game *g, uint64_t h)
{
    const struct corn_state *s = cst(g);
    h = game_hash_mix(h, s->chooser);
    h = game_hash_mix(h, s->asked);
    return game_hash_mix(h, s->mode << 8 | s->kind);
}

/* ---- the engine's questions (corn.h) ---------------------------------- */

static bool in_play(const struct game *g)
{
    return game_in_play(g, EXP_CORN);
}

int game_corn_chooser(const struct game *g)
{
    return in_play(g) ? cst(g)->chooser : -1;
}

enum corn_mode game_corn_mode(const struct game *g)
{
    return in_play(g) ? (enum corn_mode)cst(g)->mode : CORN_NONE;
}

int game_corn_kind(const struct game *g)
{
    return in_play(g) ? cst(g)->kind : 0;
}

int game_corn_asked(const struct game *g)
{
    return in_play(g) ? cst(g)->asked : -1;
}

enum rule game_check_corn_choice(const struct game *g, int player,
                                 enum corn_mode mode, char *why,
                                 size_t why_len)
{
    (void)mode;
    int chooser = game_corn_chooser(g);
    if (chooser < 0) {
        snprintf(why, why_len, "no crop circle asks for a choice now (only "
                 "after the turn that places one, when figures stand on "
                 "the board)");
        return RULE_CORN_CIRCLE;
    }
    if (player >= 0 && player != chooser) {
        snprintf(why, why_len, "the player on turn chooses, not another");
        return RULE_CORN_CIRCLE;
    }
    return RULE_OK;
}

/* The next seat asked after `from` (itself when self), up to the last. */
static int next_asked(const struct game *g, int from, bool self)
{
    const struct corn_state *s = cst(g);
    if (!self && from == s->last)
        return -1;
    int first = self ? from : (from + 1) % g->rules.n_players;
    return game_seat_walk(g, first, s->last, has_a_say);
}

void game_corn_choose(struct game *g, enum corn_mode mode)
{
    struct corn_state *s = st(g);
    if (s->chooser < 0)
        return;
    s->mode = (uint8_t)mode;
    s->chooser = -1;
    s->asked = (int8_t)game_seat_walk(g, (s->last + 1) % g->rules.n_players,
                                      s->last, has_a_say);
}

/* Is seg the spot of one of player's followers of the circle's kind? */
static bool own_spot(const struct game *g, int player, int seg)
{
    for (int i = 0; i < g->n_meeples; i++)
        if (follower_on_kind(g, i, player) && g->meeples[i].seg == seg)
            return true;
    return false;
}

/* The common part of an answer's checks: the round, the seat, the mode. */
static enum rule check_answer(const struct game *g, int player,
                              enum corn_mode mode, char *why, size_t why_len)
{
    const struct corn_state *s = cst(g);
    static const char *const modes[] = { "", "add", "take back" };
    if (game_corn_asked(g) < 0) {
        snprintf(why, why_len, "no crop circle's round is open");
        return RULE_CORN_CIRCLE;
    }
    if (player != s->asked) {
        snprintf(why, why_len, "it is not that player's turn in the crop "
                 "circle's round");
        return RULE_CORN_CIRCLE;
    }
    if (s->mode != mode) {
        snprintf(why, why_len, "the player on turn chose that each player "
                 "%s a follower", modes[s->mode]);
        return RULE_CORN_CIRCLE;
    }
    return RULE_OK;
}

enum rule game_check_corn_deploy(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len)
{
    enum rule r = check_answer(g, player, CORN_DEPLOY, why, why_len);
    if (r != RULE_OK)
        return r;
    if (m < 0 || g->meeples[m].owner != player || g->meeples[m].seg >= 0) {
        snprintf(why, why_len, "that figure is not in its owner's supply");
        return RULE_MEEPLE_NONE_LEFT;
    }
    if (!may_add(g, m)) {
        snprintf(why, why_len, "a %s does not go onto a %s",
                 figure_class(g->meeples[m].kind)->name,
                 feat_name(cst(g)->kind));
        return RULE_CORN_CIRCLE;
    }
    if (seg < 0 || !own_spot(g, player, seg)) {
        snprintf(why, why_len, "a follower goes where one of the player's "
                 "own followers on a %s stands", feat_name(cst(g)->kind));
        return RULE_CORN_CIRCLE;
    }
    return RULE_OK;
}

enum rule game_check_corn_return(const struct game *g, int player, int m,
                                 int seg, char *why, size_t why_len)
{
    enum rule r = check_answer(g, player, CORN_REMOVE, why, why_len);
    if (r != RULE_OK)
        return r;
    if (m < 0 || !follower_on_kind(g, m, player) ||
        (seg >= 0 && g->meeples[m].seg != seg)) {
        snprintf(why, why_len, "a player takes back one of its own "
                 "followers on a %s", feat_name(cst(g)->kind));
        return RULE_CORN_CIRCLE;
    }
    return RULE_OK;
}

void game_corn_answer(struct game *g, int m, int seg)
{
    struct corn_state *s = st(g);
    if (m >= 0)
        game_put(g, m, seg);
    if (s->asked >= 0)
        s->asked = (int8_t)next_asked(g, s->asked, false);
}

/* ---- the auditor's side: the choice, the round -------------------------- */

/* The seat whose meeple a round's move is: the id's, else the log's
 * player, else the seat asked. */
static int corn_seat(const struct audit *a, const struct move *m)
{
    if (m->meeple_owner >= 0)
        return m->meeple_owner;
    return m->player >= 0 ? m->player : game_corn_asked(a->g);
}

/* The meeple a round's move takes: for a return without an id, the
 * seat's follower on the spot named. */
static int resolve_corn(const struct audit *a, const struct move *m)
{
    const struct game *g = a->g;
    int seat = corn_seat(a, m), seg = audit_move_seg(g, m);
    if (seat < 0 || seat >= g->rules.n_players)
        return -1;
    if (m->kind == MV_CIRCLE_RETURN && m->meeple_n == 0)
        for (int i = 0; i < g->n_meeples; i++)
            if (g->meeples[i].owner == seat && g->meeples[i].seg == seg &&
                g->meeples[i].seg >= 0)
                return i;
    return game_meeple(g, seat, m->meeple, m->meeple_n);
}

static void corn_violate(struct audit *a, const struct move *m, enum rule r,
                         const char *what, const char *why)
{
    char nm[80], name[64];
    seg_words(m->feature, m->mask, name, sizeof name);
    audit_violate(a, m, r, "%s %s %s at (%d,%d): %s",
                  audit_meeple_name(a, m, nm, sizeof nm), what, name, m->at.x,
                  m->at.y, why);
}

/* An answer that is no PASS: a follower added or taken back (judged, and
 * applied when right); a COMMIT follows either way. */
static bool corn_answer(struct audit *a, const struct move *m)
{
    char why[200];
    struct game *g = a->g;
    int mi = resolve_corn(a, m), seg = audit_move_seg(g, m);
    int seat = corn_seat(a, m);
    bool add = m->kind == MV_DEPLOY;
    enum rule r = add ? game_check_corn_deploy(g, seat, mi, seg, why,
                                               sizeof why)
                      : game_check_corn_return(g, seat, mi, seg, why,
                                               sizeof why);
    if (r != RULE_OK) {
        corn_violate(a, m, r, add ? "added by a crop circle onto"
                                  : "taken back by a crop circle from",
                     why);
        game_corn_answer(g, -1, -1);
        return true;
    }
    game_corn_answer(g, mi, add ? seg : -1);
    return true;
}

/* A PASS: only when adding. */
static bool corn_pass(struct audit *a, const struct move *m)
{
    if (game_corn_mode(a->g) == CORN_REMOVE)
        audit_violate(a, m, RULE_CORN_CIRCLE, "a pass in a crop circle's "
                      "round where each player takes back a follower: "
                      "%s must take one back",
                      audit_who(a, game_corn_asked(a->g)));
    game_corn_answer(a->g, -1, -1);
    return false;
}

static bool round_claims(const struct audit *a, const struct move *m)
{
    return game_corn_asked(a->g) >= 0 &&
           (m->kind == MV_DEPLOY || m->kind == MV_CIRCLE_RETURN ||
            m->kind == MV_PASS);
}

static bool choice_claims(const struct audit *a, const struct move *m)
{
    return game_corn_chooser(a->g) >= 0 &&
           (m->kind == MV_CIRCLE_DEPLOY || m->kind == MV_CIRCLE_REMOVE);
}

static enum corn_mode mode_of(const struct move *m)
{
    return m->kind == MV_CIRCLE_DEPLOY ? CORN_DEPLOY : CORN_REMOVE;
}

/* The choice of the player on turn (the log names none: that one). */
static bool corn_choice(struct audit *a, const struct move *m)
{
    char why[200];
    enum rule r = game_check_corn_choice(a->g, m->player, mode_of(m), why,
                                         sizeof why);
    if (r != RULE_OK)
        audit_violate(a, m, r, "a crop circle's choice: %s", why);
    game_corn_choose(a->g, mode_of(m));
    return false;
}

static bool no_pass(struct audit *a, const struct move *m)
{
    (void)a;
    (void)m;
    return false; /* never claimed: a PASS is no choice */
}

static int chooser_asked(const struct game *g)
{
    return game_corn_chooser(g);
}

static int round_asked(const struct game *g)
{
    return game_corn_asked(g);
}

/* The choice: add a follower, or take one back. */
static int choice_options(const struct audit *a, struct move *out, int max)
{
    char why[200];
    int n = 0, chooser = game_corn_chooser(a->g);
    static const uint8_t kinds[] = { MV_CIRCLE_DEPLOY, MV_CIRCLE_REMOVE };
    for (size_t k = 0; k < sizeof kinds && n < max; k++)
        if (chooser >= 0 &&
            game_check_corn_choice(a->g, chooser,
                                   k ? CORN_REMOVE : CORN_DEPLOY, why,
                                   sizeof why) == RULE_OK) {
            out[n] = audit_option(kinds[k]);
            out[n++].player = (int8_t)chooser;
        }
    return n;
}

/* The seat asked: one figure of each kind in its supply beside each of
 * its followers on the circle's kind of feature, or each of those
 * followers taken back. */
static int answer_options(const struct audit *a, struct move *out, int max)
{
    const struct game *g = a->g;
    char why[200];
    int seat = game_corn_asked(g), n = 0;
    unsigned kinds = 0;
    for (int mi = 0; seat >= 0 && mi < g->n_meeples && n < max; mi++) {
        const struct meeple *mp = &g->meeples[mi];
        if (mp->owner != seat)
            continue;
        if (mp->seg >= 0) {
            if (game_check_corn_return(g, seat, mi, mp->seg, why,
                                       sizeof why) != RULE_OK)
                continue;
            out[n] = audit_option(MV_CIRCLE_RETURN);
            audit_option_on(&out[n], g, mp->seg);
            audit_option_meeple(&out[n++], g, mi);
            continue;
        }
        if (kinds >> mp->kind & 1)
            continue;
        kinds |= 1u << mp->kind;
        n += audit_onto_options(a, MV_DEPLOY, seat, mi,
                                game_check_corn_deploy, out + n, max - n);
    }
    return n;
}

static const struct round_class rounds[] = {
    { /* after a crop circle's scoring: add or take back */
      .what = "a crop circle's choice",
      .role = STEP_CORN, .pass_role = STEP_CORN, .from = ROUND_ONLY_TURN,
      .commit = COMMIT_NEVER, .after_end = AFTER_END_CLAIMED,
      .answers = 1ull << MV_CIRCLE_DEPLOY | 1ull << MV_CIRCLE_REMOVE,
      .choice = true, .asked = chooser_asked, .claims = choice_claims,
      .answer = corn_choice, .pass = no_pass,
      .options = choice_options },
    { /* then each player, from the next round to the player on turn */
      .what = "a crop circle's round",
      .role = STEP_CORN, .pass_role = STEP_CORN, .from = ROUND_FROM_NEXT,
      .commit = COMMIT_AFTER_MOVE, .after_end = AFTER_END_CLAIMED,
      .answers = 1ull << MV_DEPLOY | 1ull << MV_CIRCLE_RETURN,
      .asked = round_asked, .claims = round_claims, .answer = corn_answer,
      .pass = corn_pass, .meeple = resolve_corn,
      .options = answer_options },
    { .asked = NULL },
};

/* A tile before the round is over: what was left undone lapses. */
static void before_place(struct audit *a, const struct move *m)
{
    struct game *g = a->g;
    int who = game_corn_chooser(g) >= 0 ? game_corn_chooser(g)
                                        : game_corn_asked(g);
    if (who < 0)
        return;
    audit_violate(a, m, RULE_CORN_CIRCLE, "the next tile before the crop "
                  "circle's round is over: %s has not %s",
                  audit_who(a, who),
                  game_corn_chooser(g) >= 0 ? "chosen" : "answered");
    st(g)->chooser = st(g)->asked = -1;
}

static const struct audit_unit audit = {
    .rounds = rounds,
    .before_place = before_place,
};

/* A choice or a follower taken back that no round claimed: out of place. */
static void check_stray(struct audit *a, const struct move *m)
{
    char why[200];
    a->role = STEP_CORN;
    if (m->kind == MV_CIRCLE_RETURN) {
        corn_violate(a, m, RULE_CORN_CIRCLE, "taken back by a crop circle "
                     "from", "no crop circle's round asks for it now");
        return;
    }
    (void)game_check_corn_choice(a->g, m->player, mode_of(m), why,
                                 sizeof why);
    audit_violate(a, m, RULE_CORN_CIRCLE, "a crop circle's choice: %s", why);
}

/* The moves this unit adds to a log (core/move.h). */
static const struct move_class moves[] = {
    {
        .kind = MV_CIRCLE_DEPLOY,
        .check = check_stray,
        .name = "circle-deploy",
        .jcz = "CIRCLE_REMOVE_OR_DEPLOY",
        .jcz_payload = "{\"value\":\"DEPLOY\"}",
        .fl_fields = "",
    },
    {
        .kind = MV_CIRCLE_REMOVE,
        .check = check_stray,
        .name = "circle-remove",
        .jcz = "CIRCLE_REMOVE_OR_DEPLOY",
        .jcz_payload = "{\"value\":\"REMOVE\"}",
        .fl_fields = "",
    },
    {
        .kind = MV_CIRCLE_RETURN,
        .at = AT_FEATURE,
        .check = check_stray,
        .meeple = resolve_corn,
        .name = "circle-return",
        .jcz = "RETURN_MEEPLE",
        .jcz_payload = "{\"pointer\":{\"featurePointer\":\"$pointer\",\"meepleId\":\"$meeple\"},\"source\":\"CORN_CIRCLE\"}",
        .fl_fields = "at segment meeple_id",
    },
    { .name = NULL },
};

const struct expansion expansion_corn = {
    .id = "corn",
    .name = "The Crop Circles",
    .moves = moves,
    .audit = &audit,
    .start = start,
    .turn_done = turn_done,
    .hash = hash,
};
