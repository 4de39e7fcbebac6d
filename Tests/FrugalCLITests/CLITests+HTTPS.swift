import Foundation
import XCTest

/// HTTPS through a run's proxy, with the real curl as the app: `frugal run -- curl https://...`
/// with no flag telling curl of the proxy or the CA. Skipped where curl is not installed
/// (`scripts/setup.sh --ci` installs it).
extension CLITests {
    /// curl, or nil with the test skipped.
    static func curlPath() throws -> String {
        guard let curl = ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("curl is not installed (apt-get install curl, or scripts/setup.sh --ci): the HTTPS tests run the real client")
        }
        return curl
    }

    /// The 1-minute load average per core (`/proc/loadavg`); 0 when unreadable.
    static func loadPerCore() -> Double {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        let load = Double(text.split(separator: " ").first ?? "") ?? 0
        return load / Double(max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    static func scratch(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-https-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func runReport(_ directory: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("report/report.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let runs = try XCTUnwrap(report["runs"] as? [[String: Any]])
        return try XCTUnwrap(runs.first)
    }

    /// A client that trusts only its own store refuses the run's certificate (an 'unknown CA'
    /// alert), one that pins a key completes the handshake and hangs up: both fail, and the
    /// report says which host and why. Nothing of the run's CA key reaches the report set.
    func testClientsThatRefuseTheRunsCertificateAreFindingsAndTheKeyStaysOut() throws {
        let curl = try Self.curlPath()
        let directory = try Self.scratch("pinning")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.path
        // Its "own store": one CA of the system's bundle, not the run's.
        let system = try String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8)
        let end = try XCTUnwrap(system.range(of: "-----END CERTIFICATE-----"))
        try (String(system[..<end.upperBound]) + "\n").write(toFile: out + "/own-store.pem", atomically: true, encoding: .utf8)
        let pin = "sha256//" + Data(repeating: 7, count: 32).base64EncodedString()
        let script = #""$1" -sS --cacert "$0/own-store.pem" https://own-store.example.test/ping; echo "store $?" > "$0/status"; "#
            + #""$1" -sS --pinnedpubkey "$2" https://pinned.example.test/ping; echo "pinned $?" >> "$0/status""#
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
            .filter { $0.hasPrefix("frugal-sandbox-tls-") }
        let result = try frugal(["run", "--quiet", "--no-history", "--out", out + "/report", "--", "sh", "-c", script, out, curl, pin])
        XCTAssertEqual(result.status, 0, result.stderr)
        let statuses = try String(contentsOfFile: out + "/status", encoding: .utf8)
        XCTAssertTrue(statuses.contains("store 60"), "curl failed on the certificate (60): \(statuses)")
        XCTAssertTrue(statuses.contains("pinned 90"), "curl failed on the pin (90): \(statuses)")

        let run = try Self.runReport(directory)
        let tls = try XCTUnwrap(run["tls"] as? [String: Any])
        let findings = try XCTUnwrap(tls["findings"] as? [String])
        XCTAssertTrue(findings.contains { $0.contains("own-store.example.test:443") && $0.contains("unknown CA") }, "\(findings)")
        XCTAssertTrue(findings.contains { $0.contains("pinned.example.test:443") && $0.contains("pins") }, "\(findings)")
        let summary = try String(contentsOf: directory.appendingPathComponent("report/summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("HTTPS findings") && summary.contains("pinned.example.test"), summary)

        // The report set holds the CA's certificate fingerprint, never a key; the run's trust
        // directory (certificates only) is gone with the run.
        let reportFiles = FileManager.default.enumerator(atPath: out + "/report")?.compactMap { $0 as? String } ?? []
        XCTAssertFalse(reportFiles.isEmpty)
        for file in reportFiles {
            guard let data = FileManager.default.contents(atPath: out + "/report/" + file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            XCTAssertFalse(text.contains("PRIVATE KEY"), "\(file) holds no key")
            XCTAssertFalse(text.contains("BEGIN CERTIFICATE"), "\(file) names the CA by its fingerprint only")
        }
        XCTAssertTrue((tls["certificateAuthority"] as? String)?.contains("sha256:") ?? false)
        // Another lane's runs may hold trust directories of their own meanwhile: only one whose
        // harness (the pid in its name) has ended is left behind.
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
            .filter { $0.hasPrefix("frugal-sandbox-tls-") }
            .filter { name in
                let pid = name.dropFirst("frugal-sandbox-tls-".count).split(separator: "-").first.flatMap { Int32($0) }
                return pid.map { kill($0, 0) != 0 } ?? true
            }
        XCTAssertTrue(after.isSubset(of: before), "the run's trust directory is removed: \(after.subtracting(before))")
    }
}

/// The two HTTPS checks that need the machine gate of scripts/test.sh (the rest of `CLITests`
/// runs in the counted lane, without it): a transfer timed against the 3G link's rate and delay
/// within 3 % (its `frugal run` holds the gate for the whole run), and a fetch by a program the
/// test first compiles, at nice 19.
final class CLIHTTPSMachineTests: XCTestCase {
    /// The body of a 256 KiB `https://` GET arrives whole through the proxy on the 3G link, the
    /// origin served it (`network.transfers`), the handshake is in the report for the host curl
    /// named, and the transfer took the time the link's rate and delay give for the bytes that
    /// crossed it (the TLS records, headers and all) within 3 %. 256 KiB, about 1.5 s on the
    /// link, which the run holds the tests' machine gate for (1 MiB held it 5.5 s for the same check).
    func testCurlFetchesHTTPSThroughTheProxyShapedOnThreeG() throws {
        let curl = try CLITests.curlPath()
        let directory = try CLITests.scratch("curl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.path
        // time_appconnect: TLS done; the rest is the request (one way up) and the response.
        let script = #"env > "$0/env"; "$1" -sS -o "$0/body" -w '%{http_code} %{size_download} %{time_appconnect} %{time_total}' https://api.example.test/bytes/262144 > "$0/curl" 2> "$0/curl.err""#
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--network", "3g", "--out", out + "/report", "--", "sh", "-c", script, out, curl])
        XCTAssertEqual(result.status, 0, result.stderr)
        let environment = try String(contentsOfFile: out + "/env", encoding: .utf8)
        for variable in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "SSL_CERT_FILE", "CURL_CA_BUNDLE"] {
            XCTAssertTrue(environment.contains("\n\(variable)=") || environment.hasPrefix("\(variable)="), "\(variable) is set: \(environment)")
        }
        let curlError = (try? String(contentsOfFile: out + "/curl.err", encoding: .utf8)) ?? ""
        let fields = try String(contentsOfFile: out + "/curl", encoding: .utf8).split(separator: " ").map(String.init)
        XCTAssertEqual(fields.first, "200", "curl: \(fields) \(curlError)")
        XCTAssertEqual(fields.count, 4, "\(fields)")
        let body = try Data(contentsOf: URL(fileURLWithPath: out + "/body"))
        XCTAssertEqual(body.count, 262_144)

        let run = try CLITests.runReport(directory)
        let metrics = try XCTUnwrap(run["metrics"] as? [String: [String: Any]])
        XCTAssertEqual(metrics["network.transfers"]?["value"] as? Double, 1, "the origin served the request inside the tunnel")
        let received = try XCTUnwrap(metrics["network.bytesReceived"]?["value"] as? Double)
        XCTAssertGreaterThan(received, 262_144, "the wire carried the encrypted body and the TLS records around it")
        let tls = try XCTUnwrap(run["tls"] as? [String: Any], "the report has the run's HTTPS")
        let hosts = try XCTUnwrap(tls["hosts"] as? [[String: Any]])
        XCTAssertEqual(hosts.first?["authority"] as? String, "api.example.test:443")
        XCTAssertEqual(hosts.first?["completed"] as? Int, 1)
        XCTAssertEqual((tls["findings"] as? [Any])?.count, 0)

        // 3G: 1.6 Mbit/s down, 75 ms each way. After the handshake: the request up (75 ms), the
        // response's first byte back (75 ms), and every byte after the handshake at the link's rate.
        // Bytes received before time_appconnect (the server's handshake, about 1 KB, 5 ms of the
        // link) are a tenth of the 3 % allowed (45 ms), so all of the run's downlink bytes are counted.
        // Never faster than the link allows (the shaping holds): 3 % under at most. Late is
        // 3 % on a machine with a core to spare; on an overloaded one the proxy's timers and curl
        // run late (measured: −0.2 % at rest, +8–9 % at load 8 on 2 cores), so the bound widens.
        let transfer = try XCTUnwrap(Double(fields[3])) - XCTUnwrap(Double(fields[2]))
        let ideal = 0.150 + received * 8 / 1_600_000
        let load = CLITests.loadPerCore()
        let late = load < 1 ? 0.03 : 0.15
        XCTAssertGreaterThan(transfer, ideal * 0.97, "256 KiB over 3G: \(transfer) s against the ideal \(ideal) s")
        XCTAssertLessThan(transfer, ideal * (1 + late), "256 KiB over 3G: \(transfer) s against the ideal \(ideal) s (load \(load) per core)")
    }

    /// A Swift program that fetches with `URLSession.shared`, unchanged, over `https://`: on Linux
    /// URLSession (libcurl) trusts only the system bundle's path, so this passes only through the
    /// run's private view of that file (root). The request crosses the proxy and the origin serves it.
    func testURLSessionFetchesHTTPSWithNoChange() throws {
        guard geteuid() == 0 else { throw XCTSkip("the private view of the system CA bundle needs root; URLSession reads no variable for a CA on Linux") }
        let swiftc = ["/usr/bin/swiftc"] + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/swiftc" }
        guard let compiler = swiftc.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("swiftc is not on PATH: the test compiles a small URLSession program")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-https-urlsession-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("main.swift")
        try """
        import Foundation
        import FoundationNetworking
        // Prints the status and the body's length, or the error.
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: URL(string: CommandLine.arguments[1])!) { data, response, error in
            if let error { print("error: \\(error)") }
            if let http = response as? HTTPURLResponse { print("status \\(http.statusCode) bytes \\(data?.count ?? -1)") }
            done.signal()
        }.resume()
        done.wait()
        """.write(to: source, atomically: true, encoding: .utf8)
        let program = directory.appendingPathComponent("fetch").path
        // At the lowest priority: in scripts/test.sh this class shares the machine through its
        // gate (FRUGAL_MACHINE_GATE), and the compile, seconds of CPU outside any run, would
        // otherwise crowd the judged steps a neighbour's run holds the gate for (two CPU hogs at
        // nice 19 stretched none of 8 such runs, docs/CI.md).
        let compiled = try CLITests.run(URL(fileURLWithPath: "/usr/bin/nice"), ["-n", "19", compiler, source.path, "-o", program])
        XCTAssertEqual(compiled.status, 0, compiled.stderr)
        let out = directory.path
        let result = try CLITests.frugal(["run", "--quiet", "--no-history", "--out", out + "/report", "--", "sh", "-c", #""$1" https://api.example.test/json/2000 > "$0/fetched""#, out, program])
        XCTAssertEqual(result.status, 0, result.stderr)
        let fetched = try String(contentsOfFile: out + "/fetched", encoding: .utf8)
        XCTAssertEqual(fetched.trimmingCharacters(in: .whitespacesAndNewlines), "status 200 bytes 2000", "URLSession over HTTPS through the run's proxy")
        let data = try Data(contentsOf: directory.appendingPathComponent("report/report.json"))
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try XCTUnwrap((report["runs"] as? [[String: Any]])?.first)
        let metrics = try XCTUnwrap(run["metrics"] as? [String: [String: Any]])
        XCTAssertEqual(metrics["network.transfers"]?["value"] as? Double, 1)
        // URLSession asks for gzip, and the origin honours it: fewer bytes crossed the link than
        // the 2,000 the app decoded, but the TLS records and the compressed body did.
        XCTAssertGreaterThan(metrics["network.bytesReceived"]?["value"] as? Double ?? 0, 500)
    }
}
