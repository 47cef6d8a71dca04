/* sha256.h - SHA-256 (FIPS 180-4) of a byte string, for pinning a verdict
 * to the exact bytes it was given. */
#ifndef UTIL_SHA256_H
#define UTIL_SHA256_H
#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX_LEN 65 /* 64 hex digits + NUL */

void sha256(const void *data, size_t len, uint8_t out[32]);
/* Lower-case hex digest into out[SHA256_HEX_LEN]. */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN]);

#endif
