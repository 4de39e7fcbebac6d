import XCTest
@testable import FrugalCore
import FrugalTestSupport

/// `--shard I/N` and `frugal merge`: the split is deterministic and balanced, and shards merged
/// give the verdicts of one run.
final class ShardMergeTests: XCTestCase {
    func testShardsAreDeterministicBalancedAndCoverEveryUnitOnce() {
        let seconds: [Double] = [46, 30, 30, 12, 10, 10, 10, 8, 5, 5, 3.5, 3.5, 3.5, 3.5, 2, 2, 1]
        let assignment = ShardPlan.assign(seconds: seconds, count: 4)
        XCTAssertEqual(assignment, ShardPlan.assign(seconds: seconds, count: 4))
        XCTAssertEqual(Set(assignment), [1, 2, 3, 4])
        var loads = [Double](repeating: 0, count: 4)
        for (unit, shard) in assignment.enumerated() { loads[shard - 1] += seconds[unit] }
        // Greedy longest-first: every shard within the longest unit of the others.
        XCTAssertLessThanOrEqual(loads.max()! - loads.min()!, seconds.max()!)
        XCTAssertEqual(ShardPlan.assign(seconds: [1, 2], count: 1), [1, 1])
        XCTAssertEqual(ShardPlan.parse("2/4"), ShardInfo(index: 2, count: 4))
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "/4", "1/"] { XCTAssertNil(ShardPlan.parse(bad), bad) }
    }

    /// Four workloads, five repetitions each, with values that differ by repetition.
    static func suite() -> Report {
        var runs: [RunReport] = []
        for (index, workload) in ["a", "b", "c", "d"].enumerated() {
            for repetition in 1...5 {
                runs.append(SyntheticReports.run(workload, repetition: repetition,
                                                 metrics: [MetricName.cpuWakeups: Double(index * 10 + repetition)],
                                                 audits: ["power.avoid-polling": Double(index) * 0.3 + Double(repetition) * 0.01]))
            }
        }
        return Report(tool: ToolInfo(version: "test"), generatedAt: "2026-11-23T00:00:00Z", environment: SyntheticReports.environment,
                      runs: runs, results: ReportBuilder.aggregate(runs))
    }

    /// The report's runs split as `--shard I/4` would split them.
    static func shards(of report: Report, machines: [String]? = nil) -> [Report] {
        let workloads = report.results.map(\.workload)
        let assignment = ShardPlan.assign(seconds: workloads.map { _ in 10 }, count: 4)
        return (1...4).map { index in
            let mine = Set(zip(workloads, assignment).filter { $0.1 == index }.map(\.0))
            let runs = report.runs.filter { mine.contains($0.workload) }
            var shard = Report(tool: report.tool, generatedAt: "2026-11-23T00:0\(index):00Z", environment: report.environment,
                               runs: runs, results: ReportBuilder.aggregate(runs))
            shard.shard = ShardInfo(index: index, count: 4)
            if let machines { shard.environment.hostname = machines[index - 1] }
            return shard
        }
    }

    func testFourShardsMergedGiveTheVerdictsOfOneRun() throws {
        let whole = Self.suite()
        let (merged, warnings) = try ReportMerger.merge(Self.shards(of: whole).reversed(), names: ["4", "3", "2", "1"])
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(merged.runs.count, whole.runs.count)
        XCTAssertNil(merged.otherEnvironments)
        XCTAssertEqual(merged.generatedAt, "2026-11-23T00:01:00Z")
        let byName = { (report: Report) in Dictionary(uniqueKeysWithValues: report.results.map { ($0.workload, $0) }) }
        let one = byName(whole), joined = byName(merged)
        XCTAssertEqual(Set(one.keys), Set(joined.keys))
        for (name, result) in one {
            XCTAssertEqual(joined[name]?.audits, result.audits, name)
            XCTAssertEqual(joined[name]?.score, result.score, name)
            XCTAssertEqual(joined[name]?.metrics, result.metrics, name)
        }
        XCTAssertTrue(ReportComparator.compare(base: whole, head: merged, baseline: "one run").regressions.isEmpty)
    }

    func testShardsOfSeveralMachinesKeepEachEnvironmentAndComparingWarns() throws {
        let whole = Self.suite()
        let (merged, _) = try ReportMerger.merge(Self.shards(of: whole, machines: ["m1", "m2", "m1", "m3"]), names: [])
        XCTAssertEqual(merged.environments.map(\.hostname), ["m1", "m2", "m3"])
        XCTAssertTrue(merged.runs.allSatisfy { $0.machine != nil })
        let warning = ReportComparator.compare(base: whole, head: merged, baseline: "b").machineWarning
        XCTAssertNotNil(warning)
        XCTAssertTrue(warning?.contains("m2") ?? false, warning ?? "")
        var elsewhere = whole
        elsewhere.environment.hostname = "other"
        elsewhere.environment.cores = 64
        let single = try XCTUnwrap(ReportComparator.compare(base: whole, head: elsewhere, baseline: "b").machineWarning)
        XCTAssertTrue(single.contains("2 → 64 cores"), single)
        XCTAssertNil(ReportComparator.compare(base: whole, head: whole, baseline: "b").machineWarning)
    }

    func testTheSameShardTwiceIsRefusedAndAMissingOneWarns() throws {
        let shards = Self.shards(of: Self.suite())
        XCTAssertThrowsError(try ReportMerger.merge([shards[0], shards[0]], names: ["x.json", "y.json"])) { error in
            XCTAssertTrue("\(error)".contains("x.json and") || "\(error)".contains("y.json and"), "\(error)")
        }
        let (_, warnings) = try ReportMerger.merge(Array(shards.prefix(3)), names: [])
        XCTAssertTrue(warnings.contains { $0.contains("4/4 missing") }, "\(warnings)")
        var other = shards[1]
        other.shard = ShardInfo(index: 2, count: 3)
        XCTAssertThrowsError(try ReportMerger.merge([shards[0], other], names: []))
    }

    /// Shards of two different suites (another workload list) are refused, naming both files;
    /// shards of one suite with its fingerprint merge.
    func testShardsOfDifferentSuitesAreRefused() throws {
        var shards = Self.shards(of: Self.suite())
        let suite = ShardPlan.fingerprint(of: [("a", "standard", 1), ("b", "standard", 1)])
        for index in shards.indices { shards[index].shard?.suite = suite }
        XCTAssertNoThrow(try ReportMerger.merge(shards, names: []))
        shards[1].shard?.suite = ShardPlan.fingerprint(of: [("a", "standard", 1), ("c", "standard", 1)])
        XCTAssertNotEqual(shards[1].shard?.suite, suite)
        XCTAssertThrowsError(try ReportMerger.merge(shards, names: ["one.json", "two.json", "three.json", "four.json"])) { error in
            XCTAssertTrue("\(error)".contains("different suites") && "\(error)".contains("two.json"), "\(error)")
        }
    }
}
