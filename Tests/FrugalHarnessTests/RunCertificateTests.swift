import Foundation
import XCTest
@testable import FrugalHarness

/// The run CA's certificates as a TLS client gets them: `openssl s_client` through the proxy's
/// `CONNECT` (the leaf the origin presents, and the ALPN it chose), read and verified with
/// `openssl x509` and `openssl verify`. Skipped where the openssl command is not installed.
final class RunCertificateTests: XCTestCase {
    private var openssl: String!
    private var scratch: URL!

    override func setUpWithError() throws {
        guard let found = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("the openssl command is not installed (apt-get install openssl): these tests read the certificates with it")
        }
        openssl = found
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-certs-\(getpid())-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    /// Runs `openssl arguments` with standard input empty; returns its status and output (both streams).
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// The first certificate in `text`, as PEM.
    private func firstCertificate(_ text: String) throws -> String {
        let begin = try XCTUnwrap(text.range(of: "-----BEGIN CERTIFICATE-----"), text)
        let end = try XCTUnwrap(text.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<text.endIndex), text)
        return String(text[begin.lowerBound..<end.upperBound]) + "\n"
    }

    func testTheCAIsACAAndItsLeavesVerifyForTheirHostOnly() throws {
        let authority = try RunCertificateAuthority(label: "test")
        let origin = OriginServer(certificateAuthority: authority)
        let originPort = try origin.start()
        let proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: originPort)
        try proxy.start()
        defer { proxy.stop(); origin.stop() }
        let ca = scratch.appendingPathComponent("ca.pem")
        try Data(authority.certificatePEM.utf8).write(to: ca)

        // The CA: self-signed, CA:TRUE (path length 0), may sign certificates; its fingerprint is the report's.
        let caText = try run(["x509", "-in", ca.path, "-noout", "-subject", "-fingerprint", "-sha256", "-ext", "basicConstraints,keyUsage"])
        XCTAssertEqual(caText.status, 0, caText.output)
        XCTAssertTrue(caText.output.contains("CA:TRUE, pathlen:0"), caText.output)
        XCTAssertTrue(caText.output.contains("Certificate Sign"), caText.output)
        XCTAssertTrue(caText.output.contains("O = Frugal"), caText.output)
        let fingerprint = caText.output.split(separator: "\n").first { $0.contains("Fingerprint=") }
            .map { $0.split(separator: "=").last.map(String.init) ?? "" }?.replacingOccurrences(of: ":", with: "").lowercased()
        XCTAssertEqual(fingerprint, authority.fingerprint)
        XCTAssertTrue(authority.subject.hasPrefix("CN=Frugal run CA (test"), authority.subject)
        XCTAssertEqual(try run(["verify", "-CAfile", ca.path, ca.path]).status, 0)

        for (host, san) in [("api.example.test", "DNS:api.example.test"), ("10.20.30.40", "IP Address:10.20.30.40"), ("::1", "IP Address:0:0:0:0:0:0:0:1")] {
            let target = host.contains(":") ? "[\(host)]:443" : "\(host):443"
            let client = try run(["s_client", "-proxy", "127.0.0.1:\(proxy.port ?? 0)", "-connect", target, "-alpn", "http/1.1", "-CAfile", ca.path])
            XCTAssertTrue(client.output.contains("ALPN protocol: http/1.1"), client.output)
            XCTAssertTrue(client.output.contains("Verify return code: 0 (ok)"), client.output)
            let leaf = scratch.appendingPathComponent("leaf.pem")
            try Data(firstCertificate(client.output).utf8).write(to: leaf)
            let text = try run(["x509", "-in", leaf.path, "-noout", "-ext", "subjectAltName,basicConstraints,keyUsage,extendedKeyUsage,authorityKeyIdentifier"])
            XCTAssertTrue(text.output.contains(san), text.output)
            XCTAssertTrue(text.output.contains("CA:FALSE"), text.output)
            XCTAssertTrue(text.output.contains("Digital Signature"), text.output)
            XCTAssertTrue(text.output.contains("TLS Web Server Authentication"), text.output)
            let verify = host.contains(".") && !host.first!.isNumber ? ["-verify_hostname", host] : ["-verify_ip", host]
            XCTAssertEqual(try run(["verify", "-CAfile", ca.path, "-purpose", "sslserver"] + verify + [leaf.path]).status, 0, "\(host)'s leaf verifies")
            let other = host.contains(".") && !host.first!.isNumber ? ["-verify_hostname", "other.example.test"] : ["-verify_ip", "10.9.9.9"]
            XCTAssertNotEqual(try run(["verify", "-CAfile", ca.path] + other + [leaf.path]).status, 0, "\(host)'s leaf is for \(host) only")
        }
        // Each client completed its handshake and hung up without a request (it sends none).
        let deadline = Date().addingTimeInterval(10)
        while authority.handshakeRecords(since: 0).count < 3 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(authority.handshakeRecords(since: 0).map(\.outcome), [.closedWithoutRequest, .closedWithoutRequest, .closedWithoutRequest])
    }
}
