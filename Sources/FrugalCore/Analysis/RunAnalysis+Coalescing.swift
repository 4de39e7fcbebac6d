/// What an app does after an input, before it goes quiet: not idle time for
/// `power.avoid-polling`, nor charged to an interruption by `lifecycle.quiesce-when-inactive`.
///
/// The guide asks an app to wait before acting on a change: "coalesce changes whenever possible
/// to avoid writing small changes at frequent intervals." An app doing so (a notes app saving its
/// text 2 s after the typing stops, a search sent or filtered 0.5 s after it) cancels the pending
/// work on each keystroke and schedules it again. The usual ways leave the old timer armed: a
/// cancelled `Task.sleep` returns at once, and a cancelled `DispatchWorkItem` does nothing when
/// run, but the timer each armed still fires (on iOS too). Measured: four keystrokes 0.3 s apart,
/// with a 2 s debounce on `Task.sleep`, woke libdispatch's manager and worker threads 9 times
/// before the save (0.93 a second over an 8 s wait, `power.avoid-polling` 0.22); with a
/// `DispatchWorkItem`, 4 (0.42, 0.48); with one `Timer` invalidated and made again, 0. Ten
/// keystrokes of a search filtered in memory after a 0.5 s `Task.sleep` read 2.26 a second
/// (0.05). Those wakeups are bounded by the inputs (one timer for each) and end with the work:
/// the input's work, deferred, not a poller's.
///
/// Two spans after an input are not idle, as long as nothing but waits, other inputs, marks and
/// interruptions lie between them and it (a backgrounding or a warning ends them); in an
/// interruption they are not charged to `lifecycle.quiesce-when-inactive` either (the app
/// cancelled its pending work, as the guide asks on resigning active, and its timers fired):
///  - from the input to the first write to storage or request after it (the changes it held),
///  - a run of wakeups that began with an input and was followed by quiet (no wakeup on any
///    thread but the platform's) for at least as long as the run, and at least the time over
///    which one wakeup reads as a failing rate (`Audits.decisiveIdleSeconds`, 2.5 s).
/// A poller is still seen: it wakes at least once in every period, so the quiet after its
/// wakeups is never longer than its period; one whose period is under 2.5 s (0.4 a second, the
/// rule's poor control point) never earns the second span, and a slower one earns it once for
/// each input at most. The first span ends at its first write, and the rest of the wait is
/// judged at its rate as before (the metric is a rate over the idle time left). An app that
/// keeps waking after its input, and writes and sends nothing, earns neither.
extension RunAnalysis {
    /// Step kinds an input's follow-up may cross: time passing, more input, a mark, an
    /// interruption (what the timers the app armed before it and cancelled still do there is
    /// judged by `lifecycle.quiesce-when-inactive` the same way: `RunAnalysis+Inactive`).
    static let followUpStepKinds: Set<String> = [StepKind.input.name, StepKind.wait.name, StepKind.mark.name, StepKind.interrupt.name]

    /// A run of steps an input's follow-up may cross: its inputs' starts and where it ends.
    struct InputChain {
        var inputs: [UInt64] = []
        var start: UInt64
        var end: UInt64 = 0
    }

    /// The runs of waits, inputs, marks and interruptions that hold at least one input, in order.
    var inputChains: [InputChain] {
        var chains: [InputChain] = []
        var current: InputChain?
        func close(at end: UInt64) {
            if var chain = current, !chain.inputs.isEmpty {
                chain.end = end
                chains.append(chain)
            }
            current = nil
        }
        for step in record.steps.sorted(by: { $0.start < $1.start }) {
            guard Self.followUpStepKinds.contains(step.step.kind.name), step.problem == nil else {
                close(at: step.start)
                continue
            }
            if current == nil { current = InputChain(start: step.start) }
            if step.step.kind == .input { current?.inputs.append(step.start) }
        }
        close(at: record.endTime)
        return chains
    }

    /// The spans from each input to the first write or request after it in its chain, given the
    /// app's other work (`workIntervals`).
    func coalescingIntervals(work: [(start: UInt64, end: UInt64, reason: BusyReason)]) -> [(start: UInt64, end: UInt64, reason: BusyReason)] {
        let deliveries = deliveryTimes(work: work)
        guard !deliveries.isEmpty else { return [] }
        return inputChains.flatMap { chain in
            chain.inputs.compactMap { input -> (start: UInt64, end: UInt64, reason: BusyReason)? in
                guard let delivery = deliveries.first(where: { $0 > input }), delivery <= chain.end else { return nil }
                return (input, delivery, .inputFollowUp)
            }
        }
    }

    /// The runs of wakeups that began with an input and were followed by long enough a quiet
    /// (see the type's comment), given every other span the app was busy (`busy`).
    func settlingIntervals(busy: [(start: UInt64, end: UInt64, reason: BusyReason)]) -> [(start: UInt64, end: UInt64, reason: BusyReason)] {
        let platform = platformThreads
        let leastQuiet = Audits.decisiveIdleSeconds
        var spans: [(start: UInt64, end: UInt64, reason: BusyReason)] = []
        for chain in inputChains {
            let slices = (idlePhases + inactivePhases).filter { $0.start >= chain.start && $0.end <= chain.end }
                .sorted { $0.start < $1.start }.flatMap { sampleSlices(of: $0) }
            var inputs = chain.inputs[...]
            // The run being followed: its first input (nil when it began without one) and the end
            // of its last slice with a wakeup; the idle seconds without one since; the first
            // input since that wakeup, which starts the next run.
            var runStart: UInt64?, runEnd: UInt64?
            var quiet = 0.0
            var inputSinceWakeup: UInt64?
            func runSettled() -> Bool {
                guard let end = runEnd else { return false }
                let length = runStart.map { Double(end - min($0, end)) / 1e9 } ?? 0
                return quiet >= max(leastQuiet, length)
            }
            for slice in slices {
                while let input = inputs.first, input <= slice.start {
                    if inputSinceWakeup == nil { inputSinceWakeup = input }
                    inputs.removeFirst()
                }
                // A slice busy with work of its own neither wakes nor rests the run.
                guard Self.busyReason(of: slice, busy: busy) == nil else { continue }
                let wakeups = Self.wakeupsByThread(from: slice.startSample, to: slice.endSample)
                    .filter { !platform.contains($0.key) }.values.reduce(0, +)
                guard wakeups > 0 else {
                    quiet += slice.seconds
                    continue
                }
                if runEnd == nil || runSettled() {
                    if runSettled(), let start = runStart, let end = runEnd { spans.append((start, end, .inputFollowUp)) }
                    runStart = inputSinceWakeup
                }
                runEnd = slice.end
                quiet = 0
                inputSinceWakeup = nil
            }
            if runSettled(), let start = runStart, let end = runEnd { spans.append((start, end, .inputFollowUp)) }
        }
        return spans
    }

    /// When the app wrote to storage or started a request, sorted: the starts of its requests and
    /// file I/O among `work`, the sandbox watcher's writes (a close, a rename, a burst of a file
    /// held open) and the `/proc` samples after which `write_bytes` grew (any API's writes).
    func deliveryTimes(work: [(start: UInt64, end: UInt64, reason: BusyReason)]) -> [UInt64] {
        var times = work.filter { $0.reason == .request || $0.reason == .fileIO }.map(\.start)
        for change in record.fileChanges?.changes ?? [] where change.kind.writesContent {
            times.append(contentsOf: change.heldOpenBursts ?? [change.time])
        }
        var samples = record.samples
        for step in record.steps { samples += [step.sampleAtStart, step.sampleAtEnd].compactMap { $0 } }
        samples.sort { $0.time < $1.time }
        for (earlier, later) in zip(samples, samples.dropFirst()) where Self.storageBytesGrew(from: earlier, to: later) {
            times.append(earlier.time)
        }
        return times.sorted()
    }
}
