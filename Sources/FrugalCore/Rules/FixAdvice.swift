/// What a fix looks like, per audit, in the terms of the code under test: Foundation, GCD and
/// Swift concurrency for a Swift app (the calls app code makes whether or not it uses
/// FrugalKit's helpers), the kernel's event and I/O interfaces for a black-box program, which
/// cannot call FrugalKit. Reports show it beside a failing audit. Each sentence follows the
/// guide's own advice quoted in the rule; none adds a rule of its own.
public enum FixAdvice {
    /// The code an audit's advice is addressed to.
    public enum Platform: Sendable {
        /// A Swift app (Foundation, GCD, Swift concurrency; FrugalKit where it stands in for UIKit).
        case swiftApp
        /// A program run as a black box: its source language is unknown; its interface is the kernel's.
        case program
    }

    /// The fix for `auditID` on `platform`, or nil when the catalogue has none.
    public static func text(_ auditID: String, platform: Platform = .swiftApp) -> String? {
        switch platform {
        case .swiftApp: return advice[auditID]
        case .program: return programAdvice[auditID]
        }
    }

    static let advice: [String: String] = [
        "power.avoid-polling": "Replace the repeating Timer or DispatchSource timer that checks for work with an event: a DispatchSource read or signal source, a NotificationCenter observer, an AsyncStream the producer feeds, or a one-shot asyncAfter scheduled when work arrives; give the timers you keep a tolerance (Timer.tolerance, the leeway of DispatchSourceTimer.schedule) so they fire together.",
        "power.coalesce-work": "Batch small pieces of work into one handler (one Timer with a tolerance, one Timer or DispatchSourceTimer rescheduled for a debounce) instead of waking for each.",
        "power.cpu-budget": "Do the same work with less CPU: cache results, avoid recomputing unchanged data, move bulk work out of tight loops.",
        "power.frame-rate": "Draw only when content changed; stop the display link while nothing moves.",
        "disk.avoid-frequent-writes": "Keep changes in memory and write them together: after a debounce (one Timer invalidated and made again, or one DispatchSourceTimer scheduled again, on each change; a cancelled DispatchWorkItem still wakes the app when its time comes), when the app resigns active, or when it enters the background.",
        "disk.write-changed-portions": "Write the changed extents (FileHandle.seek(toOffset:) then write) or append a delta instead of replacing the whole file with Data.write(to:options: .atomic).",
        "disk.write-budget": "Write less: coalesce saves, write only changed portions, and do not rewrite data that did not change.",
        "disk.no-cache-files": "Keep cache data in memory (NSCache, a dictionary you empty on memory warnings); write cache files only when the app terminates.",
        "disk.backup-placement": "Store re-creatable data under Library/Caches (FileManager's .cachesDirectory) or tmp, or exclude it from backup (URLResourceValues.isExcludedFromBackup); keep Documents for data the user created.",
        "disk.clean-tmp": "Delete temporary files (FileManager.removeItem) when the work that needed them ends.",
        "lifecycle.launch-time": "Do only what the first screen needs in didFinishLaunching; defer loading, parsing and network work until after launch (DispatchQueue.global().async, a Task).",
        "lifecycle.background-transition": "Return from didEnterBackground quickly: save state, release memory, and move longer work into a background task on another queue.",
        "lifecycle.save-state": "Save the user's changes when the app resigns active or enters the background, not only at terminate.",
        "lifecycle.quiesce-when-inactive": "Pause timers and periodic work in willResignActive (Timer.invalidate, DispatchSource.suspend, cancel the Task); resume them in didBecomeActive.",
        "lifecycle.minimal-background-work": "Stop work in didEnterBackground (suspend the DispatchQueue or cancel the Task); for what must finish, begin a background task and end it when done.",
        "lifecycle.end-background-tasks": "Call endBackgroundTask when the work ends, and in the expiration handler at the latest (a defer in the work's closure).",
        "lifecycle.close-listeners": "Close listening sockets in didEnterBackground and reopen them in willEnterForeground.",
        "lifecycle.resume-fast": "Keep willEnterForeground and didBecomeActive short; refresh on a background queue after the UI is back.",
        "memory.respond-to-warnings": "In didReceiveMemoryWarning (or an observer of the memory-warning notification), drop your strong references to what can be re-created: empty dictionaries and arrays used as caches (removeAll()), NSCache (removeAllObjects()), decoded images, loaded file contents.",
        "memory.respond-immediately": "Free memory in the warning handler without blocking: no disk or network waits there.",
        "memory.free-on-background": "In didEnterBackground, empty the caches, images and other data you can re-create (removeAll() on the dictionaries and arrays holding them).",
        "memory.lazy-resources": "Load each resource when it is first used (a lazy var, or on the screen that needs it), not at launch.",
        "memory.map-large-resources": "Map large read-only resources (Data(contentsOf:options: .alwaysMapped), or mmap) instead of reading them into memory.",
        "memory.no-leaks": "Release what each foreground/background cycle allocates; look for caches without limits and objects kept alive by closures (capture [weak self]).",
        "memory.survive-pressure": "Hold less in the background: free caches on entering it and respond to memory warnings, so the kernel's limit is not reached.",
        "network.transmit-in-bursts": "Queue what can wait and send it together, then let the radio idle: collect changes and send one batch on a debounce or when the app enters the background, or hand it to a URLSessionConfiguration.background session, which the system schedules.",
        "network.no-server-polling": "Fetch when the user or the data needs it, not on a repeating Timer; for updates that can wait, use a background URLSession or push, and batch what can wait.",
        "network.compact-transfers": "Use a compact format and compress payloads (send Accept-Encoding: gzip; compress uploads); do not send fields the other side ignores.",
        "network.avoid-chatty-protocols": "Fetch in fewer, larger requests: ask the server for the items together (one request with a list of ids, a batch endpoint) instead of one URLSession task per item, each waiting for the last.",
        "network.enqueue-together": "Create the related URLSession tasks together and resume() them at once (or start them in one TaskGroup), so they share one radio wake.",
        "network.handle-failures": "Retry failed operations when the network returns (with back-off), and keep the work queued until it succeeds.",
        "main.no-long-blocks": "Move long work (file reading, decoding, sorting, indexing, network waits) off the main thread — DispatchQueue.global().async or a Task off the main actor — and post the result back (DispatchQueue.main.async, await MainActor.run).",
        "main.no-waiting-on-main": "Do not wait on locks, semaphores, sleeps or blocking I/O on the main thread; use asynchronous calls (URLSession completion handlers, async/await).",
    ]

    /// The same fixes for a program run as a black box, in the kernel's terms.
    static let programAdvice: [String: String] = [
        "power.avoid-polling": "Wait for events instead of waking on a timer to check: block in epoll_wait/poll on the descriptors that carry work, use inotify for files, eventfd or a pipe to be woken by another thread, signalfd for signals; for timers you keep, one timerfd armed for the next deadline, with slack (prctl PR_SET_TIMERSLACK) so wakeups coalesce.",
        "power.coalesce-work": "Do queued work in one wakeup: drain everything epoll_wait returned before sleeping again, and arm one timerfd for the earliest deadline rather than one per task.",
        "power.cpu-budget": "Do the same work with less CPU: cache results, avoid recomputing unchanged data, move bulk work out of tight loops.",
        "power.frame-rate": "Draw only when content changed.",
        "disk.avoid-frequent-writes": "Keep changes in memory and write them together; batch fsync/fdatasync (one after a group of writes, not one per write).",
        "disk.write-changed-portions": "Write the changed ranges with pwrite at their offsets, or append a log, instead of rewriting and renaming the whole file.",
        "disk.write-budget": "Write less: batch writes and fsyncs, write only changed ranges (pwrite), and do not rewrite data that did not change.",
        "disk.no-cache-files": "Keep cache data in memory; write cache files only at exit.",
        "disk.backup-placement": "Keep re-creatable data in the cache directory ($XDG_CACHE_HOME) rather than with the user's data.",
        "disk.clean-tmp": "Delete temporary files (unlink, or open them with O_TMPFILE) when the work that needed them ends.",
        "lifecycle.close-listeners": "Close listening sockets when the program is stopped or idle (or let a socket-activating supervisor hold them), and reopen them when work resumes.",
        "lifecycle.minimal-background-work": "When sent to the background (the signal its frugal.yml configures), stop background work and block in epoll_wait or ppoll until resumed.",
        "memory.survive-pressure": "Hold less: free caches when the cgroup's memory.pressure (PSI) notifies you, and call malloc_trim(0) after freeing large caches under glibc so the pages go back to the kernel.",
        "memory.respond-to-warnings": "On the configured warning signal, free what can be re-created and call malloc_trim(0) (glibc) so the pages go back to the kernel.",
        "memory.free-on-background": "When paused, free what can be re-created and call malloc_trim(0) (glibc) so the pages go back to the kernel.",
        "network.transmit-in-bursts": "Queue what can wait and send it together, then leave the socket quiet, instead of sending each small message as it is made.",
        "network.no-server-polling": "Connect when there is work, not on a fixed timer: keep one connection open and wait for the server to push (epoll on the socket), or back off when nothing changed.",
        "network.compact-transfers": "Use a compact format and compress payloads (Accept-Encoding: gzip, compressed uploads).",
        "network.avoid-chatty-protocols": "Send fewer, larger requests: one request for many items (a batch endpoint, HTTP pipelining or multiplexing on one connection) instead of one round trip per item.",
        "network.enqueue-together": "Start related transfers together (several connections, or multiplexed on one, driven by one epoll loop) instead of one after another.",
        "network.handle-failures": "Retry failed transfers with back-off and keep the work queued until it succeeds.",
        "main.no-long-blocks": "Keep the thread that answers requests or input free: do long work (file reading, parsing, sorting) on a worker thread or process and hand results back through a pipe or eventfd the main loop waits on.",
        "main.no-waiting-on-main": "Do not block the event loop's thread in read, connect, fsync or sleep: use non-blocking descriptors with epoll, or a worker thread for blocking calls.",
        "lifecycle.launch-time": "Start serving before doing optional work: defer loading and parsing until after the first request is answered.",
        "lifecycle.background-transition": "Handle the pause signal quickly: save state and return to the event loop.",
        "lifecycle.save-state": "Save state when signalled (SIGTERM, SIGUSR1), not only at a clean exit.",
        "lifecycle.quiesce-when-inactive": "Disarm periodic timers (timerfd_settime with zero) while nothing needs them.",
        "lifecycle.end-background-tasks": "End background work when it is done; do not leave threads or child processes running.",
        "lifecycle.resume-fast": "Resume from a pause quickly: refresh after answering the first request.",
        "memory.respond-immediately": "Free memory in the signal's handling path without blocking on disk or network.",
        "memory.lazy-resources": "Read each file when it is first needed, not at start-up.",
        "memory.map-large-resources": "mmap large read-only files (with madvise MADV_RANDOM or MADV_WILLNEED as fits) instead of reading them into memory.",
        "memory.no-leaks": "Release what each unit of work allocates; look for caches without limits.",
    ]
}
