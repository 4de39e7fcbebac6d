import FrugalCore

/// Turns samples of a black-box program's main thread (its state, voluntary-switch count and
/// on-CPU time, read from `/proc`) into hangs: the decisions of ``OutsideHangWatcher``, kept apart
/// from its thread and its `/proc` reads so that each can be driven sample by sample in a test.
///
/// A stretch is a run of samples with no voluntary switch of the thread. Two facts of the kernel
/// shape it:
/// - The voluntary-switch count goes up when the thread goes to sleep, not when it wakes. A thread
///   that sleeps and then spins keeps one count through both, so a sleeping stretch that is seen
///   running again has ended: the busy stretch starts there, at the last sample that saw it asleep
///   (it gained no CPU time while asleep, so its on-CPU time from then on is the spin's own).
/// - The last stretch is open when the program exits: it is closed at the exit, and a thread seen
///   on the CPU at its last sample is taken to have run until then.
struct OutsideStretchTracker {
    /// The hang limit, ns.
    let limitNanoseconds: UInt64
    /// The guide's launch limit ("start handling events in less than 5 seconds"), ns of CPU.
    static let launchLimitNanoseconds = UInt64(Thresholds.launchWatchdogSeconds * 1e9)

    private(set) var hangs: [OutsideHang] = []
    /// The longest on-CPU time without a voluntary switch, ns (launch excluded, but for a launch
    /// on the CPU past the guide's 5 s).
    private(set) var longestBusy: UInt64 = 0
    /// Whether the thread has slept once (its launch is over).
    private(set) var launched = false
    /// The longest off-CPU wait in one blocking call after launch, hung or idle: from outside
    /// the two differ only by whether an answer was expected, so it is reported, never judged.
    private(set) var longestWait: OutsideHang?

    private var stretch: Stretch?
    private var last: Sample?
    /// When the watched thread was last found gone (its process exited), monotonic ns.
    private var lostAt: UInt64?

    init(limitNanoseconds: UInt64) {
        self.limitNanoseconds = limitNanoseconds
    }

    /// One sample of the thread as `/proc` showed it.
    struct Sample {
        /// The watched thread's id (a process's first thread has the process's id): a new id is a new thread.
        var pid: Int32
        var time: UInt64
        var state: ThreadWaitState
        /// The program's main queue was not being drained (under `dispatchMain()` no thread holds it
        /// then): the thread sampled is the last that drained it, and whatever it does now (another
        /// queue's work, waiting in the pool) is not the main thread's: idle, like a wait for events.
        var idle = false
        var running: Bool { state.state == "R" && !idle }
    }

    /// A run of samples with no voluntary switch of the watched thread.
    struct Stretch {
        var pid: Int32
        var start: UInt64
        var switches: Int
        var busy: Bool
        var uninterruptible: Bool
        var wchan: String?
        var syscall: String?
        var onCPUStart: UInt64
        var onCPUEnd: UInt64
        var lastSampleTime: UInt64
        var duringLaunch: Bool
        /// Some sample of it found the main queue idle: not one blocking wait of the main thread.
        var idle = false
    }

    /// The scenario's window in which an answer was expected (monotonic ns).
    typealias Expecting = (from: UInt64, until: UInt64)

    mutating func observe(_ sample: Sample, expecting: Expecting) {
        // An exited thread (a zombie, or dead) is gone, whatever its status still shows: its
        // schedstat reads 0 then, which once made an on-CPU time wrap around to 2⁶⁴ ns.
        if sample.state.state == "Z" || sample.state.state == "X" {
            lost(at: sample.time)
            return
        }
        if let lost = lostAt, let open = stretch {
            // The thread was gone and another (a wrapper's child) is watched now.
            close(open, at: lost, expecting: expecting)
            stretch = nil
        }
        lostAt = nil
        let state = sample.state
        if !sample.running { launched = true }
        // A busy stretch ends when the main queue is found idle (its drain ended), the thread's count unchanged or not.
        if var current = stretch, current.pid == sample.pid, current.switches == state.voluntaryContextSwitches,
           !(current.busy && sample.idle), current.busy || !sample.running {
            current.busy = current.busy && sample.running
            current.uninterruptible = current.uninterruptible && state.state == "D"
            current.onCPUEnd = max(current.onCPUEnd, state.onCPUNanoseconds)
            current.lastSampleTime = sample.time
            current.idle = current.idle || sample.idle
            if !sample.running {
                current.wchan = state.wchan ?? current.wchan
                current.syscall = state.syscall ?? current.syscall
            }
            stretch = current
        } else {
            if var finished = stretch {
                if finished.busy && finished.pid == sample.pid && finished.switches != state.voluntaryContextSwitches {
                    // It ran on until it went to sleep, after its last running sample: schedstat has that time.
                    finished.onCPUEnd = max(finished.onCPUEnd, state.onCPUNanoseconds)
                }
                if let hidden = hiddenSpin(after: finished, before: sample) {
                    // Asleep at both samples, one wakeup between: the CPU time between is one run.
                    close(finished, at: hidden.start, expecting: expecting)
                    recordBusy(onCPU: hidden.end - hidden.start, end: hidden.end)
                } else {
                    close(finished, at: sample.time, expecting: expecting)
                }
            }
            stretch = begin(with: sample)
        }
        last = sample
    }

    /// What a thread the watch now turns to looked like at the previous sample, read then though it
    /// was not the one watched (under `dispatchMain()` any pool thread may take the main queue): a
    /// spin it starts counts from there, not from the first sample that watches it.
    mutating func assumePrevious(_ sample: Sample) {
        if last?.pid != sample.pid { last = sample }
    }

    /// The watched thread could not be read (its process has exited, or is gone).
    mutating func lost(at time: UInt64) {
        if lostAt == nil { lostAt = time }
    }

    /// Forgets the open stretch (the program is suspended: a stopped thread is neither busy nor hung).
    mutating func pause() {
        stretch = nil
        last = nil
    }

    /// Closes the open stretch at the end of the watch: at the program's exit where it is known
    /// (the exit record's time), else at `now`.
    mutating func finish(exitTime: UInt64?, now: UInt64, expecting: Expecting) {
        guard var open = stretch else { return }
        stretch = nil
        let end = max(open.lastSampleTime, min(exitTime ?? now, lostAt ?? now))
        if open.busy {
            // Seen on the CPU at its last sample and never off it again: it ran until the end.
            open.onCPUEnd += end - open.lastSampleTime
        }
        close(open, at: end, expecting: expecting)
    }

    /// A spin that began and ended between two samples that both saw the thread asleep: the
    /// voluntary-switch count went up by exactly one (it woke once and went to sleep once), so
    /// the on-CPU time gained between the samples is one stretch on the CPU, however far apart the
    /// samples were (a sampler that slows down while the thread sleeps still sees every spin). It
    /// is placed ending at the later sample: when between the two it ran, the kernel does not say.
    private func hiddenSpin(after finished: Stretch, before sample: Sample) -> (start: UInt64, end: UInt64)? {
        guard !finished.busy, !sample.running, finished.pid == sample.pid, !finished.duringLaunch,
              sample.state.voluntaryContextSwitches == finished.switches + 1,
              sample.state.onCPUNanoseconds > finished.onCPUEnd else { return nil }
        let onCPU = sample.state.onCPUNanoseconds - finished.onCPUEnd
        guard onCPU >= limitNanoseconds / 2 else { return nil }
        let end = sample.time
        return (max(finished.lastSampleTime, end &- onCPU), end)
    }

    private mutating func recordBusy(onCPU: UInt64, end: UInt64, kind: String = "busy") {
        longestBusy = max(longestBusy, onCPU)
        if onCPU >= limitNanoseconds {
            hangs.append(OutsideHang(start: end &- onCPU, end: end, kind: kind, wchan: nil, syscall: nil))
        }
    }

    private func begin(with sample: Sample) -> Stretch {
        let state = sample.state
        var start = sample.time
        var onCPUStart = state.onCPUNanoseconds
        if sample.running, let previous = last, previous.pid == sample.pid, !previous.running {
            // It woke after the previous sample, which saw it asleep and so gaining no CPU time:
            // the spin's on-CPU time counts from there, not from this sample (up to an interval later).
            start = previous.time
            onCPUStart = previous.state.onCPUNanoseconds
        }
        return Stretch(pid: sample.pid, start: start, switches: state.voluntaryContextSwitches, busy: sample.running,
                       uninterruptible: state.state == "D", wchan: sample.running ? nil : state.wchan,
                       syscall: sample.running ? nil : state.syscall, onCPUStart: onCPUStart,
                       onCPUEnd: state.onCPUNanoseconds, lastSampleTime: sample.time, duringLaunch: !launched, idle: sample.idle)
    }

    private mutating func close(_ stretch: Stretch, at end: UInt64, expecting: Expecting) {
        let length = end &- stretch.start
        // Never negative: a counter read as 0 (a thread on its way out) is not a rewind.
        let onCPU = stretch.onCPUEnd > stretch.onCPUStart ? stretch.onCPUEnd - stretch.onCPUStart : 0
        if stretch.busy {
            // Busy before the first sleep is launch, up to the guide's time to "start handling
            // events" (5 s): a main thread on the CPU that long without once waiting never ended
            // its launch, and is one hang (a shell's `while :; do :; done` through 7 s of waits once
            // scored 1.0 overall, at 100 % of a CPU).
            guard !stretch.duringLaunch || onCPU >= Self.launchLimitNanoseconds else { return }
            // The hang is as long as the thread was on the CPU: that time is the kernel's own count.
            recordBusy(onCPU: onCPU, end: end, kind: stretch.duringLaunch ? OutsideHang.neverWaitedKind : "busy")
            return
        }
        if !stretch.duringLaunch, length > (longestWait.map { $0.end &- $0.start } ?? 0) {
            longestWait = OutsideHang(start: stretch.start, end: end, kind: stretch.uninterruptible ? "uninterruptible" : "wait",
                                      wchan: stretch.wchan, syscall: stretch.syscall)
        }
        // The main queue was free at some point: whatever the thread waited in, the main thread was idle.
        guard length >= limitNanoseconds, !stretch.idle else { return }
        if stretch.uninterruptible {
            hangs.append(OutsideHang(start: stretch.start, end: end, kind: "uninterruptible", wchan: stretch.wchan, syscall: stretch.syscall))
            return
        }
        if let call = stretch.syscall, OutsideHangWatcher.eventWaitCalls.contains(call) { return }
        // Blocked: only the part while an answer was expected counts.
        let start = max(stretch.start, expecting.from)
        let stop = min(end, expecting.until)
        if stop > start && stop - start >= limitNanoseconds {
            hangs.append(OutsideHang(start: start, end: stop, kind: "blocked", wchan: stretch.wchan, syscall: stretch.syscall))
        }
    }
}
