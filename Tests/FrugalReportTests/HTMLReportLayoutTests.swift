import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// The HTML report as a reader acts on it: what to fix first at the top, numbers scaled,
/// timelines labelled, a black-box run drawn with the lanes it has. Reports built by hand.
final class HTMLReportLayoutTests: XCTestCase {
    static let environment = EnvironmentInfo(hostname: "h", kernel: "k", cores: 2, memoryBytes: 25_769_803_776, virtualMachine: true,
                                             papiVersion: nil, counters: [],
                                             // A long unbroken path: it must wrap at a phone's width, not widen the page.
                                             notes: ["cgroups: child groups of /sys/fs/cgroup/memory/process_api/27d89c3fb9470db06f97008379d30b5d get memory.limit_in_bytes"])

    /// A run with the given audit values; scores follow the catalogue's curves.
    static func run(_ workload: String, scenario: String = "standard", repetition: Int = 1, audits: [String: Double], timeline: Timeline,
                    metrics: [String: MetricValue] = [:]) -> RunReport {
        var results: [String: AuditResult] = [:]
        for (id, value) in audits {
            let rule = RuleCatalogue.rule(id)!
            results[id] = AuditResult(id: id, title: rule.title, score: rule.scoring.score(value), scoreDisplayMode: .numeric,
                                      numericValue: value, numericUnit: rule.unit, displayValue: "\(value) \(rule.unit)",
                                      evidence: [Evidence(time: 1.5, durationMs: 1000, description: "evidence of \(id)")])
        }
        let categories = ReportBuilder.categoryScores(results.mapValues { $0.score })
        return RunReport(workload: workload, scenario: scenario, repetition: repetition, outcome: .completed, outcomeDetail: nil,
                         exitStatus: nil, durationSeconds: timeline.duration, metrics: metrics, timeline: timeline,
                         audits: results, categories: categories, score: ReportBuilder.overallScore(categories))
    }

    /// An app killed and relaunched, with traffic through the proxy and memory samples.
    static let appTimeline: Timeline = {
        var timeline = Timeline(
            states: [StateInterval(state: .active, start: 0, end: 4), StateInterval(state: .suspended, start: 4, end: 6),
                     StateInterval(state: .notRunning, start: 6, end: 7), StateInterval(state: .active, start: 7, end: 10)],
            handlers: [HandlerSpan(name: "save", start: 2, durationMs: 400)],
            steps: [StepMark(step: "launch", start: 0, end: 0.01), StepMark(step: "wait(4)", start: 0.01, end: 4),
                    StepMark(step: "home", start: 4, end: 4.01), StepMark(step: "kill", start: 6, end: 6.01),
                    StepMark(step: "relaunch", start: 7, end: 7.01)],
            activity: [ActivitySample(time: 1, interval: 1, wakeups: 20, cpuSeconds: 0.01)], duration: 10,
            hangs: [HangMark(handler: "save", start: 2, durationMs: 400)],
            radio: RadioLane(profile: "LTE", model: "model:lte", intervals: [RadioInterval(state: .promotion, start: 1, end: 1.3),
                                                                             RadioInterval(state: .active, start: 1.3, end: 2),
                                                                             RadioInterval(state: .tail, start: 2, end: 9)],
                             transfers: [TransferMark(start: 1.3, end: 2, label: "GET /feed", outcome: .completed, bytesSent: 300, bytesReceived: 80_000)]))
        timeline.memory = [MemoryLaneSample(time: 1, anonymousBytes: 26_001_408, fileBytes: 4_000_000, lazyFreeBytes: 0)]
        return timeline
    }()

    /// `frugal run -- CMD`: no app states, no steps it reports, only `/proc` samples.
    static let commandTimeline = Timeline(states: [], handlers: [], steps: [],
                                          activity: [ActivitySample(time: 1, interval: 1, wakeups: 3, cpuSeconds: 0)], duration: 2)

    static func report() -> Report {
        let runs = [
            run("notes.loses-edits", scenario: "kill-relaunch", audits: ["lifecycle.save-state": 3, "power.avoid-polling": 0.05], timeline: appTimeline,
                metrics: [MetricName.memoryPeakResidentBytes: MetricValue(26_001_408, unit: "bytes", source: "proc:status.VmHWM"),
                          "energy.radioJoules": .unavailable(unit: "J", source: "model:lte", reason: "the workload moved no bytes"),
                          "network.radioTailSeconds": .unavailable(unit: "s", source: "model:lte", reason: "the workload moved no bytes")]),
            run("news.polling", audits: ["power.avoid-polling": 20], timeline: appTimeline),
            run("sleep 1", scenario: "command", audits: [:], timeline: commandTimeline),
        ]
        return Report(tool: ToolInfo(version: "test"), generatedAt: "2026-11-21T00:00:00Z", environment: environment,
                      runs: runs, results: ReportBuilder.aggregate(runs))
    }

    func testTheFirstSectionNamesTheWorstProblemItsAppAndTheGain() throws {
        let html = HTMLReportRenderer.render(Self.report())
        let fixFirst = try XCTUnwrap(html.range(of: "<section id=\"fix-first\">"))
        let workloads = try XCTUnwrap(html.range(of: "<section id=\"workloads\">"))
        XCTAssertLessThan(fixFirst.lowerBound, workloads.lowerBound, "fix first comes before everything else")
        let top = String(html[fixFirst.lowerBound..<workloads.lowerBound])
        let first = try XCTUnwrap(top.range(of: "<li>"))
        let firstItem = String(top[first.lowerBound...].prefix(1500))
        // Polling in news.polling costs its only category everything: the largest gain.
        XCTAssertTrue(firstItem.contains("Avoid polling when idle") && firstItem.contains("news.polling"), firstItem)
        XCTAssertTrue(firstItem.contains("points"), "says what fixing gains")
        XCTAssertTrue(firstItem.contains("per hour idle"), "and the energy the model gives")
        XCTAssertTrue(top.contains("What a fix looks like"))
        XCTAssertTrue(top.contains("Polling prevents the CPU from going to sleep"), "the guide's words")
        XCTAssertTrue(top.contains("lifecycle.save-state") || top.contains("Save state"), "the other failing audit is listed")
    }

    func testNumbersAreScaledWithTheExactValueOnHover() {
        let html = HTMLReportRenderer.render(Self.report())
        XCTAssertTrue(html.contains("title=\"26001408 bytes\">24.8 MiB"), "scaled, exact in the title")
        // Outside attributes, no raw byte count is shown.
        let text = html.replacingOccurrences(of: "title=\"[^\"]*\"", with: "", options: .regularExpression)
        XCTAssertFalse(text.contains("26001408"))
        XCTAssertFalse(text.contains("25769803776"), "the machine's memory too")
    }

    func testUnavailableMetricsAreGroupedOncePerRunByReason() throws {
        let html = HTMLReportRenderer.render(Self.report())
        XCTAssertEqual(html.components(separatedBy: "the workload moved no bytes").count - 1, 1, "one line for both metrics")
        XCTAssertTrue(html.contains("2 metrics not measured in this run, for 1 reason"))
        XCTAssertTrue(html.contains("<details class=\"metrics\"><summary>All 1 measured metrics"), "the full table is behind a <details>")
    }

    func testPassingAuditsAreCollapsedByCategory() {
        let html = HTMLReportRenderer.render(Self.report())
        XCTAssertTrue(html.contains("<details class=\"passing\"><summary>Passing audits (1)</summary><h4>Power (CPU)</h4>"))
        XCTAssertFalse(html.contains("<script"), "no JavaScript")
        XCTAssertTrue(html.contains("prefers-color-scheme:dark"))
    }

    func testAPassingAuditsFlatHistoryDrawsNoTrendAndAMovingOneDoes() {
        func history(_ scores: [Double]) -> ReportHistory {
            ReportHistory(series: [HistorySeries(workload: "notes.loses-edits", scenario: "kill-relaunch", audit: "power.avoid-polling",
                                                 points: scores.enumerated().map { HistoryPoint(recordedAt: "t\($0.offset)", commit: nil, score: $0.element, value: 0) })])
        }
        XCTAssertFalse(HTMLReportRenderer.render(Self.report(), history: history([1, 1, 1])).contains("class=\"trend\""))
        XCTAssertTrue(HTMLReportRenderer.render(Self.report(), history: history([0.6, 1, 1])).contains("class=\"trend\""))
    }

    func testTheTimelineLabelsKillAndRelaunchAndTheRadioHasItsOwnLegend() {
        let svg = TimelineSVG.render(Self.appTimeline)
        XCTAssertTrue(svg.contains(">kill</text>") && svg.contains(">relaunch</text>") && svg.contains(">home</text>"))
        XCTAssertTrue(svg.contains("class=\"life\""), "a kill draws a line through every lane")
        XCTAssertFalse(svg.contains(">wait"), "waits are not labelled")
        XCTAssertTrue(svg.contains(">400 ms<"), "the hang's duration is written beside it")
        XCTAssertTrue(svg.contains("0–28.6 MiB"), "the memory lane has its scale")
        XCTAssertTrue(svg.contains("class=\"r-tail\""))
        XCTAssertFalse(svg.contains("fill=\"#"), "colours come from the stylesheet")
        let legend = TimelineSVG.legend(Self.appTimeline)
        XCTAssertTrue(legend.contains("r-promotion") && legend.contains("radio tail"))
        XCTAssertEqual(legend.components(separatedBy: "tl-legend").count - 1, 1, "one legend")
        // The radio's colours are its own: no state or handler class shares them.
        let style = HTMLReportRenderer.style
        for radio in ["r-promotion", "r-active", "r-tail"] {
            let colour = style.components(separatedBy: ".\(radio){fill:")[1].prefix(7)
            for other in ["s-active", "s-inactive", "s-background", "s-suspended", "h", "h-long", "h-hang", "wk"] {
                XCTAssertFalse(style.contains(".\(other){fill:\(colour)"), "\(radio) and \(other) share \(colour)")
            }
        }
    }

    func testABlackBoxRunIsDrawnWithTheLanesItHas() {
        let svg = TimelineSVG.render(Self.commandTimeline)
        XCTAssertFalse(svg.contains(">state</text>"), "a command has no app states")
        XCTAssertFalse(svg.contains(">steps</text>") || svg.contains(">main thread</text>"))
        XCTAssertTrue(svg.contains(">wakeups</text>"))
        let legend = TimelineSVG.legend(Self.commandTimeline)
        XCTAssertFalse(legend.contains("s-active"), "no state colours in its legend")
        let html = HTMLReportRenderer.render(Self.report())
        XCTAssertTrue(html.contains("not scored: none of its"), "an unscored run does not read as a pass")
    }

    func testValuesWithTooFewRepetitionsAreNotCountedAsCompared() {
        func report(_ runs: [String: Int]) -> Report {
            let all: [RunReport] = runs.sorted { $0.key < $1.key }.flatMap { (workload: String, count: Int) -> [RunReport] in
                (1...count).map { (repetition: Int) -> RunReport in
                    let score: Double = 0.05 + Double(repetition) / 1000
                    return Self.run(workload, repetition: repetition, audits: ["power.avoid-polling": score], timeline: Self.commandTimeline)
                }
            }
            return Report(tool: ToolInfo(version: "t"), generatedAt: "now", environment: Self.environment, runs: all, results: ReportBuilder.aggregate(all))
        }
        let comparison = ReportComparator.compare(base: report(["a": 5, "b": 5]), head: report(["a": 5, "b": 1]), baseline: "base.json")
        let judged = comparison.results.flatMap { $0.audits + $0.metrics }.filter { $0.verdict != .insufficientData }
        XCTAssertEqual(judged.map(\.workload), ["a"], "only a has five runs a side")
        XCTAssertNil(ComparisonTextRenderer.nothingCompared(comparison))
        let text = ComparisonTextRenderer.render(comparison)
        XCTAssertTrue(text.contains("no significant regression (1 value compared over 2 workload·scenario pairs; 1 not compared: too few repetitions)"), text)
        let nothing = ReportComparator.compare(base: report(["a": 1]), head: report(["a": 1]), baseline: "base.json")
        XCTAssertTrue(ComparisonTextRenderer.nothingCompared(nothing)?.contains("too few repetitions") == true)
    }

    func testAComparisonThatSharesNothingSaysSo() {
        let report = Self.report()
        var other = report
        other.runs = other.runs.map { var run = $0; run.workload += ".other"; return run }
        other.results = ReportBuilder.aggregate(other.runs)
        let comparison = ReportComparator.compare(base: report, head: other, baseline: "base.json")
        XCTAssertNotNil(ComparisonTextRenderer.nothingCompared(comparison))
        XCTAssertFalse(ComparisonTextRenderer.render(comparison).contains("compared over"))
        other.comparison = comparison
        XCTAssertTrue(HTMLReportRenderer.render(other).contains("Nothing compared"))
    }
}
