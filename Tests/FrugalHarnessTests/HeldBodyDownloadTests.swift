import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

/// `disk.backup-placement`'s downloads for bodies the run served from held bytes (a fixture here;
/// HAR and upstream bodies take the same path): matched by the SHA-256 the origin took as it
/// served them, not by keeping the bodies. Before, only synthetic routes (rebuilt from their path)
/// were matched, so a fixture downloaded into Documents read as the app's own data.
final class HeldBodyDownloadTests: XCTestCase {
    func testAFixtureDownloadedIntoDocumentsIsReCreatable() throws {
        try BlackBoxRunTests.requireContainment()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else { throw XCTSkip("curl is not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-held-body-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("media"), withIntermediateDirectories: true)
        // 12 MiB: past the audit's 10 MiB poor point, so the verdict turns on the match alone.
        try RandomBytes.data(count: 12 << 20).write(to: directory.appendingPathComponent("media/episode.mp3"))
        // Unshaped: on the default LTE link the 12 MiB took 11 s to arrive, and what is judged is
        // which bytes arrived, not when (FixtureRunTests holds a fixture to its link's time).
        let runner = try ScenarioRunnerTests.runner { options in
            options.server = ServerSettings(fixtures: directory.path)
            options.networkProfile = .unshaped
        }
        // The same bytes twice: one as downloaded, one changed by a byte (the app's own data now).
        let script = "mkdir -p \"$HOME/Documents\" && curl -s -S -x http://$FRUGAL_PROXY -o \"$HOME/Documents/episode.mp3\" http://media.example.test/media/episode.mp3"
            + " && cp \"$HOME/Documents/episode.mp3\" \"$HOME/Documents/edited.mp3\" && printf x | dd of=\"$HOME/Documents/edited.mp3\" bs=1 seek=5 conv=notrunc 2>/dev/null"
        let record = try runner.run(RunPlan(target: .command(["sh", "-c", script]), scenario: BlackBoxRunTests.toItsEnd, repetition: 1))
        XCTAssertEqual(record.exitStatus?.code, 0, record.outcomeDetail ?? "")
        let request = try XCTUnwrap(record.network?.requests?.first)
        XCTAssertEqual(request.source, .fixture)
        XCTAssertEqual(request.responseBodyDigest?.hasPrefix("sha256:"), true)
        let files = try XCTUnwrap(record.sandboxFiles)
        XCTAssertEqual(files.first { $0.path == "Documents/episode.mp3" }?.servedAs, "GET media.example.test/media/episode.mp3 (fixture)")
        XCTAssertEqual(files.first { $0.path == "Documents/edited.mp3" }.map { $0.servedAs == nil }, true, "one byte differs")
        let audit = try XCTUnwrap(ReportBuilder.runReport(record).audits["disk.backup-placement"])
        XCTAssertEqual(audit.numericValue, Double(12 << 20), audit.displayValue)
        XCTAssertLessThan(try XCTUnwrap(audit.score), 0.5, audit.displayValue)
    }
}
