#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdlib.h>
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
    /* Set (and woken) by a held child once its setup is over, or by one that failed in it: the
       caller's spawn arguments are no longer read after this. */
    int held;
};

static void frugal_child_fail(volatile struct frugal_child_report *report, const char *call) {
    report->error = errno;
    report->call = call;
    __atomic_store_n(&report->held, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &report->held, FUTEX_WAKE, 1, NULL, NULL, 0);
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
        __atomic_store_n(&report->held, 1, __ATOMIC_RELEASE);
        syscall(SYS_futex, &report->held, FUTEX_WAKE, 1, NULL, NULL, 0);
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
   stack. The fallback only (no clone3 with a stack on this architecture, or a kernel before 5.3):
   the copy's exec tears it down on the program's clock (10-16 ms of a 3 ms program's wall time in a
   grown harness). `flags` may add CLONE_VFORK and CLONE_INTO_CGROUP. -1 and errno on failure. */
static pid_t frugal_clone_copy(uint64_t flags, int cgroup_fd) {
    struct frugal_clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = flags;
    args.exit_signal = SIGCHLD;
    if (flags & FRUGAL_CLONE_INTO_CGROUP) args.cgroup = (uint64_t)cgroup_fd;
    return (pid_t)syscall(SYS_clone3, &args, sizeof args);
}

/* What the child of a shared-memory clone runs first (on its own small stack). */
struct frugal_child_start {
    const frugal_direct_spawn *spawn;
    struct frugal_child_report *report;
    const sigset_t *mask;
    int join_born_group;
};

static void frugal_child_entry(void *argument) {
    const struct frugal_child_start *start = argument;
    frugal_child(start->spawn, start->report, start->mask, start->join_born_group);
}

#if defined(__x86_64__)
#define FRUGAL_SHARED_CLONE 1
/* clone3 with a stack: returns the child's pid (or -errno) in the parent; the child starts on
   `args->stack` and calls fn(arg), which never returns (an exit(127) follows in case it does).
   Assembly because a C function cannot return into its own frame on a new stack. */
long frugal_clone3_call(struct frugal_clone_args *args, size_t size, void (*fn)(void *), void *arg);
__asm__(
    ".text\n"
    ".globl frugal_clone3_call\n"
    ".hidden frugal_clone3_call\n"
    ".type frugal_clone3_call,@function\n"
    "frugal_clone3_call:\n"
    "    movq %rdx, %r8\n"        /* fn and arg survive the syscall in r8/r9 (it clobbers rcx, r11) */
    "    movq %rcx, %r9\n"
    "    movl $435, %eax\n"       /* SYS_clone3: rdi = args, rsi = size */
    "    syscall\n"
    "    testq %rax, %rax\n"
    "    jnz 1f\n"
    "    xorl %ebp, %ebp\n"        /* the child: a fresh stack, no frame above it */
    "    andq $-16, %rsp\n"
    "    movq %r9, %rdi\n"
    "    callq *%r8\n"
    "    movl $127, %edi\n"
    "    movl $60, %eax\n"         /* SYS_exit */
    "    syscall\n"
    "    hlt\n"
    "1:  ret\n"
    ".size frugal_clone3_call, .-frugal_clone3_call\n");
#endif

/* The child's stack for a shared-memory clone: it runs only frugal_child (a few small frames and
   libc's system call wrappers); pages are touched lazily. */
#define FRUGAL_CHILD_STACK_SIZE (256 * 1024)

/* clone3 with CLONE_VM, as posix_spawn does: the child borrows this address space until its exec,
   so the exec drops a reference instead of tearing down a copy of the harness (page tables of
   hundreds of MiB of mappings: 10-16 ms of a 3 ms program's wall time late in a test run). The
   child runs on `stack` and shares the calling thread's TLS, so that thread must not run
   anything while the child can (vfork: suspended; held: a thread of its own that only waits).
   Signal handlers are not shared (no CLONE_SIGHAND): the child resets its own. -1 and errno. */
static pid_t frugal_clone_shared(uint64_t flags, int cgroup_fd, void *stack, struct frugal_child_start *start) {
#ifdef FRUGAL_SHARED_CLONE
    struct frugal_clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = flags | CLONE_VM;
    args.exit_signal = SIGCHLD;
    args.stack = (uint64_t)(uintptr_t)stack;
    args.stack_size = FRUGAL_CHILD_STACK_SIZE;
    if (flags & FRUGAL_CLONE_INTO_CGROUP) args.cgroup = (uint64_t)cgroup_fd;
    long result = frugal_clone3_call(&args, sizeof args, frugal_child_entry, start);
    if (result < 0) { errno = (int)-result; return -1; }
    return (pid_t)result;
#else
    (void)flags; (void)cgroup_fd; (void)stack; (void)start;
    errno = ENOSYS;
    return -1;
#endif
}

/* A system call that leaves errno alone (the result is -errno): while a shared-memory child does
   its setup on this thread's TLS, its errno is the child's to read. */
static long frugal_quiet_syscall(long number, long a, long b, long c, long d, long e) {
#ifdef FRUGAL_SHARED_CLONE
    long result;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall" : "=a"(result) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8) : "rcx", "r11", "memory");
    return result;
#else
    long result = syscall(number, a, b, c, d, e);
    return result < 0 ? -errno : result;
#endif
}

/* Waits until a held child has finished its setup (or failed in it, or died). */
static void frugal_wait_held(struct frugal_child_report *report, pid_t child) {
    while (!__atomic_load_n(&report->held, __ATOMIC_ACQUIRE)) {
        struct timespec slice = { 0, 50 * 1000 * 1000 };
        frugal_quiet_syscall(SYS_futex, (long)&report->held, FUTEX_WAIT, 0, (long)&slice, 0);
        if (__atomic_load_n(&report->held, __ATOMIC_ACQUIRE)) break;
        /* Killed from outside during its setup: it never says so. */
        siginfo_t info;
        memset(&info, 0, sizeof info);
        long waited = frugal_quiet_syscall(SYS_waitid, P_PID, (long)child, (long)&info, WEXITED | WNOHANG | WNOWAIT, 0);
        if (waited == 0 && info.si_pid == child) break;
    }
}

static int frugal_spawn_direct_here(const frugal_direct_spawn *spawn, void *stack, pid_t *pid, int *born_in_group,
                                    struct frugal_child_report **held_report, const char **failed_call) {
    struct frugal_child_report *report = mmap(NULL, sizeof *report, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (report == MAP_FAILED) { *failed_call = "mmap"; return errno; }
    report->error = 0;
    report->call = NULL;
    report->go = 0;
    report->exec_pipe = -1;
    report->exec_read = -1;
    report->voluntary_before_exec = -1;
    report->held = 0;
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
    struct frugal_child_start start = { spawn, report, &mask, 0 };
    pid_t child = -1;
    int cloneError = ENOSYS;
    if (stack != NULL) {
        start.join_born_group = !into;
        child = frugal_clone_shared(vfork | (into ? FRUGAL_CLONE_INTO_CGROUP : 0), spawn->born_group_fd, stack, &start);
        cloneError = child < 0 ? errno : 0;
        /* Before 5.7 (EINVAL/E2BIG: an unknown flag or a longer block) or where the kernel refuses
           the group for birth (EOPNOTSUPP, EBUSY, EACCES...), the child joins it by writing
           cgroup.procs. */
        if (child < 0 && into && cloneError != ENOSYS && cloneError != EAGAIN && cloneError != ENOMEM) {
            into = 0;
            start.join_born_group = 1;
            child = frugal_clone_shared(vfork, -1, stack, &start);
            cloneError = child < 0 ? errno : 0;
        }
        if (child < 0 && cloneError == ENOSYS) into = spawn->born_group_fd >= 0;
    }
    if (child < 0 && cloneError == ENOSYS) {
        /* No shared-memory clone here: a copy (see frugal_clone_copy). */
        child = frugal_clone_copy(vfork | (into ? FRUGAL_CLONE_INTO_CGROUP : 0), spawn->born_group_fd);
        cloneError = child < 0 ? errno : 0;
        if (child < 0 && into && cloneError != ENOSYS && cloneError != EAGAIN && cloneError != ENOMEM) {
            into = 0;
            child = frugal_clone_copy(vfork, -1);
            cloneError = child < 0 ? errno : 0;
        }
        /* Before 5.3 there is no clone3: the old clone with the same flags (fork semantics, vfork's wait). */
        if (child < 0 && cloneError == ENOSYS) {
            into = 0;
            child = (pid_t)syscall(SYS_clone, (unsigned long)vfork | SIGCHLD, 0, 0, 0, 0);
            cloneError = child < 0 ? errno : 0;
        }
        if (child == 0) frugal_child(spawn, report, &mask, !into);
    }
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (spawn->hold && child > 0) {
        /* The caller's arguments (and, with a shared clone, this stack frame) stay valid until
           the child's setup is over. Setup errors surface at the release, with the exec's. */
        frugal_wait_held(report, child);
        if (report->exec_pipe >= 0) close(report->exec_pipe);
        report->exec_read = exec_read;
        *pid = child;
        *born_in_group = into;
        *held_report = report;
        return 0;
    }
    if (report->exec_pipe >= 0) close(report->exec_pipe);
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

static void *frugal_map_child_stack(void) {
#ifdef FRUGAL_SHARED_CLONE
    void *stack = mmap(NULL, FRUGAL_CHILD_STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE, -1, 0);
    return stack == MAP_FAILED ? NULL : stack;
#else
    return NULL;
#endif
}

static void frugal_free_strings(char **list) {
    if (list == NULL) return;
    for (char **item = list; *item != NULL; item++) free(*item);
    free(list);
}

/* A NULL-terminated copy of `list` (NULL when out of memory). */
static char **frugal_copy_strings(char *const *list) {
    size_t count = 0;
    while (list[count] != NULL) count++;
    char **copy = calloc(count + 1, sizeof *copy);
    if (copy == NULL) return NULL;
    for (size_t i = 0; i < count; i++) {
        copy[i] = strdup(list[i]);
        if (copy[i] == NULL) { frugal_free_strings(copy); return NULL; }
    }
    return copy;
}

/* A held child and the thread that spawned it. With a shared clone the child runs on this
   thread's TLS, so the thread does nothing but wait: for the child's setup, then for its exec's
   EOF. The program's path, argv and envp are copied, since the child reads them only at its exec,
   after the caller has freed its own. Freed by the last of the thread and the caller. */
struct frugal_hold_job {
    frugal_direct_spawn spawn;
    char *path;
    char **argv;
    char **envp;
    void *stack;
    pthread_t thread;
    sem_t spawned;
    int refs;
    pid_t pid;
    int born_in_group;
    struct frugal_child_report *report;
    const char *failed_call;
    int error;
};

static void frugal_hold_job_drop(struct frugal_hold_job *job) {
    if (__atomic_sub_fetch(&job->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (job->report != NULL) {
        if (job->report->exec_read >= 0) close(job->report->exec_read);
        munmap(job->report, sizeof *job->report);
    }
    if (job->stack != NULL) munmap(job->stack, FRUGAL_CHILD_STACK_SIZE);
    free(job->path);
    frugal_free_strings(job->argv);
    frugal_free_strings(job->envp);
    sem_destroy(&job->spawned);
    free(job);
}

static void *frugal_hold_thread(void *argument) {
    struct frugal_hold_job *job = argument;
    if (job->spawn.private_source != NULL) {
        const char *call = frugal_enter_private_file_namespace(job->spawn.private_source, job->spawn.private_target);
        if (call != NULL) { job->failed_call = call; job->error = errno; }
    }
    if (job->error == 0) {
        job->error = frugal_spawn_direct_here(&job->spawn, job->stack, &job->pid, &job->born_in_group, &job->report, &job->failed_call);
    }
    struct frugal_child_report *report = job->report;
    sem_post(&job->spawned);
    if (report != NULL) {
        /* EOF once the child has exec'd (close-on-exec, after its exec left this address space)
           or died (its descriptors close after it has let go of the memory): its stack is free. */
        char byte;
        while (read(report->exec_read, &byte, 1) < 0 && errno == EINTR) {}
    }
    frugal_hold_job_drop(job);
    return NULL;
}

static int frugal_spawn_held(const frugal_direct_spawn *spawn, pid_t *pid, int *born_in_group, void **hold_handle, const char **failed_call) {
    struct frugal_hold_job *job = calloc(1, sizeof *job);
    if (job == NULL) { *failed_call = "calloc"; return ENOMEM; }
    job->spawn = *spawn;
    job->path = strdup(spawn->path);
    job->argv = frugal_copy_strings(spawn->argv);
    job->envp = frugal_copy_strings(spawn->envp);
    job->refs = 2;
    sem_init(&job->spawned, 0, 0);
    if (job->path == NULL || job->argv == NULL || job->envp == NULL) {
        job->refs = 1;
        frugal_hold_job_drop(job);
        *failed_call = "strdup";
        return ENOMEM;
    }
    job->spawn.path = job->path;
    job->spawn.argv = job->argv;
    job->spawn.envp = job->envp;
    job->stack = frugal_map_child_stack();
    /* The thread starts with every signal blocked: its reads must not be interrupted, and no
       handler of the harness may run on the TLS the child shares. */
    sigset_t all, mask;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &mask);
    int created = pthread_create(&job->thread, NULL, frugal_hold_thread, job);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (created != 0) {
        job->refs = 1;
        frugal_hold_job_drop(job);
        *failed_call = "pthread_create";
        return created;
    }
    while (sem_wait(&job->spawned) != 0 && errno == EINTR) {}
    if (job->error != 0) {
        int error = job->error;
        *failed_call = job->failed_call;
        pthread_join(job->thread, NULL);
        frugal_hold_job_drop(job);
        return error;
    }
    *pid = job->pid;
    *born_in_group = job->born_in_group;
    *hold_handle = job;
    return 0;
}

int frugal_direct_release(void *handle, pid_t pid, long *voluntary_before_exec, const char **failed_call) {
    struct frugal_hold_job *job = handle;
    struct frugal_child_report *report = job->report;
    __atomic_store_n(&report->go, 1, __ATOMIC_RELEASE);
    syscall(SYS_futex, &report->go, FUTEX_WAKE, 1, NULL, NULL, 0);
    /* The thread ends at the pipe's EOF: once the child has exec'd (close-on-exec) or died. */
    pthread_join(job->thread, NULL);
    /* Written before the exec that closed the pipe: complete once its EOF was read. */
    *voluntary_before_exec = report->voluntary_before_exec;
    int result = 0;
    if (report->error != 0) {
        *failed_call = report->call;
        result = report->error;
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
    }
    frugal_hold_job_drop(job);
    return result;
}

void frugal_direct_abandon(void *handle) {
    struct frugal_hold_job *job = handle;
    /* The caller kills the child; the thread sees its EOF then and frees what is left. */
    pthread_detach(job->thread);
    frugal_hold_job_drop(job);
}

struct frugal_private_direct {
    const frugal_direct_spawn *spawn;
    void *stack;
    pid_t *pid;
    int *born_in_group;
    const char *failed_call;
    int error;
};

static void *frugal_private_direct_thread(void *argument) {
    struct frugal_private_direct *job = argument;
    const char *call = frugal_enter_private_file_namespace(job->spawn->private_source, job->spawn->private_target);
    if (call != NULL) { job->failed_call = call; job->error = errno; return NULL; }
    struct frugal_child_report *unused = NULL;
    job->error = frugal_spawn_direct_here(job->spawn, job->stack, job->pid, job->born_in_group, &unused, &job->failed_call);
    return NULL;
}

int frugal_spawn_direct(const frugal_direct_spawn *spawn, pid_t *pid, int *born_in_group, void **hold_handle, const char **failed_call) {
    *born_in_group = 0;
    *hold_handle = NULL;
    if (spawn->hold) return frugal_spawn_held(spawn, pid, born_in_group, hold_handle, failed_call);
    /* Not held: CLONE_VFORK suspends this thread until the exec, so the child may share its TLS. */
    void *stack = frugal_map_child_stack();
    int result;
    if (spawn->private_source == NULL) {
        struct frugal_child_report *unused = NULL;
        result = frugal_spawn_direct_here(spawn, stack, pid, born_in_group, &unused, failed_call);
    } else {
        struct frugal_private_direct job = { spawn, stack, pid, born_in_group, NULL, 0 };
        pthread_t thread;
        result = pthread_create(&thread, NULL, frugal_private_direct_thread, &job);
        if (result != 0) {
            *failed_call = "pthread_create";
        } else {
            pthread_join(thread, NULL);
            result = job.error;
            if (result != 0) *failed_call = job.failed_call;
        }
    }
    if (stack != NULL) munmap(stack, FRUGAL_CHILD_STACK_SIZE);
    return result;
}
