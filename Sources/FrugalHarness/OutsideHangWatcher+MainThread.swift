import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// Which thread of a black-box program is its main thread at each sample: the thread that runs its
/// main queue or run loop, from libdispatch's main queue (``MainQueueProbe``), else the process's
/// first thread. Kept apart from ``OutsideHangWatcher``'s loop so the choice can be told and tested.
///
/// - A program without libdispatch (a C loop), or whose main queue is bound to a thread
///   (`RunLoop.main.run()`, CFRunLoop, FrugalKit's loop, a plain `main`): the bound thread, the first.
/// - Under `dispatchMain()` (or Swift's `async` main, which calls it): the thread holding the main
///   queue's drain lock; while no thread holds it, the last one that did, sampled as idle (its own
///   waits and other queues' work are not the main thread's).
struct MainThreadJudge {
    /// The process watched (past wrappers).
    private(set) var pid: Int32 = 0
    private var probe: MainQueueProbe?
    /// A look for the main queue under way (``MainQueueSearch``), if one is.
    private var search: MainQueueSearch?
    /// Why there is no probe for `pid` (the last attempt's reason).
    private var unusable: MainQueueProbe.Unusable?
    private var attempts = 0
    private var nextAttempt: UInt64 = 0
    /// When `pid` started (monotonic ns, else when it was first judged): its maps are not read
    /// before ``ProcFS/addressSpaceQuietAfterStart`` after it.
    private var firstSeen: UInt64 = 0
    private var lastDrainer: Int32?
    /// The address space's size (pages) when the last look found no libdispatch: while it stays
    /// the same nothing was mapped, and a look would read and parse the maps for nothing.
    private var sizeAtLastMiss: UInt64?
    /// The size when the look under way began.
    private var sizeAtSearch: UInt64?
    /// Every distinct judgement, in order (at most `choiceLimit`).
    private(set) var choices: [MainThreadChoice] = []
    private var current: (tid: Int32, basis: String)?
    /// Whether the last reading found the main queue given up to the pool (`dispatchMain()`).
    private(set) var unbound = false

    static let choiceLimit = 32
    /// Looks for libdispatch at every sample for the process's first 0.5 s (from 0.1 s on: not while its loader maps it, ``ProcFS/addressSpaceQuietAfterStart``; the dynamic loader maps it
    /// at exec, a `dlopen` later), then once a second up to 10 looks: a program with no libdispatch
    /// costs a few reads of its maps, not one per sample.
    static let quickAttempts = 20
    static let attemptLimit = 30

    /// The thread to sample now, and whether the main queue is idle (nobody drains it).
    mutating func choose(pid: Int32, now: UInt64) -> (tid: Int32, idle: Bool) {
        if pid != self.pid {
            self.pid = pid
            // From the process's own start, not from when it was first judged: a wrapper's child is
            // seen a tick or more after its fork, by then often past its loader (or its end).
            firstSeen = min(now, ProcFS.startTime(pid: pid) ?? now)
            probe = nil
            search = nil
            unusable = nil
            attempts = 0
            nextAttempt = 0
            lastDrainer = nil
            sizeAtLastMiss = nil
        }
        // Not while the program's loader maps it: a read of the maps holds its mmap_lock, which
        // the loader's mmap calls then sleep on (wakeups that would be the harness's doing).
        if probe == nil, search == nil, attempts < Self.attemptLimit, now >= nextAttempt,
           now >= firstSeen + ProcFS.addressSpaceQuietAfterStart {
            attempts += 1
            nextAttempt = attempts < Self.quickAttempts ? now : now + 1_000_000_000
            let size = ProcFS.addressSpacePages(pid: pid)
            if unusable == .noDispatch, let size, size == sizeAtLastMiss {
                // Nothing mapped since the last look found no libdispatch: it would find none again.
            } else {
                search = MainQueueSearch(pid: pid)
                sizeAtSearch = size
            }
        }
        if let outcome = search?.outcome {
            search = nil
            switch outcome {
            case .success(let found): probe = found
            case .failure(let why):
                unusable = why
                sizeAtLastMiss = why == .noDispatch ? sizeAtSearch : nil
            }
        }
        guard let probe else {
            judge(pid, basis: MainThreadChoice.firstThread, now: now,
                  evidence: "the process's first thread: " + (unusable?.description ?? (search == nil ? "libdispatch's main queue was not looked for" : "libdispatch's main queue is being looked for")))
            return (pid, false)
        }
        // Unreadable once found: the process is on its way out. The judgement stands.
        guard let reading = probe.read() else { return (current?.tid ?? pid, false) }
        unbound = !reading.threadBound
        if reading.threadBound {
            let tid = reading.owner ?? pid
            judge(tid, basis: MainThreadChoice.mainQueueBound, now: now,
                  evidence: "libdispatch's main queue (\(probe.file)) is bound to it: only it drains the main queue (its run loop, or none)"
                    + (tid == pid ? ", the process's first thread" : ""))
            return (tid, false)
        }
        // Not bound only once `dispatchMain()` gave the queue up; the first thread holds the lock a
        // moment longer while it does (`_dispatch_queue_cleanup2`), then never again: not a drain.
        if let owner = reading.owner, owner != pid {
            lastDrainer = owner
            judge(owner, basis: MainThreadChoice.mainQueueDrainer, now: now,
                  evidence: "it held libdispatch's main-queue drain lock (\(probe.file)): dispatchMain() parked thread \(pid) and the main queue runs on a pool thread")
            return (owner, false)
        }
        // Nobody drains the main queue: the main thread is idle.
        return (lastDrainer ?? pid, true)
    }

    /// At the watch's end: a look for the main queue still under way (a short program, or a
    /// loaded machine that ran the look late) is waited for, up to `timeout` ns, so the first
    /// thread's judgement says what the look found rather than "being looked for". A look that
    /// found the queue only as the process ended changes nothing: nothing of it can be read.
    mutating func conclude(timeout: UInt64) {
        guard let search, probe == nil else { return }
        let deadline = MonotonicClock.now() + timeout
        var outcome = search.outcome
        while outcome == nil && MonotonicClock.now() < deadline {
            usleep(5_000)
            outcome = search.outcome
        }
        guard let outcome else { return }
        self.search = nil
        let evidence: String
        switch outcome {
        case .success: evidence = "the process's first thread: libdispatch's main queue was found only as the process ended"
        case .failure(let why):
            unusable = why
            evidence = "the process's first thread: " + why.description
        }
        judge(pid, basis: MainThreadChoice.firstThread, now: MonotonicClock.now(), evidence: evidence)
    }

    /// The thread became unreadable (a pool thread that drained the main queue left the pool).
    mutating func forget(_ tid: Int32) {
        if lastDrainer == tid { lastDrainer = nil }
    }

    private mutating func judge(_ tid: Int32, basis: String, now: UInt64, evidence: String) {
        guard current?.tid != tid || current?.basis != basis else {
            // The same judgement, with what the look for the main queue found once it has ended.
            if let last = choices.indices.last, choices[last].pid == pid, choices[last].tid == tid,
               choices[last].basis == basis, choices[last].evidence != evidence {
                choices[last].evidence = evidence
            }
            return
        }
        current = (tid, basis)
        if let last = choices.last, last.pid == pid, last.tid == tid, last.basis == MainThreadChoice.firstThread {
            // Judged before the dynamic loader had mapped libdispatch: the same thread, now with evidence.
            choices[choices.count - 1] = MainThreadChoice(pid: pid, tid: tid, since: last.since, basis: basis, evidence: evidence)
            return
        }
        guard choices.count < Self.choiceLimit,
              !choices.contains(where: { $0.pid == pid && $0.tid == tid && $0.basis == basis }) else { return }
        choices.append(MainThreadChoice(pid: pid, tid: tid, since: now, basis: basis, evidence: evidence))
    }
}

/// One look for a process's main queue, on a thread of its own. Finding the symbol can mean
/// reading a large executable's symbol table (a debug build's has 36,000 entries), which took
/// long enough on a loaded machine that the watch, doing it between two samples, took none for a
/// while: a program's 0.2 s sleep before a 0.4 s spin went unseen, the spin was taken for its
/// launch, and the hang was missed (1 run in 6 at load 14 here). The watch samples the first
/// thread at its usual interval until the answer is there.
final class MainQueueSearch: Sendable {
    private let result = Mutex<Result<MainQueueProbe, MainQueueProbe.Unusable>?>(nil)

    init(pid: Int32) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let found = MainQueueProbe.locate(pid: pid)
            result.withLock { $0 = found }
        }
    }

    /// The answer, once the look has ended.
    var outcome: Result<MainQueueProbe, MainQueueProbe.Unusable>? { result.withLock { $0 } }
}
