import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline
import FrugalReport
import XCTest

/// The suite as a library, called without the CLI: what `frugal run` is over, and what a test
/// or another tool can call.
final class SuitePipelineTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-pipeline-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    func testPlannerNamesAnUnknownWorkloadAndScenario() {
        var selection = SuiteSelection()
        selection.workloads = ["no.such.workload"]
        XCTAssertThrowsError(try SuitePlanner.plans(selection, project: nil)) { error in
            let failure = error as? PipelineFailure
            XCTAssertEqual(failure?.kind, .badInput)
            XCTAssertTrue(failure?.message.contains("unknown workload 'no.such.workload'") == true, failure?.message ?? "\(error)")
        }
        selection.workloads = []
        selection.scenarios = ["no-such-scenario"]
        XCTAssertThrowsError(try SuitePlanner.plans(selection, project: nil)) { error in
            XCTAssertTrue((error as? PipelineFailure)?.message.contains("unknown scenario 'no-such-scenario'") == true, "\(error)")
        }
    }

    func testDefaultSuitePlansRepeatAndShardIntoAPartition() throws {
        var selection = SuiteSelection()
        selection.repetitions = 2
        let plans = try SuitePlanner.plans(selection, project: nil)
        XCTAssertFalse(plans.isEmpty)
        XCTAssertEqual(plans.filter { $0.repetition == 1 }.count * 2, plans.count, "each workload · scenario twice")
        let first = SuitePlanner.shard(plans, ShardInfo(index: 1, count: 2))
        let second = SuitePlanner.shard(plans, ShardInfo(index: 2, count: 2))
        XCTAssertEqual(first.plans.count + second.plans.count, plans.count, "two shards cover the suite once")
        XCTAssertFalse(first.plans.isEmpty)
        XCTAssertFalse(second.plans.isEmpty)
        XCTAssertNotNil(first.shard.suite)
        XCTAssertEqual(first.shard.suite, second.shard.suite, "both shards name the same suite")
        let keys = { (plans: [RunPlan]) in Set(plans.map { "\($0.workloadName)/\($0.scenario.name)" }) }
        XCTAssertTrue(keys(first.plans).isDisjoint(with: keys(second.plans)), "a workload · scenario stays in one shard with all its repetitions")
    }

    func testCommandPlansRefuseAMissingProgram() {
        var selection = SuiteSelection()
        selection.command = ["/no/such/program"]
        XCTAssertThrowsError(try SuitePlanner.plans(selection, project: nil)) { error in
            XCTAssertTrue((error as? PipelineFailure)?.message.contains("command not found: /no/such/program") == true, "\(error)")
        }
    }

    /// A program run end to end through the library: its report set is written and the report
    /// holds its run, as `frugal run -- sh -c …` would write it.
    func testRunsAProgramIntoAReportSet() throws {
        var selection = SuiteSelection()
        selection.command = ["/bin/sh", "-c", "sleep 0.2"]
        let plans = try SuitePlanner.plans(selection, project: nil)
        XCTAssertEqual(plans.count, 1)
        let out = scratch.appendingPathComponent("out")
        let options = HarnessOptions(workloadHost: try SuitePipeline.workloadHost(for: plans), commandTimeout: 30)
        var request = SuiteRequest(plans: plans, options: options, out: out, toolVersion: "test")
        request.trace = false
        let seen = EventLog()
        let outcome = try SuitePipeline.run(request) { seen.add($0) }
        XCTAssertNil(outcome.harnessFailure)
        XCTAssertNil(outcome.interrupted)
        XCTAssertEqual(outcome.runCount, 1)
        XCTAssertEqual(outcome.report.runs.count, 1)
        XCTAssertEqual(outcome.report.runs.first?.outcome, .completed)
        let names = Set(outcome.files.map(\.lastPathComponent))
        XCTAssertTrue(names.isSuperset(of: ["report.json", "evidence.json"]), "\(names)")
        for file in outcome.files { XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), file.path) }
        // What was written is what was returned: the report set is the outcome's report.
        let written = try JSONDecoder().decode(Report.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
        XCTAssertEqual(written.runs.map(\.workload), outcome.report.runs.map(\.workload))
        XCTAssertEqual(seen.kinds, ["starting", "finished", "runsEnded"])

        // Gather once, audit many: the recorded evidence makes the same report again, the one
        // way the run made it (what `frugal reaudit` does), without running anything.
        let evidence = try EvidenceFile.decode(Data(contentsOf: out.appendingPathComponent("evidence.json")))
        let again = scratch.appendingPathComponent("again")
        let rewritten = try EvidenceReport.write(evidence, tool: ToolInfo(version: "test"), baseline: nil, history: nil, to: again)
        XCTAssertNil(rewritten.historyFailure)
        XCTAssertEqual(try Data(contentsOf: again.appendingPathComponent("report.json")),
                       try Data(contentsOf: out.appendingPathComponent("report.json")), "report.json byte for byte")
    }

    /// A suite stopped before any run finished writes nothing: what was in the output stays.
    func testInterruptedBeforeAnyRunLeavesTheOutputAsItWas() throws {
        var selection = SuiteSelection()
        selection.command = ["/bin/sh", "-c", "sleep 5"]
        let plans = try SuitePlanner.plans(selection, project: nil)
        let out = scratch.appendingPathComponent("kept")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let earlier = out.appendingPathComponent("report.json")
        try Data("{\"earlier\": true}".utf8).write(to: earlier)
        let options = HarnessOptions(workloadHost: try SuitePipeline.workloadHost(for: plans), commandTimeout: 30)
        options.interruption.interrupt(signal: SIGINT)
        let request = SuiteRequest(plans: plans, options: options, out: out, toolVersion: "test")
        XCTAssertThrowsError(try SuitePipeline.run(request)) { error in
            XCTAssertEqual((error as? PipelineFailure)?.kind, .interrupted(signal: SIGINT), "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: earlier, encoding: .utf8), "{\"earlier\": true}")
    }
}

/// The pipeline's events in the order they came (from the suite's threads).
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SuiteEvent] = []

    func add(_ event: SuiteEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var kinds: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events.map { event in
            switch event {
            case .sweptLeftovers: return "swept"
            case .starting: return "starting"
            case .finished: return "finished"
            case .runsEnded: return "runsEnded"
            }
        }.filter { $0 != "swept" }
    }
}
