/// The HTTPS side of a run: the certificate authority the run made (named by its certificate's
/// fingerprint, never its key), how the app was told to trust it, and how each TLS handshake
/// through a `CONNECT` tunnel of the run's proxy ended.
public struct TLSRecord: Codable, Sendable, Equatable {
    /// The CA certificate's subject common name.
    public var certificateAuthority: String
    /// SHA-256 of the CA certificate (DER), lower-case hex.
    public var fingerprint: String
    /// How the run offered its CA to the app, one sentence each (variables set, the private view
    /// of the system bundle, or why that view is unavailable).
    public var trust: [String]
    /// Every handshake, in the order they ended.
    public var handshakes: [TLSHandshakeRecord]

    public init(certificateAuthority: String, fingerprint: String, trust: [String], handshakes: [TLSHandshakeRecord]) {
        self.certificateAuthority = certificateAuthority
        self.fingerprint = fingerprint
        self.trust = trust
        self.handshakes = handshakes
    }
}

/// How one TLS handshake through a `CONNECT` tunnel ended.
public struct TLSHandshakeRecord: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// The handshake completed and the client sent a request.
        case completed
        /// The client rejected the run's certificate with a TLS alert (unknown CA, bad certificate...).
        case refused
        /// The client hung up once it had the certificate, without a TLS alert and without a
        /// request (during the handshake or just after it): most likely a check of its own, a
        /// pinned certificate or key, as curl's `--pinnedpubkey` does.
        case closedWithoutRequest
        /// The handshake failed for another reason (detail says which).
        case failed
    }

    /// Seconds since exec (the run's clock) when the outcome was known.
    public var time: Double
    /// The host the client asked to `CONNECT` to (and the certificate was made for).
    public var host: String
    public var port: Int
    public var outcome: Outcome
    /// The alert or the error, for any outcome but `completed`.
    public var detail: String?

    public init(time: Double, host: String, port: Int, outcome: Outcome, detail: String?) {
        self.time = time
        self.host = host
        self.port = port
        self.outcome = outcome
        self.detail = detail
    }
}

/// The report's view of a run's HTTPS: the CA, how it was offered, per host how the handshakes
/// ended, and a finding for each host whose client refused the run's certificate.
public struct RunTLSSummary: Codable, Sendable, Equatable {
    public struct Host: Codable, Sendable, Equatable {
        /// `host:port` as the client asked for it.
        public var authority: String
        public var completed: Int
        public var refused: Int
        public var closedWithoutRequest: Int
        public var failed: Int
    }

    /// The CA's name and `sha256:` fingerprint.
    public var certificateAuthority: String
    public var trust: [String]
    public var hosts: [Host]
    /// One sentence per host whose client refused the certificate or failed its handshake: what
    /// happened and why (its own trust store, or a pinned certificate).
    public var findings: [String]

    /// Nil when the run had no TLS tunnel (no `https://` request through the proxy).
    public init?(_ record: TLSRecord?) {
        guard let record, !record.handshakes.isEmpty else { return nil }
        certificateAuthority = "\(record.certificateAuthority), sha256:\(record.fingerprint)"
        trust = record.trust
        var order: [String] = []
        var byHost: [String: Host] = [:]
        var details: [String: [TLSHandshakeRecord.Outcome: String]] = [:]
        for handshake in record.handshakes {
            let key = handshake.host.contains(":") ? "[\(handshake.host)]:\(handshake.port)" : "\(handshake.host):\(handshake.port)"
            if byHost[key] == nil {
                order.append(key)
                byHost[key] = Host(authority: key, completed: 0, refused: 0, closedWithoutRequest: 0, failed: 0)
            }
            switch handshake.outcome {
            case .completed: byHost[key]!.completed += 1
            case .refused: byHost[key]!.refused += 1
            case .closedWithoutRequest: byHost[key]!.closedWithoutRequest += 1
            case .failed: byHost[key]!.failed += 1
            }
            if let detail = handshake.detail, details[key]?[handshake.outcome] == nil { details[key, default: [:]][handshake.outcome] = detail }
        }
        hosts = order.compactMap { byHost[$0] }
        findings = hosts.flatMap { host -> [String] in
            let total = host.completed + host.refused + host.closedWithoutRequest + host.failed
            var findings: [String] = []
            if host.refused > 0 {
                findings.append("the client refused the run's certificate for \(host.authority) in \(host.refused) of \(total) TLS handshakes (\(details[host.authority]?[.refused] ?? "a TLS alert")): it trusts its own store or pins a certificate, not the run's CA, so those requests were neither served nor seen")
            }
            if host.closedWithoutRequest > 0 {
                findings.append("the client hung up on \(host.closedWithoutRequest) of \(total) TLS connections for \(host.authority) once it had the run's certificate, with no TLS alert and no request: it most likely pins a certificate or key that the run's certificate does not match, so those requests were neither served nor seen")
            }
            if host.failed > 0 {
                findings.append("\(host.failed) of \(total) TLS handshakes for \(host.authority) failed: \(details[host.authority]?[.failed] ?? "no detail")")
            }
            return findings
        }
    }
}
