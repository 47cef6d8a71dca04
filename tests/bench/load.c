/* load.c - a small HTTP load client for `flierd serve` (benchmark (d)).
 *
 *   load --port P[,P...] [--host 127.0.0.1] [--seconds S] [--conns C]
 *        [--ids N] [--upload DIR [--token T]] PATH
 *
 * Several ports (daemons sharing one database): connection i goes to
 * port i mod n, and the uploads take the ports in turn.
 * C threads each keep one connection alive and GET PATH (an "{id}" in it
 * becomes a random game id in 1..N) as fast as answers come, for S
 * seconds. With --upload, one more thread POSTs the files of DIR to
 * /api/games meanwhile (a game per request, new games). Prints
 * requests/s and the p50/p99/max latency of the GETs, and the uploads.
 * Timing lives here, never in the tests. */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 64
#define MAX_LAT (1 << 22)

static const char *host = "127.0.0.1", *path, *upload_dir, *token;
#define MAX_PORTS 8
static int ports[MAX_PORTS], n_ports, n_ids = 1000, seconds = 5;
static atomic_int stop;
static atomic_long uploads, upload_errors;

struct worker {
    pthread_t th;
    int port;
    unsigned seed;
    double *lat; /* seconds per request */
    long n, errors;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dial(int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port) };
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    inet_pton(AF_INET, host, &a.sin_addr);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    if (fd >= 0)
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int send_all(int fd, const char *p, size_t len)
{
    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Reads one response (Content-Length framed); returns its status or -1. */
static int read_response(int fd, char *buf, size_t cap)
{
    size_t have = 0;
    char *end = NULL;
    while (!end) {
        if (have + 1 >= cap)
            return -1;
        ssize_t n = recv(fd, buf + have, cap - 1 - have, 0);
        if (n <= 0)
            return -1;
        have += (size_t)n;
        buf[have] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    int status = atoi(buf + 9);
    const char *cl = strcasestr(buf, "content-length:");
    size_t body = cl ? strtoul(cl + 15, NULL, 10) : 0;
    size_t got = have - (size_t)(end + 4 - buf);
    while (got < body) {
        ssize_t n = recv(fd, buf, cap - 1 < body - got ? cap - 1 : body - got,
                         0);
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return status;
}

static void make_path(char *out, size_t cap, unsigned *seed)
{
    const char *at = strstr(path, "{id}");
    if (!at) {
        snprintf(out, cap, "%s", path);
        return;
    }
    snprintf(out, cap, "%.*s%d%s", (int)(at - path), path,
             1 + (int)(rand_r(seed) % (unsigned)n_ids), at + 4);
}

static void *get_loop(void *arg)
{
    struct worker *w = arg;
    static __thread char buf[1 << 16];
    char req[512], p[256];
    int fd = dial(w->port);
    while (!atomic_load(&stop)) {
        make_path(p, sizeof p, &w->seed);
        int len = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s\r\n"
                           "\r\n", p, host);
        double t0 = now_s();
        int st = fd < 0 ? -1 : send_all(fd, req, (size_t)len);
        if (st == 0)
            st = read_response(fd, buf, sizeof buf);
        if (st != 200) {
            w->errors++;
            if (fd >= 0)
                close(fd);
            fd = dial(w->port);
            continue;
        }
        if (w->n < MAX_LAT)
            w->lat[w->n] = now_s() - t0;
        w->n++;
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

static char *slurp(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    char *b = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (b = malloc((size_t)n)) != NULL &&
        fread(b, 1, (size_t)n, f) == (size_t)n)
        *len = (size_t)n;
    else {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

static void *upload_loop(void *arg)
{
    (void)arg;
    static char buf[1 << 16];
    DIR *d = opendir(upload_dir);
    struct dirent *de;
    char head[512], full[4096];
    int fds[MAX_PORTS];
    long k = 0;
    for (int i = 0; i < n_ports; i++)
        fds[i] = dial(ports[i]);
    while (d && !atomic_load(&stop) && (de = readdir(d)) != NULL) {
        size_t len = 0;
        int *fd = &fds[k++ % n_ports]; /* the daemons in turn */
        if (!strstr(de->d_name, ".jcz"))
            continue;
        snprintf(full, sizeof full, "%s/%s", upload_dir, de->d_name);
        char *body = slurp(full, &len);
        if (!body)
            continue;
        int hl = snprintf(head, sizeof head,
                          "POST /api/games HTTP/1.1\r\nHost: %s\r\n"
                          "Content-Type: application/json\r\n%s%s%s"
                          "Content-Length: %zu\r\n\r\n", host,
                          token ? "Authorization: Bearer " : "",
                          token ? token : "", token ? "\r\n" : "", len);
        int st = *fd < 0 ? -1 : send_all(*fd, head, (size_t)hl);
        if (st == 0)
            st = send_all(*fd, body, len);
        if (st == 0)
            st = read_response(*fd, buf, sizeof buf);
        free(body);
        if (st == 201 || st == 200) {
            atomic_fetch_add(&uploads, 1);
        } else {
            atomic_fetch_add(&upload_errors, 1);
            if (*fd >= 0)
                close(*fd);
            *fd = dial(ports[(k - 1) % n_ports]);
        }
    }
    if (d)
        closedir(d);
    for (int i = 0; i < n_ports; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    return NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int conns = 4;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(a, "--port") == 0 && ++i) {
            for (const char *q = v; *q && n_ports < MAX_PORTS;) {
                ports[n_ports++] = atoi(q);
                q = strchr(q, ',');
                if (!q)
                    break;
                q++;
            }
        }
        else if (strcmp(a, "--host") == 0 && ++i)
            host = v;
        else if (strcmp(a, "--seconds") == 0 && ++i)
            seconds = atoi(v);
        else if (strcmp(a, "--conns") == 0 && ++i)
            conns = atoi(v);
        else if (strcmp(a, "--ids") == 0 && ++i)
            n_ids = atoi(v);
        else if (strcmp(a, "--upload") == 0 && ++i)
            upload_dir = v;
        else if (strcmp(a, "--token") == 0 && ++i)
            token = v;
        else
            path = a;
    }
    if (!n_ports || !ports[0] || !path || conns < 1 || conns > MAX_CONNS ||
        n_ids < 1) {
        fputs("usage: load --port P[,P...] [--seconds S] [--conns C] [--ids N] "
              "[--upload DIR [--token T]] PATH\n", stderr);
        return 2;
    }
    struct worker w[MAX_CONNS];
    pthread_t up;
    for (int i = 0; i < conns; i++) {
        w[i] = (struct worker){ .seed = (unsigned)i + 1,
                                .port = ports[i % n_ports] };
        w[i].lat = malloc(sizeof *w[i].lat * MAX_LAT);
        pthread_create(&w[i].th, NULL, get_loop, &w[i]);
    }
    if (upload_dir)
        pthread_create(&up, NULL, upload_loop, NULL);
    double t0 = now_s();
    sleep((unsigned)seconds);
    atomic_store(&stop, 1);
    long n = 0, errors = 0, k = 0;
    for (int i = 0; i < conns; i++) {
        pthread_join(w[i].th, NULL);
        n += w[i].n;
        errors += w[i].errors;
    }
    double el = now_s() - t0;
    if (upload_dir)
        pthread_join(up, NULL);
    double *all = malloc(sizeof *all * (size_t)(n ? n : 1));
    for (int i = 0; i < conns; i++)
        for (long j = 0; j < w[i].n && j < MAX_LAT; j++)
            all[k++] = w[i].lat[j];
    qsort(all, (size_t)k, sizeof *all, cmp_double);
    printf("%s: %.0f req/s, p50 %.2f ms, p99 %.2f ms, max %.2f ms "
           "(%ld requests, %ld errors, %d conns; uploads %ld/s, %ld failed)\n",
           path, n / el, k ? all[k / 2] * 1e3 : 0,
           k ? all[(long)(k * 0.99)] * 1e3 : 0, k ? all[k - 1] * 1e3 : 0, n,
           errors, conns, (long)(atomic_load(&uploads) / el),
           atomic_load(&upload_errors));
    for (int i = 0; i < conns; i++)
        free(w[i].lat);
    free(all);
    return errors && !n ? 1 : 0;
}
