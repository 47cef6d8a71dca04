/* report_text.c - pieces of the readable reports. */
#include <stdio.h>

#include "cli/cli_int.h"

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
                                  n ? ", " : " [", log->names[p],
                                  l->occupants[p]);
    if (n && n < len)
        n += (size_t)snprintf(out + n, len - n, "]");
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
            char seg[40];
            seg_format(f->by_roll[k][i].feature, f->by_roll[k][i].mask, seg,
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
