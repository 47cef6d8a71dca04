/* jcz_write.c - struct game_log -> JCloisterZone .jcz save.
 *
 * The inverse of jcz.c/jcz_replay.c: mlog_parse(mlog_write_jcz(l)) == l
 * but for src, which the reader sets to the message index. What the
 * replay cannot say (MV_DISCARD, which the client never writes; claims,
 * totals, notes, colours; a draw or meeple id the messages cannot carry)
 * goes into a top-level "flierd" object that JCloisterZone ignores (see
 * jcz_flierd.c).
 *
 * Shape (that of a JCloisterZone 5.12 save, one line):
 *   {"appVersion","gameId","name","initialRandom","created","clock",
 *    "setup":{"sets","elements","rules","timer","start"},
 *    "players":[{"name","slot"}], "replay":[{"type","payload"[,"player"]}],
 *    "gameAnnotations":{"endTurn"}   only when the log has an end turn,
 *    "flierd":{...}                  only when there is something to add}
 * A save must not depend on when or where it was written, so gameId is a
 * hash of the log and "created" is fixed. initialRandom and the COMMIT
 * randoms carry the log's draws (see draw_after()). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "mlog/mlog_int.h"

#define JCZ_APP_VERSION "5.12.1"
#define JCZ_CREATED "2024-01-01T00:00:00.000Z"

/* ---- content hash ---------------------------------------------------- */

static uint64_t fnv_bytes(uint64_t h, const void *p, size_t len)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t fnv_int(uint64_t h, int64_t v)
{
    for (int i = 0; i < 8; i++) {
        unsigned char c = (unsigned char)(v >> (8 * i));
        h = fnv_bytes(h, &c, 1);
    }
    return h;
}

/* Field by field (never raw structs: padding bytes are unspecified). */
static uint64_t log_hash(const struct game_log *l)
{
    const struct rules *r = &l->rules;
    uint64_t h = 1469598103934665603ull;
    h = fnv_bytes(h, r->set_copies, sizeof r->set_copies);
    h = fnv_int(h, r->n_players);
    for (int f = 0; f < FIG__COUNT; f++)
        h = fnv_int(h, r->figures[f]);
    h = fnv_int(h, (int)r->flags);
    for (int o = 0; o < OPT__COUNT; o++)
        h = fnv_int(h, r->opt[o]);
    for (int p = 0; p < r->n_players && p < GAME_MAX_PLAYERS; p++)
        h = fnv_bytes(h, l->names[p], strnlen(l->names[p], LOG_NAME_MAX) + 1);
    h = fnv_int(h, l->start_tile);
    h = fnv_int(h, l->start_at.x);
    h = fnv_int(h, l->start_at.y);
    h = fnv_int(h, l->start_rot);
    for (int i = 0; i < l->n_more_starts; i++) { /* none: as before */
        h = fnv_int(h, l->more_starts[i].tile);
        h = fnv_int(h, l->more_starts[i].at.x);
        h = fnv_int(h, l->more_starts[i].at.y);
        h = fnv_int(h, l->more_starts[i].rot);
    }
    h = fnv_int(h, l->end_turn);
    for (size_t i = 0; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        h = fnv_int(h, m->kind);
        h = fnv_int(h, m->player);
        h = fnv_bytes(h, m->tile_id, strnlen(m->tile_id, LOG_TILE_ID_MAX));
        h = fnv_int(h, m->at.x);
        h = fnv_int(h, m->at.y);
        h = fnv_int(h, m->rot);
        h = fnv_int(h, m->feature);
        h = fnv_int(h, m->mask);
        h = fnv_int(h, m->meeple);
        h = fnv_int(h, m->meeple_n);
        h = fnv_int(h, m->meeple_owner);
        h = fnv_int(h, m->roll);
        h = fnv_bytes(h, &m->draw, sizeof m->draw);
    }
    /* what only the "flierd" object carries; nothing for a plain log, so
     * that plain saves keep their ids */
    for (int p = 0; p < r->n_players && p < GAME_MAX_PLAYERS; p++)
        if (l->colors[p][0])
            h = fnv_bytes(h, l->colors[p], strnlen(l->colors[p], 16) + 1);
    for (size_t i = 0; i < l->n_claims; i++) {
        const struct claim_event *c = &l->claims[i];
        h = fnv_int(h, c->turn);
        h = fnv_int(h, c->players);
        h = fnv_int(h, c->feature);
        h = fnv_int(h, c->points);
    }
    for (size_t i = 0; i < l->n_totals; i++) {
        h = fnv_int(h, l->totals[i].turn);
        h = fnv_int(h, l->totals[i].seats);
        for (int p = 0; p < GAME_MAX_PLAYERS; p++)
            h = fnv_int(h, l->totals[i].score[p]);
    }
    for (size_t i = 0; i < l->n_notes; i++) {
        const struct turn_note *n = &l->notes[i];
        h = fnv_int(h, n->turn);
        if (n->time)
            h = fnv_bytes(h, n->time, strlen(n->time) + 1);
        if (n->text)
            h = fnv_bytes(h, n->text, strlen(n->text) + 1);
    }
    return h;
}

/* ---- the draw --------------------------------------------------------
 * JCloisterZone draws each turn's tile with the random number of the
 * previous COMMIT (initialRandom for the first). The reader keeps it on
 * the PLACE move as move.draw; a writer of a discard (which has no
 * message) keeps it on the MV_DISCARD. So the random written before a
 * draw is that of the first PLACE or DISCARD that follows: when no draw
 * follows, the log's last number (end_draw), else 0.0, and -1 (the key is left out) when the log does not know
 * it, which reads back as unknown. */
static double draw_after(const struct game_log *l, size_t i)
{
    for (; i < l->n_moves; i++) {
        const struct move *m = &l->moves[i];
        if (m->kind == MV_PLACE || m->kind == MV_DISCARD)
            return m->draw >= 0 && m->draw < 1 ? m->draw : -1.0;
    }
    return l->end_draw >= 0 && l->end_draw < 1 ? l->end_draw : 0.0;
}

/* ---- pieces ------------------------------------------------------------ */

/* d in the shortest form that reads back to exactly d (as
 * JCloisterZone's Java writes doubles). cJSON's own printer settles for
 * 15 digits when they come within an epsilon, which would move a draw's
 * random number. */
cJSON *jcz_number(double d)
{
    char s[40];
    if (!isfinite(d) || (d == (double)(long long)d && d > -1e15 && d < 1e15))
        return cJSON_CreateNumber(isfinite(d) ? d : 0.0);
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(s, sizeof s, "%.*g", prec, d);
        if (strtod(s, NULL) == d)
            break;
    }
    return cJSON_CreateRaw(s);
}

static void add_double(cJSON *o, const char *key, double d)
{
    cJSON_AddItemToObject(o, key, jcz_number(d));
}

/* The message for m, or NULL for a move a .jcz does not record; draw is
 * the random number a COMMIT hands to the next draw (negative: none). */
static cJSON *message_json(const struct move *m, double draw)
{
    const char *type;
    cJSON *payload = jcz_move_payload(m, draw, &type);
    if (!payload)
        return NULL;
    cJSON *msg = cJSON_CreateObject();
    cJSON_AddStringToObject(msg, "type", type);
    cJSON_AddItemToObject(msg, "payload", payload);
    if (m->player >= 0)
        cJSON_AddNumberToObject(msg, "player", m->player);
    return msg;
}

static cJSON *setup_json(const struct game_log *l)
{
    const struct rules *r = &l->rules;
    cJSON *setup = cJSON_CreateObject();
    cJSON *sets = cJSON_AddObjectToObject(setup, "sets");
    for (int s = 0; s < tile_set_count() && s < (int)sizeof r->set_copies;
         s++)
        if (r->set_copies[s])
            cJSON_AddNumberToObject(sets, tile_set_get(s)->id,
                                    r->set_copies[s]);
    cJSON *els = cJSON_AddObjectToObject(setup, "elements");
    /* every element the units know, in their order, as JCloisterZone
     * writes it; those off left out, but the base game's two */
    for (int u = 0; u < EXP__COUNT; u++)
        for (const struct element *el = expansion_get(u)->elements;
             el && el->key; el++) {
            int v = element_get(r, el);
            if (!v && u != EXP_BASE)
                continue;
            if (el->number)
                cJSON_AddNumberToObject(els, el->key, v);
            else
                cJSON_AddBoolToObject(els, el->key, v != 0);
        }
    cJSON *rules = cJSON_AddObjectToObject(setup, "rules");
    for (int o = 0; o < OPT__COUNT; o++) /* the variants, not defaults */
        if (r->opt[o] != option_default(o) &&
            option_value_name(o, r->opt[o]))
            cJSON_AddStringToObject(rules, option_key(o),
                                    option_value_name(o, r->opt[o]));
    cJSON_AddNullToObject(setup, "timer");
    cJSON *start = cJSON_AddArrayToObject(setup, "start");
    int n = game_log_n_starts(l);
    for (int i = 0; i < (n ? n : 1); i++) {
        struct start_place sp = game_log_start(l, i);
        cJSON *s0 = cJSON_CreateObject();
        const struct tile_def *t = tile_get(sp.tile);
        cJSON_AddStringToObject(s0, "tile", t ? t->id : "BA/RCr");
        cJSON_AddNumberToObject(s0, "x", sp.at.x);
        cJSON_AddNumberToObject(s0, "y", sp.at.y);
        cJSON_AddNumberToObject(s0, "rotation", 90 * (sp.rot & 3));
        cJSON_AddItemToArray(start, s0);
    }
    return setup;
}

/* The save as JCloisterZone knows it: everything but the "flierd" object;
 * moves are l's with the meeples named (jcz_named_meeples()). */
static cJSON *save_json(const struct game_log *l, const struct move *moves)
{
    char id[16];
    uint64_t h = log_hash(l);
    cJSON *root = cJSON_CreateObject(), *a;

    snprintf(id, sizeof id, "%012llx",
             (unsigned long long)(h & 0xffffffffffffull));
    cJSON_AddStringToObject(root, "appVersion", JCZ_APP_VERSION);
    cJSON_AddStringToObject(root, "gameId", id);
    cJSON_AddStringToObject(root, "name", "");
    double first = draw_after(l, 0);
    if (first >= 0)
        add_double(root, "initialRandom", first);
    cJSON_AddStringToObject(root, "created", JCZ_CREATED);
    cJSON_AddNumberToObject(root, "clock", 0);
    cJSON_AddItemToObject(root, "setup", setup_json(l));
    a = cJSON_AddArrayToObject(root, "players");
    for (int p = 0; p < l->rules.n_players && p < GAME_MAX_PLAYERS; p++) {
        cJSON *pl = cJSON_CreateObject();
        cJSON_AddStringToObject(pl, "name", l->names[p]);
        cJSON_AddNumberToObject(pl, "slot", p);
        cJSON_AddItemToArray(a, pl);
    }
    a = cJSON_AddArrayToObject(root, "replay");
    for (size_t i = 0; i < l->n_moves; i++) {
        cJSON *msg = message_json(&moves[i], draw_after(l, i + 1));
        if (msg)
            cJSON_AddItemToArray(a, msg);
    }
    if (l->end_turn >= 0) {
        cJSON *ann = cJSON_AddObjectToObject(root, "gameAnnotations");
        cJSON_AddNumberToObject(ann, "endTurn", l->end_turn);
    }
    return root;
}

static char *print_or_die(const cJSON *root)
{
    char *s = cJSON_PrintUnformatted(root);
    if (!s)
        abort(); /* cJSON's only failure is out of memory */
    return s;
}

/* What our reader makes of the plain save s, or false if it cannot (it
 * always can: the writer and the reader are each other's inverse). */
static bool read_plain(const char *s, struct game_log *back)
{
    struct err e;
    cJSON *root = cJSON_Parse(s);
    bool ok = root && jcz_read(root, back, &e) == ST_OK;
    cJSON_Delete(root);
    return ok;
}

void mlog_write_jcz(const struct game_log *l, struct buf *out)
{
    struct game_log back;
    struct move *moves = jcz_named_meeples(l);
    cJSON *root = save_json(l, moves);
    char *s = print_or_die(root);

    /* JCloisterZone ignores the "flierd" object: it holds what the save
     * itself cannot say, found by reading the plain save back. */
    game_log_init(&back);
    cJSON *extra = jcz_flierd_json(l, read_plain(s, &back) ? &back : NULL);
    game_log_release(&back);
    if (extra) {
        cJSON_free(s);
        cJSON_AddItemToObject(root, "flierd", extra);
        s = print_or_die(root);
    }
    buf_puts(out, s);
    buf_puts(out, "\n");
    cJSON_free(s);
    cJSON_Delete(root);
    free(moves);
}
