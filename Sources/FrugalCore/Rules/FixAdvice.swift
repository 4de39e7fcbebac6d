/// What a fix looks like, per audit: the change the guide asks for, in FrugalKit's terms (the
/// calls an app written against FrugalKit would make). Reports show it beside a failing audit.
/// Each sentence follows the guide's own advice quoted in the rule; none adds a rule of its own.
public enum FixAdvice {
    /// The fix for `auditID`, or nil when the catalogue has none.
    public static func text(_ auditID: String) -> String? { advice[auditID] }

    static let advice: [String: String] = [
        "power.avoid-polling": "Replace the repeating timer that checks for work with an event source (addReadSource) or a one-shot timer scheduled when work arrives; give the timers you keep a tolerance so they fire together.",
        "power.coalesce-work": "Batch small pieces of work into one handler (one timer with a tolerance) instead of waking for each.",
        "power.cpu-budget": "Do the same work with less CPU: cache results, avoid recomputing unchanged data, move bulk work out of tight loops.",
        "power.frame-rate": "Draw only when content changed; stop the display link while nothing moves.",
        "disk.avoid-frequent-writes": "Keep changes in memory and write them together: on a debounce timer, when the app resigns active, or when it enters the background.",
        "disk.write-changed-portions": "Write the changed extents (FileStore.write at an offset, or extents) or append a delta instead of replacing the whole file.",
        "disk.write-budget": "Write less: coalesce saves, write only changed portions, and do not rewrite data that did not change.",
        "disk.no-cache-files": "Keep cache data in memory (Cache, PurgeableBuffer); write cache files only when the app terminates.",
        "disk.backup-placement": "Store re-creatable data under Library/Caches or tmp (or exclude it from backup); keep Documents for data the user created.",
        "disk.clean-tmp": "Delete temporary files when the work that needed them ends.",
        "lifecycle.launch-time": "Do only what the first screen needs in didFinishLaunching; defer loading, parsing and network work until after launch.",
        "lifecycle.background-transition": "Return from didEnterBackground quickly: save state, release memory, and move longer work into a background task on another thread.",
        "lifecycle.save-state": "Save the user's changes (preserveState or a write) when the app resigns active or enters the background, not only at terminate.",
        "lifecycle.quiesce-when-inactive": "Pause timers and periodic work in willResignActive; resume them in didBecomeActive.",
        "lifecycle.minimal-background-work": "Stop work in didEnterBackground; for what must finish, begin a background task and end it when done.",
        "lifecycle.end-background-tasks": "Call endBackgroundTask when the work ends, and in the expiration handler at the latest.",
        "lifecycle.close-listeners": "Close listening sockets in didEnterBackground and reopen them in willEnterForeground.",
        "lifecycle.resume-fast": "Keep willEnterForeground and didBecomeActive short; refresh in the background after the UI is back.",
        "memory.respond-to-warnings": "In didReceiveMemoryWarning, empty caches (removeAllObjects), discard purgeable buffers and release loaded resources that can be reloaded.",
        "memory.respond-immediately": "Free memory in the warning handler without blocking: no disk or network waits there.",
        "memory.free-on-background": "In didEnterBackground, release caches, images and other data you can re-create.",
        "memory.lazy-resources": "Load each resource when it is first used, not at launch.",
        "memory.map-large-resources": "Map large read-only resources (MappedResource) instead of reading them into memory.",
        "memory.no-leaks": "Release what each foreground/background cycle allocates; look for caches without limits and objects kept alive by closures.",
        "memory.survive-pressure": "Hold less in the background: free caches on entering it and respond to memory warnings, so the kernel's limit is not reached.",
        "network.transmit-in-bursts": "Queue requests and send them together, then let the radio idle, instead of spreading small transfers over time.",
        "network.no-server-polling": "Connect when the user or the data needs it, not on a fixed timer; batch what can wait.",
        "network.compact-transfers": "Use a compact format and compress payloads; do not send fields the other side ignores.",
        "network.avoid-chatty-protocols": "Fetch in fewer, larger requests: combine related requests into one.",
        "network.enqueue-together": "Create the related tasks together and resume them at once, so they share one radio wake.",
        "network.handle-failures": "Retry failed operations when the network returns (with back-off), and keep the work queued until it succeeds.",
        "main.no-long-blocks": "Move long work (disk, parsing, network waits) off the main thread and post the result back.",
        "main.no-waiting-on-main": "Do not wait on locks, sleeps or blocking I/O on the main thread; use asynchronous calls.",
    ]
}
