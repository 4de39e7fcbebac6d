/// What a workload tells the harness, one JSON object per line on its event pipe.
///
/// Times are monotonic nanoseconds (`CLOCK_MONOTONIC`), the same clock in every process,
/// so the harness can line them up with its own steps and samples.
public struct WorkloadEvent: Codable, Sendable, Equatable {
    /// Monotonic nanoseconds when the event happened.
    public var time: UInt64
    public var body: Body

    public init(time: UInt64, body: Body) {
        self.time = time
        self.body = body
    }

    /// The kinds of event. Adding one: a case here, its payload type, and a line in each
    /// `switch` of the Codable conformance below.
    public enum Body: Sendable, Equatable {
        /// The runtime is up: the process, its main thread, and what it can count.
        case hello(Hello)
        /// The application moved between states.
        case stateChanged(StateChange)
        /// A handler ran on the main run loop.
        case handler(HandlerRecord)
        /// A control message was handled (its sequence number).
        case ack(Ack)
        /// A workload-specific fact worth keeping as evidence.
        case mark(Mark)
        /// A FrugalKit call that may block (file, network), with its call site.
        case blockingCall(BlockingCall)
        /// A write, fsync or delete through FrugalKit's `FileStore`: the write journal.
        case fileWrite(FileWrite)
        /// A handler started on the main thread (so the harness can see one outlive the hang limit).
        case handlerBegan(HandlerBegin)
        /// A background task began, ended, or had its expiration handler called.
        case backgroundTask(BackgroundTaskEvent)
        /// The state an app preserves: what it had on entering the background, or what it restored at launch.
        case preservedState(PreservedStateSnapshot)
        /// The main thread's stack, captured while a handler hung (symbolised by the harness).
        case hangStack(HangStack)
        /// A request FrugalKit's network client made, with how it ended.
        case networkRequest(NetworkRequestRecord)
        /// A fact from FrugalKit's memory tools (warnings, resources, purgeable discards).
        case memory(MemoryEvent)
        /// A control message the app could not carry out (an unknown command, a line it could not
        /// read): the answer in place of its acknowledgement.
        case controlError(ControlError)
    }

    private enum CodingKeys: String, CodingKey {
        case t, type, hello, state, handler, ack, mark, blockingCall, fileWrite, handlerBegan, backgroundTask, preservedState, hangStack,
             networkRequest, memory, controlError
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        time = try container.decode(UInt64.self, forKey: .t)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "hello": body = .hello(try container.decode(Hello.self, forKey: .hello))
        case "state": body = .stateChanged(try container.decode(StateChange.self, forKey: .state))
        case "handler": body = .handler(try container.decode(HandlerRecord.self, forKey: .handler))
        case "ack": body = .ack(try container.decode(Ack.self, forKey: .ack))
        case "mark": body = .mark(try container.decode(Mark.self, forKey: .mark))
        case "blockingCall": body = .blockingCall(try container.decode(BlockingCall.self, forKey: .blockingCall))
        case "fileWrite": body = .fileWrite(try container.decode(FileWrite.self, forKey: .fileWrite))
        case "handlerBegan": body = .handlerBegan(try container.decode(HandlerBegin.self, forKey: .handlerBegan))
        case "backgroundTask": body = .backgroundTask(try container.decode(BackgroundTaskEvent.self, forKey: .backgroundTask))
        case "preservedState": body = .preservedState(try container.decode(PreservedStateSnapshot.self, forKey: .preservedState))
        case "hangStack": body = .hangStack(try container.decode(HangStack.self, forKey: .hangStack))
        case "networkRequest": body = .networkRequest(try container.decode(NetworkRequestRecord.self, forKey: .networkRequest))
        case "memory": body = .memory(try container.decode(MemoryEvent.self, forKey: .memory))
        case "controlError": body = .controlError(try container.decode(ControlError.self, forKey: .controlError))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "unknown event type '\(type)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .t)
        switch body {
        case .hello(let payload): try container.encode("hello", forKey: .type); try container.encode(payload, forKey: .hello)
        case .stateChanged(let payload): try container.encode("state", forKey: .type); try container.encode(payload, forKey: .state)
        case .handler(let payload): try container.encode("handler", forKey: .type); try container.encode(payload, forKey: .handler)
        case .ack(let payload): try container.encode("ack", forKey: .type); try container.encode(payload, forKey: .ack)
        case .mark(let payload): try container.encode("mark", forKey: .type); try container.encode(payload, forKey: .mark)
        case .blockingCall(let payload): try container.encode("blockingCall", forKey: .type); try container.encode(payload, forKey: .blockingCall)
        case .fileWrite(let payload): try container.encode("fileWrite", forKey: .type); try container.encode(payload, forKey: .fileWrite)
        case .handlerBegan(let payload): try container.encode("handlerBegan", forKey: .type); try container.encode(payload, forKey: .handlerBegan)
        case .backgroundTask(let payload): try container.encode("backgroundTask", forKey: .type); try container.encode(payload, forKey: .backgroundTask)
        case .preservedState(let payload): try container.encode("preservedState", forKey: .type); try container.encode(payload, forKey: .preservedState)
        case .hangStack(let payload): try container.encode("hangStack", forKey: .type); try container.encode(payload, forKey: .hangStack)
        case .networkRequest(let payload): try container.encode("networkRequest", forKey: .type); try container.encode(payload, forKey: .networkRequest)
        case .memory(let payload): try container.encode("memory", forKey: .type); try container.encode(payload, forKey: .memory)
        case .controlError(let payload): try container.encode("controlError", forKey: .type); try container.encode(payload, forKey: .controlError)
        }
    }
}

/// The first event of every workload.
public struct Hello: Codable, Sendable, Equatable {
    /// The `FrugalProtocol.version` the app was built with; nil (version 0) from an app built
    /// before the protocol had versions.
    public var protocolVersion: Int?
    public var pid: Int32
    /// The main thread's id (equal to `pid` on Linux).
    public var mainThreadID: Int32
    public var workload: String
    /// The counters the runtime reads at handler boundaries, and whether each works here.
    public var counters: [CounterAvailability]
    public init(protocolVersion: Int? = FrugalProtocol.version, pid: Int32, mainThreadID: Int32, workload: String,
                counters: [CounterAvailability]) {
        self.protocolVersion = protocolVersion
        self.pid = pid
        self.mainThreadID = mainThreadID
        self.workload = workload
        self.counters = counters
    }

    /// The version the app speaks (0 when its hello names none).
    public var effectiveProtocolVersion: Int { protocolVersion ?? 0 }
}

/// The app's answer to a control message it could not carry out.
public struct ControlError: Codable, Sendable, Equatable {
    /// The message's sequence number, when the line could be read that far.
    public var sequence: Int?
    /// The command as sent (`teleport`), when there was one.
    public var command: String?
    /// What was wrong, in one line.
    public var problem: String
    public init(sequence: Int?, command: String?, problem: String) {
        self.sequence = sequence
        self.command = command
        self.problem = problem
    }
}

/// Whether a counter can be read here, and if not, why.
public struct CounterAvailability: Codable, Sendable, Equatable {
    /// The counter's name as its source spells it (`perf::CONTEXT-SWITCHES`, `PAPI_TOT_INS`).
    public var name: String
    /// The source family: `papi`, `proc`, `rusage`, `perf_event_open`.
    public var source: String
    public var available: Bool
    /// The failure (e.g. PAPI's `PAPI_strerror` text and code, or errno) when unavailable.
    public var reason: String?
    public init(name: String, source: String, available: Bool, reason: String? = nil) {
        self.name = name
        self.source = source
        self.available = available
        self.reason = reason
    }
}

/// A state transition of the application.
public struct StateChange: Codable, Sendable, Equatable {
    public var from: AppState
    public var to: AppState
    public init(from: AppState, to: AppState) {
        self.from = from
        self.to = to
    }
}

/// One handler run on the main run loop, with the main thread's counters around it.
public struct HandlerRecord: Codable, Sendable, Equatable {
    /// What ran: `didFinishLaunching`, `timer:poll`, `input:refresh`, `posted:feed-loaded`.
    public var name: String
    /// Monotonic ns at the handler's start and end.
    public var start: UInt64
    public var end: UInt64
    /// On-CPU time of the main thread during the handler, ns (nil when no counter works).
    public var cpuNanoseconds: UInt64?
    /// Context switches of the main thread during the handler (off-CPU waits inside it).
    public var contextSwitches: Int?
    /// Where the counters came from: `papi:perf::TASK-CLOCK+perf::CONTEXT-SWITCHES` or `rusage:thread`.
    public var counterSource: String?
    /// Voluntary context switches of the main thread in the handler (`getrusage(RUSAGE_THREAD)`
    /// `ru_nvcsw`): each is the thread going to sleep to wait for something.
    public var voluntaryContextSwitches: Int?
    /// ns the main thread spent runnable but waiting for a CPU in the handler
    /// (`/proc/thread-self/schedstat`, second field): preemption, not waiting.
    public var runQueueNanoseconds: UInt64?
    /// The main thread's hardware counts in the handler (instructions, cycles, misses, user
    /// space), from the same PAPI event set as `cpuNanoseconds`; nil where the thread has no
    /// hardware counters (the hello's `counters` say why).
    public var hardware: HardwareCounterReading?

    public init(name: String, start: UInt64, end: UInt64, cpuNanoseconds: UInt64? = nil,
                contextSwitches: Int? = nil, counterSource: String? = nil,
                voluntaryContextSwitches: Int? = nil, runQueueNanoseconds: UInt64? = nil,
                hardware: HardwareCounterReading? = nil) {
        self.name = name
        self.start = start
        self.end = end
        self.cpuNanoseconds = cpuNanoseconds
        self.contextSwitches = contextSwitches
        self.counterSource = counterSource
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.runQueueNanoseconds = runQueueNanoseconds
        self.hardware = hardware
    }

    /// Off-CPU waiting in the handler, ns: wall − on-CPU − run-queue delay, counted only when the
    /// thread went to sleep at least once (a voluntary switch); nil when the counters are missing.
    public var offCPUWaitingNanoseconds: UInt64? {
        guard let cpu = cpuNanoseconds, let voluntary = voluntaryContextSwitches else { return nil }
        guard voluntary > 0 else { return 0 }
        let busy = cpu + (runQueueNanoseconds ?? 0)
        return duration > busy ? duration - busy : 0
    }

    /// Wall time of the handler, ns, at most ``EventNumberBounds/maximumQuantity`` (18 minutes):
    /// a duration is a quantity. Each time may be up to 2⁶², so an unbounded `end − start` let
    /// five crafted handlers overflow every sum over a run's handlers (blocked time, waits).
    public var duration: UInt64 { end >= start ? min(end - start, EventNumberBounds.maximumQuantity) : 0 }
}

/// Acknowledges a control message once its handler has returned.
public struct Ack: Codable, Sendable, Equatable {
    public var sequence: Int
    public init(sequence: Int) { self.sequence = sequence }
}

/// A workload-specific fact (`name`, free `detail`), kept as evidence in the report.
public struct Mark: Codable, Sendable, Equatable {
    public var name: String
    public var detail: String?
    public init(name: String, detail: String? = nil) {
        self.name = name
        self.detail = detail
    }
}

/// A call into FrugalKit that may block the calling thread (a file write, a network request),
/// reported with its call site, as Android's StrictMode does, so work on the main thread can be
/// named in the report.
public struct BlockingCall: Codable, Sendable, Equatable {
    /// What kind of call: `file.write`, `file.read`, `file.fsync`, `network.request`, ...
    public var kind: String
    /// What it was called on (a path, a URL), as the app passed it.
    public var detail: String
    /// `file:line` in the app's source (`#fileID`, `#line`).
    public var callSite: String
    /// Monotonic ns at the call's start and end.
    public var start: UInt64
    public var end: UInt64
    /// Whether it ran on the main thread.
    public var onMainThread: Bool

    public init(kind: String, detail: String, callSite: String, start: UInt64, end: UInt64, onMainThread: Bool) {
        self.kind = kind
        self.detail = detail
        self.callSite = callSite
        self.start = start
        self.end = end
        self.onMainThread = onMainThread
    }
}
