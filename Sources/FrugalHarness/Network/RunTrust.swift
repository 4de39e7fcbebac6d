import CFrugalSystem
import Foundation
import FrugalCore
import FrugalProbe

/// How a run's app is told to trust the run's CA (``RunCertificateAuthority``), in every way a
/// Linux TLS client learns of one, checked against the real clients (docs/NETWORK.md):
///
/// - `CURL_CA_BUNDLE` and `SSL_CERT_FILE` name a bundle of the system's CAs plus the run's: the
///   curl command line reads the first (curl 7.88 ignores the second), OpenSSL's default paths
///   the second (Python's `ssl`, `openssl s_client`).
/// - `URLSessionCertificateAuthorityInfoFile` names it too, but swift-corelibs-foundation reads
///   it on Android only; on Linux, `URLSession` goes through libcurl with Debian's compiled-in
///   bundle path and no variable changes it.
/// - So the app's processes also get a private view of the system bundle: in a mount namespace
///   of their own, the run's bundle is bind-mounted (read-only) over the system's file, which
///   libcurl (`URLSession`), OpenSSL's defaults and swift-nio-ssl all read. The host's file and
///   every other process's view are untouched. It needs CAP_SYS_ADMIN (root); without it the
///   trust notes say so, and a client that reads only the system bundle refuses the run's
///   certificate, which the report then names as a finding.
///
/// The files are public (certificates only; the keys never leave ``RunCertificateAuthority``)
/// and live in a directory beside the run's sandbox, named like one so a dead harness's is
/// swept with them (``HarnessLeftovers``); ``remove()`` deletes it when the run ends.
final class RunTrust: Sendable {
    /// Where Linux distributions keep the system's CA bundle, most common first.
    static let systemBundleCandidates = [
        "/etc/ssl/certs/ca-certificates.crt",  // Debian, Ubuntu, Alpine, Arch
        "/etc/pki/tls/certs/ca-bundle.crt",  // Fedora, RHEL
        "/etc/ssl/ca-bundle.pem",  // openSUSE
        "/etc/ssl/cert.pem",
    ]

    /// The directory holding the run's files.
    let directory: URL
    /// The system bundle plus the run's CA.
    let bundle: URL
    /// The run's CA certificate alone.
    let certificate: URL
    /// The bind mount that gives the app's processes the bundle in place of the system's, when possible.
    let privateFile: PrivateFile?
    /// How the CA was offered, one sentence each (the report's `tls.trust`).
    let notes: [String]

    /// Writes the bundle for `authority` in a new directory under `parent`.
    init(authority: RunCertificateAuthority, parent: URL) throws {
        directory = parent.appendingPathComponent("frugal-sandbox-tls-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificate = directory.appendingPathComponent("run-ca.pem")
        bundle = directory.appendingPathComponent("ca-bundle.pem")
        let system = Self.systemBundleCandidates.first { FileManager.default.isReadableFile(atPath: $0) }
        var contents = system.flatMap { try? Self.contents($0) } ?? []
        if let last = contents.last, last != 0x0A { contents.append(0x0A) }
        let pem = Array(authority.certificatePEM.utf8)
        contents += pem
        do {
            try Self.write(pem, to: certificate.path)
            try Self.write(contents, to: bundle.path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        var notes = ["SSL_CERT_FILE, CURL_CA_BUNDLE and URLSessionCertificateAuthorityInfoFile name a bundle of "
            + (system.map { "the system's CAs (\($0))" } ?? "no system CAs (none found)")
            + " and the run's CA (curl reads CURL_CA_BUNDLE, OpenSSL's default paths SSL_CERT_FILE; URLSession on Linux neither)"]
        if let system {
            if let unavailable = Self.privateViewUnavailable {
                privateFile = nil
                notes.append("no private view of \(system) for the app (\(unavailable)): a client that reads only the system bundle (URLSession through libcurl, swift-nio-ssl) refuses the run's certificate")
            } else {
                privateFile = PrivateFile(source: bundle.path, target: system)
                notes.append("the app's processes see that bundle at \(system), in a mount namespace of their own (the host's file is unchanged): URLSession (libcurl's compiled-in path), OpenSSL's defaults and swift-nio-ssl read it there")
            }
        } else {
            privateFile = nil
        }
        self.notes = notes
    }

    /// The whole file at `path`.
    private static func contents(_ path: String) throws -> [UInt8] {
        let file = try PosixFile.open(path, O_RDONLY)
        defer { file.close() }
        return try file.read(count: file.size(), at: 0)
    }

    /// Writes `bytes` to a new file at `path`, without `Data.write`'s fsync: the files live as
    /// long as the run (the probe's a moment) and are removed with it, so waiting for storage
    /// buys nothing; the four writes with their fsyncs were about half of the trust's CPU in a
    /// `perf record` of `frugal run -- /bin/true`.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try PosixFile.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL)
        defer { file.close() }
        try bytes.withUnsafeBytes { try file.write($0, at: 0) }
    }

    /// The variables that point TLS clients at the bundle.
    var environment: [String: String] {
        ["SSL_CERT_FILE": bundle.path, "CURL_CA_BUNDLE": bundle.path, "URLSessionCertificateAuthorityInfoFile": bundle.path]
    }

    /// Deletes the directory. Idempotent.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Why a private view of a file cannot be given to a child on this machine, or nil when it can:
    /// found once per process by doing it (a `/bin/true` spawned with a scratch file over another).
    static let privateViewUnavailable: String? = probePrivateView()

    private static func probePrivateView() -> String? {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-private-view-\(getpid())-\(UUID().uuidString.prefix(8))")
        let source = scratch.path + ".source", target = scratch.path + ".target"
        defer {
            unlink(source)
            unlink(target)
        }
        guard (try? write(Array("a".utf8), to: source)) != nil, (try? write(Array("b".utf8), to: target)) != nil else {
            return "could not write a scratch file in \(FileManager.default.temporaryDirectory.path)"
        }
        let program = ["/bin/true", "/usr/bin/true"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/bin/true"
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var failedCall: UnsafePointer<CChar>?
        let status = frugal_spawn_with_private_file(&pid, program, nil, nil, argv, envp, source, target, &failedCall)
        guard status == 0 else {
            let error = SystemCallError(call: failedCall.map { String(cString: $0) } ?? "posix_spawn", errno: status)
            return error.errno == EPERM ? "\(error); it needs CAP_SYS_ADMIN (run as root)" : error.description
        }
        var exitStatus: Int32 = 0
        _ = try? SystemCall.retrying("waitpid", subject: String(pid)) { waitpid(pid, &exitStatus, 0) }
        return nil
    }
}
