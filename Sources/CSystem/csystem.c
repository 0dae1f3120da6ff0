#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <malloc.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <locale.h>
#include <pthread.h>
#include <wchar.h>
#include <arpa/inet.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include "csystem.h"

int comanda_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int comanda_accept_peer(int fd, char *addr, size_t addr_len) {
    struct sockaddr_storage peer;
    socklen_t len = sizeof(peer);
    int conn = accept4(fd, (struct sockaddr *)&peer, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (conn < 0 || addr_len == 0) return conn;
    addr[0] = 0;
    if (peer.ss_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, addr, (socklen_t)addr_len);
    } else if (peer.ss_family == AF_INET6) {
        struct in6_addr *a6 = &((struct sockaddr_in6 *)&peer)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a6)) {
            inet_ntop(AF_INET, &a6->s6_addr[12], addr, (socklen_t)addr_len);
        } else {
            inet_ntop(AF_INET6, a6, addr, (socklen_t)addr_len);
        }
    } else if (peer.ss_family == AF_UNIX) {
        snprintf(addr, addr_len, "unix");
    }
    return conn;
}

int comanda_accept_blocking(int fd) {
    return accept4(fd, 0, 0, SOCK_CLOEXEC);
}

int comanda_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return 0;
    return CPU_COUNT(&set);
}

int comanda_contains(const void *hay, size_t hay_len, const void *needle, size_t needle_len) {
    if (needle_len == 0) return 1;
    return memmem(hay, hay_len, needle, needle_len) != 0;
}

int comanda_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int comanda_epoll_set(int epfd, int fd, int interest, int add) {
    struct epoll_event ev;
    ev.events = 0;
    if (interest & COMANDA_EPOLL_READ) ev.events |= EPOLLIN;
    if (interest & COMANDA_EPOLL_WRITE) ev.events |= EPOLLOUT;
    /* EPOLLEXCLUSIVE allows only EPOLLIN/EPOLLOUT besides itself (else EINVAL). */
    if (interest & COMANDA_EPOLL_EXCLUSIVE) ev.events |= EPOLLEXCLUSIVE;
    else if (interest & COMANDA_EPOLL_READ) ev.events |= EPOLLRDHUP;
    ev.data.u64 = 0;
    ev.data.fd = fd;
    return epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &ev);
}

int comanda_epoll_remove(int epfd, int fd) {
    struct epoll_event ev = {0};
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &ev);
}

int comanda_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n;
    do { n = epoll_wait(epfd, evs, max, timeout_ms); } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; i++) {
        uint32_t e = 0;
        if (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLPRI)) e |= COMANDA_EVENT_READ;
        if (evs[i].events & EPOLLOUT) e |= COMANDA_EVENT_WRITE;
        if (evs[i].events & (EPOLLHUP | EPOLLERR)) e |= COMANDA_EVENT_HANGUP;
        fds[i] = evs[i].data.fd;
        events[i] = e;
    }
    return n;
}

int comanda_eventfd(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void comanda_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t n;
    do { n = write(fd, &one, sizeof one); } while (n < 0 && errno == EINTR);
}

void comanda_eventfd_clear(int fd) {
    uint64_t value;
    ssize_t n;
    do { n = read(fd, &value, sizeof value); } while (n < 0 && errno == EINTR);
}

int comanda_random_bytes(void *buf, size_t n) {
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

void comanda_malloc_keep_freed(size_t bytes) {
    mallopt(M_TRIM_THRESHOLD, (int)bytes);
}

static locale_t comanda_utf8 = (locale_t)0;
static pthread_once_t comanda_utf8_once = PTHREAD_ONCE_INIT;
static void comanda_utf8_make(void) { comanda_utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

int comanda_wcwidth(uint32_t scalar) {
    pthread_once(&comanda_utf8_once, comanda_utf8_make);
    if (comanda_utf8 == (locale_t)0) return -2;
    /* This thread only, for this call: the process's own locale is left as it is. */
    locale_t previous = uselocale(comanda_utf8);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}

/* The kernel's struct sched_attr (uapi/linux/sched/types.h), its first version and a half. */
struct comanda_sched_attr {
    uint32_t size;
    uint32_t sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime;
    uint64_t sched_deadline;
    uint64_t sched_period;
    uint32_t sched_util_min;
    uint32_t sched_util_max;
};

static int comanda_sched_getattr(struct comanda_sched_attr *attr) {
#ifdef SYS_sched_getattr
    memset(attr, 0, sizeof *attr);
    return (int)syscall(SYS_sched_getattr, 0, attr, (unsigned int)sizeof *attr, 0U);
#else
    (void)attr;
    return -1;
#endif
}

int comanda_thread_slice_set(unsigned long long nanoseconds) {
#ifdef SYS_sched_setattr
    struct comanda_sched_attr attr;
    if (comanda_sched_getattr(&attr) != 0) return -1;
    attr.size = sizeof attr;
    attr.sched_flags = 0;
    attr.sched_runtime = nanoseconds;
    return syscall(SYS_sched_setattr, 0, &attr, 0U) == 0 ? 0 : -1;
#else
    (void)nanoseconds;
    return -1;
#endif
}

unsigned long long comanda_thread_slice(void) {
    struct comanda_sched_attr attr;
    if (comanda_sched_getattr(&attr) != 0) return 0;
    return attr.sched_runtime;
}
