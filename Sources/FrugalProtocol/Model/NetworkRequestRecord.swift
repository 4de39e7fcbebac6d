/// One request FrugalKit's `NetworkClient` made (one attempt: a retry by the app is a new
/// record with the same `operation`), reported when it ended.
public struct NetworkRequestRecord: Codable, Sendable, Equatable {
    /// How the attempt ended.
    public enum Outcome: String, Codable, Sendable {
        /// A whole response arrived (any status).
        case completed
        /// No whole response: refused, reset, timed out, closed early, malformed.
        case failed
        /// The app cancelled it.
        case cancelled
    }

    /// The client's id for the task.
    public var task: Int
    public var method: String
    /// The request target (`/upload/item-3`).
    public var target: String
    /// What the app was trying to do; attempts of one operation share it (default `METHOD target`).
    public var operation: String
    /// Monotonic ns when the task started running (connection included) and when it ended.
    public var start: UInt64
    public var end: UInt64
    public var outcome: Outcome
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// Why it failed (`connection reset by peer`, `timed out after 3 s`), when it did.
    public var error: String?
    /// Bytes written (head and body) and read (head and body).
    public var bytesSent: Int
    public var bytesReceived: Int
    /// Whether it ran on a kept-alive connection rather than a new one.
    public var reusedConnection: Bool
    /// `file:line` where the app created the task.
    public var callSite: String
    /// How many connections the client runs at most (nil: not reported).
    public var connectionLimit: Int?

    public init(task: Int, method: String, target: String, operation: String, start: UInt64, end: UInt64,
                outcome: Outcome, status: Int?, error: String?, bytesSent: Int, bytesReceived: Int,
                reusedConnection: Bool, callSite: String, connectionLimit: Int? = nil) {
        self.task = task
        self.method = method
        self.target = target
        self.operation = operation
        self.start = start
        self.end = end
        self.outcome = outcome
        self.status = status
        self.error = error
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.reusedConnection = reusedConnection
        self.callSite = callSite
        self.connectionLimit = connectionLimit
    }

    /// Whether the attempt did what was asked: a whole response with a status below 400.
    public var succeeded: Bool { outcome == .completed && (status ?? 0) < 400 }
}
