import Foundation
import XCTest
@testable import FrugalHarness
@testable import FrugalCore

/// A black box's start-up is told apart from its idle time (issue 30): its launch step ends at the
/// spawn, so before this the loading a program does in its first wait step counted as idle
/// wakeups. Real programs (CPython, which nobody here wrote, run as a black box): one whose
/// start-up has a loader thread wait in 300 short steps (about 2 ms each, like a client waiting
/// on a slow peer in small reads) while the main thread joins it, and then waits for events; one
/// that polls once a second from its start.
final class ProgramStartupTests: XCTestCase {
    /// 4 s: after a start-up of about 0.7 s, more idle time than the 2.5 s power.avoid-polling needs to state a rate of one wakeup or more.
    static let scenario = Scenario(name: "startup", summary: "launch, 4 s, terminate", steps: [.launch, .wait(seconds: 4), .terminate])

    /// A loader thread that sleeps 2 ms, 300 times (~0.7 s: a few percent of a CPU, so not
    /// "computing"), joined by the main thread; then one long wait in `select`. The loader is not
    /// the main thread, so its 400 wakeups a second are not read as drawing either.
    static let starter = "import time, select, threading\ndef load():\n    for _ in range(300):\n        time.sleep(0.002)\nloader = threading.Thread(target=load)\nloader.start()\nloader.join()\nselect.select([], [], [], 60)\n"
    /// A check once a second, forever.
    static let poller = "import time\nwhile True:\n    time.sleep(1)\n    sum(range(1000))\n"

    func run(_ script: String) throws -> RunRecord {
        try BlackBoxRunTests.requireContainment()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("/usr/bin/python3 is not installed") }
        // Light: the programs sleep (a start-up of 2 ms sleeps, then select; or a check a second),
        // and what is read is wakeup counts and a start-up's end against wide bounds (2.5 s for
        // about 0.7 s; 1 s for an interpreter's start of a tenth of one); holding the machine
        // whole, the two runs held it 8.4 s.
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["/usr/bin/python3", "-c", script]),
                                                                  scenario: Self.scenario, repetition: 1).demanding(.light))
        XCTAssertNotNil(record.outsideWatch, record.outcomeDetail ?? "")
        return record
    }

    func testAStartUpThatWaitsInShortStepsIsNotIdleAndItsEndIsTheFirstSustainedWait() throws {
        let record = try run(Self.starter)
        let startup = try XCTUnwrap(record.outsideWatch?.startups?.first)
        let end = try XCTUnwrap(startup.end, startup.reason)
        let seconds = Double(end - startup.start) / 1e9
        // 300 sleeps of 2 ms are 0.6 s at least; 2.5 s is far past the ~0.7 s it takes, for a loaded machine.
        XCTAssertGreaterThanOrEqual(seconds, 0.6, startup.reason)
        XCTAssertLessThan(seconds, 2.5, startup.reason)
        let report = ReportBuilder.runReport(record)
        let audit = try XCTUnwrap(report.audits["power.avoid-polling"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(audit.score, audit.displayValue), 0.9,
                                    audit.displayValue + "\n" + audit.evidence.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(audit.evidence.contains { $0.description.hasPrefix("start-up (not idle)") && $0.description.contains("first sustained wait") },
                      audit.evidence.map(\.description).joined(separator: "\n"))
        // The cause: the same record without the judgement charges the start-up's ~300 wakeups as idle.
        var unjudged = record
        unjudged.outsideWatch?.startups = nil
        let unjudgedAccounts = RunAnalysis(unjudged).idleAccounts
        let before = unjudgedAccounts.reduce(0) { $0 + $1.idleWakeups }
        let after = RunAnalysis(record).idleAccounts.reduce(0) { $0 + $1.idleWakeups }
        XCTAssertLessThanOrEqual(after, before)
        // On a loaded machine the loader thread is often runnable (state R) when sampled, so the
        // slices are "computing" even without the judgement (CI at 5e1d590: 0.78 s of the 0.73 s
        // start-up, 0 idle wakeups before). The judgement's own effect shows only where the
        // start-up was otherwise counted idle, so the contrast is checked there.
        let computing = unjudgedAccounts.reduce(0) { $0 + ($1.excludedSeconds[.computing] ?? 0) }
        if computing < seconds / 2 {
            XCTAssertGreaterThan(before, after + 50, "start-up wakeups were idle wakeups before: \(unjudgedAccounts.map { ($0.idleWakeups, $0.idleSeconds, $0.excludedSeconds) }) (\(startup.reason))")
        } else {
            print("ProgramStartupTests: contrast not checked: without the judgement \(computing) s of the \(seconds) s start-up was already 'computing' (a loaded machine: the loader sampled runnable)")
        }
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
