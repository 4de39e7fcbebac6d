#define _GNU_SOURCE
#include "CFrugalMainLoop.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* libdispatch (DISPATCH_COCOA_COMPAT, src/queue.c): exported for CoreFoundation. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *ignored);

int frugal_main_queue_handle(void) { return _dispatch_get_main_queue_handle_4CF(); }
void frugal_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(NULL); }

/* CoreFoundation as libFoundation.so exports it (swift-corelibs-foundation, CFRunLoop.h); the
   types are pointers and C scalars, declared here without CF's headers. */
typedef const void *CFTypeRef;
typedef const void *CFStringRef;
typedef void *CFRunLoopRef;
typedef void *CFRunLoopSourceRef;
typedef long CFIndex;
typedef unsigned char Boolean;
typedef struct {
    CFIndex version;
    void *info;
    const void *(*retain)(const void *info);
    void (*release)(const void *info);
    CFStringRef (*copyDescription)(const void *info);
    Boolean (*equal)(const void *info1, const void *info2);
    unsigned long (*hash)(const void *info);
    int (*getPort)(void *info);          /* __CFPort is an int (an eventfd) on Linux */
    void (*perform)(void *info);
} FrugalCFRunLoopSourceContext1;
extern const CFStringRef kCFRunLoopDefaultMode;
extern CFRunLoopRef CFRunLoopGetMain(void);
extern CFRunLoopSourceRef CFRunLoopSourceCreate(const void *allocator, CFIndex order, void *context);
extern void CFRunLoopAddSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFStringRef mode);
extern void CFRunLoopRemoveSource(CFRunLoopRef rl, CFRunLoopSourceRef source, CFStringRef mode);
extern void CFRunLoopSourceInvalidate(CFRunLoopSourceRef source);
extern void CFRelease(CFTypeRef cf);
extern int CFRunLoopRunInMode(CFStringRef mode, double seconds, Boolean returnAfterSourceHandled);
extern double CFRunLoopGetNextTimerFireDate(CFRunLoopRef rl, CFStringRef mode);
extern double CFAbsoluteTimeGetCurrent(void);

/* Whether descriptor `fd` of this process is the kind of anonymous inode `kind` names
   ("anon_inode:[eventpoll]", "anon_inode:[timerfd]"), as /proc/self/fd shows it. */
static bool frugal_fd_is(int fd, const char *kind) {
    char link[64], target[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    if (length <= 0) return false;
    target[length] = 0;
    return strcmp(target, kind) == 0;
}

static int frugal_marker_port(void *info) { return (int)(intptr_t)info; }
static void frugal_marker_perform(void *info) { (void)info; }

/* Whether /proc/self/fdinfo/<fd> describes an epoll set watching `target` ("tfd: <target> "). */
static bool frugal_epoll_holds(int fd, int target) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    FILE *file = fopen(path, "re");
    if (!file) return false;
    char line[256];
    bool holds = false;
    while (fgets(line, sizeof line, file)) {
        int tfd;
        if (sscanf(line, "tfd: %d ", &tfd) == 1 && tfd == target) { holds = true; break; }
    }
    fclose(file);
    return holds;
}

int frugal_cf_main_wait_set(void) {
    int marker = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (marker < 0) return -1;
    FrugalCFRunLoopSourceContext1 context;
    memset(&context, 0, sizeof context);
    context.version = 1;
    context.info = (void *)(intptr_t)marker;
    context.getPort = frugal_marker_port;
    context.perform = frugal_marker_perform;
    CFRunLoopRef loop = CFRunLoopGetMain();
    CFRunLoopSourceRef source = CFRunLoopSourceCreate(NULL, 0, &context);
    if (!source) { close(marker); errno = ENOMEM; return -1; }
    /* Scheduling a version-1 source inserts its port into the mode's epoll set (__CFPortSetInsert). */
    CFRunLoopAddSource(loop, source, kCFRunLoopDefaultMode);
    int found = -1;
    DIR *directory = opendir("/proc/self/fd");
    if (directory) {
        struct dirent *entry;
        while ((entry = readdir(directory)) && found < 0) {
            int fd = atoi(entry->d_name);
            if (entry->d_name[0] == '.' || fd == marker || fd == dirfd(directory)) continue;
            if (frugal_fd_is(fd, "anon_inode:[eventpoll]") && frugal_epoll_holds(fd, marker)) found = fd;
        }
        closedir(directory);
    }
    CFRunLoopRemoveSource(loop, source, kCFRunLoopDefaultMode);
    CFRunLoopSourceInvalidate(source);
    CFRelease(source);
    close(marker);
    if (found < 0) errno = ENOENT;
    return found;
}

int frugal_cf_run_pass(void) { return CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, 1); }

double frugal_cf_seconds_to_next_timer(void) {
    double next = CFRunLoopGetNextTimerFireDate(CFRunLoopGetMain(), kCFRunLoopDefaultMode);
    if (next == 0) return -INFINITY;
    return next - CFAbsoluteTimeGetCurrent();
}

int frugal_cf_wait_set_timer(int waitSet) {
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", waitSet);
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    char line[256];
    int found = -1, count = 0;
    while (fgets(line, sizeof line, file)) {
        int tfd;
        if (sscanf(line, "tfd: %d ", &tfd) == 1 && frugal_fd_is(tfd, "anon_inode:[timerfd]")) { found = tfd; count += 1; }
    }
    fclose(file);
    /* Two timerfds: one is a source's port, not known to be the mode's; neither is touched. */
    if (count != 1) { errno = count ? EEXIST : ENOENT; return -1; }
    return found;
}

int frugal_cf_disarm_stale_timer(int timerFD) {
    CFRunLoopRef loop = CFRunLoopGetMain();
    if (CFRunLoopGetNextTimerFireDate(loop, kCFRunLoopDefaultMode) != 0) return 0;
    struct itimerspec current;
    if (timerfd_gettime(timerFD, &current) != 0) return -1;
    if (current.it_value.tv_sec == 0 && current.it_value.tv_nsec == 0) return 0;
    struct itimerspec disarmed;
    memset(&disarmed, 0, sizeof disarmed);
    if (timerfd_settime(timerFD, 0, &disarmed, NULL) != 0) return -1;
    /* Another thread may have added a timer since the first look: CFRunLoop arms the timerfd under
       the mode's lock, which CFRunLoopGetNextTimerFireDate takes too, so a timer seen now was
       armed before this look, perhaps before the disarm; it is armed again, at its fire date. */
    double next = CFRunLoopGetNextTimerFireDate(loop, kCFRunLoopDefaultMode);
    if (next == 0) return 1;
    double seconds = next - CFAbsoluteTimeGetCurrent();
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return -1;
    long long nanoseconds = (long long)now.tv_sec * 1000000000LL + now.tv_nsec
        + (seconds > 0 ? (long long)(seconds * 1e9) : 0) + 1;
    struct itimerspec rearmed;
    memset(&rearmed, 0, sizeof rearmed);
    rearmed.it_value.tv_sec = nanoseconds / 1000000000LL;
    rearmed.it_value.tv_nsec = nanoseconds % 1000000000LL;
    if (timerfd_settime(timerFD, TFD_TIMER_ABSTIME, &rearmed, NULL) != 0) return -1;
    return 0;
}

/* CFPlatform.c: the process path and the program name (its last component), each read once. */
extern const char **_CFGetProcessPath(void);
extern const char **_CFGetProgname(void);

int frugal_cf_set_process_path(const char *path) {
    char *copy = strdup(path);
    if (!copy) return -1;
    const char *slash = strrchr(copy, '/');
    /* Kept for the life of the process, as CoreFoundation keeps its own copy. */
    *_CFGetProcessPath() = copy;
    *_CFGetProgname() = slash ? slash + 1 : copy;
    return 0;
}
