import Foundation
import XCTest
import FrugalCore
import FrugalReport
import FrugalTestSupport

/// The exports for trend dashboards, validated against their published shapes:
/// - Bencher Metric Format's JSON Schema (https://bencher.dev/bmf.json, draft-07): an object whose
///   every property is an object whose every property is an object with a required number
///   `value` and optional numbers `lower_value`, `upper_value`;
/// - github-action-benchmark's custom tools (README, "Examples" → customSmallerIsBetter /
///   customBiggerIsBetter): an array of objects with `name` (string), `unit` (string) and
///   `value` (number) required, `range` and `extra` (strings) optional.
final class BenchmarkExportsTests: XCTestCase {
    private let report = SyntheticReports.report(wakeups: [10, 12, 11, 13, 9], idleRates: [0.1, 0.2, 0.3, 0.2, 0.1])

    /// The BMF schema's rules, as a validator: each violation named.
    static func bmfViolations(_ json: Any) -> [String] {
        guard let benchmarks = json as? [String: Any] else { return ["top level is not an object"] }
        var problems: [String] = []
        if benchmarks.isEmpty { problems.append("no benchmark") }
        for (benchmark, measures) in benchmarks {
            if benchmark.isEmpty { problems.append("empty benchmark name") }
            guard let measures = measures as? [String: Any] else { problems.append("\(benchmark) is not an object"); continue }
            for (measure, metric) in measures {
                if measure.isEmpty || measure.count > 64 { problems.append("measure '\(measure)' is not a slug or name of at most 64 characters") }
                guard let metric = metric as? [String: Any] else { problems.append("\(benchmark)/\(measure) is not an object"); continue }
                if !(metric["value"] is NSNumber) { problems.append("\(benchmark)/\(measure) has no number value") }
                for key in ["lower_value", "upper_value"] where metric[key] != nil && !(metric[key] is NSNumber) {
                    problems.append("\(benchmark)/\(measure).\(key) is not a number")
                }
                for key in metric.keys where !["value", "lower_value", "upper_value"].contains(key) {
                    problems.append("\(benchmark)/\(measure) has an unknown key \(key)")
                }
            }
        }
        return problems
    }

    static func githubBenchmarkViolations(_ json: Any) -> [String] {
        guard let entries = json as? [Any] else { return ["top level is not an array"] }
        var problems: [String] = entries.isEmpty ? ["no entry"] : []
        for (index, entry) in entries.enumerated() {
            guard let entry = entry as? [String: Any] else { problems.append("[\(index)] is not an object"); continue }
            for key in ["name", "unit"] where !(entry[key] is String) { problems.append("[\(index)].\(key) is not a string") }
            if !(entry["value"] is NSNumber) || entry["value"] is Bool { problems.append("[\(index)].value is not a number") }
            for key in ["range", "extra"] where entry[key] != nil && !(entry[key] is String) { problems.append("[\(index)].\(key) is not a string") }
        }
        return problems
    }

    func testBencherMetricFormatFollowsItsSchema() throws {
        let json = try JSONSerialization.jsonObject(with: try BenchmarkExports.bencherMetricFormat(report))
        XCTAssertEqual(Self.bmfViolations(json), [])
        let measures = try XCTUnwrap((json as? [String: Any])?["news.coalesced · standard"] as? [String: [String: Double]])
        // cpu.wakeups 9…13: the median 11 with the smallest and largest run as its bounds.
        XCTAssertEqual(measures[MetricName.cpuWakeups], ["value": 11, "lower_value": 9, "upper_value": 13])
        XCTAssertEqual(measures["power.avoid-polling"]?["value"], 0.2)
        XCTAssertNotNil(measures["score"])
        // The validator catches what the schema forbids.
        XCTAssertFalse(Self.bmfViolations(["b": ["m": ["lower_value": 1]]]).isEmpty)
    }

    func testGitHubActionBenchmarkFollowsItsShape() throws {
        let smaller = try JSONSerialization.jsonObject(with: try BenchmarkExports.githubActionBenchmark(report))
        XCTAssertEqual(Self.githubBenchmarkViolations(smaller), [])
        let entries = try XCTUnwrap(smaller as? [[String: Any]])
        let wakeups = try XCTUnwrap(entries.first { ($0["name"] as? String) == "news.coalesced · standard · cpu.wakeups" })
        XCTAssertEqual(wakeups["value"] as? Double, 11)
        XCTAssertEqual(wakeups["unit"] as? String, "count")
        XCTAssertEqual(wakeups["range"] as? String, "9–13")
        let bigger = try JSONSerialization.jsonObject(with: try BenchmarkExports.githubActionBenchmark(report, smallerIsBetter: false))
        XCTAssertEqual(Self.githubBenchmarkViolations(bigger), [])
        XCTAssertEqual((bigger as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["news.coalesced · standard · score"])
        XCTAssertFalse(Self.githubBenchmarkViolations([["name": "x", "value": "1"]]).isEmpty)
    }
}
