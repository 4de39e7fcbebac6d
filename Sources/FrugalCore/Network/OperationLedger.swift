/// The app's network operations and their attempts, for `network.handle-failures`: an operation
/// (attempts sharing `NetworkRequestRecord.operation`) is lost when it met a failure and no
/// attempt of it ever succeeded.
public struct OperationLedger: Sendable, Equatable {
    /// One operation and what became of it.
    public struct Operation: Sendable, Equatable {
        public var name: String
        public var attempts: [NetworkRequestRecord]
        /// Whether an attempt succeeded.
        public var succeeded: Bool { attempts.contains(where: \.succeeded) }
        /// Whether an attempt failed (cancelled attempts are the app's choice, not a failure).
        public var metFailure: Bool { attempts.contains { $0.outcome == .failed } }
        /// Met a failure and never succeeded.
        public var lost: Bool { metFailure && !succeeded }
    }

    /// Operations in the order of their first attempt.
    public let operations: [Operation]

    public init(_ requests: [NetworkRequestRecord]) {
        var order: [String] = []
        var attempts: [String: [NetworkRequestRecord]] = [:]
        for request in requests.sorted(by: { $0.start < $1.start }) {
            if attempts[request.operation] == nil { order.append(request.operation) }
            attempts[request.operation, default: []].append(request)
        }
        operations = order.map { Operation(name: $0, attempts: attempts[$0] ?? []) }
    }

    /// Operations that met a failure.
    public var failed: [Operation] { operations.filter(\.metFailure) }
    /// Operations that met a failure and never succeeded.
    public var lost: [Operation] { operations.filter(\.lost) }
}
