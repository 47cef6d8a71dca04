/* routes.c - the route table: method, path pattern, handler. A pattern
 * segment "{x}" matches one non-empty path segment, which the handler
 * finds in r->params in order; a last "{x*}" takes the rest of the path,
 * slashes included (libmicrohttpd has decoded %2F before we see the path,
 * and a player may well be called "Ada/Ben"). Anything not under /api/ (nor /healthz,
 * /metrics) is a file of the dashboard (static.c). HEAD is served as GET
 * (libmicrohttpd leaves the body out). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "http/http_int.h"

struct route {
    const char *method;
    const char *pattern;
    handler_fn fn;
    bool write; /* changes data: needs the token when one is set */
};

static const struct route routes[] = {
    { "GET", "/api/games", h_games_list, false },
    { "POST", "/api/games", h_games_upload, true },
    { "GET", "/api/games/{id}", h_game, false },
    { "DELETE", "/api/games/{id}", h_game_delete, true },
    { "POST", "/api/games/{id}/name", h_game_rename, true },
    { "GET", "/api/games/{id}/raw", h_game_raw, false },
    { "GET", "/api/games/{id}/replay", h_game_replay, false },
    { "GET", "/api/players", h_players, false },
    { "GET", "/api/players/{name*}", h_player, false },
    { "GET", "/api/stats", h_stats, false },
    { "GET", "/api/upload", h_upload_info, false },
    { "POST", "/api/live", h_live_start, true },
    { "POST", "/api/live/{id}/moves", h_live_move, true },
    { "POST", "/api/live/{id}/finish", h_live_finish, true },
    { "POST", "/api/live/{id}/undo", h_live_undo, true },
    { "GET", "/api/live/{id}/options", h_live_options, false },
    { "GET", "/api/games/{id}/wait", h_game_wait, false },
    { "GET", "/healthz", h_healthz, false },
    { "GET", "/metrics", h_metrics, false },
};

/* Does path match pattern? Captures {x} segments into r->params. */
static bool match(struct request *r, const char *pattern, const char *path)
{
    int n_params = 0;
    const char *p = pattern, *s = path;

    while (*p && *s) {
        if (*p != '/' || *s != '/')
            return false;
        p++;
        s++;
        const char *pe = strchr(p, '/'), *se = strchr(s, '/');
        size_t pl = pe ? (size_t)(pe - p) : strlen(p);
        size_t sl = se ? (size_t)(se - s) : strlen(s);
        if (pl > 3 && p[0] == '{' && memcmp(p + pl - 2, "*}", 2) == 0 &&
            p[pl] == '\0') {
            sl = strlen(s); /* the rest of the path */
            while (sl > 0 && s[sl - 1] == '/')
                sl--;
            if (sl == 0 || n_params >= REQ_MAX_PARAMS)
                return false;
            r->params[n_params++] = ra_strndup(&r->arena, s, sl);
            return true;
        }
        if (pl > 2 && p[0] == '{' && p[pl - 1] == '}') {
            if (sl == 0 || n_params >= REQ_MAX_PARAMS)
                return false;
            r->params[n_params++] = ra_strndup(&r->arena, s, sl);
        } else if (pl != sl || memcmp(p, s, pl) != 0) {
            return false;
        }
        p += pl;
        s += sl;
    }
    if (strcmp(s, "/") == 0 && *p == '\0') /* a trailing slash is fine */
        s++;
    return *p == '\0' && *s == '\0';
}

static bool is_api(const char *path)
{
    return strncmp(path, "/api/", 5) == 0 || strcmp(path, "/api") == 0 ||
           strcmp(path, "/healthz") == 0 || strcmp(path, "/metrics") == 0;
}

handler_fn route_find(struct request *r, bool *out_write, int *out_status)
{
    /* the Allow header's methods, in its order */
    static const char *const methods[] = { "GET", "HEAD", "POST", "DELETE" };
    const char *method = strcmp(r->method, "HEAD") == 0 ? "GET" : r->method;
    bool path_known = false, allowed[4] = { false, false, false, false };

    *out_write = false;
    *out_status = 404;
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (!match(r, routes[i].pattern, r->path))
            continue;
        path_known = true;
        for (size_t m = 0; m < 4; m++)
            allowed[m] |= strcmp(routes[i].method, methods[m]) == 0;
        if (strcmp(routes[i].method, method) == 0) {
            *out_write = routes[i].write;
            return routes[i].fn;
        }
    }
    if (!path_known && !is_api(r->path)) {
        if (strcmp(method, "GET") == 0)
            return h_static;
        path_known = allowed[0] = true;
    }
    if (path_known) { /* Allow: the methods the path's routes have */
        char *allow = ra_alloc(&r->arena, 32);
        size_t n = 0;
        allow[0] = '\0';
        allowed[1] = allowed[0]; /* HEAD is served as GET */
        for (size_t m = 0; m < 4; m++)
            if (allowed[m])
                n += (size_t)snprintf(allow + n, 32 - n, "%s%s",
                                      n ? ", " : "", methods[m]);
        *out_status = 405;
        req_add_header(r, "Allow", allow);
    }
    return NULL;
}
