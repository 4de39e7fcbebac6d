#ifndef FRUGAL_CMAINLOOP_H
#define FRUGAL_CMAINLOOP_H
/* The hooks FrugalKit's main run loop uses to service libdispatch's main queue and
   CoreFoundation's main run loop (RunLoop.main) from its own epoll wait, on Linux.
   Declared here because neither Dispatch's nor Foundation's Swift module exposes them. */
#include <stdbool.h>

/* libdispatch's main-queue handle (an eventfd on Linux, created non-blocking): written by every
   dispatch_async/dispatch_after/dispatch_sync to the main queue, read by whoever drains it. */
int frugal_main_queue_handle(void);

/* Runs every block queued on the main queue so far (libdispatch's
   _dispatch_main_queue_callback_4CF, what CoreFoundation calls). Call on the main thread. */
void frugal_drain_main_queue(void);

/* The epoll descriptor CoreFoundation's main run loop waits on in its default mode: it holds the
   run loop's wake-up eventfd (CFRunLoopWakeUp) and its timerfd (CFRunLoopTimer, Foundation's
   Timer). Found once by adding a marker descriptor as a version-1 source and looking for the
   epoll set that holds it in /proc/self/fdinfo; -1 with errno when not found. Call on the main
   thread. */
int frugal_cf_main_wait_set(void);

/* One pass of the main run loop in the default mode, without waiting: due timers, performed
   blocks (RunLoop.main.perform), signalled sources, and the main queue if it has work by then.
   Returns CFRunLoopRunInMode's result (1 finished, 2 stopped, 3 timed out, 4 handled a source). */
int frugal_cf_run_pass(void);

/* Seconds until the main run loop's next timer fires in the default mode (negative when due),
   or a negative infinity when it has none. */
double frugal_cf_seconds_to_next_timer(void);
#endif
