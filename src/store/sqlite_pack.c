/* sqlite_pack.c - uploads and audits kept as zstd frames.
 *
 * A .jcz is JSON that zstd's fastest level brings to an eighth, its audit
 * to a fifth: 30 KB a game became 6 KB in the file, and the file's pages
 * are what ingest writes twice (WAL, then checkpoint), what the page
 * cache must hold as the database grows, and what a backup copies. The
 * frames carry their content size; rows written before schema/004 (codec
 * NULL) are read as they are. Only this file includes zstd.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/content.h"
#include "store/sqlite_int.h"

/* Level 1: a few ten microseconds a game on the ingest workers; level 3
 * saved a few bytes more for half again the time. */
#define PACK_LEVEL 1

/* One compression context per thread that packs (workers, HTTP handlers,
 * the writer), made on first use and freed with the thread: making one
 * per call was half the cost of a small frame. */
static pthread_key_t cctx_key;
static pthread_once_t cctx_once = PTHREAD_ONCE_INIT;
static bool cctx_key_ok;

static void free_cctx(void *p)
{
    ZSTD_freeCCtx(p);
}

static void make_key(void)
{
    cctx_key_ok = pthread_key_create(&cctx_key, free_cctx) == 0;
}

static ZSTD_CCtx *thread_cctx(void)
{
    pthread_once(&cctx_once, make_key);
    if (!cctx_key_ok)
        return NULL;
    ZSTD_CCtx *c = pthread_getspecific(cctx_key);
    if (!c) {
        c = ZSTD_createCCtx();
        if (c && pthread_setspecific(cctx_key, c) != 0) {
            ZSTD_freeCCtx(c);
            c = NULL;
        }
    }
    return c;
}

bool sq_pack_bytes(const void *src, size_t len, struct buf *out)
{
    ZSTD_CCtx *c = thread_cctx();
    size_t bound = ZSTD_compressBound(len);
    out->len = 0;
    if (!c || !buf_try_append(out, "", 0))
        return false;
    char *dst = buf_space(out, bound);
    size_t n = ZSTD_compressCCtx(c, dst, bound, src ? src : "", len,
                                 PACK_LEVEL);
    if (ZSTD_isError(n))
        return false;
    out->len = n;
    out->p[n] = '\0';
    return true;
}

void sq_pack(const struct game_record *g, struct store_packed *out)
{
    if (!g->unsupported && g->log)
        game_log_content_sha(g->log, out->content);
    out->done = sq_pack_bytes(g->raw, g->raw_len, &out->raw);
    if (out->done && g->report_json)
        out->done = sq_pack_bytes(g->report_json, strlen(g->report_json),
                                  &out->report);
}

/* The content size a frame states, checked: *why says what is wrong. */
static const char *frame_size(const void *src, size_t len, size_t *out)
{
    unsigned long long size = ZSTD_getFrameContentSize(src, len);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
        return "not a zstd frame with its size";
    /* SQLite's own limit on a value: no upload was larger */
    if (size > 1000000000ull)
        return "a zstd frame larger than any upload";
    *out = (size_t)size;
    return NULL;
}

static const char *decode(ZSTD_DCtx *d, void *dst, size_t size,
                          const void *src, size_t len)
{
    size_t n = d ? ZSTD_decompressDCtx(d, dst, size, src, len)
                 : ZSTD_decompress(dst, size, src, len);
    return ZSTD_isError(n) || n != size ? "not a whole zstd frame" : NULL;
}

const char *sq_unpack(const void *src, size_t len, const char *codec,
                      struct buf *out)
{
    size_t size = 0;
    const char *why = NULL;
    out->len = 0;
    if (!codec) {
        buf_append(out, src ? src : "", len);
        return NULL;
    }
    if (strcmp(codec, "zstd") != 0)
        return "an unknown codec";
    if ((why = frame_size(src, len, &size)) != NULL)
        return why;
    char *dst = buf_space(out, size);
    if ((why = decode(NULL, dst, size, src, len)) != NULL)
        return why;
    out->len = size;
    out->p[size] = '\0';
    return NULL;
}

/* unpack(data, codec): data as it was written (codec NULL: as stored);
 * an SQL error for a frame that does not decode, which `flierd check`
 * names by game instead (sq_unpack). */
static void fn_unpack(sqlite3_context *c, int argc, sqlite3_value **argv)
{
    const char *codec = (const char *)sqlite3_value_text(argv[1]);
    const void *src = sqlite3_value_blob(argv[0]);
    size_t len = (size_t)sqlite3_value_bytes(argv[0]), size = 0;
    const char *why = NULL;
    (void)argc;
    if (!codec || sqlite3_value_type(argv[0]) == SQLITE_NULL) {
        sqlite3_result_value(c, argv[0]);
        return;
    }
    if (strcmp(codec, "zstd") != 0)
        why = "an unknown codec";
    if (!why)
        why = frame_size(src, len, &size);
    void *dst = why ? NULL : sqlite3_malloc64(size ? size : 1);
    if (!why && !dst) {
        sqlite3_result_error_nomem(c);
        return;
    }
    if (!why && (why = decode(sqlite3_user_data(c), dst, size, src, len)) == NULL) {
        sqlite3_result_blob64(c, dst, size, sqlite3_free);
        return;
    }
    sqlite3_free(dst);
    char msg[96];
    snprintf(msg, sizeof msg, "a stored upload or audit: %s", why);
    sqlite3_result_error(c, msg, -1);
}

static void free_dctx(void *p)
{
    ZSTD_freeDCtx(p);
}

int sq_register_unpack(sqlite3 *db)
{
    /* one decompression context per connection: a connection belongs
     * to one thread at a time */
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d)
        return SQLITE_NOMEM;
    return sqlite3_create_function_v2(
        db, "unpack", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
        d, fn_unpack, NULL, NULL, free_dctx);
}
