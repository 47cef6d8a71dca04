/* test_util.c - util: SHA-256 against FIPS 180-4 vectors, buffers, errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/err.h"
#include "util/fault.h"
#include "util/sha256.h"
#include "util/xalloc.h"

static const struct {
    const char *in;
    size_t repeat;
    const char *hex;
} vectors[] = {
    { "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "abc", 1,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
    { "a", 1000000,
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
    /* 55, 56 and 64 bytes: the padding boundaries */
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
      "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
      "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
    { "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 1,
      "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
};

static void test_sha256_vectors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        size_t one = strlen(vectors[i].in), len = one * vectors[i].repeat;
        char *data = xmalloc(len + 1);
        for (size_t r = 0; r < vectors[i].repeat; r++)
            memcpy(data + r * one, vectors[i].in, one);
        char hex[SHA256_HEX_LEN];
        sha256_hex(data, len, hex);
        assert_string_equal(hex, vectors[i].hex);
        free(data);
    }
}

static void test_buf(void **state)
{
    (void)state;
    struct buf b = BUF_INIT;
    buf_puts(&b, "turn ");
    buf_printf(&b, "%d, %s", 31, "Bob");
    buf_append(&b, "!", 1);
    assert_string_equal(b.p, "turn 31, Bob!");
    assert_int_equal(b.len, 13);
    for (int i = 0; i < 1000; i++)
        buf_puts(&b, "x");
    assert_int_equal(b.len, 1013);
    buf_release(&b);
    assert_null(b.p);
    assert_int_equal(b.len, 0);
}

/* JSON string literals: escapes, UTF-8 through, anything else U+FFFD. */
static const struct {
    const char *in, *json;
    bool utf8;
} json_cases[] = {
    { "", "\"\"", true },
    { "a\"b\\c", "\"a\\\"b\\\\c\"", true },
    { "tab\tnl\n\x01", "\"tab\\tnl\\n\\u0001\"", true },
    { "Spiel f\xc3\xbcr Ada.jcz", "\"Spiel f\xc3\xbcr Ada.jcz\"", true },
    { "bad\xff", "\"bad\\ufffd\"", false },
    { "cut\xc3", "\"cut\\ufffd\"", false },
    { "overlong\xc0\xaf", "\"overlong\\ufffd\\ufffd\"", false },
    { "surrogate\xed\xa0\x80", "\"surrogate\\ufffd\\ufffd\\ufffd\"", false },
};

static void test_json_string(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof json_cases / sizeof *json_cases; i++) {
        struct buf b = BUF_INIT;
        buf_json_string(&b, json_cases[i].in);
        assert_string_equal(b.p, json_cases[i].json);
        assert_int_equal(buf_is_utf8(json_cases[i].in), json_cases[i].utf8);
        buf_release(&b);
    }
}

static void test_err(void **state)
{
    (void)state;
    struct err e;
    err_clear(&e);
    assert_int_equal(e.code, ST_OK);
    assert_int_equal(err_set(&e, ST_PARSE, "at byte %d", 12), ST_PARSE);
    assert_string_equal(e.msg, "at byte 12");
    assert_int_equal(err_set(NULL, ST_IO, "ignored"), ST_IO);
    assert_string_equal(status_name(ST_UNSUPPORTED), "unsupported");
}

/* The nth fallible allocation fails, that one only; buf_try_append then
 * leaves the buffer as it was. */
static void test_fault(void **state)
{
    (void)state;
    struct buf b = BUF_INIT;
    assert_true(buf_try_append(&b, "ab", 2)); /* not counting: no failure */
    fault_start(2);
    void *p = fmalloc(8);
    assert_non_null(p);
    char big[64] = { 0 };
    assert_false(buf_try_append(&b, big, sizeof big)); /* the 2nd */
    assert_int_equal(b.len, 2);
    assert_string_equal(b.p, "ab");
    assert_true(buf_try_append(&b, big, sizeof big)); /* the 3rd */
    assert_int_equal(b.len, 2 + sizeof big);
    void *q = frealloc(p, 16);
    assert_non_null(q);
    assert_int_equal(fault_stop(), 4);
    fault_start(1);
    assert_null(frealloc(q, 32)); /* q is left as it was */
    assert_int_equal(fault_stop(), 1);
    free(q);
    buf_release(&b);
    assert_int_equal(err_set(NULL, ST_NOMEM, "x"), ST_NOMEM);
    assert_string_equal(status_name(ST_NOMEM), "out of memory");
    assert_string_equal(status_name(ST_FULL), "storage full");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_vectors),
        cmocka_unit_test(test_buf),
        cmocka_unit_test(test_json_string),
        cmocka_unit_test(test_err),
        cmocka_unit_test(test_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
