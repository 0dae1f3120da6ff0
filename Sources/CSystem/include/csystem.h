#ifndef COMANDA_CSYSTEM_H
#define COMANDA_CSYSTEM_H

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC (GNU extension, not in Swift's Glibc module).
int comanda_accept_nonblocking(int fd);

/// accept4 with SOCK_CLOEXEC only.
int comanda_accept_blocking(int fd);

/// CPUs this process may run on (sched_getaffinity), or 0 when unknown.
int comanda_cpu_count(void);

#include <stddef.h>

/// Whether `needle` occurs in `hay` (memmem; an empty needle always does).
int comanda_contains(const void *hay, size_t hay_len, const void *needle, size_t needle_len);

#endif
