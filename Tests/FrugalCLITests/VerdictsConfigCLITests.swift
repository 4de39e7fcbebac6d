import Foundation
import XCTest

/// `frugal verdicts --config frugal.yml`: the file's `verdict:`s are the pairs. Two real programs
/// run as black boxes: a quiet one (good) and a shell loop waking 20 times a second (bad on
/// `power.avoid-polling`); the matrix is clean, and the same report judged against a file that
/// calls the poller good has a false alarm (exit 2).
/// The poller has no display (`DISPLAY` and `WAYLAND_DISPLAY` set empty, whatever the session
/// running the test has), so its main thread at a frame rate is charged as polling, not read as
/// drawing: read as drawing, only its stray wakeups were charged, and on a loaded CI machine they
/// were too few to state a rate once (the audit not applicable, the pair not separated).
final class VerdictsConfigCLITests: XCTestCase {
    func testVerdictsJudgeTheFilesOwnPairs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-verdicts-config-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let apps = """
        apps:
          - {name: quiet, kind: program, executable: /bin/sh, arguments: [-c, 'exec sleep 30'], scenarios: [short], VERDICT_QUIET}
          - {name: poller, kind: program, executable: /bin/sh, arguments: [-c, 'while :; do sleep 0.05; done'], scenarios: [short], environment: {DISPLAY: '', WAYLAND_DISPLAY: ''}, VERDICT_POLLER}
        scenarios:
          short: {steps: [launch, {wait: 3}, terminate]}
        """
        let config = directory.appendingPathComponent("frugal.yml")
        try apps.replacingOccurrences(of: "VERDICT_QUIET", with: "verdict: good")
            .replacingOccurrences(of: "VERDICT_POLLER", with: "verdict: {fails: power.avoid-polling, twin: quiet}")
            .write(to: config, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("out")
        let run = try CLITests.frugal(["run", "--config", config.path, "--no-history", "--quiet", "--out", out.path])
        XCTAssertTrue([0, 2].contains(run.status), run.stderr)
        let report = out.appendingPathComponent("report.json").path
        let verdicts = try CLITests.frugal(["verdicts", "--config", config.path, report])
        XCTAssertEqual(verdicts.status, 0, verdicts.stdout + verdicts.stderr)
        XCTAssertTrue(verdicts.stdout.contains("bad  poller"), verdicts.stdout)
        XCTAssertTrue(verdicts.stdout.contains("good quiet"), verdicts.stdout)
        let reportText = try String(contentsOfFile: report, encoding: .utf8)
        XCTAssertTrue(reportText.contains("named no display server"), "the poller's frame-rate wakeups are charged, and the evidence says why")
        XCTAssertFalse(verdicts.stdout.contains("news.coalesced"), "the built-in pairs are not asked for: \(verdicts.stdout)")

        // The same report, with the poller called good: a false alarm.
        let wrong = directory.appendingPathComponent("wrong.yml")
        try apps.replacingOccurrences(of: "VERDICT_QUIET", with: "verdict: good")
            .replacingOccurrences(of: "VERDICT_POLLER", with: "verdict: good")
            .write(to: wrong, atomically: true, encoding: .utf8)
        let alarmed = try CLITests.frugal(["verdicts", "--config", wrong.path, report])
        XCTAssertEqual(alarmed.status, 2, alarmed.stdout)
        XCTAssertTrue(alarmed.stdout.contains("false alarms (good workload below 0.90 on an audit): 1"), alarmed.stdout)

        // A file that judges nothing is one line, exit 1.
        let none = directory.appendingPathComponent("none.yml")
        try apps.replacingOccurrences(of: ", VERDICT_QUIET", with: "").replacingOccurrences(of: ", VERDICT_POLLER", with: "")
            .write(to: none, atomically: true, encoding: .utf8)
        let nothing = try CLITests.frugal(["verdicts", "--config", none.path, report])
        XCTAssertEqual(nothing.status, 1, nothing.stdout)
        XCTAssertTrue(nothing.stderr.contains("gives no app a verdict"), nothing.stderr)
    }
}
