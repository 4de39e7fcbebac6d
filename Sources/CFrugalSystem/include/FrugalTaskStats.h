#ifndef FRUGAL_TASKSTATS_H
#define FRUGAL_TASKSTATS_H
/* The kernel's per-task exit statistics (taskstats over generic netlink): the final counters of
   every thread that exits on the registered CPUs, read by the kernel as the thread dies, so a
   grandchild reaped by its own parent, or an orphan, is counted to its last switch. Registering
   needs CAP_NET_ADMIN. */
#include <stdint.h>

typedef struct {
    uint32_t tid;                 /* ac_pid: the thread's id */
    uint32_t tgid;                /* ac_tgid: its process */
    uint32_t ppid;                /* ac_ppid: the parent process at exit */
    char comm[32];                /* ac_comm */
    uint64_t voluntarySwitches;   /* nvcsw */
    uint64_t involuntarySwitches; /* nivcsw */
    uint64_t cpuMicroseconds;     /* ac_utime + ac_stime */
    uint64_t readBytes;           /* read_bytes (storage) */
    uint64_t writeBytes;          /* write_bytes (storage) */
    uint64_t writeCharacters;     /* write_char: bytes passed to write calls */
    uint64_t writeSyscalls;       /* write_syscalls */
    uint64_t peakResidentKiB;     /* hiwater_rss */
    uint64_t elapsedMicroseconds; /* ac_etime: from the thread's start to its exit */
    uint32_t exitCode;            /* ac_exitcode */
    int32_t isProcessTotal;       /* 1 for the whole process (TASKSTATS_TYPE_AGGR_TGID), 0 for one thread */
    uint64_t cpuDelayNanoseconds; /* cpu_delay_total: time runnable, waiting for a CPU (sched_info
                                     run_delay, filled whether or not kernel.task_delayacct is on) */
} frugal_task_exit;

/* Opens a netlink socket registered for the exits on `cpumask` (e.g. "0-1"). Returns the fd, or
   -1 with errno (EPERM without CAP_NET_ADMIN, ENOENT when the kernel has no taskstats). */
int frugal_taskstats_open(const char *cpumask);

/* Receives one datagram (blocking) and parses up to `capacity` exits from it. Returns their
   count (0 for a message that held none), or -1 with errno (ENOBUFS: the kernel dropped some). */
int frugal_taskstats_receive(int fd, frugal_task_exit *records, int capacity);
#endif
