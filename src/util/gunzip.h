/* gunzip.h - the bytes of a gzip file, for logs saved compressed (a
 * game.jcz.gz). zlib is used here only. */
#ifndef UTIL_GUNZIP_H
#define UTIL_GUNZIP_H
#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"
#include "util/err.h"

/* Do the bytes start as a gzip file does (1f 8b)? */
bool gunzip_is(const char *p, size_t len);

/* Appends what the gzip file p[0..len) holds (its members one after the
 * other) to out, refusing more than cap bytes of it. ST_PARSE when it is
 * damaged or cut short (e->msg: "the compressed file ends early at byte
 * N", or what zlib says at which byte), ST_LIMIT past cap; out then holds
 * what came before. */
enum status gunzip(const char *p, size_t len, size_t cap, struct buf *out,
                   struct err *e) WARN_UNUSED;

#endif
