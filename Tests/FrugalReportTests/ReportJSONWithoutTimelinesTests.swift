import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// `frugal compare` reads its reports without their timelines (`ReportJSON+WithoutTimelines`):
/// everything else as `decode` reads it, and the same comparison.
final class ReportJSONWithoutTimelinesTests: XCTestCase {
    static func emptied(_ report: Report) -> Report {
        var report = report
        for index in report.runs.indices {
            report.runs[index].timeline = Timeline(states: [], handlers: [], steps: [], activity: [], duration: 0)
        }
        return report
    }

    func testEverythingButTheTimelinesIsReadAsDecodeReadsIt() throws {
        var hostile = CIOutputTests.reportWithEverything()
        // A value holding what the skimming must step over: braces and quotes in strings, escapes.
        hostile.runs[0].outcomeDetail = #"} ] { [ "timeline": \" \\"#
        let reports = [hostile, ReportOutputGoldenTests.largeReport(events: 3_000), ReportOutputGoldenTests.suite(pairs: 3, shift: 0),
                       ReportAtScaleTests.report([ReportAtScaleTests.largeRun(handlers: 5_000)])]
        for (index, report) in reports.enumerated() {
            let data = try ReportJSONWriter.encode(report)
            let skimmed = try XCTUnwrap(ReportJSON.withoutTimelines(data), "case \(index)")
            XCTAssertLessThan(skimmed.count, data.count)
            let read = try ReportJSON.decodeWithoutTimelines(data)
            XCTAssertEqual(try ReportJSON.encode(read), try ReportJSON.encode(Self.emptied(ReportJSON.decode(data))), "case \(index)")
        }
        // Compact JSON (no pretty-printing) too.
        let compact = try JSONEncoder().encode(reports[2])
        XCTAssertEqual(try ReportJSON.encode(ReportJSON.decodeWithoutTimelines(compact)), try ReportJSON.encode(Self.emptied(ReportJSON.decode(compact))))
    }

    func testTheComparisonIsTheSame() throws {
        let base = try ReportJSONWriter.encode(ReportOutputGoldenTests.suite(pairs: 6, shift: 0))
        let head = try ReportJSONWriter.encode(ReportOutputGoldenTests.suite(pairs: 6, shift: 1))
        let whole = ReportComparator.compare(base: try ReportJSON.decode(base), head: try ReportJSON.decode(head), baseline: "b")
        let skimmed = ReportComparator.compare(base: try ReportJSON.decodeWithoutTimelines(base), head: try ReportJSON.decodeWithoutTimelines(head), baseline: "b")
        XCTAssertEqual(ComparisonTextRenderer.render(skimmed), ComparisonTextRenderer.render(whole))
        XCTAssertEqual(skimmed.results, whole.results)
        XCTAssertFalse(whole.results.isEmpty)
    }

    func testOtherInputIsDecodedWholeWithDecodesError() throws {
        // A compact baseline has no runs to skim: decoded as it is.
        let baseline = try ReportJSON.encodeBaseline(ReportOutputGoldenTests.suite(pairs: 2, shift: 0))
        XCTAssertNil(ReportJSON.withoutTimelines(baseline))
        XCTAssertEqual(try ReportJSON.decodeWithoutTimelines(baseline).runs.count, 10)
        for bad in [#"{"schemaVersion": 2}"#, #"{"runs": [{"timeline": {"#, "not json", ""] {
            var skimmedError = "", wholeError = ""
            do { _ = try ReportJSON.decodeWithoutTimelines(Data(bad.utf8)); XCTFail(bad) } catch { skimmedError = "\(error)" }
            do { _ = try ReportJSON.decode(Data(bad.utf8)); XCTFail(bad) } catch { wholeError = "\(error)" }
            XCTAssertEqual(skimmedError, wholeError, bad)
        }
    }
}
