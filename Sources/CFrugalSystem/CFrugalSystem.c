#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
#include "CFrugalSystem.h"

pid_t frugal_gettid(void) { return (pid_t)syscall(SYS_gettid); }

#include <fcntl.h>
int frugal_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
