import Foundation
import XCTest
@testable import FrugalHarness
@testable import FrugalCore

/// A black box's start-up is told apart from its idle time (issue 30): its launch step ends at the
/// spawn, so before this the loading a program does in its first wait step counted as idle
/// wakeups. Real programs (CPython, which nobody here wrote, run as a black box): one whose
/// start-up waits in 150 short steps (about 2 ms each, like a client waiting on a slow peer in
/// small reads) and then waits for events; one that polls once a second from its start.
final class ProgramStartupTests: XCTestCase {
    static let scenario = Scenario(name: "startup", summary: "launch, 3 s, terminate", steps: [.launch, .wait(seconds: 3), .terminate])

    /// A little CPU and a short sleep, 150 times (~0.4 s), then one long wait in `select`.
    static let starter = "import time, select\nfor _ in range(150):\n    end = time.process_time() + 0.0005\n    while time.process_time() < end: pass\n    time.sleep(0.002)\nselect.select([], [], [], 60)\n"
    /// A check once a second, forever.
    static let poller = "import time\nwhile True:\n    time.sleep(1)\n    sum(range(1000))\n"

    func run(_ script: String) throws -> RunRecord {
        try BlackBoxRunTests.requireContainment()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("/usr/bin/python3 is not installed") }
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["/usr/bin/python3", "-c", script]),
                                                                  scenario: Self.scenario, repetition: 1))
        XCTAssertNotNil(record.outsideWatch, record.outcomeDetail ?? "")
        return record
    }

    func testAStartUpThatWaitsInShortStepsIsNotIdleAndItsEndIsTheFirstSustainedWait() throws {
        let record = try run(Self.starter)
        let startup = try XCTUnwrap(record.outsideWatch?.startups?.first)
        let end = try XCTUnwrap(startup.end, startup.reason)
        let seconds = Double(end - startup.start) / 1e9
        // 150 sleeps of 2 ms are 0.3 s at least; 2.5 s is far past the ~0.5 s it takes, for a loaded machine.
        XCTAssertGreaterThanOrEqual(seconds, 0.3, startup.reason)
        XCTAssertLessThan(seconds, 2.5, startup.reason)
        let report = ReportBuilder.runReport(record)
        let audit = try XCTUnwrap(report.audits["power.avoid-polling"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score, audit.displayValue), 0.9,
                                    audit.displayValue + "\n" + audit.evidence.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(audit.evidence.contains { $0.description.hasPrefix("start-up (not idle)") && $0.description.contains("first sustained wait") },
                      audit.evidence.map(\.description).joined(separator: "\n"))
        // The cause: the same record without the judgement charges the start-up's ~150 wakeups as idle.
        var unjudged = record
        unjudged.outsideWatch?.startups = nil
        let before = RunAnalysis(unjudged).idleAccounts.reduce(0) { $0 + $1.idleWakeups }
        let after = RunAnalysis(record).idleAccounts.reduce(0) { $0 + $1.idleWakeups }
        XCTAssertGreaterThan(before, after, "start-up wakeups were idle wakeups before")
    }

    func testAPollerFromItsStartIsStillCaught() throws {
        let record = try run(Self.poller)
        let startup = try XCTUnwrap(record.outsideWatch?.startups?.first)
        let end = try XCTUnwrap(startup.end, startup.reason)
        // Its first one-second sleep ends the start-up: the interpreter starts in well under 1 s.
        XCTAssertLessThan(Double(end - startup.start) / 1e9, 1.0, startup.reason)
        let audit = try XCTUnwrap(ReportBuilder.runReport(record).audits["power.avoid-polling"])
        XCTAssertLessThan(try XCTUnwrap(audit.score, audit.displayValue), 0.5, audit.displayValue)
    }
}
