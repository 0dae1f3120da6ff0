#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/socket.h>
#include "csystem.h"

int comanda_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
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
