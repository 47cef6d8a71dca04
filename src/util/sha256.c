/* sha256.c - SHA-256 by OpenSSL's libcrypto, the only user of it.
 *
 * Every upload is hashed once at ingest and again by `flierd check`;
 * libcrypto uses the CPU's SHA instructions where there are some (about
 * 1.8 GB/s here, 40 times our portable FIPS 180-4 code, which hashing
 * made a tenth of the ingest time). The FIPS test vectors stay in
 * tests/unit/test_util.c. */
#include "util/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* Left to itself, libcrypto's first use loads the system's openssl.cnf,
 * and when that first use is on a worker thread (the daemon's, ingest's)
 * OpenSSL 3.0 keeps that thread's error state after the thread ends
 * (904 bytes a process, found by fuzz_http under LeakSanitizer). A
 * digest needs no configuration. */
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
/* Fetched once: EVP_sha256() makes EVP_Digest look the implementation
 * up in the providers on every call, a fifth of hashing a small file.
 * Kept for the life of the process (never freed: one object). */
static EVP_MD *sha256_md;

static void crypto_init(void)
{
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL);
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

void sha256(const void *data, size_t len, uint8_t out[32])
{
    unsigned int n = 0;
    pthread_once(&crypto_once, crypto_init);
    /* fails only without memory: like xmalloc, say so and stop */
    if (!EVP_Digest(data, len, out, &n,
                    sha256_md ? sha256_md : EVP_sha256(), NULL) || n != 32) {
        fputs("flierd: SHA-256 failed (out of memory?)\n", stderr);
        abort();
    }
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
