#ifndef COMANDA_CSYSTEM_H
#define COMANDA_CSYSTEM_H

#include <stddef.h>

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC (GNU extension, not in Swift's Glibc module).
int comanda_accept_nonblocking(int fd);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC that also writes the peer's
/// address as text into `addr` (IPv4-mapped IPv6 as plain IPv4; "" when unknown).
int comanda_accept_peer(int fd, char *addr, size_t addr_len);

/// accept4 with SOCK_CLOEXEC only.
int comanda_accept_blocking(int fd);

/// CPUs this process may run on (sched_getaffinity), or 0 when unknown.
int comanda_cpu_count(void);

/// Asks the scheduler for `nanoseconds` slices for the calling thread,
/// keeping its policy and nice value (sched_setattr's sched_runtime: the
/// custom slice of Linux 6.12's fair scheduler, ignored by older kernels).
/// 0, or -1 when it cannot be asked.
int comanda_thread_slice_set(unsigned long long nanoseconds);

/// The calling thread's slice as the scheduler reports it (sched_getattr's
/// sched_runtime), or 0 when it reports none.
unsigned long long comanda_thread_slice(void);


/// Whether `needle` occurs in `hay` (memmem; an empty needle always does).
int comanda_contains(const void *hay, size_t hay_len, const void *needle, size_t needle_len);

#include <stdint.h>

/// Interest flags for comanda_epoll_set.
enum { COMANDA_EPOLL_READ = 1, COMANDA_EPOLL_WRITE = 2, COMANDA_EPOLL_EXCLUSIVE = 4 };
/// Event flags reported by comanda_epoll_wait.
enum { COMANDA_EVENT_READ = 1, COMANDA_EVENT_WRITE = 2, COMANDA_EVENT_HANGUP = 4 };

/// A new epoll instance (close-on-exec), or -1.
int comanda_epoll_create(void);

/// Adds (add != 0) or changes the interest in `fd`: level-triggered, the fd as the event's data.
int comanda_epoll_set(int epfd, int fd, int interest, int add);

/// Removes `fd` from the instance.
int comanda_epoll_remove(int epfd, int fd);

/// Waits up to `timeout_ms` (0: poll) and fills `fds`/`events` with at most `max` ready fds.
int comanda_epoll_wait(int epfd, int32_t *fds, uint32_t *events, int max, int timeout_ms);

/// A non-blocking, close-on-exec eventfd (a worker's wake-up), or -1.
int comanda_eventfd(void);

/// Makes the eventfd readable (adds 1 to its counter).
void comanda_eventfd_signal(int fd);

/// Reads the eventfd's counter back to zero (not readable until signalled again).
void comanda_eventfd_clear(int fd);

/// Fills `buf` with `n` bytes from the kernel's secure generator (getrandom,
/// one call for all of them); 0 on success, -1 if it could not.
int comanda_random_bytes(void *buf, size_t n);

/// Keeps freed memory in the process instead of giving it back to the
/// kernel at once (mallopt M_TRIM_THRESHOLD), so that a steady load does not
/// return pages and fault them in again for every burst.
void comanda_malloc_keep_freed(size_t bytes);

/// The columns `scalar` takes on a terminal or a ticket printer (glibc's
/// wcwidth in the C.UTF-8 locale, set for the calling thread only): 0 for
/// combining marks, 2 for wide East Asian characters, -1 for a control or
/// unassigned character, -2 when the C.UTF-8 locale is missing.
int comanda_wcwidth(uint32_t scalar);

#endif
