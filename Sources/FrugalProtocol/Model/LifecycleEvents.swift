/// Event payloads of the app's life: handler starts, background tasks, preserved state, hang stacks.

/// A main-thread handler has started; its `HandlerRecord` follows when it returns.
public struct HandlerBegin: Codable, Sendable, Equatable {
    public var name: String
    /// Monotonic ns at the handler's start.
    public var start: UInt64
    public init(name: String, start: UInt64) {
        self.name = name
        self.start = start
    }
}

/// What happened to a background task.
public enum BackgroundTaskPhase: String, Codable, Sendable {
    /// `beginBackgroundTask` was called.
    case begun
    /// `endBackgroundTask` was called.
    case ended
    /// The background time was nearly over and the task's expiration handler was called.
    case expirationHandlerCalled = "expiration-handler-called"
}

/// One step in the life of a background task (`beginBackgroundTask(name:expiration:)`).
public struct BackgroundTaskEvent: Codable, Sendable, Equatable {
    /// The task's identifier, unique within the process.
    public var id: Int
    public var name: String
    public var phase: BackgroundTaskPhase
    public init(id: Int, name: String, phase: BackgroundTaskPhase) {
        self.id = id
        self.name = name
        self.phase = phase
    }
}

/// The state an app adopting `StatePreserving` holds, as key → value.
public struct PreservedStateSnapshot: Codable, Sendable, Equatable {
    /// When it was taken.
    public enum Moment: String, Codable, Sendable {
        /// After `didEnterBackground` returned: what the app had when it could be killed.
        case background
        /// After `didFinishLaunching` returned: what the app restored.
        case launch
    }

    public var moment: Moment
    public var values: [String: String]
    public init(moment: Moment, values: [String: String]) {
        self.moment = moment
        self.values = values
    }
}

/// One frame of a captured stack.
public struct StackFrame: Codable, Sendable, Equatable {
    /// The binary or library (its file name).
    public var module: String
    /// The function, demangled when it could be; nil when it could not be named.
    public var symbol: String?
    /// The instruction address in the process.
    public var address: String

    public init(module: String, symbol: String?, address: String) {
        self.module = module
        self.symbol = symbol
        self.address = address
    }
}

/// The main thread's stack while a handler hung. The harness signals the main thread once a
/// handler outlives the hang limit, and FrugalKit's signal handler writes the backtrace.
public struct HangStack: Codable, Sendable, Equatable {
    /// The handler that was running when the harness asked for the stack.
    public var handler: String?
    /// Monotonic ns when the stack was taken (in the signal handler).
    public var capturedAt: UInt64
    /// Innermost first. The signal handler's own frames are removed.
    public var frames: [StackFrame]

    public init(handler: String?, capturedAt: UInt64, frames: [StackFrame]) {
        self.handler = handler
        self.capturedAt = capturedAt
        self.frames = frames
    }

    /// The innermost frames with a name, for evidence (`a ← b ← c`).
    public func summary(maxFrames: Int = 6) -> String {
        let named = frames.compactMap(\.symbol).prefix(maxFrames)
        return named.isEmpty ? "no named frames" : named.joined(separator: " ← ")
    }
}

/// One line of glibc's `backtrace_symbols_fd`: `/path/bin(symbol+0x1c)[0x55d0...]` or
/// `/path/bin(+0xe69)[0x55d0...]`.
public struct BacktraceLine: Sendable, Equatable {
    /// The path of the binary.
    public var path: String
    /// The dynamic symbol glibc found, if any.
    public var symbol: String?
    /// The offset: from `symbol` when there is one, else from the binary's load address.
    public var offset: UInt64
    /// The absolute address.
    public var address: UInt64

    /// Parses one line; nil when it is not in that form.
    public static func parse(_ line: Substring) -> BacktraceLine? {
        guard let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close,
              let bracket = line.lastIndex(of: "["), let end = line.lastIndex(of: "]"), bracket < end else { return nil }
        let path = String(line[..<open])
        let inside = line[line.index(after: open)..<close]
        guard let plus = inside.lastIndex(of: "+") else { return nil }
        let name = inside[..<plus]
        let offsetText = inside[inside.index(after: plus)...]
        let addressText = line[line.index(after: bracket)..<end]
        guard let offset = hex(offsetText), let address = hex(addressText) else { return nil }
        return BacktraceLine(path: path, symbol: name.isEmpty ? nil : String(name), offset: offset, address: address)
    }

    static func hex(_ text: Substring) -> UInt64? {
        guard text.hasPrefix("0x") else { return nil }
        return UInt64(text.dropFirst(2), radix: 16)
    }
}
