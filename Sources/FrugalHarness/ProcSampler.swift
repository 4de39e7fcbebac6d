import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// Samples `/proc/<pid>/task/*` from the harness at a fixed interval, so the workload never
/// wakes up to be measured. Stops by itself when the process is gone.
final class ProcSampler: Sendable {
    let pid: pid_t
    let interval: Double
    private let clock: any HarnessClock
    /// The main process's sample at a time (`/proc/<pid>` for a real process).
    private let source: @Sendable (UInt64) -> ProcessSample?
    /// Whether a thread is asleep and off the run queue (nil: cannot tell).
    private let offRunQueue: @Sendable (Int32) -> Bool?
    private struct State {
        var samples: [ProcessSample] = []
        var stopped = false
        /// Every process seen in the run besides the main one, with its command, when first seen.
        var seenMembers: [pid_t: (command: String, firstSeen: UInt64, parent: pid_t?)] = [:]
        /// `wchan` read `0` for every sleeping thread through a whole settle: no ptrace access
        /// or a kernel before 5.16; from then on settling trusts `status` alone.
        var runQueueUnknowable = false
    }

    private let state = Mutex(State())
    /// Signalled by `stop`, so the sampling thread's wait between samples (on `clock`) ends at once.
    private let wake = NSCondition()
    /// The other processes of the run (its cgroup's members): their threads join each sample, so
    /// the activity lane and idle phases count every descendant. Process-level fields (memory,
    /// I/O) stay the main process's.
    private let members: (@Sendable () -> [pid_t])?
    /// Each thread's evidence of what it is (its stack, read while it sleeps), taken as it is sampled.
    let threadEvidence = ThreadEvidenceCollector()

    /// Samples `process` (`AppProcess.sample(at:)`: `/proc/<pid>` for a real one) on `clock`.
    init(process: any AppProcess, interval: Double, clock: any HarnessClock, members: (@Sendable () -> [pid_t])? = nil) {
        self.pid = process.pid
        self.interval = interval
        self.clock = clock
        self.members = members
        source = { time in process.sample(at: time) }
        offRunQueue = { [weak process] tid in process?.isOffRunQueue(tid: tid) }
    }

    /// The main process's sample plus the threads of the run's other processes.
    private func takeSample() -> ProcessSample? {
        let time = clock.now()
        guard var sample = source(time) else { return nil }
        threadEvidence.observe(pid: pid, threads: sample.threads)
        guard let members else { return sample }
        for member in members() where member != pid {
            guard let tids = try? ProcFS.threadIDs(pid: member) else { continue }
            var threads: [ThreadSample] = []
            for tid in tids {
                if let thread = try? ProcFS.threadSample(pid: member, tid: tid) { threads.append(thread) }
            }
            sample.threads += threads
            threadEvidence.observe(pid: member, threads: threads)
            let known = state.withLock { $0.seenMembers[member] != nil }
            if !known {
                let command = ProcFS.commandLine(pid: member)
                let parent = ProcFS.parentProcess(pid: member)
                state.withLock { $0.seenMembers[member] = (command, time, parent) }
            }
        }
        return sample
    }

    /// The run's other processes seen so far.
    var otherProcesses: [pid_t: (command: String, firstSeen: UInt64, parent: pid_t?)] {
        state.withLock { $0.seenMembers }
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "frugal-sampler-\(pid)"
        thread.start()
    }

    /// One sample now, or nil if the process is gone.
    func sampleNow() -> ProcessSample? {
        guard let sample = takeSample() else { return nil }
        state.withLock { $0.samples.append(sample) }
        return sample
    }

    /// A sample taken once every thread is asleep, or after `timeout` seconds regardless.
    ///
    /// A thread's voluntary switch is counted when it goes to sleep, so an app still settling
    /// after an event would have that event's wakeups counted in the phase that follows. The
    /// harness polls `/proc` while it waits; the workload is not disturbed. Asleep means off the
    /// CPU (`status` not `R`) and off the run queue (``AppProcess/isOffRunQueue(tid:)``): a main
    /// thread preempted on its way back to sleep after a step reads `S` with its count from
    /// before, and its switch then fell in the wait that followed as an idle wakeup (seen under
    /// load: `news.coalesced` at 0.1 wakeups/s, one on the main thread in the first slice after
    /// launch, in 1 of 8 runs).
    ///
    /// A sample reads the threads one after another, not at one instant, so one that finds every
    /// thread asleep is confirmed by the next, taken at once: settled when no thread's switches,
    /// CPU time or state changed between the two. Without it, a worker's hand-off landed in the
    /// wait: the main thread read asleep, the worker then posted to it and went to sleep before
    /// it was read, and the main thread ran the posted handler and slept again before its run
    /// queue was checked; its switch fell in the wait as an idle wakeup (seen under load:
    /// `news.coalesced`'s `posted:feed-checked` at 0.1 wakeups/s, in one of three clean-clone tests).
    func settledSample(timeout: Double) -> ProcessSample? {
        let deadline = clock.now() + RunSession.nanoseconds(timeout)
        var onlyZeroWchan = true
        // The last sample that found every thread asleep, awaiting its confirmation.
        var asleepBefore: Fingerprint?
        while true {
            guard let sample = takeSample() else { return nil }
            let asleep = sample.isQuiet && isOffRunQueue(sample, sawAWchan: &onlyZeroWchan)
            let fingerprint = Fingerprint(sample)
            let confirmed = asleep && asleepBefore?.threads == fingerprint.threads
            if confirmed || sample.time >= deadline {
                state.withLock {
                    if !asleep && onlyZeroWchan && sample.isQuiet { $0.runQueueUnknowable = true }
                    $0.samples.append(sample)
                }
                return sample
            }
            // Confirmed at once; a confirmation that found a change waits a millisecond, as a
            // sample that found a thread awake does: the app is still at work.
            let confirmAtOnce = asleep && asleepBefore == nil
            asleepBefore = asleep ? fingerprint : nil
            if !confirmAtOnce { clock.sleep(until: clock.now() + 1_000_000) }
        }
    }

    /// Whether every thread of a quiet sample is off the run queue; true where that cannot be told.
    private func isOffRunQueue(_ sample: ProcessSample, sawAWchan onlyZero: inout Bool) -> Bool {
        guard !state.withLock({ $0.runQueueUnknowable }) else { return true }
        var all = true
        for thread in sample.threads where thread.state == "S" || thread.state == "D" {
            switch offRunQueue(thread.tid) {
            case true?: onlyZero = false
            case false?: all = false
            case nil: break
            }
        }
        return all
    }

    /// A sample taken once every thread is stopped (`T`: the group stop of SIGSTOP has completed),
    /// or nil after `timeout` seconds. Threads wake to enter the stop, so only this sample is final.
    /// The kernel shows a thread as stopped as it enters the stop, before it switches out, and
    /// counts that voluntary switch only then: a sample read in between is one switch short, and
    /// the suspension was once charged a wakeup it never made (on a loaded CI machine, where the
    /// stopping thread waited for a CPU). So the sample kept is one whose threads' switches and
    /// CPU time a read 1 ms before it showed the same, every thread stopped in both.
    func stoppedSample(timeout: Double) -> ProcessSample? {
        let deadline = clock.now() + RunSession.nanoseconds(timeout)
        var confirmed: Fingerprint?
        while true {
            guard let sample = takeSample() else { return nil }
            if sample.threads.allSatisfy({ $0.state == "T" || $0.state == "t" }) {
                let fingerprint = Fingerprint(sample)
                if fingerprint.threads == confirmed?.threads {
                    state.withLock { $0.samples.append(sample) }
                    return sample
                }
                confirmed = fingerprint
            } else {
                confirmed = nil
            }
            if sample.time >= deadline { return nil }
            clock.sleep(until: clock.now() + 1_000_000)
        }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        wake.lock()
        wake.broadcast()
        wake.unlock()
    }

    /// Every sample, in time order.
    var all: [ProcessSample] {
        state.withLock { $0.samples }.sorted { $0.time < $1.time }
    }

    /// The longest wait between two samples while nothing changes, seconds.
    static let longestQuietInterval = 1.0

    /// What two samples must share for the process to count as unchanged between them: every
    /// thread's switches, CPU time and state, its resident memory and its writes.
    private struct Fingerprint: Equatable {
        var threads: [[UInt64]]
        var resident: Int?
        var written: Int?
        init(_ sample: ProcessSample) {
            threads = sample.threads.map { [UInt64(UInt32(bitPattern: $0.tid)), UInt64($0.voluntaryContextSwitches),
                                             UInt64($0.involuntaryContextSwitches), $0.onCPUNanoseconds,
                                             UInt64($0.state?.utf8.first ?? 0)] }
            resident = sample.residentBytes
            written = sample.charactersWritten
        }
    }

    private func loop() {
        var previous: Fingerprint?
        var wait = interval
        while true {
            let done = state.withLock { $0.stopped }
            if done { return }
            guard let sample = sampleNow() else { return }
            // While nothing changes between samples (an idle program: same switches, CPU, memory),
            // the wait doubles up to `longestQuietInterval`; the first change brings it back. The
            // samples in between would all have been this one: the harness need not wake for them.
            let fingerprint = Fingerprint(sample)
            wait = fingerprint == previous ? min(wait * 2, max(interval, Self.longestQuietInterval)) : interval
            previous = fingerprint
            let next = clock.now() + RunSession.nanoseconds(wait)
            // `stopped` is read holding `wake`, so a `stop` in between cannot be missed.
            wake.lock()
            while !state.withLock({ $0.stopped }) && clock.now() < next { clock.wait(wake, until: next) }
            wake.unlock()
        }
    }
}
