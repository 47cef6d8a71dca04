/* metrics.c - counters and a latency histogram in the Prometheus text
 * exposition format (version 0.0.4). Updated with relaxed atomics from
 * every worker thread; a scrape may see one request counted in the
 * histogram and not yet in the status counters, which Prometheus
 * tolerates. */
#include <inttypes.h>
#include <stdio.h>

#include "http/http_int.h"
#include "http/replay_cache.h"
#include "ingest/ingest.h"

/* Upper bounds of the latency buckets, in microseconds. */
static const uint64_t bucket_us[LAT_BUCKETS] = {
    1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
    1000000, 2500000,
};

void metrics_request(struct metrics *m, int status, size_t bytes,
                     uint64_t micros)
{
    int cls = status / 100;
    if (cls < 1 || cls > 5)
        cls = 0; /* 499: client gone, counted apart */
    atomic_fetch_add_explicit(&m->requests[cls], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes_out, bytes, memory_order_relaxed);
    for (int i = 0; i < LAT_BUCKETS; i++)
        if (micros <= bucket_us[i]) {
            atomic_fetch_add_explicit(&m->lat_bucket[i], 1,
                                      memory_order_relaxed);
            break;
        }
    atomic_fetch_add_explicit(&m->lat_sum_us, micros, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->lat_count, 1, memory_order_relaxed);
}

void metrics_ingest(struct metrics *m, enum status st,
                    const struct ingest_result *res)
{
    enum ingest_outcome o = st != ST_OK       ? IN_FAILED
                            : res->duplicate ? IN_DUPLICATE
                                             : IN_STORED;
    bool stored = o == IN_STORED;
    atomic_fetch_add_explicit(&m->ingests[o], 1, memory_order_relaxed);
    if (stored && res->unsupported)
        atomic_fetch_add_explicit(&m->ingest_unsupported, 1,
                                  memory_order_relaxed);
    else if (stored && !res->valid)
        atomic_fetch_add_explicit(&m->ingest_invalid, 1,
                                  memory_order_relaxed);
    if (st != ST_OK && (unsigned)st < ST__COUNT)
        atomic_fetch_add_explicit(&m->ingest_fail[st], 1,
                                  memory_order_relaxed);
}

static unsigned long long get(atomic_ullong *a)
{
    return atomic_load_explicit(a, memory_order_relaxed);
}

static void header(struct buf *b, const char *name, const char *type,
                   const char *help)
{
    buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void render_requests(struct metrics *m, struct buf *b)
{
    static const char *const cls[6] = { "other", "1xx", "2xx", "3xx", "4xx",
                                        "5xx" };
    header(b, "flierd_http_requests_total", "counter",
           "HTTP requests answered, by status class");
    for (int i = 0; i < 6; i++)
        buf_printf(b, "flierd_http_requests_total{code=\"%s\"} %llu\n",
                   cls[i], get(&m->requests[i]));
    header(b, "flierd_http_response_bytes_total", "counter",
           "Bytes of response bodies");
    buf_printf(b, "flierd_http_response_bytes_total %llu\n",
               get(&m->bytes_out));
    header(b, "flierd_http_requests_in_flight", "gauge",
           "Requests being processed");
    buf_printf(b, "flierd_http_requests_in_flight %d\n",
               atomic_load(&m->inflight));
    header(b, "flierd_http_request_duration_seconds", "histogram",
           "Time from the request headers to the end of the response");
    unsigned long long cum = 0;
    for (int i = 0; i < LAT_BUCKETS; i++) {
        cum += get(&m->lat_bucket[i]);
        buf_printf(b, "flierd_http_request_duration_seconds_bucket"
                   "{le=\"%g\"} %llu\n", (double)bucket_us[i] / 1e6, cum);
    }
    unsigned long long count = get(&m->lat_count);
    buf_printf(b, "flierd_http_request_duration_seconds_bucket{le=\"+Inf\"} "
               "%llu\n", count);
    buf_printf(b, "flierd_http_request_duration_seconds_sum %.6f\n",
               (double)get(&m->lat_sum_us) / 1e6);
    buf_printf(b, "flierd_http_request_duration_seconds_count %llu\n", count);
}

static void render_ingests(struct metrics *m, struct buf *b)
{
    static const char *const outcome[IN_N] = { "stored", "duplicate",
                                               "failed" };
    header(b, "flierd_ingests_total", "counter",
           "Game logs ingested (uploads and spool), by outcome");
    for (int i = 0; i < IN_N; i++)
        buf_printf(b, "flierd_ingests_total{outcome=\"%s\"} %llu\n",
                   outcome[i], get(&m->ingests[i]));
    header(b, "flierd_ingests_invalid_total", "counter",
           "Games stored with at least one rule violation");
    buf_printf(b, "flierd_ingests_invalid_total %llu\n",
               get(&m->ingest_invalid));
    header(b, "flierd_ingests_unsupported_total", "counter",
           "Games stored without an audit: an expansion not supported yet");
    buf_printf(b, "flierd_ingests_unsupported_total %llu\n",
               get(&m->ingest_unsupported));
    header(b, "flierd_ingest_failures_total", "counter",
           "Game logs refused, by reason");
    static const char *const reason[ST__COUNT] = {
        [ST_IO] = "io", [ST_PARSE] = "parse", [ST_UNSUPPORTED] = "unsupported",
        [ST_LIMIT] = "limit", [ST_RULE] = "rule", [ST_DB] = "db",
        [ST_BUSY] = "busy",
        [ST_CONFLICT] = "conflict", [ST_FULL] = "full", [ST_NOMEM] = "nomem",
    };
    for (int st = ST_IO; st < ST__COUNT; st++)
        if (reason[st])
            buf_printf(b, "flierd_ingest_failures_total{reason=\"%s\"} "
                       "%llu\n", reason[st], get(&m->ingest_fail[st]));
    header(b, "flierd_live_moves_total", "counter",
           "Live turns, by outcome");
    buf_printf(b, "flierd_live_moves_total{outcome=\"accepted\"} %llu\n",
               get(&m->live_moves));
    buf_printf(b, "flierd_live_moves_total{outcome=\"refused\"} %llu\n",
               get(&m->live_refused));
}

static void render_replays(struct replay_cache *c, struct buf *b)
{
    struct replay_cache_stats st;
    replay_cache_stats(c, &st);
    header(b, "flierd_replay_cache_requests_total", "counter",
           "Replays asked for, by whether the rendered copy was kept");
    buf_printf(b, "flierd_replay_cache_requests_total{result=\"hit\"} "
               "%llu\n", st.hits);
    buf_printf(b, "flierd_replay_cache_requests_total{result=\"miss\"} "
               "%llu\n", st.misses);
    header(b, "flierd_replay_cache_evictions_total", "counter",
           "Rendered replays dropped to stay within the cache's bytes");
    buf_printf(b, "flierd_replay_cache_evictions_total %llu\n",
               st.evictions);
    header(b, "flierd_replay_cache_bytes", "gauge",
           "Bytes of rendered replays kept");
    buf_printf(b, "flierd_replay_cache_bytes %zu\n", st.bytes);
    header(b, "flierd_replay_cache_entries", "gauge",
           "Rendered replays kept");
    buf_printf(b, "flierd_replay_cache_entries %zu\n", st.entries);
}

/* What the database holds: the same from every daemon on it, where the
 * counters above are this process's own. */
static void render_games(const struct store_counts *c, struct buf *b)
{
    header(b, "flierd_games", "gauge",
           "Games stored in the database, by verdict (all daemons on it)");
    buf_printf(b, "flierd_games{verdict=\"valid\"} %lld\n",
               (long long)c->valid);
    buf_printf(b, "flierd_games{verdict=\"invalid\"} %lld\n",
               (long long)c->invalid);
    buf_printf(b, "flierd_games{verdict=\"unsupported\"} %lld\n",
               (long long)c->unsupported);
    header(b, "flierd_live_games", "gauge",
           "Live games being recorded (all daemons on the database)");
    buf_printf(b, "flierd_live_games %lld\n", (long long)c->live);
}

void metrics_render(struct metrics *m, struct replay_cache *replays,
                    const struct store_counts *games, struct buf *out)
{
    render_requests(m, out);
    render_ingests(m, out);
    render_replays(replays, out);
    if (games)
        render_games(games, out);
}
