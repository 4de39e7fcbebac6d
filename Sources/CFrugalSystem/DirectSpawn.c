#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/futex.h>
#include "CFrugalSystem.h"

/* clone3's argument block (linux/sched.h, 5.7 layout), spelled out so an older header builds. */
struct frugal_clone_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};
#define FRUGAL_CLONE_INTO_CGROUP 0x200000000ULL
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* What a child that failed before its exec leaves for the parent: a page shared between the two
   (the child has its own copy of everything else). */
struct frugal_child_report {
    int error;
    const char *call;
    /* Set by the parent (frugal_direct_release) when a held child may exec. */
    int go;
    /* The write end of a close-on-exec pipe the held child keeps: its EOF tells the parent the
       exec is done (or the child is gone). */
    int exec_pipe;
    /* The parent's read end of that pipe (a separate field: the child reads exec_pipe after its
       birth from this same shared page). */
    int exec_read;
    /* The child's own voluntary switches, read by itself just before its execve (-1 until then):
       its setup (joining groups, closing descriptors) sleeps on locks on a loaded machine, in the
       program's thread but before the program. */
    long voluntary_before_exec;
};

static void frugal_child_fail(volatile struct frugal_child_report *report, const char *call) {
    report->error = errno;
    report->call = call;
    _exit(127);
}

/* Writes the whole of `text` to the file at `path` (one write, as `echo` does). */
static int frugal_child_write_file(const char *path, const char *text, size_t length) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t written;
    do { written = write(fd, text, length); } while (written < 0 && errno == EINTR);
    int saved = errno;
    close(fd);
    errno = saved;
    return written == (ssize_t)length ? 0 : -1;
}

/* The child between its birth and its exec: only async-signal-safe calls (the parent has other
   threads, whose locks this copy of memory may hold), and all signals blocked until just before
   the exec, so no handler of the harness runs in it. */
static void frugal_child(const frugal_direct_spawn *spawn, volatile struct frugal_child_report *report,
                         const sigset_t *mask, int join_born_group) {
    /* Every signal back to its default: a handler of the harness must not run in this copy once
       the mask is lifted, and what the harness ignores (SIGPIPE, so a dead app cannot kill it;
       SIGTERM and SIGINT, which it takes through dispatch sources) is its own choice, not the
       program's: a program started from a shell (the old dash stub reset them too) has defaults. */
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction action;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &action) != 0) continue;
        if (action.sa_handler == SIG_DFL) continue;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        sigaction(sig, &action, NULL);
    }
    /* The pid as `echo $$` writes it: digits and a newline. */
    char line[24];
    pid_t self = (pid_t)syscall(SYS_getpid);
    int count = 0;
    char digits[16];
    do { digits[count++] = (char)('0' + self % 10); self /= 10; } while (self > 0);
    for (int i = 0; i < count; i++) line[i] = digits[count - 1 - i];
    line[count] = '\n';
    if (join_born_group && spawn->born_group_procs != NULL
        && frugal_child_write_file(spawn->born_group_procs, line, (size_t)count + 1) != 0) {
        frugal_child_fail(report, "write(cgroup.procs)");
    }
    for (int i = 0; i < spawn->join_count; i++) {
        if (frugal_child_write_file(spawn->join_procs[i], line, (size_t)count + 1) != 0) frugal_child_fail(report, "write(cgroup.procs)");
    }
    if (spawn->oom_score_adj != NULL) {
        char adjustment[24];
        size_t length = strlen(spawn->oom_score_adj);
        if (length > sizeof adjustment - 2) { errno = EINVAL; frugal_child_fail(report, "write(oom_score_adj)"); }
        memcpy(adjustment, spawn->oom_score_adj, length);
        adjustment[length] = '\n';
        if (frugal_child_write_file("/proc/self/oom_score_adj", adjustment, length + 1) != 0) frugal_child_fail(report, "write(oom_score_adj)");
    }
    if (setpgid(0, 0) != 0) frugal_child_fail(report, "setpgid");
    for (int i = 0; i < spawn->dup_count; i++) {
        if (spawn->dup_from[i] == spawn->dup_to[i]) {
            /* dup2 onto itself keeps close-on-exec; the descriptor is meant to reach the program. */
            if (fcntl(spawn->dup_to[i], F_SETFD, 0) != 0) frugal_child_fail(report, "fcntl(F_SETFD)");
        } else if (dup2(spawn->dup_from[i], spawn->dup_to[i]) < 0) {
            frugal_child_fail(report, "dup2");
        }
    }
    int keep = report->exec_pipe;
    if (keep >= spawn->close_from) {
        if (keep > spawn->close_from) close_range((unsigned)spawn->close_from, (unsigned)keep - 1, 0);
        closefrom(keep + 1);
    } else {
        closefrom(spawn->close_from);
    }
    if (spawn->hold) {
        /* Held until the parent has attached its counters: asleep on a futex in the shared page
           (not private: two address spaces). It was a spin, so that no voluntary switch came
           before the program's; the child now counts its own switches just before its execve, and
           the spin burned the parent's whole setup (7.5 ms of CPU in a `frugal run -- sleep 10`,
           perf record) in the run's cgroup, as the program's CPU time. A signal cannot reach it
           here (all blocked); SIGKILL can. */
        while (!__atomic_load_n(&report->go, __ATOMIC_ACQUIRE)) {
            syscall(SYS_futex, &report->go, FUTEX_WAIT, 0, NULL, NULL, 0);
        }
    }
    /* The program starts with no signal blocked, as from a shell (the dash stub cleared the mask
       too): the spawning thread of the harness may block some (a relaunch's SIGTERM was). */
    (void)mask;
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* The last call before the exec: the program's counts start at its execve (getrusage is a
       plain system call, safe here). */
    struct rusage usage;
    if (getrusage(RUSAGE_THREAD, &usage) == 0) report->voluntary_before_exec = usage.ru_nvcsw;
    execve(spawn->path, spawn->argv, spawn->envp);
    frugal_child_fail(report, "execve");
}

/* clone3 without CLONE_VM: the child is a copy-on-write copy running on its own copy of this
   stack (so no separate stack or assembly is needed); with CLONE_VFORK in `flags` this thread
   resumes once it has exec'd or died. `flags` may add CLONE_INTO_CGROUP. -1 and errno on failure. */
static pid_t frugal_clone_vfork(uint64_t flags, int cgroup_fd) {
    struct frugal_clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = flags;
    args.exit_signal = SIGCHLD;
    if (flags & FRUGAL_CLONE_INTO_CGROUP) args.cgroup = (uint64_t)cgroup_fd;
    return (pid_t)syscall(SYS_clone3, &args, sizeof args);
}

static int frugal_spawn_direct_here(const frugal_direct_spawn *spawn, pid_t *pid, int *born_in_group, void **hold_handle,
                                    const char **failed_call) {
    struct frugal_child_report *report = mmap(NULL, sizeof *report, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (report == MAP_FAILED) { *failed_call = "mmap"; return errno; }
    report->error = 0;
    report->call = NULL;
    report->go = 0;
    report->exec_pipe = -1;
    report->exec_read = -1;
    report->voluntary_before_exec = -1;
    int exec_read = -1;
    if (spawn->hold) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) { *failed_call = "pipe2"; int e = errno; munmap(report, sizeof *report); return e; }
        /* Above the descriptors the child sets up (1, 3, 4), so no dup2 overwrites it. */
        int high = fcntl(fds[1], F_DUPFD_CLOEXEC, spawn->close_from);
        close(fds[1]);
        if (high < 0) { *failed_call = "fcntl(F_DUPFD_CLOEXEC)"; int e = errno; close(fds[0]); munmap(report, sizeof *report); return e; }
        exec_read = fds[0];
        report->exec_pipe = high;
    }
    sigset_t all, mask;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &mask);
    int into = spawn->born_group_fd >= 0;
    /* A held child is released later (frugal_direct_release), which then waits for its exec. */
    uint64_t vfork = spawn->hold ? 0 : CLONE_VFORK;
    pid_t child = frugal_clone_vfork(vfork | (into ? FRUGAL_CLONE_INTO_CGROUP : 0), spawn->born_group_fd);
    int cloneError = child < 0 ? errno : 0;
    /* Before 5.7 (EINVAL/E2BIG: an unknown flag or a longer block) or where the kernel refuses the
       group for birth (EOPNOTSUPP, EBUSY, EACCES...), the child joins it by writing cgroup.procs. */
    if (child < 0 && into && cloneError != ENOSYS && cloneError != EAGAIN && cloneError != ENOMEM) {
        into = 0;
        child = frugal_clone_vfork(vfork, -1);
        cloneError = child < 0 ? errno : 0;
    }
    /* Before 5.3 there is no clone3: the old clone with the same flags (fork semantics, vfork's wait). */
    if (child < 0 && cloneError == ENOSYS) {
        into = 0;
        child = (pid_t)syscall(SYS_clone, (unsigned long)vfork | SIGCHLD, 0, 0, 0, 0);
        cloneError = child < 0 ? errno : 0;
    }
    if (child == 0) frugal_child(spawn, report, &mask, !into);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (report->exec_pipe >= 0) close(report->exec_pipe);
    if (spawn->hold && child > 0) {
        /* Setup errors surface at the release, with the exec's. */
        report->exec_read = exec_read;
        *pid = child;
        *born_in_group = into;
        *hold_handle = report;
        return 0;
    }
    if (exec_read >= 0) close(exec_read);
    int result = 0;
    if (child < 0) {
        *failed_call = "clone3";
        result = cloneError;
    } else if (report->error != 0) {
        /* vfork's guarantee: the child has exec'd or exited by now, so its report is complete. */
        *failed_call = report->call;
        result = report->error;
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
    } else {
        *pid = child;
        *born_in_group = into;
    }
    munmap(report, sizeof *report);
    return result;
}

int frugal_direct_release(void *handle, pid_t pid, long *voluntary_before_exec, const char **failed_call) {
    struct frugal_child_report *report = handle;
    __atomic_store_n(&report->go, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &report->go, FUTEX_WAKE, 1, NULL, NULL, 0);
    /* EOF once the child has exec'd (close-on-exec) or died; it writes nothing. */
    char byte;
    while (read(report->exec_read, &byte, 1) < 0 && errno == EINTR) {}
    close(report->exec_read);
    /* Written before the exec that closed the pipe: complete once its EOF was read. */
    *voluntary_before_exec = report->voluntary_before_exec;
    int result = 0;
    if (report->error != 0) {
        *failed_call = report->call;
        result = report->error;
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    munmap(report, sizeof *report);
    return result;
}

void frugal_direct_abandon(void *handle) {
    struct frugal_child_report *report = handle;
    close(report->exec_read);
    munmap(report, sizeof *report);
}

struct frugal_private_direct {
    const frugal_direct_spawn *spawn;
    pid_t *pid;
    int *born_in_group;
    void **hold_handle;
    const char *failed_call;
    int error;
};

static void *frugal_private_direct_thread(void *argument) {
    struct frugal_private_direct *job = argument;
    const char *call = frugal_enter_private_file_namespace(job->spawn->private_source, job->spawn->private_target);
    if (call != NULL) { job->failed_call = call; job->error = errno; return NULL; }
    job->error = frugal_spawn_direct_here(job->spawn, job->pid, job->born_in_group, job->hold_handle, &job->failed_call);
    return NULL;
}

int frugal_spawn_direct(const frugal_direct_spawn *spawn, pid_t *pid, int *born_in_group, void **hold_handle, const char **failed_call) {
    *born_in_group = 0;
    *hold_handle = NULL;
    if (spawn->private_source == NULL) return frugal_spawn_direct_here(spawn, pid, born_in_group, hold_handle, failed_call);
    struct frugal_private_direct job = { spawn, pid, born_in_group, hold_handle, NULL, 0 };
    pthread_t thread;
    int created = pthread_create(&thread, NULL, frugal_private_direct_thread, &job);
    if (created != 0) { *failed_call = "pthread_create"; return created; }
    pthread_join(thread, NULL);
    if (job.error != 0) *failed_call = job.failed_call;
    return job.error;
}
