/* gunzip.c - a gzip file's bytes, through zlib's inflate (gunzip.h). */
#include "util/gunzip.h"

#include <limits.h>
#include <stdint.h>
#include <zlib.h>

bool gunzip_is(const char *p, size_t len)
{
    return len >= 2 && (unsigned char)p[0] == 0x1f &&
           (unsigned char)p[1] == 0x8b;
}

enum status gunzip(const char *p, size_t len, size_t cap, struct buf *out,
                   struct err *e)
{
    z_stream zs = { 0 };
    enum status st = ST_OK;
    size_t start = out->len;
    if (len > UINT_MAX)
        return err_set(e, ST_LIMIT, "a compressed file of %zu bytes is too "
                       "large", len);
    /* 16 + MAX_WBITS: a gzip header and trailer, nothing else */
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return err_set(e, ST_NOMEM, "no memory to decompress; try again");
    zs.next_in = (Bytef *)(uintptr_t)p;
    zs.avail_in = (uInt)len;
    for (;;) {
        size_t room = 65536;
        char *at = buf_space(out, room);
        zs.next_out = (Bytef *)at;
        zs.avail_out = (uInt)room;
        int rc = inflate(&zs, Z_NO_FLUSH);
        out->len += room - zs.avail_out;
        out->p[out->len] = '\0';
        if (out->len - start > cap) {
            st = err_set(e, ST_LIMIT, "the compressed file holds more than "
                         "the %zu bytes a game log may have", cap);
            break;
        }
        if (rc == Z_STREAM_END && zs.avail_in > 0 &&
            gunzip_is((const char *)zs.next_in, zs.avail_in)) {
            inflateReset(&zs); /* another member follows (cat a.gz b.gz) */
            continue;
        }
        if (rc == Z_STREAM_END)
            break;
        if (rc == Z_OK)
            continue;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            st = err_set(e, ST_PARSE, "the compressed (gzip) file ends early "
                         "at byte %zu: it was cut short", len);
            break;
        }
        st = err_set(e, ST_PARSE, "the compressed (gzip) file is damaged at "
                     "byte %zu: %s", len - zs.avail_in,
                     zs.msg ? zs.msg : "zlib cannot read it");
        break;
    }
    inflateEnd(&zs);
    return st;
}
