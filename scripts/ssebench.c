/*
 * ssebench: the load generator of scripts/bench-sse.sh (ours; one thread, epoll).
 *
 *   ssebench sse  PORT N WRITES SPACING_MS SERVER_PID WRITE_PATH
 *   ssebench poll PORT N WRITES SPACING_MS SERVER_PID WRITE_PATH POLL_MS
 *
 * sse:  N connections on GET /reservations/eventos; once every one has its
 *       connect event it prints "ready" with the server's RSS before and
 *       after, and waits for a line on stdin (the script measures /health
 *       meanwhile). Then WRITES times, SPACING_MS apart: POST WRITE_PATH/wN/2
 *       on a separate connection (the legacy feed), and the time from that
 *       answer's arrival to each subscriber's receipt of the next
 *       `event: reservations`; per write, the N-th receipt.
 * poll: N keep-alive connections polling GET /reservations every POLL_MS with
 *       If-None-Match, their phases spread evenly; the same writes; per
 *       write, when the last connection got the changed list (a 200).
 * Both print the server's CPU seconds over the writes' window (utime+stime
 * from /proc/PID/stat), scaled to a minute, and p50/p99/max of the per-write
 * figure.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int port;

static int connect_to(int nonblocking) {
    int fd = socket(AF_INET, SOCK_STREAM | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) { perror("socket"); exit(2); }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) { perror("connect"); exit(2); }
    return fd;
}

static void send_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            perror("send"); exit(2);
        }
        s += k; n -= (size_t)k;
    }
}

static long rss_kib(int pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long kib = -1;
    while (fgets(line, sizeof line, f)) if (sscanf(line, "VmRSS: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

static double cpu_seconds(int pid) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    unsigned long ut = 0, st = 0;
    /* after ")": state(3) ... utime is field 14, stime 15 */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2) return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* One write through the legacy feed on a fresh blocking connection; returns when its answer has arrived. */
static void do_write(const char *path, int k) {
    int fd = connect_to(0);
    char req[512];
    int n = snprintf(req, sizeof req, "POST %s/w%d/2 HTTP/1.1\r\nHost: b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", path, k);
    send_all(fd, req, (size_t)n);
    char buf[65536];
    while (recv(fd, buf, sizeof buf, 0) > 0) {}
    close(fd);
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp);
    printf("%s: p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)\n", what, v[n / 2], v[(int)(n * 0.99) < n ? (int)(n * 0.99) : n - 1], v[n - 1], n);
}

typedef struct {
    int fd;
    int match;        /* progress through PATTERN */
    int events;       /* events seen (sse) */
    double next_poll; /* poll mode */
    int busy;         /* poll: a request is out */
    int acked;        /* writes whose change this connection has seen */
    char *buf;        /* poll: the response being read */
    int len;
    char etag[128];
} Conn;

static const char PATTERN[] = "event: reservations";

/* Counts `event: reservations` in a chunk of stream bytes. */
static int scan(Conn *c, const char *s, ssize_t n) {
    int found = 0;
    for (ssize_t i = 0; i < n; i++) {
        if (s[i] == PATTERN[c->match]) {
            if (++c->match == (int)sizeof PATTERN - 1) { found++; c->match = 0; }
        } else {
            c->match = s[i] == PATTERN[0] ? 1 : 0;
        }
    }
    return found;
}

int main(int argc, char **argv) {
    if (argc < 8) { fprintf(stderr, "usage: see the comment at the top of ssebench.c\n"); return 2; }
    int poll_mode = strcmp(argv[1], "poll") == 0;
    port = atoi(argv[2]);
    int n = atoi(argv[3]), writes = atoi(argv[4]);
    double spacing = atof(argv[5]);
    int pid = atoi(argv[6]);
    const char *wpath = argv[7];
    double poll_ms = argc > 8 ? atof(argv[8]) : 2000;
    int ep = epoll_create1(0);
    Conn *conns = calloc((size_t)n, sizeof *conns);
    struct epoll_event evs[1024];
    char rbuf[65536];
    long rss_before = rss_kib(pid);

    /* Connect in batches of 500 (the listen backlog) and send each request. */
    const char *sse_req = "GET /reservations/eventos HTTP/1.1\r\nHost: b\r\n\r\n";
    int ready = 0;
    double t_connect = now_ms();
    for (int i = 0; i < n; i++) {
        conns[i].fd = connect_to(1);
        if (poll_mode) conns[i].buf = malloc(65536);
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(ep, EPOLL_CTL_ADD, conns[i].fd, &e);
        if (i % 500 == 499 || i == n - 1) {
            /* Let the batch's handshakes finish, then send their requests. */
            usleep(20000);
            for (int j = i - (i % 500); j <= i; j++) {
                if (!poll_mode) send_all(conns[j].fd, sse_req, strlen(sse_req));
            }
        }
    }
    if (!poll_mode) {
        /* Until every subscriber has its connect event. */
        while (ready < n) {
            int k = epoll_wait(ep, evs, 1024, 5000);
            if (k == 0) { fprintf(stderr, "only %d of %d streams started\n", ready, n); return 1; }
            for (int i = 0; i < k; i++) {
                Conn *c = &conns[evs[i].data.u32];
                ssize_t m = recv(c->fd, rbuf, sizeof rbuf, 0);
                if (m <= 0) { fprintf(stderr, "a stream closed while connecting\n"); return 1; }
                int had = c->events;
                c->events += scan(c, rbuf, m);
                if (had == 0 && c->events > 0) ready++;
            }
        }
        usleep(1000000);
        long rss_after = rss_kib(pid);
        printf("ready: %d streams in %.0f ms; server RSS %ld KiB before, %ld KiB with them: %.2f KiB per subscriber\n",
               n, now_ms() - t_connect, rss_before, rss_after, (double)(rss_after - rss_before) / n);
        fflush(stdout);
        char line[16];
        if (!fgets(line, sizeof line, stdin)) {}
    }

    double *delays = calloc((size_t)writes, sizeof *delays);
    double *t0 = calloc((size_t)writes, sizeof *t0);
    int *count = calloc((size_t)writes, sizeof *count);
    double cpu_start = cpu_seconds(pid), t_start = now_ms();
    double poll_start = now_ms();
    if (poll_mode) for (int i = 0; i < n; i++) conns[i].next_poll = poll_start + poll_ms * i / n;
    double next_write = now_ms() + (poll_mode ? poll_ms + spacing : spacing);
    int w = 0;
    int done_writes = 0;
    long requests = 0, changed = 0, not_modified = 0, skipped = 0;
    double end_at = 1e300;
    while (now_ms() < end_at) {
        double t = now_ms();
        if (w < writes && t >= next_write) {
            do_write(wpath, w);
            t0[w] = now_ms();
            w++;
            next_write = t0[w - 1] + spacing;
            if (w == writes) end_at = t0[w - 1] + spacing;
        }
        if (poll_mode) {
            for (int i = 0; i < n; i++) {
                Conn *c = &conns[i];
                if (t < c->next_poll) continue;
                c->next_poll += poll_ms;
                if (c->busy) { skipped++; continue; }
                char req[256];
                int len = c->etag[0]
                    ? snprintf(req, sizeof req, "GET /reservations HTTP/1.1\r\nHost: b\r\nIf-None-Match: %s\r\n\r\n", c->etag)
                    : snprintf(req, sizeof req, "GET /reservations HTTP/1.1\r\nHost: b\r\n\r\n");
                send_all(c->fd, req, (size_t)len);
                c->busy = 1;
                c->len = 0;
                requests++;
            }
        }
        int k = epoll_wait(ep, evs, 1024, 1);
        double tr = now_ms();
        for (int i = 0; i < k; i++) {
            Conn *c = &conns[evs[i].data.u32];
            if (!poll_mode) {
                ssize_t m = recv(c->fd, rbuf, sizeof rbuf, 0);
                if (m <= 0) { fprintf(stderr, "a stream closed\n"); return 1; }
                int got = scan(c, rbuf, m);
                while (got-- > 0) {
                    int idx = c->events - 1; /* writes seen: events after the connect one */
                    c->events++;
                    if (idx >= 0 && idx < w) {
                        double d = tr - t0[idx];
                        if (d > delays[idx]) delays[idx] = d;
                        if (++count[idx] == n) done_writes++;
                    }
                }
                continue;
            }
            ssize_t m = recv(c->fd, c->buf + c->len, 65536 - (size_t)c->len - 1, 0);
            if (m <= 0) { fprintf(stderr, "a poller closed\n"); return 1; }
            c->len += (int)m;
            c->buf[c->len] = 0;
            char *end = strstr(c->buf, "\r\n\r\n");
            if (!end) continue;
            int status = atoi(c->buf + 9);
            int body = 0;
            char *cl = strcasestr(c->buf, "\r\nContent-Length: ");
            if (cl && cl < end) body = atoi(cl + 18);
            if (c->len < (int)(end - c->buf) + 4 + body) continue;
            char *et = strcasestr(c->buf, "\r\nETag: ");
            if (et && et < end) {
                char *e2 = strstr(et + 8, "\r\n");
                int l = (int)(e2 - (et + 8));
                if (l > 0 && l < (int)sizeof c->etag) { memcpy(c->etag, et + 8, (size_t)l); c->etag[l] = 0; }
            }
            c->busy = 0;
            if (status == 304) { not_modified++; continue; }
            changed++;
            /* A changed list after write j's answer shows write j. */
            for (int j = c->acked; j < w; j++) {
                if (tr < t0[j]) break;
                double d = tr - t0[j];
                if (d > delays[j]) delays[j] = d;
                if (++count[j] == n) done_writes++;
                c->acked = j + 1;
            }
        }
    }
    double cpu = cpu_seconds(pid) - cpu_start, secs = (now_ms() - t_start) / 1000;
    printf("%s, %d clients, %d writes %.0f ms apart: server CPU %.2f s in %.1f s = %.2f CPU s per minute\n",
           poll_mode ? "polling" : "streams", n, writes, spacing, cpu, secs, cpu / secs * 60);
    if (poll_mode) printf("polls: %ld requests (%ld changed 200s, %ld 304s), %ld skipped while an answer was late\n",
                          requests, changed, not_modified, skipped);
    int complete = 0;
    for (int j = 0; j < writes; j++) complete += count[j] == n;
    printf("writes seen by all %d clients: %d of %d\n", n, complete, writes);
    report(poll_mode ? "last screen to show a write (from its answer)" : "N-th subscriber's receipt (from the write's answer)",
           delays, writes);
    return complete == writes ? 0 : 1;
}
