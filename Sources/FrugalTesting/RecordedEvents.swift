import FrugalCore

/// What an app said while a ``LifecycleDriver`` drove it: the event stream a harness would have
/// read, with the questions a delegate's test asks of it.
public struct RecordedEvents: Sendable, Equatable {
    /// Every event, in the order the app emitted them.
    public let all: [WorkloadEvent]

    /// The recorded stream `events`.
    public init(_ events: [WorkloadEvent]) { all = events }

    /// The states the app moved to, in order (`inactive`, `active`, `background`, ...).
    public var states: [AppState] {
        all.compactMap { if case .stateChanged(let change) = $0.body { change.to } else { nil } }
    }

    /// The handlers that ran on the main run loop, as measured: `didFinishLaunching`,
    /// `didEnterBackground`, `input:tap`, `timer:refresh`, `main-queue`, ...
    public var handlers: [HandlerRecord] {
        all.compactMap { if case .handler(let handler) = $0.body { handler } else { nil } }
    }

    /// The last run of the handler `name`, if it ran.
    public func handler(named name: String) -> HandlerRecord? { handlers.last { $0.name == name } }

    /// How long the last run of handler `name` took, in milliseconds of wall time.
    public func milliseconds(of name: String) -> Double? {
        handler(named: name).map { Double($0.end &- $0.start) / 1e6 }
    }

    /// Background tasks begun, ended and expired, in order.
    public var backgroundTasks: [BackgroundTaskEvent] {
        all.compactMap { if case .backgroundTask(let task) = $0.body { task } else { nil } }
    }

    /// The app's marks (`Application.mark(_:detail:)` and the runtime's own, e.g. `timer-scheduled`).
    public var marks: [Mark] {
        all.compactMap { if case .mark(let mark) = $0.body { mark } else { nil } }
    }

    /// Writes, fsyncs and deletes through FrugalKit's `FileStore`.
    public var fileWrites: [FileWrite] {
        all.compactMap { if case .fileWrite(let write) = $0.body { write } else { nil } }
    }

    /// What the app preserved on entering the background and restored at launch (`StatePreserving`).
    public var preservedStates: [PreservedStateSnapshot] {
        all.compactMap { if case .preservedState(let snapshot) = $0.body { snapshot } else { nil } }
    }

    /// Memory facts: warnings handled (with what the app's caches held before and after), resources, discards.
    public var memory: [MemoryEvent] {
        all.compactMap { if case .memory(let event) = $0.body { event } else { nil } }
    }
}
