#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "FrugalWakeupTrace.h"

uint64_t frugal_wakeup_sample_type(void) {
    return PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
}

int frugal_perf_open_sampler_cgroup(unsigned long long id, int cgroup_fd, int cpu, int callchain, unsigned short max_stack,
                                    unsigned int stack_bytes) {
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = id;
    attr.sample_period = 1;
    attr.sample_type = frugal_wakeup_sample_type();
    attr.disabled = 1;
    attr.use_clockid = 1;
    attr.clockid = CLOCK_MONOTONIC;
    /* Only the user-space side: the Swift frames are what a report names, and walking the
       kernel's stack on every switch would cost more for nothing the report shows. */
    attr.exclude_callchain_kernel = 1;
    attr.exclude_callchain_user = callchain ? 0 : 1;
    attr.sample_max_stack = max_stack;
    /* A copy of the top of the user stack, for what frame pointers cannot reach: libraries
       built without them (libswiftDispatch, libdispatch) end the callchain early. */
    if (stack_bytes) {
        attr.sample_type |= PERF_SAMPLE_STACK_USER;
        attr.sample_stack_user = stack_bytes & ~7u;
    }
    /* Wake a reader only when a quarter of the buffer is full: the reader polls with a timeout,
       so an idle app costs the harness nothing here. */
    attr.watermark = 1;
    attr.wakeup_watermark = 64 * 1024;
    long fd = syscall(SYS_perf_event_open, &attr, cgroup_fd, cpu, -1, PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP);
    return fd < 0 ? -errno : (int)fd;
}

int frugal_perf_set_filter(int fd, const char *filter) {
    return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0 ? -errno : 0;
}

int frugal_perf_set_output(int fd, int target) {
    return ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, target) < 0 ? -errno : 0;
}

int frugal_perf_enable(int fd, int enable) {
    return ioctl(fd, enable ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0) < 0 ? -errno : 0;
}

size_t frugal_perf_ring_read(void *base, size_t data_size, uint8_t *out, size_t capacity) {
    struct perf_event_mmap_page *page = base;
    const uint8_t *data = (const uint8_t *)base + (page->data_offset ? page->data_offset : (size_t)sysconf(_SC_PAGESIZE));
    if (page->data_size) data_size = page->data_size;
    uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = page->data_tail;
    size_t copied = 0;
    while (tail < head) {
        struct perf_event_header header;
        for (size_t i = 0; i < sizeof header; i++) ((uint8_t *)&header)[i] = data[(tail + i) % data_size];
        if (header.size < sizeof header || header.size > head - tail) break;
        if (copied + header.size > capacity) break;
        size_t start = tail % data_size, first = data_size - start < header.size ? data_size - start : header.size;
        memcpy(out + copied, data + start, first);
        memcpy(out + copied + first, data, header.size - first);
        copied += header.size;
        tail += header.size;
    }
    __atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
    return copied;
}
