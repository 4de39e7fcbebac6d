/// What the harness's network side saw during one run: the shaping proxy's trace, the origin
/// server's counters, and the conditions and faults the scenario imposed. Times are seconds since
/// exec (the run's clock), like the rest of a `RunRecord`.
public struct NetworkRecord: Codable, Sendable, Equatable {
    /// Where the workload was told to connect (`FRUGAL_PROXY`), `127.0.0.1:PORT`.
    public var proxyAddress: String
    /// The device radio whose model prices the trace.
    public var radio: RadioProfile.Technology
    /// Every chunk and connection event the proxy saw, on the run's clock.
    public var trace: ProxyTrace
    /// Requests and body bytes per path, with their deflated size.
    public var origin: OriginStatistics
    /// The link conditions in force, in order; the first is the one the run started with.
    public var conditions: [NetworkConditionChange]
    /// Faults the scenario injected into the proxy.
    public var faults: [InjectedFault]
    /// Every request the origin read, whatever client sent it, in the order they started; nil in
    /// a record from before the origin logged requests.
    public var requests: [WireRequest]?
    /// What the origin served: `synthetic routes`, `fixtures DIR`, `HAR FILE`, `recording UPSTREAM`.
    public var serving: String?
    /// TCP connections the run's processes held to somewhere other than the proxy (traffic the
    /// proxy never saw); nil when the run's sockets were not watched.
    public var unseenConnections: [UnseenConnection]?
    /// The run's CA and its TLS handshakes (HTTPS through the proxy); nil in records made before
    /// the proxy spoke TLS, or when the run's CA could not be made.
    public var tls: TLSRecord?

    public init(proxyAddress: String, radio: RadioProfile.Technology, trace: ProxyTrace, origin: OriginStatistics,
                conditions: [NetworkConditionChange], faults: [InjectedFault]) {
        self.proxyAddress = proxyAddress
        self.radio = radio
        self.trace = trace
        self.origin = origin
        self.conditions = conditions
        self.faults = faults
    }

    /// The link conditions in force at `time` (seconds since exec).
    public func conditions(at time: Double) -> NetworkProfile? {
        conditions.last { $0.time <= time }?.profile ?? conditions.first?.profile
    }

    /// Requests nothing the run serves matched (answered 404): findings for the report.
    public var unmatchedRequests: [WireRequest] { (requests ?? []).filter { $0.source == .unmatched } }

    /// Whether the scenario injected any failure: a fault or an offline period.
    public var injectedFailures: Bool {
        !faults.isEmpty || conditions.contains { $0.profile.isOffline }
    }
}

/// The link conditions changed (a `network(profile)` step, or the run's start).
public struct NetworkConditionChange: Codable, Sendable, Equatable {
    /// Seconds since exec.
    public var time: Double
    public var profile: NetworkProfile
    public init(time: Double, profile: NetworkProfile) {
        self.time = time
        self.profile = profile
    }
}

/// A fault the scenario injected into the proxy for its next connections (a `fault(kind)` step).
public struct InjectedFault: Codable, Sendable, Equatable {
    /// Seconds since exec.
    public var time: Double
    /// The step's kind (`reset`, `stall`, `refuse`, ...).
    public var kind: String
    /// What the proxy was told, e.g. `resetAfter(bytes: 256, direction: uplink) × 1 connection`.
    public var detail: String
    public init(time: Double, kind: String, detail: String) {
        self.time = time
        self.kind = kind
        self.detail = detail
    }
}

extension RadioProfile {
    /// The built-in profile of `technology`.
    public static func builtIn(_ technology: Technology) -> RadioProfile {
        switch technology {
        case .lte: return .lte
        case .threeG: return .threeG
        case .wifi: return .wifi
        }
    }

    /// The metric source naming this model (`model:lte-huang2012`).
    public static func modelSource(_ technology: Technology) -> String {
        switch technology {
        case .lte: return "model:lte-huang2012"
        case .threeG: return "model:3g-aro"
        case .wifi: return "model:wifi-aro"
        }
    }
}
