/* store_record.c - what both backends derive alike from a game record
 * before writing it: the per-seat sums, the edition, the setup's JSON,
 * the search text and a flight's landing options. */
#include <string.h>

#include "store/store_record.h"

static void sum_events(const struct report *r, int n, struct seat_sum *sum)
{
    for (size_t i = 0; i < r->n_events; i++) {
        const struct score_event *ev = &r->events[i];
        for (int p = 0; p < n; p++) {
            if (!(ev->players & (1u << p)))
                continue;
            if (ev->feature < FEAT__CLASSES) {
                sum[p].pts[ev->feature] += ev->points;
                sum[p].scored[ev->feature] = true;
            }
            if (ev->fliers & (1u << p))
                sum[p].flier_points += ev->points;
        }
    }
}

static void sum_flights(const struct report *r, int n, struct seat_sum *sum)
{
    for (size_t i = 0; i < r->n_flights; i++) {
        const struct flight *f = &r->flights[i];
        if (f->player < 0 || f->player >= n)
            continue;
        struct seat_sum *q = &sum[f->player];
        q->flights++;
        if (f->landed)
            q->landed++;
        else if (!f->pending)
            q->returned++;
        if (f->n_options == 0 && !f->bad_roll)
            q->forced++;
        if (f->roll >= 1 && f->roll <= 3)
            q->rolls[f->roll - 1]++;
    }
}

void record_summarise(const struct game_record *g, struct seat_sum *sum)
{
    const struct report *r = g->report;
    int n = g->log->rules.n_players;
    memset(sum, 0, GAME_MAX_PLAYERS * sizeof *sum);
    sum_events(r, n, sum);
    sum_flights(r, n, sum);
    for (int p = 0; p < n; p++) {
        sum[p].rank = 1;
        for (int q = 0; q < n; q++)
            sum[p].rank += r->score[q] > r->score[p];
    }
    /* the claimed final score: the last total claimed after final scoring */
    for (size_t i = 0; i < g->log->n_totals; i++) {
        const struct claim_total *t = &g->log->totals[i];
        for (int p = 0; p < n && t->turn == -1; p++)
            if (t->seats & (1u << p)) {
                sum[p].has_claim = true;
                sum[p].claimed = t->score[p];
            }
    }
}

const char *record_edition(const struct rules *r)
{
    int c3 = tile_set_find("basic:2");
    return c3 >= 0 && c3 < TILE_SETS && r->set_copies[c3] > 0 ? "C3" : "C2";
}

/* {"basic:1": 1, "flier:1": 1}: set ids are our own constants. */
void record_sets_json(const struct rules *r, struct buf *out)
{
    buf_puts(out, "{");
    for (int i = 0, k = 0; i < tile_set_count() && i < TILE_SETS; i++)
        if (r->set_copies[i] > 0)
            buf_printf(out, "%s\"%s\":%d", k++ ? "," : "", tile_set_get(i)->id,
                       r->set_copies[i]);
    buf_puts(out, "}");
}

/* {"small-follower": 7, "farmers": true, "big-follower": 1, ...}: each
 * element of the units in play that the rules use (a count of figures,
 * or true for a switch), in the units' order. Keys are the units' own
 * constants (JCloisterZone's setup.elements keys). */
void record_elements_json(const struct rules *r, struct buf *out)
{
    uint64_t units = game_rules_units(r);
    int k = 0;
    buf_puts(out, "{");
    for (int e = 0; e < EXP__COUNT; e++) {
        if (!(units >> e & 1))
            continue;
        for (const struct element *el = expansion_get(e)->elements;
             el && el->key; el++) {
            int v = element_get(r, el); /* a switch: true; else a count */
            if (v && el->kind == EL_FLAG)
                buf_printf(out, "%s\"%s\":true", k++ ? "," : "", el->key);
            else if (v)
                buf_printf(out, "%s\"%s\":%d", k++ ? "," : "", el->key, v);
        }
    }
    buf_puts(out, "}");
}

/* File and player names, one per line, for the q filter. */
void record_search_text(const struct game_record *g, struct buf *out)
{
    buf_puts(out, g->name ? g->name : "");
    for (int p = 0; g->log && p < g->log->rules.n_players; p++) {
        buf_puts(out, "\n");
        buf_puts(out, g->log->names[p]);
    }
}

void record_options_json(const struct flight *f, struct buf *out)
{
    char seg[40];
    out->len = 0;
    buf_puts(out, "[");
    for (int i = 0; i < f->n_options && i < TILE_MAX_SEGS; i++) {
        seg_format(f->options[i].feature, f->options[i].mask, seg, sizeof seg);
        buf_printf(out, "%s\"%s\"", i ? "," : "", seg);
    }
    buf_puts(out, "]");
}

void record_json_string(struct buf *out, const char *s)
{
    static const char special[32] = {
        ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r',
    };
    if (!s) {
        buf_puts(out, "null");
        return;
    }
    buf_puts(out, "\"");
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c != '"' && c != '\\' && c >= 0x20)
            continue;
        buf_append(out, run, (size_t)(s - run));
        run = s + 1;
        if (c == '"' || c == '\\')
            buf_printf(out, "\\%c", c);
        else if (special[c])
            buf_printf(out, "\\%c", special[c]);
        else
            buf_printf(out, "\\u%04x", c);
    }
    buf_append(out, run, (size_t)(s - run));
    buf_puts(out, "\"");
}

void record_players_json(const struct game_record *g,
                         const struct seat_sum *sum, struct buf *players,
                         struct buf *winners)
{
    const struct game_log *l = g->log;
    buf_puts(players, "[");
    buf_puts(winners, "[");
    for (int p = 0; l && p < l->rules.n_players; p++) {
        buf_puts(players, p ? ",{\"name\":" : "{\"name\":");
        record_json_string(players, l->names[p]);
        buf_puts(players, ",\"color\":");
        record_json_string(players, l->colors[p][0] ? l->colors[p] : NULL);
        buf_printf(players, ",\"score\":%d,\"rank\":%d,\"claimed\":",
                   g->report->score[p], sum[p].rank);
        if (sum[p].has_claim)
            buf_printf(players, "%d}", sum[p].claimed);
        else
            buf_puts(players, "null}");
        if (g->report->finished && sum[p].rank == 1) {
            buf_puts(winners, winners->len > 1 ? "," : "");
            record_json_string(winners, l->names[p]);
        }
    }
    buf_puts(players, "]");
    buf_puts(winners, "]");
}
