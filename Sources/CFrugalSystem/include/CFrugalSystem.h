#ifndef FRUGAL_CSYSTEM_H
#define FRUGAL_CSYSTEM_H
/* Linux headers that Swift's Glibc module does not export, and the few calls it cannot make. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <spawn.h>
#include <sys/xattr.h>
#include <sys/wait.h>

/* pipe2(fds, O_CLOEXEC): needs _GNU_SOURCE, which the Glibc module does not define. */
int frugal_pipe_cloexec(int fds[2]);

/* The calling thread's kernel id. */
pid_t frugal_gettid(void);

/* epoll_event's data is a union Swift reads awkwardly; these read and write its fd. */
static inline void frugal_epoll_event_set_fd(struct epoll_event *event, int fd) { event->data.fd = fd; }
static inline int frugal_epoll_event_fd(const struct epoll_event *event) { return event->data.fd; }
#endif
