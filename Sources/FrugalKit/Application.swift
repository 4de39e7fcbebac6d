import Foundation
import Synchronization
import FrugalProtocol
import FrugalSystem
import CFrugalSystem

/// The running app, as `UIApplication`: its state, its main run loop, and the way events and
/// lifecycle calls reach its delegate.
///
/// It lives on the main thread (the `MainActor`): its state and the delegate's calls are the
/// main run loop's. What other threads may use is marked `nonisolated`: the app's name, its run
/// loop's `perform(_:_:)`, `mark(_:detail:)` and background tasks.
@MainActor
public final class Application {
    /// The workload's name, as the harness knows it.
    public nonisolated let name: String
    /// The main run loop: timers, read sources and posted work, on the main thread.
    public nonisolated let runLoop: MainRunLoop
    /// The app's state, as the guide's Table 3-1 names them.
    public private(set) var state: AppState = .notRunning
    nonisolated let emitter: EventEmitter
    let delegate: AppDelegate
    /// Background tasks and queued notifications (`Application+Lifecycle.swift`).
    nonisolated let lifecycle = LifecycleRuntime()
    private var controlBuffer: [UInt8] = []
    private let decoder = JSONDecoder()

    package init(name: String, delegate: AppDelegate, emitter: EventEmitter, preferPAPI: Bool) throws {
        self.name = name
        self.delegate = delegate
        self.emitter = emitter
        self.runLoop = try MainRunLoop(meter: HandlerMeter(emitter: emitter, preferPAPI: preferPAPI))
    }

    /// The running app, once `run` has started it: FrugalKit's services (files, network) reach the
    /// event stream through it, from any thread.
    public nonisolated static var current: Application? { running.withLock { $0 } }
    /// Set by `run` (once: the process is the app), or by a unit test's driver for the app it drives.
    private nonisolated static let running = Mutex<Application?>(nil)

    /// Makes `app` the running app (``current``) in a process that is not run by the harness:
    /// FrugalTesting's driver, one app at a time.
    package nonisolated static func makeCurrent(_ app: Application?) {
        running.withLock { $0 = app }
    }

    /// Runs `delegate` as the app `name` on the calling (main) thread until it terminates, then
    /// exits the process. `pipes` are the harness's control and event descriptors
    /// (`Application.main(apps:)` finds them in the environment). `mainBundleProblem`: why
    /// `Bundle.main` is not the sandbox's bundle, marked on the timeline.
    static func run(name: String, delegate: AppDelegate, pipes: (control: Int32, events: Int32),
                    environment: [String: String], mainBundleProblem: String? = nil) -> Never {
        let emitter = EventEmitter(fd: pipes.events)
        let preferPAPI = environment[FrugalProtocol.Environment.counters] != "rusage"
        do {
            let app = try Application(name: name, delegate: delegate, emitter: emitter, preferPAPI: preferPAPI)
            running.withLock { $0 = app }
            if let mainBundleProblem { app.mark("bundle-main-elsewhere", detail: mainBundleProblem) }
            // The harness asks for the main thread's stack with a signal when a handler hangs.
            if frugal_install_stack_dumper(pipes.events) != 0 {
                app.mark("stack-dumper-unavailable", detail: String(cString: strerror(errno)))
            }
            try app.runLoop.addControlSource(fd: pipes.control) { [unowned app] fd in app.readControl(fd) }
            app.start()
            try app.runLoop.run()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("frugal-workload: \(name): \(error)\n".utf8))
            exit(3)
        }
    }

    /// Records a workload-specific fact as evidence. Safe from any thread.
    public nonisolated func mark(_ name: String, detail: String? = nil) {
        emitter.emit(.mark(Mark(name: name, detail: detail)))
    }

    /// Launches: hello, didFinishLaunching, didBecomeActive (the harness's launch, or a unit test's).
    package func start() {
        emitter.emit(.hello(Hello(pid: getpid(), mainThreadID: Int32(frugal_gettid()), workload: name,
                                  counters: runLoop.meter.availability)))
        if let problem = runLoop.platform.runLoopWaitSetProblem { mark("runloop-main-unwatched", detail: problem) }
        // The floor of "gained since launch" for the memory audits: no sample from outside may
        // fall between here and a cache the delegate fills while launching.
        // ProcFS.memory's reading, without FrugalProbe (which links FrugalCore's analysis).
        if let footprint = (try? FileReader.readText("/proc/\(getpid())/smaps_rollup")).flatMap(MemoryBreakdown.parseSmapsRollup)?.footprintBytes {
            emitter.emit(.memory(MemoryEvent(kind: .runtimeFootprint, bytes: footprint)))
        }
        transition(to: .inactive)
        runLoop.meter.measure("didFinishLaunching") {
            delegate.didFinishLaunching(self)
            postLifecycle(Self.didFinishLaunchingNotification)
        }
        reportPreservedState(.launch)
        transition(to: .active)
        runLoop.meter.measure("didBecomeActive") {
            delegate.didBecomeActive(self)
            postLifecycle(Self.didBecomeActiveNotification)
        }
    }

    func transition(to newState: AppState) {
        guard newState != state else { return }
        emitter.emit(.stateChanged(StateChange(from: state, to: newState)))
        state = newState
    }

    private func readControl(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count: Int
        do {
            count = try buffer.withUnsafeMutableBytes { raw in
                try SystemCall.retrying("read", subject: "control pipe") { read(fd, raw.baseAddress, raw.count) }
            }
        } catch {
            // The pipe cannot be read: the harness can no longer reach the app, as if it closed it.
            mark("control-pipe-unreadable", detail: "\(error)")
            count = 0
        }
        if count == 0 {
            // The harness closed the pipe: nobody will tell us to terminate, so end as if asked.
            runLoop.removeReadSource(fd: fd)
            terminate(sequence: nil)
            return
        }
        controlBuffer.append(contentsOf: buffer[0..<count])
        while let newline = controlBuffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Data(controlBuffer[..<newline])
            controlBuffer.removeSubrange(...newline)
            guard let message = try? decoder.decode(ControlMessage.self, from: line) else {
                // Answer, so the harness is not left waiting for an acknowledgement that never comes.
                emitter.emit(.controlError(Self.controlError(line, decoder: decoder)))
                continue
            }
            handle(message)
            if state == .notRunning { return }
        }
    }

    /// Routes a control message; areas implement their commands in `Application+<Area>.swift`.
    /// Every message is acknowledged once handled, except terminate, which acknowledges itself.
    package func handle(_ message: ControlMessage) {
        switch message.command {
        case .ping:
            break
        case .input:
            let kind = message.argument ?? "input"
            runLoop.meter.measure("input:\(kind)") { delegate.handleInput(self, kind: kind) }
        case .terminate:
            terminate(sequence: message.sequence)
            return
        case .resignActive: resignActive()
        case .becomeActive: becomeActive()
        case .enterBackground: enterBackground()
        case .enterForeground: enterForeground()
        case .expireBackgroundTasks: expireBackgroundTasks()
        case .notification: receiveNotification(message.argument ?? "notification")
        case .memoryWarning:
            handleMemoryWarning(message.argument, sequence: message.sequence)
        }
        emitter.emit(.ack(Ack(sequence: message.sequence)))
    }

    /// What was wrong with a control line this runtime could not carry out.
    nonisolated static func controlError(_ line: Data, decoder: JSONDecoder) -> ControlError {
        struct Envelope: Decodable {
            var sequence: Int?
            var command: String?
        }
        let envelope = try? decoder.decode(Envelope.self, from: line)
        if let command = envelope?.command, ControlCommand(rawValue: command) == nil {
            return ControlError(sequence: envelope?.sequence, command: command,
                                problem: "unknown command '\(command)' (this app speaks Frugal protocol \(FrugalProtocol.version))")
        }
        return ControlError(sequence: envelope?.sequence, command: envelope?.command,
                            problem: "unreadable control line: \(String(decoding: line.prefix(200), as: UTF8.self))")
    }

    private func terminate(sequence: Int?) {
        runLoop.meter.measure("willTerminate") {
            delegate.willTerminate(self)
            postLifecycle(Self.willTerminateNotification)
        }
        Self.persistStandardDefaults()
        transition(to: .notRunning)
        if let sequence { emitter.emit(.ack(Ack(sequence: sequence))) }
        runLoop.stop()
    }
}
