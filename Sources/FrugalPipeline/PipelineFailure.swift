/// Why a stage of the pipeline could not go on, in the terms of the user's contract: the
/// caller's input was wrong, the harness failed, the user stopped it, or a comparison could not tell.
///
/// The `frugal` executable turns each kind into its exit code (1, 3, 130/143, 4); a test or
/// another tool reads ``kind`` and ``message``.
public struct PipelineFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, as the exit-code contract tells it apart.
    public enum Kind: Sendable, Equatable {
        /// A name, a file or a setting the caller gave is wrong (exit 1).
        case badInput
        /// The harness itself failed (exit 3).
        case harness
        /// A signal (SIGINT or SIGTERM) stopped the suite (exit 130 or 143).
        case interrupted(signal: Int32)
        /// A comparison could not tell at its threshold (exit 4): never a failure, never "unchanged".
        case inconclusive
    }

    /// What went wrong.
    public var kind: Kind
    /// One line that names the bad input or the failure, and what was kept.
    public var message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// The caller's input is wrong.
    public static func badInput(_ message: String) -> PipelineFailure { PipelineFailure(kind: .badInput, message: message) }
    /// The harness failed.
    public static func harness(_ message: String) -> PipelineFailure { PipelineFailure(kind: .harness, message: message) }
}
