/// `network.handle-failures` from what any client leaves on the wire: the proxy's connections
/// that met a failure the scenario injected, and the requests the origin answered whole.
///
/// A failed attempt is a proxy connection that was refused (offline, or a `refuse` fault) or
/// reset by the network (a fault, going offline, an unreachable upstream): every client, from
/// `URLSession` to curl, meets those the same way. Its operation is the request the origin read
/// on that connection when it read one, else the request line the proxy read on a refused
/// connection before resetting it (any plain-HTTP client writes it on connect), else the failed
/// attempt of FrugalKit's `NetworkClient` nearest in time with its method and target (detail
/// where the app has it), else unknown: a TLS client's refused connection carries no request the
/// proxy can read (its first bytes are a ClientHello), nor does one that sent nothing. An operation is recovered when, after its failure, the
/// origin answered a request of the same method and target whole with a status under 500 (for an
/// unknown operation: any request the app started after the failure), and lost otherwise. Failed
/// attempts of one operation with no success between them are one operation's retries, counted
/// once per injected failure (the fault step, or the offline period, that caused them).
public struct WireFailureLedger: Sendable, Equatable {
    /// One connection that met a failure.
    public struct FailedAttempt: Sendable, Equatable {
        public var connection: Int
        /// Seconds since exec: when the proxy refused or reset it.
        public var time: Double
        /// `refused` or `reset`, with the proxy's reason.
        public var what: String
        /// `POST /upload/notes`, when the origin read a request on it or the app's client named it.
        public var label: String?
        /// Which injected failure caused it: its start, seconds since exec, and words.
        public var cause: String
        public var causeTime: Double
    }

    /// One operation that met a failure, and what became of it.
    public struct Operation: Sendable, Equatable {
        /// The request it was, or nil when no failed attempt of it carried one the run could read.
        public var label: String?
        public var cause: String
        public var failures: [FailedAttempt]
        /// The first request answered whole after its failures, if any.
        public var recoveredBy: WireRequest?
        public var lost: Bool { recoveredBy == nil }
    }

    public let operations: [Operation]

    public var lost: [Operation] { operations.filter(\.lost) }

    /// - Parameters:
    ///   - record: the run's network record (proxy trace, wire requests, conditions, faults).
    ///   - clientFailures: failed attempts FrugalKit's client reported (label, start, end; seconds
    ///     since exec), to name a failed connection the origin read no request on.
    public init(_ record: NetworkRecord, clientFailures: [(label: String, start: Double, end: Double)] = []) {
        let wire = record.requests ?? []
        var unclaimed = clientFailures
        var attempts: [FailedAttempt] = []
        for event in record.trace.events.sorted(by: { $0.time < $1.time }) {
            guard let cause = Self.cause(of: event, in: record) else { continue }
            let onConnection = wire.filter { $0.connection == event.connection }
            if event.kind == .reset, event.request == nil, let done = onConnection.filter(\.completed).compactMap(\.end).max(),
               !onConnection.contains(where: { !$0.completed }),
               !record.trace.chunks.contains(where: { $0.connection == event.connection && $0.direction == .uplink && $0.time > done + 0.001 }) {
                // A kept-alive connection with nothing in flight, cut by going offline: no request
                // failed. (One whose new request the reset cut before forwarding names it: a failure.)
                continue
            }
            // The request the origin read on it, else the one the proxy read on a refused connection
            // before its reset (`ConnectionEvent.request`: the client's first line, plain HTTP).
            var label = onConnection.first { !$0.completed || ($0.end ?? 0) > event.time }?.label ?? event.request
            if let named = label, let index = unclaimed.indices.filter({ unclaimed[$0].label == named }).min(by: {
                abs(unclaimed[$0].end - event.time) < abs(unclaimed[$1].end - event.time)
            }), unclaimed[index].start - 0.05 <= event.time, event.time <= unclaimed[index].end + 0.5 {
                // The client's own report of this attempt: claimed, so it cannot name another
                // (unnamed, it once named the next refused attempt too, and two of an outage's
                // three lost operations read as one operation's retries).
                unclaimed.remove(at: index)
            }
            if label == nil, let index = unclaimed.indices.min(by: {
                abs(unclaimed[$0].end - event.time) < abs(unclaimed[$1].end - event.time)
            }), unclaimed[index].start - 0.05 <= event.time, event.time <= unclaimed[index].end + 0.5 {
                label = unclaimed[index].label
                unclaimed.remove(at: index)
            }
            attempts.append(FailedAttempt(connection: event.connection, time: event.time,
                                          what: event.kind.rawValue + (event.detail.map { " (\($0))" } ?? ""),
                                          label: label, cause: cause.words, causeTime: cause.time))
        }
        let successes = wire.filter { $0.completed && $0.status < 500 }.sorted { $0.start < $1.start }
        var operations: [Operation] = []
        for attempt in attempts {
            // The same operation, met by the same injected failure and not recovered since: a retry.
            if let index = operations.firstIndex(where: { $0.label == attempt.label && $0.cause == attempt.cause && $0.recoveredBy == nil }) {
                operations[index].failures.append(attempt)
            } else {
                operations.append(Operation(label: attempt.label, cause: attempt.cause, failures: [attempt], recoveredBy: nil))
            }
        }
        for index in operations.indices {
            let last = operations[index].failures.map(\.time).max() ?? 0
            let first = operations[index].failures.map(\.time).min() ?? 0
            let label = operations[index].label
            // A retry starts after the failure it answers (the first one: retries met later
            // failures of the same cause and ended in this success or in nothing).
            operations[index].recoveredBy = successes.first { request in
                request.start > first && (label == nil || request.label == label) && (label != nil || request.start > last)
            }
        }
        self.operations = operations
    }

    /// The injected failure behind a connection event, or nil when the event is no failure the
    /// network caused (a normal close, a reset the client sent, the proxy stopping at the end).
    static func cause(of event: ConnectionEvent, in record: NetworkRecord) -> (time: Double, words: String)? {
        let offline = Self.offlinePeriods(record)
        switch event.kind {
        case .refused, .reset:
            let detail = event.detail ?? ""
            if let period = offline.first(where: { $0.start <= event.time + 0.001 && event.time <= $0.end + 0.001 }),
               event.kind == .refused || detail == "offline" {
                return (period.start, "offline from \(DisplayFormat.number(period.start)) s")
            }
            if event.kind == .refused || detail.hasPrefix("fault") || detail.hasPrefix("upstream") {
                if let fault = record.faults.last(where: { $0.time <= event.time + 0.001 }) {
                    return (fault.time, "fault \(fault.kind) at \(DisplayFormat.number(fault.time)) s")
                }
                return (event.time, detail.isEmpty ? event.kind.rawValue : detail)
            }
            return nil
        case .open, .close, .stall:
            return nil
        }
    }

    /// The offline periods, seconds since exec (the last one to the end: `.infinity`).
    static func offlinePeriods(_ record: NetworkRecord) -> [(start: Double, end: Double)] {
        var periods: [(start: Double, end: Double)] = []
        var since: Double?
        for change in record.conditions.sorted(by: { $0.time < $1.time }) {
            if change.profile.isOffline, since == nil { since = change.time }
            if !change.profile.isOffline, let start = since { periods.append((start, change.time)); since = nil }
        }
        if let start = since { periods.append((start, .infinity)) }
        return periods
    }
}
