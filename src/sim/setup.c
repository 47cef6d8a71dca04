/* setup.c - the rules of a simulated game from the names a person gives
 * (`flierd simulate --edition c3 --expansions river,phantom`). Every name
 * is looked up in the engine's registries (expansion units, tile sets,
 * game elements): nothing here lists an expansion, so a unit registered
 * in core can be simulated without a change here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

#define WORD_MAX 48

/* ":1" for C2, ":2" for C3: JCloisterZone's edition suffix of set ids. */
static const char *edition_suffix(int edition)
{
    return edition == 3 ? ":2" : ":1";
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* "unknown expansion 'x'" or, for one JCloisterZone has, the usual
 * "unsupported: ..." sentence. */
static enum status unknown(const char *what, const char *word, struct err *e)
{
    const char *name = expansion_unsupported(word);
    if (name)
        return err_set(e, ST_UNSUPPORTED, "unsupported: %s ('%s') is not "
                       "audited yet", name, word);
    return err_set(e, ST_PARSE, "unknown %s '%s'", what, word);
}


/* The unit's first tile set of the edition, by id; -1 when it has none
 * (the phantom is a figure only). */
static int unit_set(int unit, int edition)
{
    int best = -1;
    for (int i = 0; i < tile_set_count(); i++) {
        const struct tile_set_def *d = tile_set_get(i);
        if (d->expansion == unit && ends_with(d->id, edition_suffix(edition)) &&
            (best < 0 || strcmp(d->id, tile_set_get(best)->id) < 0))
            best = i;
    }
    for (int i = 0; best < 0 && i < tile_set_count(); i++) {
        /* a set of one edition only, without ":1" (count) */
        const struct tile_set_def *d = tile_set_get(i);
        if (d->expansion == unit && !strchr(d->id, ':'))
            best = i;
    }
    return best;
}

static enum status add_expansion(const char *word, int edition,
                                 struct rules *r, struct err *e)
{
    int unit = expansion_find(word);
    if (unit < 0)
        return unknown("expansion", word, e);
    if (game_rules_units(r) >> unit & 1)
        return ST_OK; /* the edition brings it already (base, flier) */
    int set = unit_set(unit, edition);
    if (set >= 0)
        r->set_copies[set] = 1;
    for (const struct element *el = expansion_get(unit)->elements;
         el && el->key; el++)
        element_set(r, el, el->max);
    return ST_OK;
}

static enum status add_set(const char *word, int edition, struct rules *r,
                           struct err *e)
{
    char id[WORD_MAX + 4];
    snprintf(id, sizeof id, "%s%s", word,
             strchr(word, ':') ? "" : edition_suffix(edition));
    int set = tile_set_find(id);
    if (set < 0) /* a set of one edition only, without ":1" (siege/cathars,
                    count) */
        set = tile_set_find(word);
    if (set < 0)
        return unknown("tile set", id, e);
    r->set_copies[set] = 1;
    return ST_OK;
}

/* "key" or "key=N". */
static enum status add_element_word(const char *word, struct rules *r,
                                    struct err *e)
{
    char key[WORD_MAX];
    const char *eq = strchr(word, '=');
    size_t n = eq ? (size_t)(eq - word) : strlen(word);
    snprintf(key, sizeof key, "%.*s", (int)n, word);
    int unit;
    const struct element *el = element_find(key, &unit);
    if (!el)
        return unknown("game element", key, e);
    int most = el->kind == EL_FLAG ? 1 : el->max, value = most;
    if (eq) {
        char *end;
        long v = strtol(eq + 1, &end, 10);
        if (end == eq + 1 || *end || v < 0 || v > most)
            return err_set(e, ST_PARSE, "'%s': %s takes 0..%d", word, key,
                           most);
        value = (int)v;
    }
    element_set(r, el, value);
    return ST_OK;
}

enum { LIST_EXPANSIONS, LIST_SETS, LIST_ELEMENTS };

/* Applies each comma-separated word of list; stops at the first that
 * fails. */
static enum status each_word(const char *list, int kind, int edition,
                             struct rules *r, struct err *e)
{
    for (const char *p = list; p && *p;) {
        char w[WORD_MAX];
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof w)
            return err_set(e, ST_PARSE, "'%.*s' in '%s' is not a name",
                           (int)(n < sizeof w ? n : sizeof w), p, list);
        memcpy(w, p, n);
        w[n] = '\0';
        enum status st = kind == LIST_EXPANSIONS ? add_expansion(w, edition,
                                                                 r, e)
                         : kind == LIST_SETS ? add_set(w, edition, r, e)
                                             : add_element_word(w, r, e);
        if (st != ST_OK)
            return st;
        p += n + (p[n] == ',');
    }
    return ST_OK;
}

enum status sim_rules(const struct sim_setup *s, int n_players,
                      struct rules *out, struct err *e)
{
    enum status st;
    bool c3 = s->edition == 3;
    rules_init(out);
    if (s->edition != 2 && s->edition != 3)
        return err_set(e, ST_PARSE, "edition %d: C2 or C3 only", s->edition);
    if (n_players < 1 || n_players > GAME_MAX_PLAYERS)
        return err_set(e, ST_PARSE, "%d players: 1..%d only", n_players,
                       GAME_MAX_PLAYERS);
    out->n_players = n_players;
    out->set_copies[tile_set_find(c3 ? "basic:2" : "basic:1")] = 1;
    out->set_copies[tile_set_find(c3 ? "flier:2" : "flier:1")] = 1;
    out->figures[FIG_SMALL] = 7;
    out->flags = RF_FARMERS;
    for (int u = 0; u < EXP__COUNT; u++) /* the edition's own (C3) */
        if (sim_units[u] && sim_units[u]->edition)
            sim_units[u]->edition(out, s->edition);
    st = each_word(s->expansions, LIST_EXPANSIONS, s->edition, out, e);
    if (st == ST_OK)
        st = each_word(s->sets, LIST_SETS, s->edition, out, e);
    if (st == ST_OK)
        st = each_word(s->elements, LIST_ELEMENTS, s->edition, out, e);
    return st;
}
