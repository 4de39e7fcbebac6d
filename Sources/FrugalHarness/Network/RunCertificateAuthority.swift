import CFrugalTLS
import Foundation
import FrugalCore
import FrugalProbe
import Synchronization

/// A certificate authority made for one run, so the run's origin can answer `https://` requests
/// for any host the app names (a `CONNECT host:443` through the proxy) with a certificate the
/// app's TLS client checks like any other. Made with the system's OpenSSL (CFrugalTLS).
///
/// Its private key (and the leaves' key) exist only in this object's memory, in the harness's
/// process: nothing writes them to a file, the app's environment or the report, and they die
/// with the run. What leaves the process is public: the CA's certificate (PEM, for the app's
/// trust bundle; see ``RunTrust``) and its SHA-256 fingerprint (in the report).
///
/// Leaves are made on first use per host (a DNS name, or an IP address SAN for an address) and
/// cached, each with its own TLS server context. They offer ALPN `http/1.1` (the origin speaks
/// HTTP/1.1 only), and carry the extensions strict verifiers demand (SKI, AKI, serverAuth).
///
/// Thread safety: every method may be called from any thread.
public final class RunCertificateAuthority: Sendable {
    /// The CA certificate's subject, RFC 2253 style (`CN=Frugal run CA (...),O=Frugal`).
    public let subject: String
    /// The CA's certificate as PEM (public).
    public let certificatePEM: String
    /// SHA-256 of the CA certificate's DER, lower-case hex: names the CA without its key.
    public let fingerprint: String
    private let certificate: OpenSSLCertificate
    private let key: OpenSSLKey
    /// One key for every leaf of the run: a run's leaves need no separate keys, and a P-256 key
    /// per host would cost a key generation per new host.
    private let leafKey: OpenSSLKey
    /// The server context per host. Leaves are made under this lock too, so the keys are used by
    /// one thread at a time.
    private let contexts = Mutex<[String: TLSServerContext]>([:])
    /// Each handshake with the monotonic time it ended (its `time` is set when the run's clock is known).
    private let handshakes = Mutex<[(at: UInt64, record: TLSHandshakeRecord)]>([])
    /// When the CA was made, seconds since the epoch: its validity and its leaves' start an hour before.
    private let created: Int64

    /// Makes a new CA (a P-256 key and a self-signed certificate valid from an hour ago for a day).
    ///
    /// - Parameter label: put in the CA's common name, so a reader of the trust bundle sees which run it was.
    public init(label: String = "run") throws {
        let now = Int64(Date().timeIntervalSince1970)
        created = now
        key = try OpenSSLKey()
        let commonName = "Frugal run CA (\(label), \(ProcessInfo.processInfo.processIdentifier))"
        guard let ca = frugal_tls_make_ca(key.pointer, "Frugal", commonName, now - 3600, now + 86_400) else {
            throw OpenSSLError.drain("making the run's CA certificate")
        }
        certificate = OpenSSLCertificate(owning: ca)
        certificatePEM = try certificate.pem()
        subject = try certificate.subject()
        fingerprint = try certificate.sha256().map { String(format: "%02x", $0) }.joined()
        leafKey = try OpenSSLKey()
    }

    /// The server context for `host` (a DNS name or an IP address), made and cached on first use.
    func context(forHost host: String) throws -> TLSServerContext {
        let host = Self.normalized(host)
        return try contexts.withLock { contexts in
            if let existing = contexts[host] { return existing }
            let context = try TLSServerContext(leaf: try makeLeaf(host: host), key: leafKey)
            contexts[host] = context
            return context
        }
    }

    /// The leaf certificate for `host`, signed by this CA. Called under `contexts`' lock.
    private func makeLeaf(host: String) throws -> OpenSSLCertificate {
        let commonName = String(host.prefix(64))
        let leaf: OpaquePointer?
        if let address = Self.addressBytes(host) {
            leaf = frugal_tls_make_leaf(certificate.pointer, key.pointer, leafKey.pointer, commonName, nil,
                                        address, address.count, created - 3600, created + 86_400)
        } else {
            leaf = frugal_tls_make_leaf(certificate.pointer, key.pointer, leafKey.pointer, commonName, host,
                                        nil, 0, created - 3600, created + 86_400)
        }
        guard let leaf else { throw OpenSSLError.drain("making a certificate for \(host)") }
        return OpenSSLCertificate(owning: leaf)
    }

    // MARK: Handshakes

    /// Records how a TLS handshake through a `CONNECT` tunnel ended, at monotonic time `at`.
    func record(_ handshake: TLSHandshakeRecord, at time: UInt64) {
        handshakes.withLock { $0.append((time, handshake)) }
    }

    /// Every handshake so far, with `time` in seconds since `origin` (monotonic ns), never negative.
    public func handshakeRecords(since origin: UInt64) -> [TLSHandshakeRecord] {
        handshakes.withLock { $0 }.map { entry in
            var record = entry.record
            record.time = max(0, MonotonicClock.seconds(from: origin, to: entry.at))
            return record
        }
    }

    // MARK: Hosts

    /// `host` without IPv6 brackets, lower-cased (DNS names are case-insensitive).
    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// The address's bytes when `host` is an IPv4 or IPv6 literal, else nil.
    static func addressBytes(_ host: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
