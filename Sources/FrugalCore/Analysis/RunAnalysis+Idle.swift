/// What "idle" means for `power.avoid-polling`: the app is idle when nothing it started is
/// still under way. A `wait` step is cut into the harness's periodic `/proc` samples (0.2 s
/// apart by default); a slice of it counts as idle unless, during that slice, the app
///  - waited on its own network request (FrugalKit's client, or a `network.*` call measured by
///    `BlockingCalls`: from its start to its end; any client's on the wire, to its last byte and
///    the hand-off of its result, `responseHandOffSeconds`), with the main-thread handler that
///    issued it (a retry timer's, say) and the one that delivered its result
///    (`posted:network:…`): the wakeups that begin and end a request are the request's,
///    wherever a `/proc` sample falls, not polling,
///  - read or wrote a file (FrugalKit's journal, `file.*` blocking calls), or
///  - drew frames while active (`frame:` handlers, from `MainRunLoop.scheduleFrameTimer`),
///    (an app drawing any other way, its main thread waking at a frame rate while active, keeps
///    its slices; only that thread's wakeups there are left out: `RunAnalysis+Drawing`),
///  - answered a memory warning (the `warningHandled` memory event's handler span): the harness
///    delivers it, relaying the kernel's pressure event, and one arriving a few milliseconds
///    after a `pressure` step has ended lands in the wait that follows; its wakeup is the
///    harness's event, as an input's is, not one the app chose, or
///  - was finishing what an input started (`RunAnalysis+Coalescing`): holding its changes
///    until it wrote or sent them (from the input to the first write to storage or request after
///    it), or waking after it and then going quiet for longer than that and than the span in
///    which one wakeup reads as a failing rate; a debounce's cancelled timers still fire there
///    (`Task.sleep`, `DispatchWorkItem`), once for each input,
///  - was computing: on a CPU for at least `computingShare` of the slice, or with a thread
///    running or runnable (state R) at either end of it, which a loaded machine's run queue
///    does not hide (deferred launch work, a rebuild on a background queue; its hand-off to the
///    main thread is part of that work).
/// Those slices are work the app was doing, judged by their own audits (network, disk,
/// `power.frame-rate`); wakeups there are not polling. What is left is time with no work
/// pending, where every wakeup is one the app chose to take: a polling timer's, for one.
/// The background is idle too: it is judged the same way (suspension itself has no wakeups).
extension RunAnalysis {
    /// Why a slice of a wait was not idle.
    public enum BusyReason: String, Sendable, CaseIterable {
        case request = "a network request in flight"
        case fileIO = "reading or writing a file"
        case frames = "drawing frames"
        case memoryWarning = "answering a memory warning"
        case computing = "computing"
        /// Frozen by the system: neither idle nor in use. Counted as idle time, it once halved the
        /// rate of a poller suspended for half of its wait.
        case suspended = "suspended"
        /// A black-box program answering a signal the harness sent (`RunAnalysis+ProgramSignals`).
        case harnessSignal = "answering a signal the harness sent"
        /// A black-box program starting up: from its spawn to its main thread's first sustained
        /// wait (`RunAnalysis+Startup`), loading and configuring, not idle.
        case startingUp = "starting up"
        /// Finishing what an input started: holding its changes until they were written or sent,
        /// as the guide asks, or the app's last wakeups after it before going quiet
        /// (`RunAnalysis+Coalescing`). Last: a slice with work of its own counts under that.
        case inputFollowUp = "finishing what an input started"
    }

    /// The share of one CPU over a slice from which the app counts as computing, not idle.
    /// Frugal's calibration: polling costs microseconds per wakeup (a 1 Hz check is under 0.1%
    /// of a CPU), work in progress costs a large share; a fifth sits far from both.
    public static let computingShare = 0.2

    /// One wait step's idle accounting: its quiet slices and what the rest was busy with.
    public struct IdleAccount: Sendable {
        public var phase: Phase
        /// The slices with no work pending, each sampled at both ends.
        public var idleSlices: [Phase]
        /// Seconds of the wait left out, by reason (a slice with several reasons counts under the first).
        public var excludedSeconds: [BusyReason: Double]
        /// Wakeups in the idle slices by thread (threads with none left out).
        public var wakeupsByThread: [Int32: Int] = [:]
        /// Of those, the platform's (`RunAnalysis+Threads`): libdispatch's manager thread, up to
        /// its pool monitor's one wakeup a second over each stretch of contiguous idle slices.
        public var platformWakeupsByThread: [Int32: Int] = [:]
        /// Of those, the main thread's in slices where the active app was drawing at a frame rate
        /// (`RunAnalysis+Drawing`): updating what is on screen, not polling.
        public var drawingWakeupsByThread: [Int32: Int] = [:]
        public var idleSeconds: Double { idleSlices.reduce(0) { $0 + $1.seconds } }
        /// Every thread's wakeups in the idle slices.
        public var allIdleWakeups: Int { idleSlices.reduce(0) { $0 + $1.wakeups } }
        /// Wakeups not charged to the app: the platform's.
        public var platformWakeups: Int { platformWakeupsByThread.values.reduce(0, +) }
        /// Wakeups not charged to the app as polling: the main thread's while drawing.
        public var drawingWakeups: Int { drawingWakeupsByThread.values.reduce(0, +) }
        /// The wakeups charged to the app: all of them less the platform's and the drawing main thread's.
        public var idleWakeups: Int { max(0, allIdleWakeups - platformWakeups - drawingWakeups) }
    }

    /// The idle accounting of every wait phase.
    public var idleAccounts: [IdleAccount] {
        let busy = busyIntervals
        let platformThreads = self.platformThreads
        let drawing = drawingSpans
        let mainThreads = mainThreadIDs
        return idlePhases.map { phase in
            var account = IdleAccount(phase: phase, idleSlices: [], excludedSeconds: [:])
            // A stretch of contiguous idle slices: the pool monitor's allowance is over it.
            var stretch = PlatformStretch()
            func endStretch() {
                for (tid, count) in stretch.end() { account.platformWakeupsByThread[tid, default: 0] += count }
            }
            for slice in sampleSlices(of: phase) {
                if let reason = Self.busyReason(of: slice, busy: busy) {
                    account.excludedSeconds[reason, default: 0] += slice.seconds
                    endStretch()
                } else {
                    account.idleSlices.append(slice)
                    let drawn = drawing.contains { $0.start <= slice.start && slice.end <= $0.end }
                    let byThread = Self.wakeupsByThread(from: slice.startSample, to: slice.endSample)
                    stretch.add(seconds: slice.seconds, platformWakeups: byThread.filter { platformThreads.contains($0.key) })
                    for (tid, count) in byThread {
                        account.wakeupsByThread[tid, default: 0] += count
                        if drawn, mainThreads.contains(tid) { account.drawingWakeupsByThread[tid, default: 0] += count }
                    }
                }
            }
            endStretch()
            return account
        }
    }

    /// Why a sample slice of a wait was not idle, or nil when it was: a span of `busy` over it,
    /// a write to storage by any API (a Codable store's save on a detached task: its fsyncs'
    /// switches are the save's, judged by the disk audits, not polling), or computing.
    static func busyReason(of slice: Phase, busy: [(start: UInt64, end: UInt64, reason: BusyReason)]) -> BusyReason? {
        let earlier = slice.startSample, later = slice.endSample
        if let reason = busy.first(where: { $0.start < slice.end && $0.end > slice.start })?.reason { return reason }
        if wroteToStorage(from: earlier, to: later) { return .fileIO }
        if Double(later.onCPUNanoseconds(since: earlier)) >= computingShare * Double(slice.end - slice.start)
            || [earlier, later].contains(where: { $0.threads.contains { $0.state == "R" } }) {
            return .computing
        }
        return nil
    }

    /// Whether the process wrote to storage between two samples (`/proc/<pid>/io` write_bytes
    /// grew: pipes and sockets do not count there), or a thread of it was waiting for the disk
    /// (state D) at either end: file I/O of any API, not only FrugalKit's.
    static func wroteToStorage(from earlier: ProcessSample, to later: ProcessSample) -> Bool {
        if storageBytesGrew(from: earlier, to: later) { return true }
        return [earlier, later].contains { $0.threads.contains { $0.state == "D" } }
    }

    /// Whether `/proc/<pid>/io` write_bytes grew between two samples: a write to storage made.
    static func storageBytesGrew(from earlier: ProcessSample, to later: ProcessSample) -> Bool {
        guard let before = earlier.physicalBytesWritten, let after = later.physicalBytesWritten else { return false }
        return after > before
    }

    /// The spans when the app had work of its own under way (see the type's comment), with the
    /// spans in which it held an input's changes before writing or sending them
    /// (`RunAnalysis+Coalescing`).
    var busyIntervals: [(start: UInt64, end: UInt64, reason: BusyReason)] {
        let work = workIntervals
        let held = work + coalescingIntervals(work: work)
        return held + settlingIntervals(busy: held)
    }

    /// The spans when the app had work of its own under way: requests, file I/O, frames, a
    /// memory warning's handler, suspension, a signal's answer, a program's start-up.
    var workIntervals: [(start: UInt64, end: UInt64, reason: BusyReason)] {
        var intervals: [(start: UInt64, end: UInt64, reason: BusyReason)] = []
        // The app's state as the events go by: frames count as use only while active (an app
        // is not used in the background, and an inactive one is judged by its own audit).
        var state = AppState.notRunning
        var suspendedSince: UInt64?
        for event in record.events.sorted(by: { $0.time < $1.time }) {
            switch event.body {
            case .stateChanged(let change):
                if change.to == .suspended, suspendedSince == nil { suspendedSince = event.time }
                if change.to != .suspended, let since = suspendedSince {
                    intervals.append((since, max(event.time, since), .suspended))
                    suspendedSince = nil
                }
                state = change.to
            case .networkRequest(let request): intervals.append((request.start, max(request.end, request.start), .request))
            case .fileWrite(let write): intervals.append((write.start, max(write.end, write.start), .fileIO))
            case .blockingCall(let call) where call.kind.hasPrefix("network."):
                intervals.append((call.start, max(call.end, call.start), .request))
            case .blockingCall(let call) where call.kind.hasPrefix("file."):
                intervals.append((call.start, max(call.end, call.start), .fileIO))
            case .handler(let handler) where handler.name.hasPrefix(Self.frameHandlerPrefix) && state == .active:
                intervals.append((handler.start, max(handler.end, handler.start + 1), .frames))
            case .memory(let memory) where memory.kind == .warningHandled:
                if let start = memory.handlerStart, let end = memory.handlerEnd {
                    intervals.append((start, max(end, start + 1), .memoryWarning))
                }
            default: break
            }
        }
        if let since = suspendedSince { intervals.append((since, max(record.endTime, since), .suspended)) }
        intervals += harnessSignalIntervals
        intervals += startupIntervals
        // Every client's requests as the origin read them (URLSession, curl: the wire's), in flight
        // as FrugalKit's are: libcurl polls its sockets while a URLSession request waits, and a
        // fetch that ran into a wait was once charged as 25 wakeups/s of polling. Wire times are
        // seconds since exec; one that never ended is in flight to the run's end.
        // A request's work ends when its result is handled, not with its last byte: the client
        // parses the body and hands it to the app (URLSession's delegate queue, then the main
        // actor), which lands in the slice after the one holding the last byte when a sample
        // falls between them (a weather app's decode and main-actor update 0.2 s after the
        // response, on a loaded machine, was once charged as polling).
        for wire in record.network?.requests ?? [] {
            let start = record.startTime &+ UInt64(saturating: wire.start * 1e9)
            let end = wire.end.map { record.startTime &+ UInt64(saturating: ($0 + Self.responseHandOffSeconds) * 1e9) } ?? record.endTime
            intervals.append((start, max(end, start), .request))
        }
        intervals += proxyConnectionIntervals
        // The handlers that issued a request or delivered its result (see the type's comment).
        let requestStarts = intervals.filter { $0.reason == .request }.map(\.start).sorted()
        for event in record.events {
            guard case .handler(let handler) = event.body else { continue }
            // The first request start at or after the handler's (binary search: a long run has
            // many of both), and whether it falls before the handler's end.
            var low = 0, high = requestStarts.count
            while low < high {
                let middle = (low + high) / 2
                if requestStarts[middle] < handler.start { low = middle + 1 } else { high = middle }
            }
            let issuedRequest = low < requestStarts.count && requestStarts[low] <= handler.end
            if issuedRequest || handler.name.hasPrefix(Self.requestCompletionHandlerPrefix) {
                intervals.append((handler.start, max(handler.end, handler.start + 1), .request))
            }
        }
        return intervals
    }

    /// How long after a request's last byte its result is still being handed to the app: one
    /// sample interval (the harness samples `/proc` every 0.2 s), so the slice after the one
    /// holding the last byte is the hand-off's. FrugalKit's own client is exact instead (its
    /// `posted:network:` handler).
    public static let responseHandOffSeconds = 0.2

    /// FrugalKit's `NetworkClient` delivers a result to the main run loop as `posted:network:METHOD TARGET`.
    public static let requestCompletionHandlerPrefix = "posted:network:"

    /// Handlers of frame timers are named `frame:NAME` by FrugalKit's run loop.
    public static let frameHandlerPrefix = "frame:"

    /// Every connection through the run's proxy, whatever client opened it, in flight from its
    /// accept to its last byte or to the network's reset of it; a connection the proxy refused
    /// (offline, a `refuse` fault) for the moment it took. A client's attempt wakes its threads
    /// (libcurl's multi loop, `URLSession`'s) whether or not the origin ever reads a request, and
    /// a refused connect is an attempt: that is the request's work, not polling. A kept-alive
    /// connection with nothing moving is not in flight: its close, not its idle life, ends it.
    /// The bytes a connection's close sends (TLS's `close_notify` alert, 24 bytes when a
    /// URLSession app exits with its connection kept alive) are that close, not an exchange: a
    /// chunk within ``responseHandOffSeconds`` of the close after a quiet stretch longer than
    /// that is the close's moment only. Counted as the connection's last byte, it once made a
    /// weather app's whole 8 s run "a network request in flight", so its 1 Hz poller went unseen.
    var proxyConnectionIntervals: [(start: UInt64, end: UInt64, reason: BusyReason)] {
        guard let trace = record.network?.trace else { return [] }
        var times: [Int: [Double]] = [:]
        var closes: [Int: Double] = [:]
        for event in trace.events {
            if event.kind == .close { closes[event.connection] = event.time } else { times[event.connection, default: []].append(event.time) }
        }
        for chunk in trace.chunks { times[chunk.connection, default: []].append(chunk.time) }
        var intervals: [(start: UInt64, end: UInt64, reason: BusyReason)] = []
        func add(_ from: Double, _ to: Double) {
            let start = record.startTime &+ UInt64(saturating: max(0, from) * 1e9)
            let end = record.startTime &+ UInt64(saturating: max(0, to) * 1e9)
            intervals.append((start, max(end, start + 1), .request))
        }
        for (connection, unsorted) in times {
            var activity = unsorted.sorted()
            if let close = closes[connection] {
                let closing = activity.suffix(activity.reversed().prefix { $0 >= close - Self.responseHandOffSeconds }.count)
                let beforeClosing = activity.dropLast(closing.count).last
                if let first = closing.first, let before = beforeClosing, first - before > Self.responseHandOffSeconds {
                    activity.removeLast(closing.count)
                    add(first, max(close, closing.last ?? first))
                }
            }
            guard let first = activity.first, let last = activity.last else { continue }
            add(first, last)
        }
        return intervals
    }
}
