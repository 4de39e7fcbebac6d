import Foundation
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// An app that lives in the test's memory and answers the control protocol as it is told, in the
/// spirit of swift-nio's `EmbeddedChannel`: what the harness writes to it is recorded, what it
/// says goes through the real event-stream decoder, and its time is a `ManualClock`. By default
/// it behaves as FrugalKit's runtime does (acknowledges each command once its handler ran, ends
/// on `terminate` or at the end of the control pipe); `answer` overrides that message by message.
///
/// It has one main thread: a message that comes while a handler runs waits for the handler to
/// end, as it waits in the control pipe of a real app. Signals act as on a process: SIGSTOP holds
/// every message and scheduled action until SIGCONT, SIGKILL ends it at once.
// @unchecked: every mutable field is guarded by `condition` (below).
final class SimulatedApp: AppProcess, @unchecked Sendable {
    /// Decides what the app does with a control message; call `behaveNormally` for the default.
    typealias Answer = @Sendable (SimulatedApp, ControlMessage) -> Void

    let pid: pid_t
    let spawnTime: UInt64
    let clock: ManualClock
    let events: EventStreamReader
    private let answer: Answer?
    private let onEndOfControl: (@Sendable (SimulatedApp) -> Void)?
    // Every field below is guarded by `condition`; events are emitted outside it (the reader has its own lock).
    private let condition = NSCondition()
    private var exit: ProcessExit?
    private var stopped = false
    private var controlClosed = false
    private var held: [@Sendable () -> Void] = []
    /// Handlers running on the main thread now, and the messages waiting for it.
    private var busy = 0
    private var waitingForMainThread: [ControlMessage] = []
    private var receivedMessages: [(time: UInt64, message: ControlMessage)] = []
    private var signalsSeen: [(time: UInt64, signal: Int32, mainThreadOnly: Bool)] = []
    private var openTasks: [Int: String] = [:]
    private var nextTask = 1
    private var state: AppState = .notRunning
    private let encoder = JSONEncoder()
    /// Signalled on each signal the app receives (for tests whose other threads send them).
    let signalled = DispatchSemaphore(value: 0)

    init(pid: pid_t, clock: ManualClock, events: EventStreamReader, answer: Answer?, onEndOfControl: (@Sendable (SimulatedApp) -> Void)?) {
        self.pid = pid
        self.clock = clock
        self.events = events
        self.answer = answer
        self.onEndOfControl = onEndOfControl
        spawnTime = clock.now()
    }

    // MARK: What the harness sees

    var hasExited: Bool { condition.withLock { exit != nil } }

    func send(_ message: ControlMessage) throws {
        let deliverNow: Bool = try condition.withLock {
            // What a write to a closed pipe would be (EPIPE).
            guard exit == nil, !controlClosed else { throw HarnessError.controlPipeClosed }
            receivedMessages.append((clock.now(), message))
            if stopped { held.append { [self] in deliver(message) } }
            return !stopped
        }
        if deliverNow { deliver(message) }
    }

    func kill(_ signal: Int32) {
        let release: [@Sendable () -> Void] = condition.withLock {
            guard exit == nil else { return [] }
            signalsSeen.append((clock.now(), signal, false))
            switch signal {
            case SIGSTOP: stopped = true
            case SIGCONT:
                stopped = false
                defer { held.removeAll() }
                return held
            default: break
            }
            return []
        }
        signalled.signal()
        if signal == SIGKILL || signal == SIGTERM { end(ExitStatus(signal: signal)) }
        release.forEach { $0() }
    }

    func signalMainThread(_ signal: Int32) {
        condition.withLock { signalsSeen.append((clock.now(), signal, true)) }
        signalled.signal()
    }

    func waitForExit(until deadline: UInt64) -> ProcessExit? {
        condition.lock()
        defer { condition.unlock() }
        while exit == nil {
            if clock.now() >= deadline { return nil }
            clock.wait(condition, until: deadline)
        }
        return exit
    }

    func closeControl() {
        let first: Bool = condition.withLock {
            defer { controlClosed = true }
            return !controlClosed && exit == nil
        }
        guard first else { return }
        later(0) { [self] in
            if let onEndOfControl { onEndOfControl(self) } else { terminateNormally(sequence: nil) }
        }
    }

    var finalIO: ProcessIOCounters? { nil }
    var finalMainThreadStatus: ProcFS.Status? { nil }

    /// One thread, stopped (`T`) while the app is, otherwise sleeping: an app that is quiet between handlers.
    func sample(at time: UInt64) -> ProcessSample? {
        condition.withLock {
            guard exit == nil else { return nil }
            return ProcessSample(time: time, threads: [ThreadSample(tid: pid, name: "main", voluntaryContextSwitches: 0, involuntaryContextSwitches: 0,
                                                                     onCPUNanoseconds: 0, state: stopped ? "T" : "S")])
        }
    }

    // MARK: What the test sees

    /// Every control message, with the time it was written.
    var received: [(time: UInt64, message: ControlMessage)] { condition.withLock { receivedMessages } }
    /// The first time a message with `command` was written, if one was.
    func firstTime(of command: ControlCommand) -> UInt64? { received.first { $0.message.command == command }?.time }
    /// Every signal, with its time (`mainThreadOnly`: a tgkill from the hang watcher).
    var signals: [(time: UInt64, signal: Int32, mainThreadOnly: Bool)] { condition.withLock { signalsSeen } }
    var isStopped: Bool { condition.withLock { stopped } }

    // MARK: What the app can do

    /// Runs `action` after `seconds` of its time; a stopped app runs it once continued.
    func later(_ seconds: Double, _ action: @escaping @Sendable () -> Void) {
        clock.schedule(after: seconds) { [self] in
            let runNow: Bool = condition.withLock {
                if exit != nil { return false }
                if stopped { held.append(action) }
                return !stopped
            }
            if runNow { action() }
        }
    }

    /// Writes one event to the stream, stamped now.
    func emit(_ body: WorkloadEvent.Body) {
        guard !hasExited, var line = try? encoder.encode(WorkloadEvent(time: clock.now(), body: body)) else { return }
        line.append(UInt8(ascii: "\n"))
        events.ingest(ArraySlice(line))
    }

    /// A handler on the main thread: its start now, its record after `seconds`, then `then`.
    func runHandler(_ name: String, taking seconds: Double = 0, then: (@Sendable () -> Void)? = nil) {
        let start = clock.now()
        emit(.handlerBegan(HandlerBegin(name: name, start: start)))
        guard seconds > 0 else {
            emit(.handler(HandlerRecord(name: name, start: start, end: start)))
            then?()
            return
        }
        condition.withLock { busy += 1 }
        later(seconds) { [self] in
            emit(.handler(HandlerRecord(name: name, start: start, end: clock.now())))
            then?()
            let waiting: [ControlMessage] = condition.withLock {
                busy -= 1
                guard busy == 0 else { return [] }
                defer { waitingForMainThread.removeAll() }
                return waitingForMainThread
            }
            waiting.forEach(deliver)
        }
    }

    func acknowledge(_ message: ControlMessage) { emit(.ack(Ack(sequence: message.sequence))) }

    func transition(to newState: AppState) {
        let old: AppState = condition.withLock { defer { state = newState }; return state }
        if old != newState { emit(.stateChanged(StateChange(from: old, to: newState))) }
    }

    /// FrugalKit's launch: the hello, `didFinishLaunching`, then `didBecomeActive`.
    func finishLaunching() {
        emit(.hello(Hello(pid: pid, mainThreadID: pid, workload: "simulated", counters: [])))
        transition(to: .inactive)
        runHandler("didFinishLaunching")
        transition(to: .active)
        runHandler("didBecomeActive")
    }

    /// Begins a background task; returns its id.
    @discardableResult
    func beginBackgroundTask(_ name: String) -> Int {
        let id: Int = condition.withLock {
            defer { nextTask += 1 }
            openTasks[nextTask] = name
            return nextTask
        }
        emit(.backgroundTask(BackgroundTaskEvent(id: id, name: name, phase: .begun)))
        return id
    }

    func endBackgroundTask(_ id: Int) {
        guard let name = condition.withLock({ openTasks.removeValue(forKey: id) }) else { return }
        emit(.backgroundTask(BackgroundTaskEvent(id: id, name: name, phase: .ended)))
    }

    /// Exits by itself with `code`.
    func exit(code: Int32) { end(ExitStatus(code: code)) }

    /// `willTerminate`, then exit 0; `sequence` is acknowledged first when the harness asked.
    func terminateNormally(sequence: Int?) {
        runHandler("willTerminate")
        transition(to: .notRunning)
        if let sequence { emit(.ack(Ack(sequence: sequence))) }
        exit(code: 0)
    }

    /// What FrugalKit's runtime does with `message` (an app whose handlers take no time).
    func behaveNormally(_ message: ControlMessage) {
        switch message.command {
        case .ping:
            acknowledge(message)
        case .input:
            runHandler("input:\(message.argument ?? "")") { [self] in acknowledge(message) }
        case .resignActive:
            transition(to: .inactive)
            runHandler("willResignActive") { [self] in acknowledge(message) }
        case .becomeActive:
            transition(to: .active)
            runHandler("didBecomeActive") { [self] in acknowledge(message) }
        case .enterBackground:
            transition(to: .background)
            runHandler("didEnterBackground") { [self] in acknowledge(message) }
        case .enterForeground:
            transition(to: .inactive)
            runHandler("willEnterForeground")
            transition(to: .active)
            runHandler("didBecomeActive") { [self] in acknowledge(message) }
        case .expireBackgroundTasks:
            // Each task's expiration handler ends it, as a well-behaved app's does.
            for (id, name) in condition.withLock({ openTasks.sorted { $0.key < $1.key } }) {
                emit(.backgroundTask(BackgroundTaskEvent(id: id, name: name, phase: .expirationHandlerCalled)))
                endBackgroundTask(id)
            }
        case .notification:
            runHandler("notification:\(message.argument ?? "")") { [self] in acknowledge(message) }
        case .memoryWarning:
            runHandler("didReceiveMemoryWarning") { [self] in acknowledge(message) }
        case .terminate:
            terminateNormally(sequence: message.sequence)
        }
    }

    private func deliver(_ message: ControlMessage) {
        let mainThreadFree: Bool = condition.withLock {
            if busy > 0 { waitingForMainThread.append(message) }
            return busy == 0
        }
        guard mainThreadFree else { return }
        if let answer { answer(self, message) } else { behaveNormally(message) }
    }

    private func end(_ status: ExitStatus) {
        let ended: Bool = condition.withLock {
            guard exit == nil else { return false }
            exit = (status, nil, clock.now())
            condition.broadcast()
            return true
        }
        // The app's end of the event pipe closes with it.
        if ended { events.endOfStream() }
    }
}

/// Starts `SimulatedApp`s on a manual clock: each launch is a new app with the same answers
/// (a relaunch gets a fresh one, as a new process would be).
// @unchecked: `apps` is only touched holding `lock`; the rest is immutable.
final class SimulatedAppLauncher: ProcessLauncher, @unchecked Sendable {
    let clock: ManualClock
    private let answer: SimulatedApp.Answer?
    private let onEndOfControl: (@Sendable (SimulatedApp) -> Void)?
    private let onLaunch: @Sendable (SimulatedApp) -> Void
    private let lock = NSLock()
    private var apps: [SimulatedApp] = []

    var startsSystemProcesses: Bool { false }

    /// `answer` comes first so that a trailing closure is the answer; `onLaunch` is what the app
    /// does once started (FrugalKit's launch by default).
    init(clock: ManualClock, answer: SimulatedApp.Answer? = nil, onLaunch: @escaping @Sendable (SimulatedApp) -> Void = { $0.finishLaunching() },
         onEndOfControl: (@Sendable (SimulatedApp) -> Void)? = nil) {
        self.clock = clock
        self.onLaunch = onLaunch
        self.onEndOfControl = onEndOfControl
        self.answer = answer
    }

    /// The apps started so far, in order.
    var launched: [SimulatedApp] { lock.withLock { apps } }

    func launch(_ request: LaunchRequest, clock: any HarnessClock) throws -> (process: any AppProcess, events: EventStreamReader) {
        let reader = EventStreamReader(fedOn: clock)
        // Above the kernel's largest pid (2^22): the number can be no real process's or group's.
        let pid = lock.withLock { pid_t(Int32.max) - pid_t(apps.count) }
        let app = SimulatedApp(pid: pid, clock: self.clock, events: reader, answer: answer, onEndOfControl: onEndOfControl)
        lock.withLock { apps.append(app) }
        onLaunch(app)
        return (app, reader)
    }
}
