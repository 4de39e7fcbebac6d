#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
#include "CFrugalSystem.h"

pid_t frugal_gettid(void) { return (pid_t)syscall(SYS_gettid); }

#include <fcntl.h>
int frugal_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

#include <sys/mman.h>
int frugal_madv_normal(void) { return MADV_NORMAL; }
int frugal_madv_random(void) { return MADV_RANDOM; }
int frugal_madv_dontneed(void) { return MADV_DONTNEED; }
int frugal_madv_free(void) { return MADV_FREE; }
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
int frugal_madv_pageout(void) { return MADV_PAGEOUT; }
int frugal_fadv_dontneed(void) { return POSIX_FADV_DONTNEED; }
