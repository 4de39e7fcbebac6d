/// What each audit decides from, and what makes it not applicable (issue 30: every audit decides
/// from what the process did — threads, memory, files, the wire — with FrugalKit's events as
/// extra detail where they are only detail). `frugal rules` and docs/SCORING.md print these.
extension RuleCatalogue {
    /// By rule id: (evidence, not applicable when).
    static let evidence: [String: (evidence: String, notApplicable: String)] = [
        "power.avoid-polling": (
            "/proc/<pid>/task/*/status voluntary context switches of every thread, sampled from outside every 0.2 s through the wait steps; libdispatch's manager thread (known by its stack) up to its 1 Hz pool monitor is the platform's; slices with a request on the wire (a proxy connection open or refused, an origin request, to its last byte and one sample after it for the result's hand-off), a file being written, frames drawn, a delivered warning, suspension or a fifth of a CPU are not idle; the main thread's wakeups while the active app drew at a frame rate (10/s or more in every slice for 0.5 s or longer) are not charged. Any process (app or black box); a black box's start-up, from its spawn to its main thread's first sustained wait (asleep interruptibly, not in wait4, and not run between two samples of its /proc state), is not idle",
            "the scenario has no wait step, or the app was idle under 1 s in all"),
        "power.coalesce-work": ("planned", "planned"),
        "power.cpu-budget": ("planned", "planned"),
        "power.frame-rate": ("planned", "planned"),
        "disk.avoid-frequent-writes": (
            "the kernel's view of the sandbox (inotify: each file closed after writing or renamed into place, with the time the harness read it), whoever wrote it — FrugalKit, Foundation, POSIX, a black-box program; a `.atomic` save (temporary file renamed over the file) is one write; a file held open and written in bursts (250 ms or more apart, as the harness read its modifications) is a write per burst, but for bursts while a request of the app's was in flight (a download arriving). Writes putting under 64 KiB on storage count. FrugalKit's write journal adds call sites as detail, decides where the sandbox could not be watched, and counts when it saw more small writes than the kernel's view (both are lower bounds: the watcher can read two saves at once)",
            "no file in the sandbox was written"),
        "disk.write-changed-portions": (
            "the kernel's view of the sandbox (inotify) and the harness's block diff of each written file against the copy it kept of the file before: a replaced file (renamed over, or a new inode) counts every byte, a file written in place counts the 4 KiB blocks that changed (everything from the point it was seen truncated); any process. FrugalKit's journal is detail, or the evidence where the sandbox was not watched",
            "no file in the sandbox was written, or every write created a new file"),
        "disk.write-budget": (
            "bytes written after launch: the kernel's view of the sandbox's files (inotify, block diffs: what each write put on storage, any API) for an app whose sandbox was watched, else FrugalKit's journal plus what /proc/<pid>/io wchar shows written around it (which counts socket, pipe and eventfd writes too); taskstats write_bytes of every process (a black box)",
            "the app wrote no file and left none in its sandbox (a program: write_bytes 0)"),
        "disk.no-cache-files": (
            "the kernel's view of the sandbox, any process (inotify: files closed after writing or renamed into place, with block diffs): bytes written to files in Library/Caches ($XDG_CACHE_HOME for a program) that were there before, and to paths the app declared cache data to FrugalKit, outside quitting (willTerminate or a program's terminate step onwards, a didEnterBackground handler); FrugalKit's journal adds call sites and exact times; without the kernel's view, the journal alone",
            "no file in the sandbox was written (without the kernel's view: the app wrote nothing through FrugalKit)"),
        "disk.backup-placement": (
            "the files the harness finds in the sandbox at the end of the run (Documents, Library and Application Support are backed up unless excluded), whatever wrote them; a file's data is re-creatable when its bytes equal, byte for byte, the body of a response the run's origin served (downloaded verbatim: synthetic bodies rebuilt from their path, fixture, HAR and upstream bodies by the SHA-256 the origin took as it served them), or when the app declared it support, cache or temporary data to FrugalKit; an app's download in Application Support that FrugalKit did not write and that has no exclusion Frugal reads is left out and named (Linux's Foundation ignores isExcludedFromBackup, so whether backups copy it is not known)",
            "the app wrote no file and left none in its sandbox"),
        "disk.clean-tmp": (
            "the files the harness finds in the sandbox's tmp at the end of the run, whatever wrote them",
            "the app wrote no file and left none in its sandbox"),
        "memory.respond-to-warnings": (
            "the footprint (smaps_rollup Anonymous − LazyFree, as iOS counts it) sampled from outside at the warning's delivery and 1 s later, against the least footprint since launch, less what the app's HTTP client keeps for connections open through the run's proxy (the platform's), after FrugalKit has trimmed glibc's arenas; any allocation counts (a dictionary as much as a Cache). FrugalKit's ledger of its caches, purgeable buffers and resources is shown as detail",
            "the scenario delivered no warning, or the app's footprint was under 4 MiB above its launch footprint, beyond its open connections' client state, at every warning"),
        "memory.respond-immediately": (
            "the harness's delivery time and the end of the app's warning handler (FrugalKit's handler event): needs the app's handler boundary",
            "the scenario delivered no warning"),
        "memory.free-on-background": (
            "the footprint (smaps_rollup Anonymous − LazyFree, as iOS counts it) sampled from outside before the app entered the background and late in it, against the least footprint since launch, less what the app's HTTP client keeps for connections open through the run's proxy (the platform's), after FrugalKit has trimmed glibc's arenas; any allocation counts",
            "the app never entered the background with samples on both sides, or had gained under 4 MiB since launch beyond its open connections' client state"),
        "memory.lazy-resources": (
            "the harness's inotify watch of the bundle (IN_OPEN, IN_ACCESS on each read(), IN_CLOSE_NOWRITE; a mapping's page faults raise none) with the run's processes' /proc/<pid>/io rchar read around each use, bounding the bytes read: which resource files any process read into memory before the first input step. FrugalKit's resource events (which were used) are detail, and decide only where the bundle was not watched",
            "the run installed no resource file in the bundle (resources:) and the app loaded none through FrugalKit"),
        "memory.map-large-resources": (
            "the harness's inotify watch of the bundle and rchar as for memory.lazy-resources: the bytes of resource files over 1 MiB copied into memory with read() (a file opened, never read and present in /proc/<pid>/maps is mapped: no copy); FrugalKit's resource events and peak anonymous memory (smaps_rollup) as detail",
            "the run installed no resource file over 1 MiB in the bundle, or the app never opened one"),
        "memory.no-leaks": (
            "anonymous memory (smaps_rollup) sampled from outside at the end of each identical foreground/background cycle",
            "the scenario has fewer than 3 cycles"),
        "memory.survive-pressure": (
            "the memory cgroup's OOM kill count and the workload's exit (killed by the OOM killer or not), under a real cgroup limit",
            "the scenario applies no pressure or balloon step, or the machine gave the run no memory cgroup"),
        "network.transmit-in-bursts": (
            "every byte the shaping proxy moved, whoever sent it, priced by the device radio's model; bursts that began within 2 s after an input step are left out",
            "no byte went through the proxy, or every burst began just after an input step (the user asked for each)"),
        "network.no-server-polling": (
            "the radio model's promotions over the proxy's trace, against the input, launch and foreground handlers that came before them (a black box's exec counts as its launch)",
            "no byte went through the proxy"),
        "network.compact-transfers": (
            "the bodies the origin server read and sent (every client), deflated by the origin to compare",
            "no request or response carried a body, or the bodies total under 14,600 B (one TCP initial window)"),
        "network.avoid-chatty-protocols": (
            "the requests the origin read (every client: URLSession, curl, FrugalKit's client), with their times on the proxy's link, and the scenario's input steps; requests with no whole response and retries FrugalKit's client reports are left out",
            "the origin read no request"),
        "network.enqueue-together": (
            "the requests the origin read (every client), placed on the proxy's link, with FrugalKit's client's times and connection limit where it made them, and the scenario's input steps: which transfers started alone on the wire once every earlier one of their batch had ended",
            "no two requests ran within 1.5 s of each other with no input step between"),
        "network.handle-failures": (
            "the wire, any client: the proxy's connections refused or reset by an injected failure with a request in flight, named by the request the origin read on them, or on a refused connection the request line the proxy read before resetting it (else NetworkClient's failed attempt nearest in time, as detail; else unknown: TLS, or a client that sent nothing), and the origin's whole answers after them: an operation is recovered by a later answer to the same request (unnamed: to any request started after it), and failed attempts of one request under one injected failure are its retries",
            "the scenario injected no failure, or none of the app's connections with a request in flight met it"),
        "main.no-long-blocks": (
            "an app: the main run loop's handlers (FrugalKit measures every pass: input, timers, main-queue blocks, Foundation run-loop work) with their schedstat run-queue time, against the harness's input steps (willTerminate left out: the guide's place to save before quitting, which nobody is waiting on); a black-box program: its main thread's stretches without a voluntary switch, seen from outside (/proc every 25 ms), pass or fail at 250 ms, past its start-up (to its first sustained wait; a start-up within the guide's 5 s launch is loading, not a hang)",
            "never: a scenario with no input still has its launch and its timers judged (the value is then the longest stretch of 250 ms or more, or 0)"),
        "main.no-waiting-on-main": (
            "the main thread's off-CPU time inside handlers but willTerminate (the guide's place to save before quitting; its wait is shown, not counted) (rusage voluntary switches, schedstat), and FrugalKit's blocking-call events with their call sites",
            "never for an app that reached its run loop"),
        "lifecycle.launch-time": (
            "from exec to the app's first handled event (FrugalKit's ack)",
            "never for an app; a black box signals no first event"),
        "lifecycle.background-transition": (
            "the length of the app's didEnterBackground handler (FrugalKit's handler event)",
            "the app never entered the background"),
        "lifecycle.save-state": (
            "what the app reported it preserved before a kill and restored after the relaunch (FrugalKit's StatePreserving)",
            "the scenario did not kill and relaunch an app that adopts StatePreserving"),
        "lifecycle.quiesce-when-inactive": (
            "voluntary context switches of every thread (/proc, from outside) during interrupt steps, less the sample slices (0.2 s apart) when a network request of the app's was in flight, to its last byte and the hand-off of its result, as power.avoid-polling reads them",
            "the scenario has no interruption, or the app's requests in flight left under 1 s of its interruptions to judge"),
        "lifecycle.minimal-background-work": (
            "CPU time of every thread (/proc, from outside) while in the background outside background tasks",
            "the app spent no sampled time in the background outside background tasks"),
        "lifecycle.end-background-tasks": (
            "FrugalKit's background-task events (begun, ended, expiration handler called)",
            "the app began no background task"),
        "lifecycle.close-listeners": (
            "the listening sockets the harness finds in /proc/<pid>/net while the app is suspended, whatever opened them",
            "the app was never suspended"),
        "lifecycle.resume-fast": (
            "the time from the harness's foreground step until the app's main thread is free again: the end of its didBecomeActive, or of the main-loop passes that follow it back to back (work queued during the return: a notification observer's main-queue block), from FrugalKit's handler events",
            "the app never returned to the foreground"),
    ]
}
