/* sha256.c - SHA-256 by GNU Nettle, the only user of it.
 *
 * Every upload is hashed once at ingest and again by `flierd check`, and
 * every audit report names its input's digest. Nettle uses the CPU's SHA
 * instructions where there are some (about 1.6 GB/s here, 40 times our
 * old portable FIPS 180-4 code, whose hashing was a tenth of the ingest
 * time), and costs a process almost nothing to load and start: OpenSSL's
 * libcrypto, used before, took about 1 ms per process to load, set up
 * its providers and fetch the digest, which `flierd audit` paid once per
 * batch of files on the command line. The FIPS test vectors stay in
 * tests/unit/test_util.c. */
#include "util/sha256.h"

#include <nettle/sha2.h>

void sha256(const void *data, size_t len, uint8_t out[32])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, len, data);
    sha256_digest(&c, SHA256_DIGEST_SIZE, out);
}

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_LEN])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t d[32];
    sha256(data, len, d);
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
}
