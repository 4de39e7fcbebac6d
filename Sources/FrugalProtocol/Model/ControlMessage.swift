/// What the harness tells a workload, one JSON object per line on its control pipe.
public struct ControlMessage: Codable, Sendable, Equatable {
    /// Increases by one per message; the workload acknowledges it once handled.
    public var sequence: Int
    public var command: ControlCommand
    /// The command's argument (an input's kind, a warning's level), if any.
    public var argument: String?

    public init(sequence: Int, command: ControlCommand, argument: String? = nil) {
        self.sequence = sequence
        self.command = command
        self.argument = argument
    }
}

/// The commands a workload's runtime understands.
public enum ControlCommand: String, Codable, Sendable {
    /// Answered by the runtime itself as soon as its run loop handles events: launch ends there.
    case ping
    /// An event for the main run loop, like a touch; the argument names its kind.
    case input
    /// End the app: `willTerminate`, then exit.
    case terminate
    /// An interruption begins: `willResignActive`, → inactive.
    case resignActive
    /// The interruption is over: → active, `didBecomeActive`.
    case becomeActive
    /// The user left the app: → inactive (`willResignActive`), → background (`didEnterBackground`).
    case enterBackground
    /// The user returned: `willEnterForeground`, queued notifications, `didBecomeActive`.
    case enterForeground
    /// The background time is nearly over: call the expiration handlers of open background tasks.
    case expireBackgroundTasks
    /// A system notification; the argument names it.
    case notification
    /// A low-memory warning; the argument is its level (`warning`, `critical`, `normal`).
    case memoryWarning
}
