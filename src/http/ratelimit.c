/* ratelimit.c - token buckets per client address, for 429 Too Many
 * Requests. Two buckets per client: every request takes a token of the
 * first, a write (an upload, a live move) one of the second too; a
 * request is refused, taking nothing, when one it needs is empty.
 *
 * Clients are keyed by IPv4 address, or by IPv6 /64: one host commonly
 * holds a whole /64, so a key per IPv6 address would let it rotate past
 * the limit. The table has a fixed size (bounded memory under a flood
 * of addresses): a client whose buckets have refilled is the same as an
 * unknown one, so a sweep drops those when the table fills; if every
 * entry is still in use, the new addresses share one overflow bucket,
 * which limits them together rather than not at all. */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "http/http_int.h"
#include "util/xalloc.h"

#define RL_SLOTS 8192 /* a power of two */
#define RL_FULL (RL_SLOTS / 4 * 3)

struct rl_bucket {
    double tokens;
    uint64_t at_us; /* when tokens was last brought up to date */
};

struct rl_entry {
    unsigned char key[RL_KEY_LEN];
    bool used;
    struct rl_bucket all, write;
};

struct rate_limiter {
    pthread_mutex_t lock;
    struct rl_limit all, write;
    struct rl_entry *slots; /* RL_SLOTS, open addressing */
    size_t n_used;
    uint64_t next_sweep_us;
    struct rl_entry overflow;
};

void rl_key(const struct sockaddr *sa, unsigned char key[RL_KEY_LEN])
{
    static const unsigned char v4mapped[12] = { 0, 0, 0, 0, 0, 0,
                                                0, 0, 0, 0, 0xff, 0xff };
    memset(key, 0, RL_KEY_LEN);
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        memcpy(key, v4mapped, sizeof v4mapped);
        memcpy(key + 12, &in->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        const unsigned char *a =
            ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        /* an IPv4 client of a dual-stack socket is that IPv4 address */
        memcpy(key, a, memcmp(a, v4mapped, sizeof v4mapped) == 0 ? 16 : 8);
    }
}

struct rate_limiter *rl_new(struct rl_limit all, struct rl_limit write)
{
    if (all.rate == 0 && write.rate == 0)
        return NULL;
    struct rate_limiter *rl = xcalloc(1, sizeof *rl);
    pthread_mutex_init(&rl->lock, NULL);
    rl->all = all;
    rl->write = write;
    rl->slots = xcalloc(RL_SLOTS, sizeof *rl->slots);
    return rl;
}

void rl_free(struct rate_limiter *rl)
{
    if (!rl)
        return;
    pthread_mutex_destroy(&rl->lock);
    free(rl->slots);
    free(rl);
}

/* Brings b up to now; a new bucket (at_us 0) starts full. Threads read
 * the clock before they take the lock, so now_us may be a little behind
 * at_us: no time has passed then. */
static void refill(struct rl_bucket *b, const struct rl_limit *l,
                   uint64_t now_us)
{
    if (b->at_us == 0) {
        b->tokens = l->burst;
        b->at_us = now_us;
    } else if (now_us > b->at_us) {
        b->tokens += (double)(now_us - b->at_us) * l->rate / 1e6;
        if (b->tokens > l->burst)
            b->tokens = l->burst;
        b->at_us = now_us;
    }
}

static bool refilled(const struct rl_entry *en, const struct rate_limiter *rl,
                     uint64_t now_us)
{
    struct rl_bucket a = en->all, w = en->write;
    refill(&a, &rl->all, now_us);
    refill(&w, &rl->write, now_us);
    return a.tokens >= rl->all.burst && w.tokens >= rl->write.burst;
}

static size_t slot_of(const unsigned char key[RL_KEY_LEN])
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (int i = 0; i < RL_KEY_LEN; i++)
        h = (h ^ key[i]) * 16777619u;
    return h & (RL_SLOTS - 1);
}

/* Rebuilds the table without the clients whose buckets are full again. */
static void sweep(struct rate_limiter *rl, uint64_t now_us)
{
    struct rl_entry *old = rl->slots;
    rl->slots = xcalloc(RL_SLOTS, sizeof *rl->slots);
    rl->n_used = 0;
    for (size_t i = 0; i < RL_SLOTS; i++) {
        if (!old[i].used || refilled(&old[i], rl, now_us))
            continue;
        size_t j = slot_of(old[i].key);
        while (rl->slots[j].used)
            j = (j + 1) & (RL_SLOTS - 1);
        rl->slots[j] = old[i];
        rl->n_used++;
    }
    free(old);
    /* a sweep that freed little is not tried again at once: under a
     * flood of addresses that would be a full scan per request */
    rl->next_sweep_us = now_us + 1000000u;
}

static struct rl_entry *find(struct rate_limiter *rl,
                             const unsigned char key[RL_KEY_LEN],
                             uint64_t now_us)
{
    size_t j = slot_of(key);
    while (rl->slots[j].used) {
        if (memcmp(rl->slots[j].key, key, RL_KEY_LEN) == 0)
            return &rl->slots[j];
        j = (j + 1) & (RL_SLOTS - 1);
    }
    if (rl->n_used >= RL_FULL) {
        if (now_us < rl->next_sweep_us)
            return &rl->overflow;
        sweep(rl, now_us);
        if (rl->n_used >= RL_FULL)
            return &rl->overflow;
        j = slot_of(key);
        while (rl->slots[j].used)
            j = (j + 1) & (RL_SLOTS - 1);
    }
    memset(&rl->slots[j], 0, sizeof rl->slots[j]);
    memcpy(rl->slots[j].key, key, RL_KEY_LEN);
    rl->slots[j].used = true;
    rl->n_used++;
    return &rl->slots[j];
}

/* Seconds until b holds a token again (at least 1, rounded up). */
static unsigned wait_s(const struct rl_bucket *b, const struct rl_limit *l)
{
    double s = (1.0 - b->tokens) / l->rate;
    unsigned w = (unsigned)s;
    return w + (s > (double)w) + (s <= 0);
}

unsigned rl_take(struct rate_limiter *rl, const unsigned char key[RL_KEY_LEN],
                 bool write, uint64_t now_us, bool *out_by_write)
{
    unsigned wait = 0;
    *out_by_write = false;
    if (!rl)
        return 0;
    pthread_mutex_lock(&rl->lock);
    struct rl_entry *en = find(rl, key, now_us);
    bool use_all = rl->all.rate > 0, use_write = write && rl->write.rate > 0;
    if (use_all) {
        refill(&en->all, &rl->all, now_us);
        if (en->all.tokens < 1.0)
            wait = wait_s(&en->all, &rl->all);
    }
    if (use_write) {
        refill(&en->write, &rl->write, now_us);
        if (en->write.tokens < 1.0) {
            unsigned w = wait_s(&en->write, &rl->write);
            *out_by_write = w >= wait;
            wait = w > wait ? w : wait;
        }
    }
    if (wait == 0) {
        en->all.tokens -= use_all;
        en->write.tokens -= use_write;
    }
    pthread_mutex_unlock(&rl->lock);
    return wait;
}
