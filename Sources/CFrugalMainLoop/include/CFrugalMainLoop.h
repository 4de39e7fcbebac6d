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

/* The timerfd in CoreFoundation's wait set (`frugal_cf_main_wait_set`): the default mode's timer
   port, which CFRunLoop arms at its earliest timer's fire date. -1 with errno when there is none
   (ENOENT) or more than one (EEXIST: a source's port may be a timerfd too). */
int frugal_cf_wait_set_timer(int waitSet);

/* Disarms that timerfd when the default mode has no timer left, as CFRunLoop does on Darwin.
   On Linux it never does: without the Objective-C runtime CFRunLoop.c builds with
   USE_DISPATCH_SOURCE_FOR_TIMERS 0, whose arming path never sets the mode's _mkTimerArmed, so
   __CFArmNextTimerInMode's "no timer scheduled" branch never cancels it, and the timerfd still
   fires once at the fire date of a timer already invalidated (a wakeup with nothing to do).
   Returns 1 when it disarmed such a deadline, 0 when there was none (or a timer came back), -1
   with errno when a timerfd call failed. Call on the main thread, outside a run-loop pass. */
int frugal_cf_disarm_stale_timer(int timerFD);

/* Sets the path CoreFoundation takes for the process's executable (CFPlatform.c's
   _CFProcessPath, which Bundle.main's directory, ProcessInfo.processName and the standard
   UserDefaults file's name come from), in place of /proc/self/exe. CoreFoundation reads it once
   and keeps it; it must be called before anything reads Bundle.main. Returns 0, or -1 with errno
   (ENOMEM). */
int frugal_cf_set_process_path(const char *path);
#endif
