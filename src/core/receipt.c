/* receipt.c - score receipts as sentences. */
#include "core/receipt.h"

#include <stdio.h>

static const char *role(int feature, int n)
{
    switch (feature) {
    case FEAT_ROAD: return n == 1 ? "highwayman" : "highwaymen";
    case FEAT_CITY: return n == 1 ? "knight" : "knights";
    case FEAT_MONASTERY: return n == 1 ? "monk" : "monks";
    case FEAT_GARDEN: return n == 1 ? "abbot" : "abbots";
    case FEAT_FIELD: return n == 1 ? "farmer" : "farmers";
    }
    return "meeples";
}

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

/* "city, 5 tiles + 2 pennants, completed: 5x2 + 2x2 = 14" */
static size_t formula(const struct game_log *log, const struct report *r,
                      const struct score_event *e, char *out, size_t len)
{
    int t = e->tiles, pn = e->pennants;
    const char *state = e->completed ? "completed" : "incomplete";
    switch (e->feature) {
    case FEAT_ROAD:
        return (size_t)snprintf(out, len, "road, %d %s, %s: %d×1 = %d", t,
                                plural(t, "tile", "tiles"), state, t,
                                e->points);
    case FEAT_CITY: {
        int per = e->completed && !e->tiny ? 2 : 1;
        if (pn == 0)
            return (size_t)snprintf(out, len, "city, %d %s, %s%s: %d×%d = %d",
                                    t, plural(t, "tile", "tiles"), state,
                                    e->tiny ? " (tiny-city rule)" : "", t,
                                    per, e->points);
        return (size_t)snprintf(
            out, len, "city, %d %s + %d %s, %s%s: %d×%d + %d×%d = %d", t,
            plural(t, "tile", "tiles"), pn, plural(pn, "pennant", "pennants"),
            state, e->tiny ? " (tiny-city rule)" : "", t, per, pn, per,
            e->points);
    }
    case FEAT_MONASTERY:
    case FEAT_GARDEN:
        if (e->completed)
            return (size_t)snprintf(out, len, "%s%s, completed (all 8 "
                                    "neighbours): 9", e->recall ?
                                    "abbot recalled from the " : "",
                                    feat_name(e->feature));
        return (size_t)snprintf(out, len, "%s%s, incomplete: 1 + %d %s = %d",
                                e->recall ? "abbot recalled from the " : "",
                                feat_name(e->feature), t - 1,
                                plural(t - 1, "neighbour", "neighbours"),
                                e->points);
    case FEAT_FIELD: {
        size_t n = (size_t)snprintf(out, len, "field touching %d completed "
                                    "%s", e->cities,
                                    plural(e->cities, "city", "cities"));
        for (unsigned k = 0; k < e->n_refs && n < len; k++) {
            const struct feature_ref *c = &r->refs[e->ref0 + k];
            n += (size_t)snprintf(out + n, len - n, "%s(%d,%d) %d %s",
                                  k ? ", " : " [", c->x, c->y, c->size,
                                  plural(c->size, "tile", "tiles"));
        }
        if (e->n_refs && n < len)
            n += (size_t)snprintf(out + n, len - n, "]");
        if (n < len)
            n += (size_t)snprintf(out + n, len - n, ": %d×3 = %d", e->cities,
                                  e->points);
        return n;
    }
    }
    (void)log;
    return (size_t)snprintf(out, len, "%s: %d", feat_name(e->feature),
                            e->points);
}

void receipt_format(const struct game_log *log, const struct report *r,
                    size_t i, char *out, size_t len)
{
    const struct score_event *e = &r->events[i];
    size_t n = formula(log, r, e, out, len);
    int first = 1;
    char who[200];
    for (int p = 0; p < log->rules.n_players && n < len; p++) {
        if (!e->meeples[p])
            continue;
        n += (size_t)snprintf(out + n, len - n, "%s%s %d%s%s",
                              first ? "; " : ", ", log->names[p],
                              e->meeples[p], first ? " " : "",
                              !first ? ""
                              : e->recall ? "abbot"
                                          : role(e->feature, e->meeples[p]));
        first = 0;
    }
    seats_format(log, e->players, who, sizeof who);
    if (n < len)
        snprintf(out + n, len - n, " → %s %d%s", who, e->points,
                 __builtin_popcount(e->players) > 1 ? " each" : "");
}
