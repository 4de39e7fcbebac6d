import XCTest
import FrugalCore
import FrugalReport
import FrugalWorkloads

/// Holds a pair's real runs, already made by a pair test, to `frugal verdicts`' promise: the
/// good twin at 0.9 or more on every audit that applies to it and overall, the bad one below 0.5
/// on its own audit and at least 0.1 below its twin overall. The matrix logic is the command's
/// own (`VerdictMatrix`); these runs are what proves it on real apps at no extra cost.
enum VerdictAssertions {
    static func assertClean(bad: RunReport, good: RunReport, file: StaticString = #filePath, line: UInt = #line) {
        guard let pair = WorkloadCatalogue.pairs.first(where: { $0.bad == bad.workload && $0.good == good.workload }) else {
            return XCTFail("\(bad.workload) / \(good.workload) is not in WorkloadCatalogue.pairs", file: file, line: line)
        }
        let matrix = VerdictMatrix(results: ReportBuilder.aggregate([bad, good]), pairs: [pair])
        XCTAssertTrue(matrix.isClean, "verdicts of \(pair.bad) / \(pair.good):\n" + VerdictMatrixRenderer.render(matrix), file: file, line: line)
    }
}
