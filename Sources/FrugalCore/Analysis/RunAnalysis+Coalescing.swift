/// The time an app holds an input's changes before it writes or sends them, for
/// `power.avoid-polling`'s idle time.
///
/// The guide asks for that wait: "coalesce changes whenever possible to avoid writing small
/// changes at frequent intervals." An app doing so (a notes app saving its text 2 s after the
/// typing stops) cancels the pending save on each keystroke and schedules a new one. The usual
/// ways leave the old timer armed: a cancelled `Task.sleep` returns at once, and a cancelled
/// `DispatchWorkItem` does nothing when run, but the timer each armed still fires (on iOS too).
/// Measured: four keystrokes 0.3 s apart, with a 2 s debounce on `Task.sleep`, woke libdispatch's
/// manager and worker threads 9 times before the save (0.93 a second over an 8 s wait,
/// `power.avoid-polling` 0.22); with a `DispatchWorkItem`, 4 (0.42, 0.48); with one `Timer`
/// invalidated and made again, 0. Those wakeups are bounded by the inputs (one timer for each)
/// and end with the save: the input's work, deferred, not a poller's.
///
/// So the span from an input to the first write to storage or request after it is not idle,
/// as long as nothing but waits, other inputs and marks lie between them: a backgrounding, an
/// interruption or a warning ends the span unsaved, and an app that writes nothing after an
/// input keeps its wakeups charged. A poller that also writes is still seen: the span ends at
/// its first write, and the wakeups after it are judged at the same rate as before (the metric
/// is a rate over the idle time left).
extension RunAnalysis {
    /// Step kinds an input's span may cross to its write: time passing, more input, a mark.
    static let coalescingStepKinds: Set<String> = [StepKind.input.name, StepKind.wait.name, StepKind.mark.name]

    /// The spans from each input to the first write or request after it (see the type's
    /// comment), given the app's other work (`workIntervals`).
    func coalescingIntervals(work: [(start: UInt64, end: UInt64, reason: BusyReason)]) -> [(start: UInt64, end: UInt64, reason: BusyReason)] {
        let deliveries = deliveryTimes(work: work)
        guard !deliveries.isEmpty else { return [] }
        var intervals: [(start: UInt64, end: UInt64, reason: BusyReason)] = []
        // Each run of steps an input's span may cross, and the inputs in it.
        var chainInputs: [UInt64] = []
        func endChain(at end: UInt64) {
            defer { chainInputs = [] }
            for input in chainInputs {
                guard let delivery = deliveries.first(where: { $0 > input }), delivery <= end else { continue }
                intervals.append((input, delivery, .coalescing))
            }
        }
        for step in record.steps.sorted(by: { $0.start < $1.start }) {
            guard Self.coalescingStepKinds.contains(step.step.kind.name), step.problem == nil else {
                endChain(at: step.start)
                continue
            }
            if step.step.kind == .input { chainInputs.append(step.start) }
        }
        endChain(at: record.endTime)
        return intervals
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
        for (earlier, later) in zip(samples, samples.dropFirst()) {
            if let before = earlier.physicalBytesWritten, let after = later.physicalBytesWritten, after > before {
                times.append(earlier.time)
            }
        }
        return times.sorted()
    }
}
