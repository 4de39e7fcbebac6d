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
    /// A low-memory warning; the argument is its level (`warning`, `critical`, `normal`).
    case memoryWarning
}
