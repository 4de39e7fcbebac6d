import Foundation
import FrugalCore
import FrugalReport

/// report.json files come from other CI jobs. Whatever decodes must render in every format and
/// compare against itself without trapping (a score of 1e17 once killed every renderer).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReport(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let report = try? ReportJSON.decode(data) else { return 0 }
    _ = HTMLReportRenderer.render(report, history: nil)
    _ = MarkdownSummaryRenderer.render(report)
    _ = JUnitRenderer.render(report)
    _ = GitHubAnnotations.render(report)
    let comparison = ReportComparator.compare(base: report, head: report, baseline: "fuzz.json")
    _ = ComparisonTextRenderer.render(comparison)
    _ = try? ReportJSON.encode(report)
    return 0
}
