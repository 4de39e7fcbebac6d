#define _GNU_SOURCE
#include <unistd.h>
#include <sys/syscall.h>
#include "CFrugalSystem.h"

pid_t frugal_gettid(void) { return (pid_t)syscall(SYS_gettid); }

#include <sys/prctl.h>
int frugal_set_current_thread_name(const char *name) { return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
int frugal_set_child_subreaper(int on) { return prctl(PR_SET_CHILD_SUBREAPER, (unsigned long)(on != 0), 0, 0, 0); }

#include <fcntl.h>
int frugal_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

int frugal_hang_signal(void) { return SIGRTMIN + 4; }

int frugal_tgkill(pid_t tgid, pid_t tid, int signal) { return (int)syscall(SYS_tgkill, tgid, tid, signal); }

static volatile int frugal_stack_fd = -1;

/* Writes all of `text` (async-signal-safe). */
static void frugal_write_all(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        text += written;
        length -= (size_t)written;
    }
}

/* Runs in the interrupted main thread: only async-signal-safe calls (clock_gettime, write,
   backtrace after it was warmed up at install time, backtrace_symbols_fd). */
static void frugal_stack_handler(int signal, siginfo_t *info, void *context) {
    (void)signal; (void)info; (void)context;
    int saved = errno;
    int fd = frugal_stack_fd;
    if (fd >= 0) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        uint64_t ns = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
        char line[64] = "@frugal-stack-begin ";
        size_t prefix = strlen(line);
        char digits[24];
        int count = 0;
        do { digits[count++] = (char)('0' + ns % 10); ns /= 10; } while (ns > 0);
        for (int i = 0; i < count; i++) line[prefix + i] = digits[count - 1 - i];
        line[prefix + count] = '\n';
        frugal_write_all(fd, line, prefix + (size_t)count + 1);
        void *frames[64];
        int depth = backtrace(frames, 64);
        backtrace_symbols_fd(frames, depth, fd);
        static const char end[] = "@frugal-stack-end\n";
        frugal_write_all(fd, end, sizeof end - 1);
    }
    errno = saved;
}

int frugal_install_stack_dumper(int fd) {
    /* The first backtrace() loads libgcc_s, which is not async-signal-safe: do it now. */
    void *warm[4];
    backtrace(warm, 4);
    frugal_stack_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = frugal_stack_handler;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(frugal_hang_signal(), &action, NULL);
}
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

int frugal_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

#include <stdio.h>
int frugal_rename_exchange(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE);
}

#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>

struct frugal_private_spawn {
    pid_t *pid;
    const char *path;
    const posix_spawn_file_actions_t *actions;
    const posix_spawnattr_t *attributes;
    char *const *argv;
    char *const *envp;
    const char *source;
    const char *target;
    const char *failed_call;
    int error;
};

const char *frugal_enter_private_file_namespace(const char *source, const char *target) {
    if (unshare(CLONE_NEWNS) != 0) return "unshare";
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) return "mount(private)";
    if (mount(source, target, NULL, MS_BIND, NULL) != 0) return "mount(bind)";
    if (mount(NULL, target, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) return "mount(read-only)";
    return NULL;
}

static void *frugal_private_spawn_thread(void *argument) {
    struct frugal_private_spawn *spawn = argument;
    const char *call = frugal_enter_private_file_namespace(spawn->source, spawn->target);
    if (call != NULL) { spawn->failed_call = call; spawn->error = errno; return NULL; }
    int status = posix_spawn(spawn->pid, spawn->path, spawn->actions, spawn->attributes, spawn->argv, spawn->envp);
    if (status != 0) { spawn->failed_call = "posix_spawn"; spawn->error = status; }
    return NULL;
}

int frugal_spawn_with_private_file(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                                   const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                                   const char *source, const char *target, const char **failed_call) {
    struct frugal_private_spawn spawn = { pid, path, actions, attributes, argv, envp, source, target, NULL, 0 };
    pthread_t thread;
    int created = pthread_create(&thread, NULL, frugal_private_spawn_thread, &spawn);
    if (created != 0) { *failed_call = "pthread_create"; return created; }
    pthread_join(thread, NULL);
    if (spawn.error != 0) *failed_call = spawn.failed_call;
    return spawn.error;
}

#include <sys/uio.h>
/* process_vm_readv needs _GNU_SOURCE, which Swift's Glibc module does not define. */
ssize_t frugal_process_vm_read(pid_t pid, void *local, size_t length, uint64_t remote) {
    struct iovec here = { .iov_base = local, .iov_len = length };
    struct iovec there = { .iov_base = (void *)(uintptr_t)remote, .iov_len = length };
    return process_vm_readv(pid, &here, 1, &there, 1, 0);
}
