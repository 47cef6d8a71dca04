/* pg_json.c - the answers' JSON, written as the SQLite backend's JSON
 * functions write it (json_object, json_quote, json_group_array/object):
 * no spaces, strings escaped the same way, reals with 15 significant
 * digits and always a decimal point. So both backends give the HTTP
 * layer the same bytes, and a client cannot tell which one it reads.
 * PostgreSQL's own json functions put spaces after ':' and ',' and print
 * numbers otherwise, hence this. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "store/pg/pg_int.h"
#include "store/store_record.h"

void pj_string(struct buf *b, const char *s)
{
    record_json_string(b, s);
}

void pj_real(struct buf *b, double x)
{
    char num[40];
    if (!isfinite(x)) { /* SQLite writes neither; never reached here */
        buf_puts(b, "null");
        return;
    }
    snprintf(num, sizeof num, "%.15g", x);
    char *exp = strchr(num, 'e');
    if (strchr(num, '.'))
        buf_puts(b, num);
    else if (exp)
        buf_printf(b, "%.*s.0%s", (int)(exp - num), num, exp);
    else
        buf_printf(b, "%s.0", num);
}

void pj_key(struct buf *b, int *k, const char *key)
{
    if ((*k)++)
        buf_puts(b, ",");
    pj_string(b, key);
    buf_puts(b, ":");
}

void pj_num(struct buf *b, const PGresult *r, int row, int col)
{
    const char *v = pg_cell(r, row, col);
    buf_puts(b, v ? v : "null");
}

void pj_str(struct buf *b, const PGresult *r, int row, int col)
{
    pj_string(b, pg_cell(r, row, col));
}

void pj_bool(struct buf *b, const PGresult *r, int row, int col)
{
    const char *v = pg_cell(r, row, col);
    buf_puts(b, !v ? "null" : strcmp(v, "0") != 0 ? "true" : "false");
}

void pj_raw(struct buf *b, const PGresult *r, int row, int col)
{
    const char *v = pg_cell(r, row, col);
    if (v)
        buf_append(b, v, (size_t)PQgetlength(r, row, col));
    else
        buf_puts(b, "null");
}

void pj_rate(struct buf *b, int64_t landed, int64_t returned)
{
    if (landed + returned > 0)
        pj_real(b, 1.0 * (double)landed / (double)(landed + returned));
    else
        buf_puts(b, "null");
}

/* The SQLite backend's die_chi2() and die_p(), the same arithmetic. */
void pj_die(struct buf *b, int *k, int64_t r1, int64_t r2, int64_t r3)
{
    double r[3] = { (double)r1, (double)r2, (double)r3 };
    double n = r[0] + r[1] + r[2];
    pj_key(b, k, "rolls");
    buf_printf(b, "[%lld,%lld,%lld]", (long long)r1, (long long)r2,
               (long long)r3);
    pj_key(b, k, "n");
    buf_printf(b, "%lld", (long long)(r1 + r2 + r3));
    if (n <= 0) {
        pj_key(b, k, "chi_square");
        buf_puts(b, "null");
        pj_key(b, k, "p_value");
        buf_puts(b, "null");
        return;
    }
    double want = n / 3.0, x = 0;
    for (int i = 0; i < 3; i++)
        x += (r[i] - want) * (r[i] - want) / want;
    pj_key(b, k, "chi_square");
    pj_real(b, x);
    pj_key(b, k, "p_value");
    pj_real(b, exp(-x / 2.0));
}
