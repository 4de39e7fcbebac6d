#ifndef FRUGAL_CSYSTEM_H
#define FRUGAL_CSYSTEM_H
/* Linux headers that Swift's Glibc module does not export, and the few calls it cannot make. */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <spawn.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <stdint.h>
#include <stdbool.h>

/* pipe2(fds, O_CLOEXEC): needs _GNU_SOURCE, which the Glibc module does not define. */
int frugal_pipe_cloexec(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34+, needs _GNU_SOURCE): the child closes
   every descriptor from `lowest` up, so it inherits nothing the harness opened without
   close-on-exec (SwiftNIO's listening sockets, for one). */
int frugal_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* posix_spawn in a private mount namespace where `source` is bind-mounted (read-only) over
   `target`: the child sees its own file there, the host and every other process keep theirs.
   Done on a thread made for it (unshare(CLONE_NEWNS) affects the calling thread only, and
   posix_spawn's child inherits that thread's namespace), which ends after the spawn, so the
   namespace lives exactly as long as the child and its descendants. Mount propagation is made
   private first, so nothing reaches the host's mounts. Needs CAP_SYS_ADMIN.
   Returns 0 with *pid set; or an errno, with *failed_call naming the call that failed
   ("pthread_create", "unshare", "mount(private)", "mount(bind)", "mount(read-only)", "posix_spawn"). */
int frugal_spawn_with_private_file(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
                                   const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                                   const char *source, const char *target, const char **failed_call);

/* On the calling thread: a mount namespace of its own (unshare(CLONE_NEWNS)), propagation made
   private, `source` bind-mounted read-only over `target`. NULL, or the call that failed (errno set). */
const char *frugal_enter_private_file_namespace(const char *source, const char *target);

/* A program started directly in its cgroups, with no stub process before it (DirectSpawn.c). */
typedef struct {
    const char *path;
    char *const *argv;
    char *const *envp;
    /* dup2(dup_from[i], dup_to[i]) in order in the child (equal numbers: close-on-exec cleared). */
    const int *dup_from;
    const int *dup_to;
    int dup_count;
    /* Every descriptor from this number up is closed in the child. */
    int close_from;
    /* A cgroup v2 directory (open fd) the child is born in (clone3 CLONE_INTO_CGROUP, Linux 5.7+),
       or -1; `born_group_procs` is its cgroup.procs, which the child writes its pid to instead
       where the kernel refuses CLONE_INTO_CGROUP. */
    int born_group_fd;
    const char *born_group_procs;
    /* cgroup.procs files (v1 hierarchies) the child writes its pid to before its exec. */
    const char *const *join_procs;
    int join_count;
    /* NULL, or the value the child writes to /proc/self/oom_score_adj before its exec. */
    const char *oom_score_adj;
    /* NULL, or a file bind-mounted over `private_target` in a mount namespace of the child's own
       (as frugal_spawn_with_private_file). */
    const char *private_source;
    const char *private_target;
    /* Nonzero: the child is held just before its exec (asleep on a futex; it counts its own
       voluntary switches before its execve, frugal_direct_release) until frugal_direct_release, so counters attached to its pid see all of the
       program; the spawn returns at once with *hold_handle set. */
    int hold;
} frugal_direct_spawn;

/* Starts `spawn->path` as a new process group leader: clone3(CLONE_VM | CLONE_VFORK
   [| CLONE_INTO_CGROUP]) on a small stack of its own (x86_64; elsewhere a copy without CLONE_VM),
   so the exec drops a reference to the harness's address space rather than tearing down a copy of
   it on the program's clock; a held child is cloned from a thread that only waits (it shares that
   thread's TLS) and its path, argv and envp are copied. Then in the child the cgroup writes, setpgid, the dups, closefrom and execve;
   returns once the child has exec'd. Falls back to a child that writes cgroup.procs when the kernel
   refuses CLONE_INTO_CGROUP, and to clone(2) without clone3. Returns 0 with *pid set and
   *born_in_group 1 when the child was born in the group; or an errno with *failed_call
   ("clone3", "write(cgroup.procs)", "write(oom_score_adj)", "setpgid", "dup2", "execve", ...). */
int frugal_spawn_direct(const frugal_direct_spawn *spawn, pid_t *pid, int *born_in_group, void **hold_handle, const char **failed_call);

/* Lets a held child exec and waits until it has (or has failed: its setup's or exec's errno is
   returned, *failed_call set, and the child reaped). Frees the handle. *voluntary_before_exec is
   the child's own voluntary switches (getrusage RUSAGE_THREAD) just before its execve, or -1 when
   it did not get that far: the harness's setup in the program's thread, not the program's. */
int frugal_direct_release(void *handle, pid_t pid, long *voluntary_before_exec, const char **failed_call);

/* Frees a held child's handle without releasing it (the caller kills the child). */
void frugal_direct_abandon(void *handle);

/* The calling thread's kernel id. */
pid_t frugal_gettid(void);

/* Names the calling thread (prctl PR_SET_NAME; the kernel keeps 15 bytes): what
   /proc/<pid>/task/<tid>/comm shows. Foundation's Thread.name does not reach the kernel on Linux
   (set before start it is dropped; swift-corelibs-foundation applies it to pthread_self() only
   when the thread object is already running). 0, or -1 with errno. */
int frugal_set_current_thread_name(const char *name);

/* Makes the calling process the child subreaper of its descendants (prctl
   PR_SET_CHILD_SUBREAPER, Linux 3.4; no privilege needed): a process whose parent dies is
   reparented to it rather than to init, however it left its process group, session or cgroup.
   `on` 0 undoes it. 0, or -1 with errno. */
int frugal_set_child_subreaper(int on);

/* The signal the harness sends the main thread when a handler outlives the hang limit
   (SIGRTMIN + 4: a real-time signal nothing else in the process uses). */
int frugal_hang_signal(void);

/* Installs the async-signal-safe handler for frugal_hang_signal(): it writes
   "@frugal-stack-begin <monotonic ns>\n", the backtrace_symbols_fd lines, and "@frugal-stack-end\n"
   to `fd`. Each is one write of less than PIPE_BUF, so other threads' event lines never split them.
   Returns 0, or -1 with errno. */
int frugal_install_stack_dumper(int fd);

/* renameat2(RENAME_EXCHANGE): swaps two paths atomically (a report directory and its staged
   replacement), so a reader sees the old set or the new one, never neither. -1 with errno. */
int frugal_rename_exchange(const char *from, const char *to);

/* tgkill(2): a signal to one thread of a process. */
int frugal_tgkill(pid_t tgid, pid_t tid, int signal);

/* epoll_event's data is a union Swift reads awkwardly; these read and write its fd. */
static inline void frugal_epoll_event_set_fd(struct epoll_event *event, int fd) { event->data.fd = fd; }
static inline int frugal_epoll_event_fd(const struct epoll_event *event) { return event->data.fd; }

/* madvise advice values that need _GNU_SOURCE (MADV_FREE, MADV_PAGEOUT) or are macros. */
int frugal_madv_normal(void);
int frugal_madv_random(void);
int frugal_madv_dontneed(void);
int frugal_madv_free(void);
int frugal_madv_pageout(void);
/* posix_fadvise(POSIX_FADV_DONTNEED). */
int frugal_fadv_dontneed(void);

/* Atomically: if *word == expected, store desired and return true. A purgeable buffer checks
   its per-page cookie this way, so the check and the write that keeps the page are one step. */
static inline bool frugal_compare_and_swap_u64(uint64_t *word, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
/* A volatile read, so touching a mapped page is not optimised away. */
static inline uint8_t frugal_volatile_read_u8(const uint8_t *byte) { return *(const volatile uint8_t *)byte; }
/// Opens a hardware counter (0 instructions, 1 cycles, 2 cache misses, 3 branch misses) on
/// `pid` and every process and thread it creates from then on (inherit), user space only,
/// counting at once, read as {value, time enabled, time running}. Returns the fd or -errno.
int frugal_perf_open_hardware(int which, pid_t pid);

/// Opens a counter of the tracepoint `id` (from tracefs: events/<group>/<name>/id) on `pid` and
/// everything it creates from then on (inherit), read as {value, time enabled, time running}.
/// Returns the fd or -errno.
int frugal_perf_open_tracepoint(unsigned long long id, pid_t pid);

/// The mount id of `name` relative to `dirfd` (`name` "" for `dirfd` itself), without following
/// a final symlink or triggering an automount (statx STATX_MNT_ID, Linux >= 5.8). A bind mount
/// of a directory of the same file system has the same st_dev but its own mount id. Returns 0,
/// or -errno (-ENOSYS where the kernel does not give the id).
int frugal_mount_id(int dirfd, const char *name, unsigned long long *mount_id);

/// Clears the immutable and append-only attributes (`chattr -i -a`) of `name` in `dirfd` (with
/// `name` "", of `dirfd` itself), for a regular file or directory; anything else is left alone.
/// 0 on success or nothing to clear, -errno otherwise (EPERM without CAP_LINUX_IMMUTABLE,
/// ENOTTY where the file system has no such attributes).
int frugal_clear_immutable(int dirfd, const char *name);

/// Opens a counter of the tracepoint `id` on CPU `cpu` for every task in the cgroup (v2)
/// whose directory is open as `cgroup_fd` (PERF_FLAG_PID_CGROUP): open before the program
/// starts, it misses none of its calls. Returns the fd or -errno.
int frugal_perf_open_tracepoint_cgroup(unsigned long long id, int cgroup_fd, int cpu);

/// glibc's `malloc_trim(0)` when the arenas hold at least `minimum_free` freed bytes (mallinfo2):
/// gives freed heap memory of every arena back to the kernel; returns whether any was given
/// (Swift's Glibc module does not export <malloc.h>).
int frugal_malloc_trim(size_t minimum_free);

/// Notes `signal` when it is delivered, in the handler itself, then calls the handler that was
/// installed before (libdispatch's, behind a dispatch signal source): a thread that checks
/// `frugal_signal_seen` after the delivery sees it, whenever the source's own handler runs.
/// 0, or -1 and errno.
int frugal_note_signal_install(int signal);

/// The first signal noted by `frugal_note_signal_install`'s handler, or 0.
int frugal_signal_seen(void);

#include "FrugalTaskStats.h"
#include "FrugalWakeupTrace.h"
/* Reads `length` bytes at `remote` in process `pid` into `local` (process_vm_readv, one segment):
   the harness reads a sleeping thread's stack from outside. -1 and errno on failure. */
ssize_t frugal_process_vm_read(pid_t pid, void *local, size_t length, uint64_t remote);

#endif
