/// How long the main thread stayed busy answering each input: what a person waits for after a
/// tap, whether the app did the work in one block or in several back to back.
extension RunAnalysis {
    /// The main thread's answer to one `input` step.
    public struct InputResponse: Sendable, Equatable {
        /// The input's kind (`refresh`).
        public var kind: String
        /// Monotonic ns when the harness sent the input.
        public var time: UInt64
        /// ns the main thread was busy from the input until it returned to idle: the rest of a
        /// handler already running when the input came, then every handler of the chain that
        /// followed, each less the time it sat runnable waiting for a CPU (the machine's load,
        /// not the app's work).
        public var blockedNanoseconds: UInt64
        /// The handlers of the chain, in order.
        public var handlers: [String]
        /// Monotonic ns when the main thread returned to idle (the chain's last handler ended).
        public var end: UInt64
        public var blockedMs: Double { Double(blockedNanoseconds) / 1e6 }
    }

    /// A gap shorter than this between two handlers is the run loop draining its queue, not a
    /// return to idle: blocks queued back to back (`DispatchQueue.main.async` from a handler)
    /// start microseconds apart, and 5 ms leaves room for a preemption on a loaded CPU; a 60 Hz
    /// (or 120 Hz) frame loop leaves 11 ms (5 ms) or more between frames, so it is not one chain.
    public static let idleGapNanoseconds: UInt64 = 5_000_000

    /// The handler where the guide has an app save before it quits ("You can use this method to
    /// save user data or app state information ... Your method has approximately 5 seconds to
    /// perform any tasks and return", `applicationWillTerminate:`; it "cannot request additional
    /// background execution time"). Nobody can touch an app that is being terminated, so its time
    /// and its waits on the disk are no one's wait: the main-thread audits leave it out, and the
    /// terminate watchdog judges it against the guide's 5 seconds.
    public static func isTermination(_ handler: HandlerRecord) -> Bool { handler.name == "willTerminate" }

    /// ns a handler kept the main thread from answering: its wall time less the time it was
    /// runnable but waiting for a CPU (`schedstat`), when that was measured.
    static func busyNanoseconds(_ handler: HandlerRecord) -> UInt64 {
        let queued = handler.runQueueNanoseconds ?? 0
        return handler.duration > queued ? handler.duration - queued : 0
    }

    /// Maximal runs of main-thread handlers separated by less than ``idleGapNanoseconds``, in
    /// order: each is one stretch the main thread was busy without returning to idle.
    public var busyChains: [[HandlerRecord]] {
        var chains: [[HandlerRecord]] = []
        for handler in handlers.sorted(by: { $0.start < $1.start }) {
            if let last = chains.last?.last, handler.start <= last.end &+ Self.idleGapNanoseconds {
                chains[chains.count - 1].append(handler)
            } else {
                chains.append([handler])
            }
        }
        return chains
    }

    /// One response per `input` step that had main-thread work after it: from the harness's
    /// send to the main thread's return to idle, within the time before the next input.
    public var inputResponses: [InputResponse] {
        let inputs: [(kind: String, time: UInt64)] = record.steps.compactMap { step in
            if step.step.kind == .input, let kind = step.step.argument.text { return (kind, step.start) }
            return nil
        }
        let sorted = handlers.sorted { $0.start < $1.start }
        var responses: [InputResponse] = []
        for (index, input) in inputs.enumerated() {
            let limit = index + 1 < inputs.count ? inputs[index + 1].time : record.endTime
            var busy: UInt64 = 0
            var names: [String] = []
            var chainEnd: UInt64?
            // A handler running when the input arrived holds it for the rest of its run.
            if let running = sorted.last(where: { $0.start < input.time && $0.end > input.time }) {
                busy += min(running.end - input.time, Self.busyNanoseconds(running))
                names.append(running.name)
                chainEnd = running.end
            }
            for handler in sorted where handler.start >= input.time && handler.start < limit {
                if let end = chainEnd, handler.start > end &+ Self.idleGapNanoseconds { break }
                busy += Self.busyNanoseconds(handler)
                names.append(handler.name)
                chainEnd = max(chainEnd ?? 0, handler.end)
            }
            guard !names.isEmpty else { continue }
            responses.append(InputResponse(kind: input.kind, time: input.time, blockedNanoseconds: busy, handlers: names,
                                           end: chainEnd ?? input.time))
        }
        return responses
    }

    /// Stretches of main-thread work of ``Thresholds/hangMilliseconds`` or more that no input
    /// started (the launch, a timer, a notification on return): a person who touched the app then
    /// would have waited as long. Each is (start, busy ns, handler names). `willTerminate` is left
    /// out (``isTermination(_:)``); one killed by the watchdog inside it still counts.
    public var unpromptedHangs: [(start: UInt64, end: UInt64, busyNanoseconds: UInt64, handlers: [String])] {
        let inputTimes = record.steps.compactMap { step -> UInt64? in
            if step.step.kind == .input { return step.start }
            return nil
        }
        // A handler that began and never returned (a watchdog killed the app inside it) kept the
        // main thread from its start to the end of the run: its wall time, as the watchdog judged it.
        let unfinished = unfinishedHandlers.map { begin in
            (start: begin.start, end: record.endTime, busyNanoseconds: record.endTime > begin.start ? record.endTime - begin.start : 0, handlers: [begin.name])
        }.filter { Double($0.busyNanoseconds) / 1e6 >= Thresholds.hangMilliseconds }
        return unfinished + busyChains.compactMap { chain in
            guard let first = chain.first, let last = chain.last else { return nil }
            // From the first input that started the chain or ran into it, the chain is that
            // input's response; what ran before it (a launch the input arrived at the end of) no
            // input started.
            let cut = inputTimes.filter { $0 >= first.start &- Self.idleGapNanoseconds && $0 <= last.end }.min()
            let before = (cut.map { time in chain.filter { $0.start < time } } ?? chain).filter { !Self.isTermination($0) }
            guard let head = before.first else { return nil }
            let busy = before.reduce(UInt64(0)) { $0 + Self.busyNanoseconds($1) }
            guard Double(busy) / 1e6 >= Thresholds.hangMilliseconds else { return nil }
            return (head.start, before.map(\.end).max() ?? head.end, busy, before.map(\.name))
        }
    }
}

extension RunAnalysis {
    /// Handlers that reported their start and never their end: the process died inside them.
    public var unfinishedHandlers: [HandlerBegin] {
        let ended = Set(handlers.map { "\($0.name)@\($0.start)" })
        return record.events.compactMap { event -> HandlerBegin? in
            guard case .handlerBegan(let begin) = event.body, !ended.contains("\(begin.name)@\(begin.start)") else { return nil }
            return begin
        }
    }

    /// `main.no-long-blocks`' number: the longest input response, or the longest hang no input
    /// started, whichever is longer; 0 when the main thread did neither.
    public var longestResponseMs: Double {
        let responses = inputResponses.map(\.blockedMs)
        let hangs = unpromptedHangs.map { Double($0.busyNanoseconds) / 1e6 }
        return (responses + hangs).max() ?? 0
    }
}
