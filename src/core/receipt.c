/* receipt.c - score receipts as sentences: the feature's formula (its
 * class's own, or one built from the event's items), then who stood there
 * and who scored. */
#include "core/receipt.h"

#include <stdio.h>

void seats_join(const struct game_log *log, unsigned mask, const char *sep,
                char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int p = 0; p < log->rules.n_players && n < len; p++)
        if (mask & (1u << p))
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? sep : "",
                                  log->names[p]);
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
    [SA_BIT_INN] = "with an inn",
    [SA_BIT_CATHEDRAL] = "with a cathedral",
};

int receipt_items(const struct score_event *e, char *out, size_t len)
{
    size_t n = 0;
    if (e->n_items == 0)
        return snprintf(out, len, "0");
    for (int i = 0; i < e->n_items && n < len; i++) {
        const struct score_item *it = &e->items[i];
        const char *plus = i ? " + " : "";
        if (it->count > 0)
            n += (size_t)snprintf(out + n, len - n, "%s%d×%d", plus,
                                  it->count, it->points / it->count);
        else if (it->count == 0)
            n += (size_t)snprintf(out + n, len - n, "%s0", plus);
        else
            n += (size_t)snprintf(out + n, len - n, "%s%d (%s)", plus,
                                  it->points, score_item_name(it->kind));
    }
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, " = %d", e->points);
    return (int)n;
}

/* "city, 5 tiles + 2 pennants, completed: 5×2 + 2×2 = 14": what an edged
 * feature's formula reads like. */
static int items_formula(const struct score_event *e, char *out, size_t len)
{
    int t = e->tiles, pn = e->pennants;
    size_t n = (size_t)snprintf(out, len, "%s, %d %s", feat_name(e->feature),
                                t, plural(t, "tile", "tiles"));
    if (pn && n < len)
        n += (size_t)snprintf(out + n, len - n, " + %d %s", pn,
                              plural(pn, "pennant", "pennants"));
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, ", %s%s",
                              e->completed ? "completed" : "incomplete",
                              e->tiny ? " (tiny-city rule)" : "");
    for (int a = 0; a < SA__COUNT && n < len; a++)
        if (e->attrs[a] && attr_phrase[a])
            n += (size_t)snprintf(out + n, len - n, ", %s", attr_phrase[a]);
    if (n < len)
        n += (size_t)snprintf(out + n, len - n, ": ");
    if (n < len)
        n += (size_t)receipt_items(e, out + n, len - n);
    return (int)n;
}

void receipt_format(const struct game_log *log, const struct report *r,
                    size_t i, char *out, size_t len)
{
    const struct score_event *e = &r->events[i];
    const struct feature_class *c = feature_class(e->feature);
    int w = c->explain ? c->explain(e, r->refs + e->ref0, out, len)
                       : items_formula(e, out, len);
    size_t n = w > 0 ? (size_t)w : 0;
    bool weighed = false; /* a large follower: say how strong */
    for (int p = 0; p < log->rules.n_players; p++)
        weighed |= e->strength[p] && e->strength[p] != e->meeples[p];
    int first = 1;
    char who[200];
    for (int p = 0; p < log->rules.n_players && n < len; p++) {
        if (!e->meeples[p])
            continue;
        const char *role = e->recall            ? "abbot"
                           : !c->role           ? "meeples"
                           : e->meeples[p] == 1 ? c->role
                                                : c->roles;
        n += (size_t)snprintf(out + n, len - n, "%s%s %d%s%s",
                              first ? "; " : ", ", log->names[p],
                              e->meeples[p], first ? " " : "",
                              first ? role : "");
        if (weighed && n < len)
            n += (size_t)snprintf(out + n, len - n, " (strength %d)",
                                  e->strength[p]);
        first = 0;
    }
    seats_format(log, e->players, who, sizeof who);
    if (n < len)
        snprintf(out + n, len - n, " → %s %d%s", who, e->points,
                 __builtin_popcount(e->players) > 1 ? " each" : "");
}
