/* report_text.c - pieces of the readable reports. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_int.h"
#include "core/words.h"

const char *cli_seat_name(const struct game_log *log, int seat)
{
    return seat >= 0 && seat < log->rules.n_players ? log->names[seat] : "?";
}

unsigned cli_winners(const struct game_log *log, const int *score)
{
    unsigned w = 0;
    int best = 0;
    for (int p = 0; p < log->rules.n_players; p++)
        if (score[p] > best)
            best = score[p];
    for (int p = 0; p < log->rules.n_players; p++)
        if (score[p] == best)
            w |= 1u << p;
    return w;
}

void cli_print_scoreline(FILE *out, const char *label,
                         const struct game_log *log, const int *score,
                         bool mark_winner)
{
    unsigned w = cli_winners(log, score);
    fputs(label, out);
    for (int p = 0; p < log->rules.n_players; p++)
        fprintf(out, "%s %s %d%s", p ? "," : "", log->names[p], score[p],
                mark_winner && (w & (1u << p)) ? " (winner)" : "");
    fputc('\n', out);
}

static size_t occupants(const struct game_log *log, const struct landing *l,
                        char *out, size_t len)
{
    size_t n = 0;
    for (int p = 0; p < log->rules.n_players && n < len; p++)
        if (l->occupants[p])
            n += (size_t)snprintf(out + n, len - n, "%s%s %d",
                                  n ? ", " : " (", log->names[p],
                                  l->occupants[p]);
    if (n && n < len)
        n += (size_t)snprintf(out + n, len - n, ")");
    return n;
}

void cli_format_odds(const struct game_log *log, const struct flight *f,
                     char *out, size_t len)
{
    size_t n = 0;
    int with = 0;
    for (int k = 0; k < 3 && n < len; k++) {
        n += (size_t)snprintf(out + n, len - n, "%sroll %d -> (%d,%d): ",
                              k ? "; " : "", k + 1, f->by_roll_target[k].x,
                              f->by_roll_target[k].y);
        if (f->n_by_roll[k] == 0 && n < len)
            n += (size_t)snprintf(out + n, len - n, "no landing");
        for (int i = 0; i < f->n_by_roll[k] && n < len; i++) {
            char seg[64];
            seg_words(f->by_roll[k][i].feature, f->by_roll[k][i].mask, seg,
                      sizeof seg);
            n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "",
                                  seg);
            if (n < len)
                n += occupants(log, &f->by_roll[k][i], out + n, len - n);
        }
        with += f->n_by_roll[k] > 0;
    }
    if (n < len)
        snprintf(out + n, len - n, "; chance to land %d/3", with);
}

static int ref_cmp(const void *pa, const void *pb)
{
    const struct feature_ref *a = pa, *b = pb;
    return a->y != b->y ? a->y - b->y : a->x - b->x;
}

/* A field's refs are the cities it touches: it is found by the segment
 * the event keeps, on the final board. */
static void field_where(const struct game *g, const struct score_event *ev,
                        char *out, size_t len)
{
    const struct seg *s;
    char name[64];
    if (!g || ev->seg >= g->n_segs)
        return;
    s = &g->segs[ev->seg];
    if (s->kind != ev->feature || s->tile >= g->n_tiles)
        return;
    struct pos p = game_tile_pos(g, s->tile);
    seg_words(s->kind, s->mask, name, sizeof name);
    snprintf(out, len, " (%s of the tile at (%d,%d))", name, p.x, p.y);
}

void cli_event_where(const struct report *r, const struct game *g,
                     size_t i, char *out, size_t len)
{
    const struct score_event *ev = &r->events[i];
    struct feature_ref sq[16];
    size_t n = ev->n_refs, k = 0;
    out[0] = '\0';
    if (feat_shape(ev->feature) == SHAPE_HALVES) {
        field_where(g, ev, out, len);
        return;
    }
    if (n == 0)
        return;
    for (size_t j = 0; j < n && k < sizeof sq / sizeof sq[0]; j++)
        sq[k++] = r->refs[ev->ref0 + j];
    qsort(sq, k, sizeof sq[0], ref_cmp);
    bool row = true, column = true;
    for (size_t j = 1; j < k; j++) {
        row = row && sq[j].y == sq[0].y && sq[j].x == sq[j - 1].x + 1;
        column = column && sq[j].x == sq[0].x && sq[j].y == sq[j - 1].y + 1;
    }
    char what[40];
    feat_words(ev->feature, false, what, sizeof what);
    size_t w = (size_t)snprintf(out, len, " (the %s ", what);
    if (k > 1 && k == n && (row || column)) {
        snprintf(out + w, w < len ? len - w : 0, "from (%d,%d) to (%d,%d))",
                 sq[0].x, sq[0].y, sq[k - 1].x, sq[k - 1].y);
        return;
    }
    w += (size_t)snprintf(out + w, w < len ? len - w : 0, "at");
    size_t shown = k < 5 ? k : 4;
    for (size_t j = 0; j < shown && w < len; j++)
        w += (size_t)snprintf(out + w, len - w, "%s(%d,%d)",
                              j == 0 ? " " : j + 1 == n ? " and " : ", ",
                              sq[j].x, sq[j].y);
    if (shown < n && w < len)
        w += (size_t)snprintf(out + w, len - w, " and %zu more squares",
                              n - shown);
    if (w < len)
        snprintf(out + w, len - w, ")");
}
