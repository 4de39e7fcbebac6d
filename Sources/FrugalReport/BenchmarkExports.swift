import Foundation
import FrugalCore

/// A report's values for trend dashboards, in the formats those tools read:
/// - Bencher Metric Format (https://bencher.dev/docs/reference/bencher-metric-format):
///   `{benchmark: {measure: {value, lower_value, upper_value}}}`;
/// - github-action-benchmark's custom tools (`customSmallerIsBetter`, `customBiggerIsBetter`):
///   an array of `{name, unit, value, range, extra}`.
///
/// A benchmark is a workload under a scenario; a measure is a metric or an audit's value; the
/// value is the median over the repetitions, the bounds the smallest and largest repetition.
/// Only what was measured is exported: an unavailable metric has no point, never a 0.
public enum BenchmarkExports {
    /// One value of one workload · scenario over its repetitions.
    public struct Point: Sendable, Equatable {
        public var benchmark: String
        public var measure: String
        public var unit: String
        public var median: Double
        public var lower: Double
        public var upper: Double
        public var count: Int
    }

    /// Every metric and audit value of `report` (smaller is better for all of them), in report order.
    public static func points(_ report: Report) -> [Point] {
        groups(report).flatMap { benchmark, runs -> [Point] in
            var points: [Point] = []
            for name in Set(runs.flatMap { $0.metrics.keys }).sorted() {
                let values = runs.compactMap { $0.metrics[name]?.value }.filter(\.isFinite)
                let unit = runs.lazy.compactMap { $0.metrics[name]?.unit }.first ?? ""
                if let point = point(benchmark, name, unit, values) { points.append(point) }
            }
            for id in Set(runs.flatMap { $0.audits.keys }).sorted() {
                let values = runs.compactMap { $0.audits[id]?.numericValue }.filter(\.isFinite)
                let unit = runs.lazy.compactMap { $0.audits[id]?.numericUnit }.first ?? ""
                if let point = point(benchmark, id, unit, values) { points.append(point) }
            }
            return points
        }
    }

    /// The overall score of each workload · scenario (bigger is better), 0–100.
    public static func scorePoints(_ report: Report) -> [Point] {
        groups(report).compactMap { benchmark, runs in
            point(benchmark, "score", "points", runs.compactMap(\.score).map { $0 * 100 })
        }
    }

    /// Bencher Metric Format JSON of `report`.
    public static func bencherMetricFormat(_ report: Report) throws -> Data {
        var object: [String: [String: [String: Double]]] = [:]
        for point in points(report) + scorePoints(report) {
            object[point.benchmark, default: [:]][point.measure] = ["value": point.median, "lower_value": point.lower, "upper_value": point.upper]
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    }

    /// github-action-benchmark's custom JSON: `smallerIsBetter` gives the metrics and audit values
    /// (tool `customSmallerIsBetter`), otherwise the scores (`customBiggerIsBetter`).
    public static func githubActionBenchmark(_ report: Report, smallerIsBetter: Bool = true) throws -> Data {
        let chosen = smallerIsBetter ? points(report) : scorePoints(report)
        let array: [[String: Any]] = chosen.map { point in
            ["name": "\(point.benchmark) · \(point.measure)", "unit": point.unit, "value": point.median,
             "range": "\(DisplayFormat.number(point.lower))–\(DisplayFormat.number(point.upper))",
             "extra": "median of \(point.count) run\(point.count == 1 ? "" : "s")"]
        }
        return try JSONSerialization.data(withJSONObject: array, options: [.prettyPrinted, .sortedKeys])
    }

    private static func point(_ benchmark: String, _ measure: String, _ unit: String, _ values: [Double]) -> Point? {
        guard let median = SampleSummary.median(values), let lower = values.min(), let upper = values.max() else { return nil }
        return Point(benchmark: benchmark, measure: measure, unit: unit, median: median, lower: lower, upper: upper, count: values.count)
    }

    private static func groups(_ report: Report) -> [(String, [RunReport])] {
        var order: [String] = []
        var grouped: [String: [RunReport]] = [:]
        for run in report.runs {
            let key = "\(run.workload) · \(run.scenario)"
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(run)
        }
        return order.map { ($0, grouped[$0] ?? []) }
    }
}
