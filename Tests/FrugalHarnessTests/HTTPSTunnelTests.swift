import COpenSSL
import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// `CONNECT` through the shaping proxy to the origin, which terminates TLS with a certificate of
/// the run's CA: the real curl as the client (skipped where it is not installed), the real
/// sockets, the system's OpenSSL.
final class HTTPSTunnelTests: XCTestCase {
    private var curl: String!
    private var scratch: URL!

    override func setUpWithError() throws {
        guard let found = ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("curl is not installed (apt-get install curl, or scripts/setup.sh --ci): these tests run the real client")
        }
        curl = found
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-https-unit-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    /// Runs curl with `arguments`; returns its exit status and standard output.
    private func runCurl(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["-sS", "--max-time", "30"] + arguments
        // The test process's own proxy variables must not steer curl: only the flags do.
        process.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    /// An origin with `authority` behind an unshaped proxy; returns both, started.
    private func servers(_ authority: RunCertificateAuthority) throws -> (OriginServer, ShapingProxy) {
        let origin = OriginServer(certificateAuthority: authority)
        let originPort = try origin.start()
        let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: originPort)
        try proxy.start()
        return (origin, proxy)
    }

    func testCurlGetsTheBodyThroughATunnelForANameAndAnAddress() throws {
        let authority = try RunCertificateAuthority(label: "test")
        let (origin, proxy) = try servers(authority)
        defer { proxy.stop(); origin.stop() }
        let ca = scratch.appendingPathComponent("ca.pem")
        try Data(authority.certificatePEM.utf8).write(to: ca)
        let proxyURL = "http://127.0.0.1:\(proxy.port ?? 0)"

        let named = try runCurl(["--proxy", proxyURL, "--cacert", ca.path, "https://API.example.test/json/200"])
        XCTAssertEqual(named.status, 0, named.error)
        XCTAssertEqual(named.output.utf8.count, 200)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(named.output.utf8)))
        // An address: no SNI, the certificate carries an IP address SAN.
        let address = try runCurl(["--proxy", proxyURL, "--cacert", ca.path, "https://10.20.30.40:8443/ping"])
        XCTAssertEqual(address.status, 0, address.error)
        XCTAssertEqual(address.output, "pong")
        // Plain requests on the same origin still work (the tunnel handler steps aside).
        let plain = try runCurl(["http://127.0.0.1:\(origin.port ?? 0)/ping"])
        XCTAssertEqual(plain.output, "pong", plain.error)

        XCTAssertEqual(origin.statistics().paths["/json/200"]?.requests, 1)
        XCTAssertEqual(origin.statistics().paths["/ping"]?.requests, 2)
        let handshakes = authority.handshakeRecords(since: 0)
        XCTAssertEqual(handshakes.map(\.outcome), [.completed, .completed])
        XCTAssertEqual(handshakes.map(\.host), ["api.example.test", "10.20.30.40"])
        XCTAssertEqual(handshakes.map(\.port), [443, 8443])
        // The proxy saw the encrypted bytes: more than the JSON body, and none of it in clear.
        XCTAssertGreaterThan(proxy.trace().totalBytes(.downlink), 200 + 400)
    }

    func testAClientWithoutTheCAIsRecordedAsRefusingIt() throws {
        let authority = try RunCertificateAuthority(label: "test")
        let (origin, proxy) = try servers(authority)
        defer { proxy.stop(); origin.stop() }
        // curl with the system's store only: the run's CA is unknown to it.
        let refused = try runCurl(["--proxy", "http://127.0.0.1:\(proxy.port ?? 0)", "https://refuses.example.test/ping"])
        XCTAssertEqual(refused.status, 60, "certificate problem: \(refused.error)")
        XCTAssertTrue(eventually { authority.handshakeRecords(since: 0).count == 1 })
        let handshake = try XCTUnwrap(authority.handshakeRecords(since: 0).first)
        XCTAssertEqual(handshake.outcome, .refused, handshake.detail ?? "")
        XCTAssertEqual(handshake.detail, "the client sent the TLS alert 'unknown CA'")
        XCTAssertEqual(origin.statistics().paths["/ping"]?.requests ?? 0, 0)
    }

    func testMalformedConnectIsAnsweredAndClosed() throws {
        XCTAssertEqual(ConnectTunnelHandler.hostAndPort("example.test:443")?.host, "example.test")
        XCTAssertEqual(ConnectTunnelHandler.hostAndPort("[::1]:8443")?.host, "::1")
        XCTAssertEqual(ConnectTunnelHandler.hostAndPort("[::1]:8443")?.port, 8443)
        XCTAssertNil(ConnectTunnelHandler.hostAndPort("example.test"))
        XCTAssertNil(ConnectTunnelHandler.hostAndPort("example.test:0"))
        XCTAssertNil(ConnectTunnelHandler.hostAndPort(":443"))
        let authority = try RunCertificateAuthority(label: "test")
        let origin = OriginServer(certificateAuthority: authority)
        let port = try origin.start()
        defer { origin.stop() }
        let socket = try BlockingSocket(port: port, timeout: 5)
        try socket.send("CONNECT nonsense HTTP/1.1\r\n\r\n")
        XCTAssertEqual(String(decoding: try socket.receive(), as: UTF8.self).prefix(12), "HTTP/1.1 400")
        XCTAssertEqual(socket.drain().ending, .eof, "closed after the answer")
    }

    /// The CA's key is nowhere but in the harness's memory: not in the trust files the app is
    /// given, not in the run's record (which the report is made from).
    func testTheCAKeyLeavesNoTraceInTheTrustFilesOrTheRecord() throws {
        let network = try RunNetwork(profile: .unshaped, radio: .lte, trustDirectory: scratch)
        let authority = try XCTUnwrap(network.certificateAuthority)
        let trust = try XCTUnwrap(network.trust)
        let key = try XCTUnwrap(Mirror(reflecting: authority).children.first { $0.label == "key" }?.value as? OpenSSLKey)
        let keyPEM = try Self.privateKeyPEM(key)
        let keyBody = keyPEM.split(separator: "\n").dropFirst().dropLast().joined()
        XCTAssertGreaterThan(keyBody.count, 40)

        let environment = network.environment
        XCTAssertEqual(environment["https_proxy"], "http://" + network.address)
        XCTAssertEqual(environment["SSL_CERT_FILE"], trust.bundle.path)
        let bundle = try String(contentsOf: trust.bundle, encoding: .utf8)
        XCTAssertTrue(bundle.hasSuffix(authority.certificatePEM), "the bundle ends with the run's CA")
        let result = try runCurl(["--proxy", environment["https_proxy"]!, "--cacert", trust.certificate.path, "https://api.example.test/bytes/64"])
        XCTAssertEqual(result.status, 0, result.error)

        for file in try FileManager.default.contentsOfDirectory(atPath: trust.directory.path) {
            let text = try String(contentsOf: trust.directory.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains("PRIVATE KEY") || text.contains(keyBody), "\(file) holds no key")
        }
        let record = network.finish(spawnTime: MonotonicClock.now())
        XCTAssertFalse(FileManager.default.fileExists(atPath: trust.directory.path), "the trust directory ends with the run")
        let tls = try XCTUnwrap(record.tls)
        XCTAssertEqual(tls.handshakes.map(\.outcome), [.completed])
        XCTAssertEqual(tls.fingerprint, authority.fingerprint)
        let json = String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
        XCTAssertFalse(json.contains("PRIVATE KEY") || json.contains(keyBody))
        XCTAssertFalse(json.contains(String(keyBody.prefix(40))))
    }

    /// A program of a run reads the run's bundle at the system bundle's path (one certificate
    /// more than the host's file), while the host's file is the same before and after; a built-in
    /// workload's run has no CA.
    func testAProgramSeesTheRunsBundleInPlaceOfTheSystemsAndTheHostKeepsItsOwn() throws {
        if let unavailable = RunTrust.privateViewUnavailable {
            throw XCTSkip("no private view of a file on this machine: \(unavailable)")
        }
        let system = try XCTUnwrap(RunTrust.systemBundleCandidates.first { FileManager.default.isReadableFile(atPath: $0) })
        let before = try Data(contentsOf: URL(fileURLWithPath: system))
        let hostCount = String(decoding: before, as: UTF8.self).components(separatedBy: "BEGIN CERTIFICATE").count - 1
        let out = scratch.appendingPathComponent("count").path
        let script = #"grep -c "BEGIN CERTIFICATE" "$0" > "$1""#
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", script, system, out]),
                                                                  scenario: ScenarioRunnerTests.short, repetition: 1))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        let seen = try String(contentsOfFile: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(Int(seen), hostCount + 1, "the program sees the system's CAs and the run's")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: system)), before, "the host's bundle is untouched")
        let trust = try XCTUnwrap(record.network?.tls?.trust)
        XCTAssertTrue(trust.contains { $0.contains("mount namespace of their own") }, "\(trust)")

        // A built-in workload that fetches through the proxy: the pair tests' run of news.polling
        // (``ScheduledRuns/pairs``), not one more run.
        let builtIn = try ScheduledRuns.pairs.record("news.polling")
        XCTAssertNotNil(builtIn.network)
        XCTAssertNil(builtIn.network?.tls, "a built-in workload speaks plain HTTP: no CA")
    }

    /// The key as PEM, made here (the harness has no code that writes a key out).
    private static func privateKeyPEM(_ key: OpenSSLKey) throws -> String {
        let bio = try XCTUnwrap(BIO_new(BIO_s_mem()))
        defer { BIO_free(bio) }
        XCTAssertEqual(PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil), 1)
        var data: UnsafeMutablePointer<CChar>?
        let length = frugal_bio_mem_data(bio, &data)
        return String(decoding: UnsafeRawBufferPointer(start: try XCTUnwrap(data), count: length), as: UTF8.self)
    }

    private func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
