import Crypto
import Foundation
import FrugalCore
import FrugalProbe
import NIOSSL
import Synchronization
import SwiftASN1
import X509

/// A certificate authority made for one run, so the run's origin can answer `https://` requests
/// for any host the app names (a `CONNECT host:443` through the proxy) with a certificate the
/// app's TLS client checks like any other.
///
/// Its private key (and the leaves' key) exist only in this object's memory, in the harness's
/// process: nothing writes them to a file, the app's environment or the report, and they die
/// with the run. What leaves the process is public: the CA's certificate (PEM, for the app's
/// trust bundle; see ``RunTrust``) and its SHA-256 fingerprint (in the report).
///
/// Leaves are made on first use per host (a DNS name, or an IP address SAN for an address) and
/// cached, each with its own `NIOSSLContext`. They offer ALPN `http/1.1` (the origin speaks
/// HTTP/1.1 only), and carry the extensions strict verifiers demand (SKI, AKI, serverAuth).
///
/// Thread safety: every method may be called from any thread.
public final class RunCertificateAuthority: Sendable {
    /// The CA's certificate.
    public let certificate: Certificate
    /// The CA's certificate as PEM (public).
    public let certificatePEM: String
    /// SHA-256 of the CA certificate's DER, lower-case hex: names the CA without its key.
    public let fingerprint: String
    private let key: Certificate.PrivateKey
    /// One key for every leaf of the run: a run's leaves need no separate keys, and a P-256 key
    /// per host would cost a key generation per new host.
    private let leafKey: P256.Signing.PrivateKey
    private let leafKeySource: NIOSSLPrivateKey
    private let contexts = Mutex<[String: NIOSSLContext]>([:])
    /// Each handshake with the monotonic time it ended (its `time` is set when the run's clock is known).
    private let handshakes = Mutex<[(at: UInt64, record: TLSHandshakeRecord)]>([])
    private let created: Date

    /// Makes a new CA (a P-256 key and a self-signed certificate valid from an hour ago for a day).
    ///
    /// - Parameter label: put in the CA's common name, so a reader of the trust bundle sees which run it was.
    public init(label: String = "run") throws {
        let caKey = P256.Signing.PrivateKey()
        let now = Date()
        created = now
        key = Certificate.PrivateKey(caKey)
        let name = try DistinguishedName {
            OrganizationName("Frugal")
            CommonName("Frugal run CA (\(label), \(ProcessInfo.processInfo.processIdentifier))")
        }
        let publicKey = Certificate.PublicKey(caKey.publicKey)
        certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now - 3600, notValidAfter: now + 86_400,
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: key
        )
        certificatePEM = try certificate.serializeAsPEM().pemString
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
        leafKey = P256.Signing.PrivateKey()
        leafKeySource = try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem)
    }

    /// The server context for `host` (a DNS name or an IP address), made and cached on first use.
    public func context(forHost host: String) throws -> NIOSSLContext {
        let host = Self.normalized(host)
        if let context = contexts.withLock({ $0[host] }) { return context }
        let leaf = try makeLeaf(host: host)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(leaf)],
                                                                     privateKey: .privateKey(leafKeySource))
        configuration.applicationProtocols = ["http/1.1"]
        let context = try NIOSSLContext(configuration: configuration)
        return contexts.withLock { contexts in
            if let existing = contexts[host] { return existing }
            contexts[host] = context
            return context
        }
    }

    /// The leaf certificate for `host`, signed by this CA (exposed for tests).
    func makeLeaf(host: String) throws -> NIOSSLCertificate {
        let host = Self.normalized(host)
        let name: GeneralName
        if let address = Self.addressBytes(host) {
            name = .ipAddress(ASN1OctetString(contentBytes: ArraySlice(address)))
        } else {
            name = .dnsName(host)
        }
        let publicKey = Certificate.PublicKey(leafKey.publicKey)
        let caKeyIdentifier = try certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: created - 3600, notValidAfter: created + 86_400,
            issuer: certificate.subject,
            subject: try DistinguishedName { CommonName(String(host.prefix(64))) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([name])
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyIdentifier)
            },
            issuerPrivateKey: key
        )
        var serializer = DER.Serializer()
        try serializer.serialize(leaf)
        return try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
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
