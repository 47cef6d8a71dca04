/* test_json_out.c - mlog_json_print() writes what cJSON_PrintUnformatted()
 * writes, byte for byte: the audit and the replay keep their bytes (and
 * their pinned digests) with the faster printer. */
#include <stdarg.h> /* cmocka 1.1.5 needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mlog/mlog_int.h"

static void expect_same(const cJSON *item)
{
    struct buf b = BUF_INIT;
    char *want = cJSON_PrintUnformatted(item);
    mlog_json_print(item, &b);
    assert_non_null(want);
    assert_string_equal(b.p ? b.p : "", want);
    cJSON_free(want);
    buf_release(&b);
}

static void test_numbers(void **state)
{
    static const double v[] = {
        0, -0.0, 1, -1, 7, 42, 90, 270, 1000000, INT_MAX, INT_MIN,
        (double)INT_MAX + 1, (double)INT_MIN - 1, 1e10, -1e15, 9007199254740993.0,
        0.1, 0.5, 1.0 / 3, 2.0 / 3, 0.4444444444444444, 1e-7, 123.456,
        1e300, -1e-300, 5e-324, 1.7976931348623157e308, 0.1 + 0.2,
        999999999999999.0, 1e15, -999999999999999.0, 123456789012.0,
        0.6666666666666666, 3.0000000000000004, 1e21, 12345.678901234567,
    };
    (void)state;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        cJSON *n = cJSON_CreateNumber(v[i]);
        expect_same(n);
        cJSON_Delete(n);
    }
    /* and 20,000 more: integers, fractions and every magnitude */
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double d = i % 4 == 0   ? (double)(int64_t)(x % 4000000) - 2000000
                   : i % 4 == 1 ? (double)(x >> 11) / (double)(1ull << 53)
                   : i % 4 == 2 ? ldexp((double)(x >> 11), (int)(x % 200) - 100)
                                : (double)(int64_t)x;
        cJSON *n = cJSON_CreateNumber(i % 8 < 4 ? d : -d);
        expect_same(n);
        cJSON_Delete(n);
    }
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNumber(NAN));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(INFINITY));
    cJSON_AddItemToArray(a, cJSON_CreateNumber(-INFINITY));
    expect_same(a);
    cJSON_Delete(a);
}

static void test_strings(void **state)
{
    static const char *const v[] = {
        "", "Ada", "quote \" and backslash \\ and slash /",
        "\b\f\n\r\t", "\x01\x02\x1f\x7f", "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x99\x82",
        "<script>alert(1)</script>", "monastery, incomplete: 1 + 4 = 5",
    };
    (void)state;
    for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, v[i], v[i]);
        expect_same(o);
        cJSON_Delete(o);
    }
}

static void test_nesting(void **state)
{
    (void)state;
    cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
    cJSON_AddNullToObject(o, "null");
    cJSON_AddTrueToObject(o, "t");
    cJSON_AddFalseToObject(o, "f");
    cJSON_AddItemToObject(o, "empty", cJSON_CreateObject());
    cJSON_AddItemToObject(o, "none", cJSON_CreateArray());
    cJSON_AddRawToObject(o, "raw", "0.30000000000000004");
    for (int i = 0; i < 5; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "x", i - 2);
        cJSON_AddItemToObject(p, "at", cJSON_CreateIntArray((int[]){ i, -i }, 2));
        cJSON_AddItemToArray(a, p);
    }
    cJSON_AddItemToObject(o, "turns", a);
    expect_same(o);
    cJSON_Delete(o);
}

/* The writer gives the bytes cJSON prints for the same tree. */
static void test_writer(void **state)
{
    (void)state;
    static const double nums[] = { 0, -0.0, 7, -42, 1e15, 0.1 + 0.2,
                                   1.0 / 3, 1e300, NAN, INFINITY };
    cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray(), *e;
    struct buf b = BUF_INIT;
    struct jw w;
    jw_init(&w, &b);
    jw_object(&w, NULL);
    cJSON_AddStringToObject(o, "file", "caf\xc3\xa9 \"q\"\n");
    jw_string(&w, "file", "caf\xc3\xa9 \"q\"\n");
    cJSON_AddNullToObject(o, "none");
    jw_string(&w, "none", NULL);
    cJSON_AddBoolToObject(o, "valid", true);
    jw_bool(&w, "valid", true);
    cJSON_AddBoolToObject(o, "finished", false);
    jw_bool(&w, "finished", false);
    cJSON_AddItemToObject(o, "empty", cJSON_CreateObject());
    jw_object(&w, "empty");
    jw_end(&w, '}');
    cJSON_AddItemToObject(o, "nothing", cJSON_CreateArray());
    jw_array(&w, "nothing");
    jw_end(&w, ']');
    jw_array(&w, "items");
    for (int i = 0; i < 4; i++) {
        cJSON *p = cJSON_CreateObject();
        jw_object(&w, NULL);
        cJSON_AddNumberToObject(p, "n", i * 1000003 - 2);
        jw_int(&w, "n", i * 1000003 - 2);
        cJSON_AddItemToObject(p, "at", cJSON_CreateIntArray((int[]){ i, -i }, 2));
        jw_array(&w, "at");
        jw_int(&w, NULL, i);
        jw_int(&w, NULL, -i);
        jw_end(&w, ']');
        cJSON_AddItemToObject(p, "raw", cJSON_CreateRaw("{\"k\":[1]}"));
        jw_raw(&w, "raw", "{\"k\":[1]}", 9);
        cJSON_AddItemToArray(a, p);
        jw_end(&w, '}');
    }
    cJSON_AddItemToObject(o, "items", a);
    jw_end(&w, ']');
    e = cJSON_AddArrayToObject(o, "numbers");
    jw_array(&w, "numbers");
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        cJSON_AddItemToArray(e, cJSON_CreateNumber(nums[i]));
        jw_number(&w, NULL, nums[i]);
    }
    jw_end(&w, ']');
    cJSON_AddNumberToObject(o, "min", (double)INT_MIN);
    jw_int(&w, "min", INT_MIN);
    jw_end(&w, '}');
    char *want = cJSON_PrintUnformatted(o);
    assert_string_equal(b.p, want);
    assert_int_equal(w.depth, 0);
    cJSON_free(want);
    cJSON_Delete(o);
    buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_nesting),
        cmocka_unit_test(test_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
