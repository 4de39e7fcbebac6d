import Foundation
import XCTest

/// `frugal record` against a local upstream, then `frugal run --har` replaying it: the bodies the
/// client gets are the same bytes, and a request the recording lacks is a finding in summary.md.
extension CLITests {
    /// A static file server on loopback (Python's http.server), with its port; skips without python3.
    static func startUpstream(serving directory: URL) throws -> (Process, Int) {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("python3 is not installed: no local upstream to record from")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 36471 (http://127.0.0.1:36471/) ..."
        var text = ""
        while !text.contains("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: "port "), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw XCTSkip("python3's http.server did not say its port: \(text)")
        }
        return (process, port)
    }

    func testRecordThenReplayGivesTheSameBodiesAndNamesTheRequestNotRecorded() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-record-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let served = root.appendingPathComponent("upstream/v1")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let items = (0..<300).map { #"{"id":\#($0),"name":"item-\#($0)"}"# }.joined(separator: ",")
        let original = Data("{\"items\":[\(items)]}".utf8)
        try original.write(to: served.appendingPathComponent("items.json"))
        let (upstream, port) = try Self.startUpstream(serving: root.appendingPathComponent("upstream"))
        defer { upstream.terminate(); upstream.waitUntilExit() }

        let har = root.appendingPathComponent("api.har").path
        let recorded = root.appendingPathComponent("recorded.json").path
        let fetch = "curl -s -S -x http://$FRUGAL_PROXY -o \(recorded) http://api.example.test/v1/items.json"
        let record = try frugal(["record", "--upstream", "http://127.0.0.1:\(port)", "--to", har,
                                 "--no-history", "--quiet", "--out", root.appendingPathComponent("r1").path, "--", "sh", "-c", fetch])
        XCTAssertEqual(record.status, 0, record.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: har), "the recording was written")
        upstream.terminate()
        upstream.waitUntilExit()

        // Replay with the upstream gone: the HAR alone answers, gzip-encoded as this client asks.
        let replayed = root.appendingPathComponent("replayed.json").path
        let out = root.appendingPathComponent("r2")
        let script = "curl -s -S --compressed -x http://$FRUGAL_PROXY -o \(replayed) http://api.example.test/v1/items.json; "
            + "curl -s -x http://$FRUGAL_PROXY -o /dev/null http://api.example.test/v1/not-recorded"
        let replay = try frugal(["run", "--har", har, "--no-history", "--quiet", "--out", out.path, "--", "sh", "-c", script])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        let first = try Data(contentsOf: URL(fileURLWithPath: recorded))
        let second = try Data(contentsOf: URL(fileURLWithPath: replayed))
        XCTAssertEqual(Self.checksum(first), Self.checksum(Array(original)), "recorded through the proxy unchanged")
        XCTAssertEqual(Self.checksum(second), Self.checksum(Array(original)), "replayed byte for byte")
        let summary = try String(contentsOf: out.appendingPathComponent("summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("had no answer for"), summary)
        XCTAssertTrue(summary.contains("GET api.example.test/v1/not-recorded"), summary)
        XCTAssertFalse(summary.contains("GET api.example.test/v1/items.json:"), "the recorded request matched")
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("1 request the server had no answer for"), "the HTML report lists the finding too")

        let bad = try frugal(["run", "--har", root.appendingPathComponent("missing.har").path, "--no-history", "--quiet",
                              "--out", out.path, "--", "true"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("missing.har"), bad.stderr)
        XCTAssertEqual(bad.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count, 1, bad.stderr)
    }

    /// FNV-1a 64 of a body.
    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
