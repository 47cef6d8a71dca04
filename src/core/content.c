/* content.c - the canonical text a game's content digest is taken of.
 *
 * Version line "flierd-content/1", then one line each: sets, players,
 * figures, counts, flags and options, the start tiles, and a line per
 * move. Changing what goes in changes every digest: bump the version,
 * and `flierd reaudit` writes them again. */
#include "core/content.h"

#include <string.h>

#include "util/buf.h"

/* " v" in decimal, at p; returns the end. A formatted print a number
 * was four fifths of the digest's time, and the digest is taken on the
 * store's one writing thread. */
static char *put_num(char *p, long v)
{
    char tmp[24];
    int n = 0;
    unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
    *p++ = ' ';
    if (v < 0)
        *p++ = '-';
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static void put_bytes(struct buf *b, const char *key, const uint8_t *v,
                      size_t n)
{
    char num[8];
    buf_puts(b, key);
    for (size_t i = 0; i < n; i++)
        buf_append(b, num, (size_t)(put_num(num, v[i]) - num));
    buf_puts(b, "\n");
}

static void put_setup(struct buf *b, const struct game_log *l)
{
    const struct rules *r = &l->rules;
    put_bytes(b, "sets", r->set_copies, sizeof r->set_copies);
    buf_printf(b, "players %d\n", r->n_players);
    for (int p = 0; p < r->n_players && p < GAME_MAX_PLAYERS; p++) {
        /* a name is text: its length first, so no name can end a line */
        buf_printf(b, "name %zu ", strlen(l->names[p]));
        buf_puts(b, l->names[p]);
        buf_puts(b, "\n");
    }
    put_bytes(b, "figures", r->figures, sizeof r->figures);
    put_bytes(b, "counts", r->counts, sizeof r->counts);
    buf_printf(b, "flags %lu\nopt", (unsigned long)r->flags);
    for (size_t i = 0; i < sizeof r->opt / sizeof *r->opt; i++)
        buf_printf(b, " %d", r->opt[i]);
    buf_puts(b, "\n");
    for (int i = 0; i < game_log_n_starts(l); i++) {
        struct start_place s = game_log_start(l, i);
        buf_printf(b, "start %d %d %d %u\n", s.tile, s.at.x, s.at.y,
                   (unsigned)s.rot);
    }
}

static void put_move(struct buf *b, const struct move *m)
{
    const long v[] = { m->kind, m->player, m->tile, m->at.x, m->at.y,
                       m->rot, m->feature, m->mask, m->meeple,
                       m->meeple_owner, m->roll, m->neutral, m->index,
                       m->amount };
    char line[1 + sizeof v / sizeof *v * 22], *p = line;
    *p++ = 'm';
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        p = put_num(p, v[i]);
    buf_append(b, line, (size_t)(p - line));
    /* an unknown tile is known by the id the log wrote */
    if (m->tile < 0) {
        buf_puts(b, " ");
        buf_puts(b, m->tile_id);
    }
    buf_puts(b, "\n");
}

void game_log_content_sha(const struct game_log *l, char out[SHA256_HEX_LEN])
{
    struct buf b = BUF_INIT;
    buf_puts(&b, "flierd-content/1\n");
    put_setup(&b, l);
    for (size_t i = 0; i < l->n_moves; i++)
        put_move(&b, &l->moves[i]);
    sha256_hex(b.p, b.len, out);
    buf_release(&b);
}
