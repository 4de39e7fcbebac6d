/// The app's life as facts: state intervals, background tasks, hangs, preserved state, resumes.
extension RunAnalysis {
    /// A span of time in one app state.
    public struct StateSpan: Sendable, Equatable {
        public var state: AppState
        public var start: UInt64
        public var end: UInt64
    }

    /// The states in order, each until the next change (the last until the run's end). Suspension
    /// and kills are recorded by the harness, which is the system here.
    public var stateSpans: [StateSpan] {
        var spans: [StateSpan] = []
        var current: (AppState, UInt64)?
        for event in record.events.sorted(by: { $0.time < $1.time }) {
            guard case .stateChanged(let change) = event.body else { continue }
            if let (state, start) = current, event.time > start || state != change.to {
                spans.append(StateSpan(state: state, start: start, end: max(start, event.time)))
            }
            current = (change.to, event.time)
        }
        if let (state, start) = current, state != .notRunning {
            spans.append(StateSpan(state: state, start: start, end: max(start, record.endTime)))
        }
        return spans.filter { $0.end > $0.start }
    }

    /// One background task's life.
    public struct BackgroundTaskLife: Sendable, Equatable {
        public var id: Int
        public var name: String
        public var begun: UInt64
        public var ended: UInt64?
        /// When its expiration handler was called, if the background time ran low.
        public var expirationHandlerCalled: UInt64?
        /// Whether the background time ran out on it: its expiration handler was called and it was
        /// never ended (the audit's count). A task ended in its expiration handler, as the guide
        /// suggests, was balanced in time.
        public var reachedExpirationUnended: Bool { expirationHandlerCalled != nil && ended == nil }
    }

    /// Every background task, in the order begun.
    public var backgroundTasks: [BackgroundTaskLife] {
        var tasks: [BackgroundTaskLife] = []
        var open: [Int: Int] = [:]
        for event in record.events {
            guard case .backgroundTask(let task) = event.body else { continue }
            switch task.phase {
            case .begun:
                open[task.id] = tasks.count
                tasks.append(BackgroundTaskLife(id: task.id, name: task.name, begun: event.time))
            case .ended:
                if let index = open[task.id], tasks[index].ended == nil { tasks[index].ended = event.time }
            case .expirationHandlerCalled:
                if let index = open[task.id], tasks[index].expirationHandlerCalled == nil { tasks[index].expirationHandlerCalled = event.time }
            }
        }
        return tasks
    }

    /// A handler of 250 ms or more, with the main thread's stack while it hung when one was taken.
    public struct Hang: Sendable, Equatable {
        public var handler: HandlerRecord
        public var stack: HangStack?
    }

    /// Every hang, longest first.
    public var hangs: [Hang] {
        let stacks = record.events.compactMap { event -> HangStack? in
            if case .hangStack(let stack) = event.body { return stack }
            return nil
        }
        return handlers(atLeast: Thresholds.hangMilliseconds).map { handler in
            Hang(handler: handler, stack: stacks.first { $0.capturedAt >= handler.start && $0.capturedAt <= handler.end })
        }
    }

    /// What a relaunched app restored against what it had when it went to the background.
    public struct PreservationCheck: Sendable, Equatable {
        public var had: [String: String]
        public var restored: [String: String]
        /// When the relaunched app reported what it restored.
        public var restoredAt: UInt64
        /// Keys whose value was lost or changed, sorted.
        public var lost: [String] {
            had.keys.filter { restored[$0] != had[$0] }.sorted()
        }
    }

    /// One check per relaunch of an app that reported its preserved state both times.
    public var preservationChecks: [PreservationCheck] {
        var checks: [PreservationCheck] = []
        var lastBackground: [String: String]?
        var launches = 0
        for event in record.events.sorted(by: { $0.time < $1.time }) {
            guard case .preservedState(let snapshot) = event.body else { continue }
            switch snapshot.moment {
            case .background:
                lastBackground = snapshot.values
            case .launch:
                launches += 1
                // The first launch restores nothing the run made; each later one is checked.
                if launches > 1, let had = lastBackground {
                    checks.append(PreservationCheck(had: had, restored: snapshot.values, restoredAt: event.time))
                    lastBackground = nil
                }
            }
        }
        return checks
    }

    /// A return to the foreground: from the resume (SIGCONT, or the `foreground` step when the app
    /// was not suspended) to the end of the `didBecomeActive` that follows.
    public struct Resume: Sendable, Equatable {
        public var start: UInt64
        public var end: UInt64
        /// The handlers run in between (queued notifications, willEnterForeground, didBecomeActive).
        public var handlers: [HandlerRecord]
        public var milliseconds: Double { Double(end &- start) / 1e6 }
    }

    /// Every completed return to the foreground: to the end of didBecomeActive, or of the main
    /// thread's work queued during the return that ran straight after it (a block an observer
    /// sent to the main queue, a main-actor task it started): until the main thread first went
    /// back to waiting, the app is not answering its user.
    public var resumes: [Resume] {
        record.steps.compactMap { step -> Resume? in
            guard step.step.kind == .foreground, step.problem == nil else { return nil }
            guard let active = handlers.first(where: { $0.name == "didBecomeActive" && $0.start >= step.start }) else { return nil }
            var end = active.end
            for handler in handlers.filter({ $0.start >= active.end }).sorted(by: { $0.start < $1.start }) {
                guard handler.start <= end &+ Self.loopTurnaroundNanoseconds else { break }
                end = max(end, handler.end)
            }
            let between = handlers.filter { $0.start >= step.start && $0.end <= end }
            return Resume(start: step.start, end: end, handlers: between)
        }
    }

    /// How soon after one main-loop pass the next must begin to have been queued before the
    /// loop went back to waiting: the loop's own turnaround when work is already pending
    /// (its wait returns at once). FrugalKit's passes follow each other within 0.05–0.4 ms when
    /// they do (the gap between willEnterForeground and a queued notification in the corpus's
    /// runs); 1 ms leaves room for a loaded machine, and stays far below any timer a user could
    /// see (a 60 Hz frame is 16.7 ms): work the app scheduled for later is not the return's.
    public static let loopTurnaroundNanoseconds: UInt64 = 1_000_000

    /// CPU time in the background outside background tasks, and the background time it was spent in.
    /// From the harness's `/proc` samples: intervals between consecutive samples of one process that
    /// lie in the background state with no task open and `didEnterBackground` not running.
    public var backgroundWorkOutsideTasks: (cpuSeconds: Double, backgroundSeconds: Double)? {
        let background = stateSpans.filter { $0.state == .background }
        guard !background.isEmpty else { return nil }
        // Granted time: background tasks, and didEnterBackground itself (it has its own audit and watchdog).
        let tasks = backgroundTasks.map { ($0.begun, $0.ended ?? record.endTime) }
            + handlers.filter { $0.name == "didEnterBackground" }.map { ($0.start, $0.end) }
        func inBackgroundWithoutTask(_ from: UInt64, _ to: UInt64) -> Bool {
            background.contains { $0.start <= from && to <= $0.end } && !tasks.contains { $0.0 < to && from < $0.1 }
        }
        var cpu: UInt64 = 0
        var seconds = 0.0
        for (previous, sample) in zip(record.samples, record.samples.dropFirst()) {
            // Samples of different processes share no thread: skip the pair.
            let previousThreads = Set(previous.threads.map(\.tid))
            guard sample.threads.contains(where: { previousThreads.contains($0.tid) }) else { continue }
            guard inBackgroundWithoutTask(previous.time, sample.time) else { continue }
            cpu += sample.onCPUNanoseconds(since: previous)
            seconds += Double(sample.time - previous.time) / 1e9
        }
        return (Double(cpu) / 1e9, seconds)
    }
}
