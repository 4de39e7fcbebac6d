#ifndef FRUGAL_WAKEUP_TRACE_H
#define FRUGAL_WAKEUP_TRACE_H
#include <stddef.h>
#include <stdint.h>

/* The sample layout every wakeup-trace event writes (PERF_SAMPLE_TID | TIME | CPU | CALLCHAIN |
   RAW, then STACK_USER for the events opened with a stack copy): FrugalCore's PerfRecordParser
   reads exactly these fields, in this order. */
uint64_t frugal_wakeup_sample_type(void);

/// Opens a sampling event of the tracepoint `id` on CPU `cpu` for every task in the v2 cgroup
/// open as `cgroup_fd` (PERF_FLAG_PID_CGROUP), one sample per hit, with the user-space callchain
/// (at most `max_stack` frames) when `callchain` is non-zero, timestamps on CLOCK_MONOTONIC,
/// disabled until enabled (PERF_EVENT_IOC_ENABLE); with `stack_bytes` > 0, also that many bytes
/// of the user stack from its pointer up (PERF_SAMPLE_STACK_USER, after the raw record).
/// Returns the fd or -errno.
int frugal_perf_open_sampler_cgroup(unsigned long long id, int cgroup_fd, int cpu, int callchain, unsigned short max_stack,
                                    unsigned int stack_bytes);

/// Sets a tracepoint filter (`id == 232 || ...`) on `fd` (PERF_EVENT_IOC_SET_FILTER): records
/// the kernel drops never reach the buffer. Returns 0 or -errno.
int frugal_perf_set_filter(int fd, const char *filter);

/// Sends `fd`'s samples to `target`'s ring buffer (PERF_EVENT_IOC_SET_OUTPUT; same CPU). 0 or -errno.
int frugal_perf_set_output(int fd, int target);

/// Enables (1) or disables (0) `fd`. Returns 0 or -errno.
int frugal_perf_enable(int fd, int enable);

/// The bytes of the ring buffer mapped at `base` (its first page is the perf_event_mmap_page,
/// then `data_size` bytes of data) between data_tail and data_head, as whole records, copied
/// into `out` (at most `capacity` bytes, unwrapped); data_tail then moves past them, so the
/// kernel may reuse the space. Reads data_head with acquire and writes data_tail with release
/// ordering, as perf_event_open(2) asks. Returns the bytes copied.
size_t frugal_perf_ring_read(void *base, size_t data_size, uint8_t *out, size_t capacity);

#endif
