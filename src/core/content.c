/* content.c - the canonical text a game's content digest is taken of.
 *
 * Version line "flierd-content/1", then one line each: sets, players,
 * figures, counts, flags and options, the start tiles, and a line per
 * move. Changing what goes in changes every digest: bump the version,
 * and `flierd reaudit` writes them again. */
#include "core/content.h"

#include <string.h>

#include "util/buf.h"

static void put_bytes(struct buf *b, const char *key, const uint8_t *v,
                      size_t n)
{
    buf_puts(b, key);
    for (size_t i = 0; i < n; i++)
        buf_printf(b, " %u", (unsigned)v[i]);
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
    buf_printf(b, "m %u %d %d %d %d %u %u %u %u %d %d %u %d %d",
               (unsigned)m->kind, m->player, m->tile, m->at.x, m->at.y,
               (unsigned)m->rot, (unsigned)m->feature, (unsigned)m->mask,
               (unsigned)m->meeple, m->meeple_owner, m->roll,
               (unsigned)m->neutral, m->index, m->amount);
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
