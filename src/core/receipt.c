/* receipt.c - score receipts as sentences: the feature's formula (its
 * class's own, or one built from the event's items), then who stood there
 * and who scored. */
#include "core/receipt.h"

#include "core/text.h"

static void join(struct text *t, const struct game_log *log, unsigned mask,
                 const char *sep)
{
    bool first = true;
    for (int p = 0; p < log->rules.n_players; p++)
        if (mask & (1u << p)) {
            if (!first)
                text_put(t, sep);
            text_put(t, log->names[p]);
            first = false;
        }
}

void seats_join(const struct game_log *log, unsigned mask, const char *sep,
                char *out, size_t len)
{
    struct text t = text_at(out, len);
    join(&t, log, mask, sep);
}

void seats_format(const struct game_log *log, unsigned mask, char *out,
                  size_t len)
{
    seats_join(log, mask, ", ", out, len);
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* How the attribute is named in a receipt: "with an inn". */
static const char *const attr_phrase[SA__COUNT] = {
#define ATTR(id, name, feature, receipt) receipt,
#include "core/exp/units.def"
#undef ATTR
};

const char *receipt_item_word(int kind)
{
    static const char *const words[SI__COUNT] = {
#define SCORE_TERM(id, name, receipt) [SI_##id] = receipt,
#include "core/exp/units.def"
#undef SCORE_TERM
    };
    return kind >= 0 && kind < SI__COUNT && words[kind]
               ? words[kind]
               : score_item_name(kind);
}

static void items(struct text *t, const struct score_event *e)
{
    if (e->n_items == 0) {
        text_put(t, "0");
        return;
    }
    for (int i = 0; i < e->n_items; i++) {
        const struct score_item *it = &e->items[i];
        /* a term that takes points away (a besieged city's) reads as a
         * subtraction: "5×2 - 5 (besieged)" */
        bool minus = i && it->count < 0 && it->points < 0;
        if (i)
            text_put(t, minus ? " - " : " + ");
        if (it->count > 0) {
            text_int(t, it->count);
            text_put(t, "×");
            text_int(t, it->points / it->count);
        } else if (it->count == 0) {
            text_put(t, "0");
        } else {
            text_int(t, minus ? -it->points : it->points);
            text_put(t, " (");
            text_put(t, receipt_item_word(it->kind));
            text_put(t, ")");
        }
    }
    text_put(t, " = ");
    text_int(t, e->points);
}

int receipt_items(const struct score_event *e, char *out, size_t len)
{
    struct text t = text_at(out, len);
    items(&t, e);
    return (int)t.n;
}

/* "city, 5 tiles + 2 pennants, completed: 5×2 + 2×2 = 14": what an edged
 * feature's formula reads like. */
static int items_formula(const struct score_event *e, char *out, size_t len)
{
    struct text t = text_at(out, len);
    const char *note = score_expr_note(e->expr);
    text_put(&t, feat_name(e->feature));
    text_put(&t, ", ");
    text_int(&t, e->tiles);
    text_put(&t, plural(e->tiles, " tile", " tiles"));
    if (e->pennants) {
        text_put(&t, " + ");
        text_int(&t, e->pennants);
        text_put(&t, plural(e->pennants, " pennant", " pennants"));
    }
    text_put(&t, e->completed ? ", completed" : ", incomplete");
    if (e->tiny)
        text_put(&t, " (tiny-city rule)");
    if (note) { /* "no one there has strength" */
        text_put(&t, ", ");
        text_put(&t, note);
    }
    for (int a = 0; a < SA__COUNT; a++)
        if (e->attrs[a] && attr_phrase[a]) {
            text_put(&t, ", ");
            text_put(&t, attr_phrase[a]);
        }
    text_put(&t, ": ");
    items(&t, e);
    return (int)t.n;
}

/* How a receipt names n figures of kind k on a feature of class c: the
 * ordinary follower by its role there (knight, farmer), any other figure
 * by its name (large follower, mayor, wagon, builder, pig, barn). */
static const char *figure_word(const struct feature_class *c, int k, int n)
{
    const struct figure_class *f = figure_class(k);
    if (f->by_role && c->role)
        return n == 1 ? c->role : c->roles;
    return n == 1 ? f->name : f->names;
}

/* Does the figure weigh otherwise than 1 in a majority (a large
 * follower, a mayor)? Then the receipt gives each player's strength. */
static bool weighs(int k)
{
    const struct figure_class *f = figure_class(k);
    return f->follower && (f->by_pennants || f->strength != 1);
}

/* The kinds seat p has on the feature: followers first, then the others
 * (builder, pig, barn), in the registry's order; returns how many. */
static int seat_kinds(const struct score_event *e, int p, int kinds[])
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < FIG__COUNT; k++)
            if (e->figures[p][k] && figure_class(k)->follower == !pass)
                kinds[n++] = k;
    return n;
}

/* "; Ada 2 knights, Ben 1": who stood there, figure by figure ("Ada 1
 * farmer, 1 large follower and 1 pig (strength 3)", "Ben 1 mayor
 * (strength 2)"), the word said once when
 * everyone's figures are of one kind. An event that records no figures
 * (one written by hand) names its followers by the feature's role. */
static void who_stood(struct text *t, const struct game_log *log,
                      const struct score_event *e)
{
    const struct feature_class *c = feature_class(e->feature);
    int kinds[GAME_MAX_PLAYERS][FIG__COUNT], nk[GAME_MAX_PLAYERS];
    int one = -1; /* the one kind all figures are of, -2 when several */
    bool weighed = false, figures = false;
    for (int p = 0; p < log->rules.n_players; p++) {
        nk[p] = seat_kinds(e, p, kinds[p]);
        figures |= nk[p] > 0;
        weighed |= e->strength[p] && e->strength[p] != e->meeples[p];
        for (int i = 0; i < nk[p]; i++) {
            weighed |= weighs(kinds[p][i]);
            one = one == -1 || one == kinds[p][i] ? kinds[p][i] : -2;
        }
    }
    bool first = true;
    for (int p = 0; p < log->rules.n_players; p++) {
        if (!(figures ? nk[p] : e->meeples[p]))
            continue;
        text_put(t, first ? "; " : ", ");
        text_put(t, log->names[p]);
        if (!figures) { /* the followers, by the feature's role */
            const char *role = e->recall  ? "abbot"
                               : !c->role ? "meeples"
                               : e->meeples[p] == 1 ? c->role
                                                    : c->roles;
            text_put(t, " ");
            text_int(t, e->meeples[p]);
            if (first) {
                text_put(t, " ");
                text_put(t, role);
            }
        }
        for (int i = 0; figures && i < nk[p]; i++) {
            int k = kinds[p][i], cnt = e->figures[p][k];
            bool said = one >= 0 && !first; /* "Ada 2 knights, Ben 1" */
            text_put(t, i == 0 ? " " : i == nk[p] - 1 ? " and " : ", ");
            text_int(t, cnt);
            if (!said) {
                text_put(t, " ");
                text_put(t, figure_word(c, k, cnt));
            }
        }
        if (weighed) {
            text_put(t, " (strength ");
            text_int(t, e->strength[p]);
            text_put(t, ")");
        }
        first = false;
    }
}

void receipt_format(const struct game_log *log, const struct report *r,
                    size_t i, char *out, size_t len)
{
    const struct score_event *e = &r->events[i];
    const struct feature_class *c = feature_class(e->feature);
    int w = c->explain ? c->explain(log, e, r->refs + e->ref0, out, len)
                       : items_formula(e, out, len);
    /* the formula as written: all of it, or all that fit */
    struct text t = { out, len, 0 };
    if (len == 0)
        return;
    t.n = w <= 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
    out[t.n] = '\0';
    who_stood(&t, log, e);
    text_put(&t, " → ");
    join(&t, log, e->players, ", ");
    text_put(&t, " ");
    text_int(&t, e->points);
    if (__builtin_popcount(e->players) > 1)
        text_put(&t, " each");
}
