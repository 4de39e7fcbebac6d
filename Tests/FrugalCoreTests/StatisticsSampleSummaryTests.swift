import Foundation
import XCTest
@testable import FrugalCore

final class StatisticsSampleSummaryTests: XCTestCase {
    func testOddCount() throws {
        // sorted [1, 2, 3] → median 2; |x − 2| = [1, 0, 1] → sorted [0, 1, 1] → MAD 1.
        let summary = try XCTUnwrap(try SampleSummary([3, 1, 2]))
        XCTAssertEqual(summary.count, 3)
        XCTAssertEqual(summary.median, 2)
        XCTAssertEqual(summary.mad, 1)
        XCTAssertEqual(summary.min, 1)
        XCTAssertEqual(summary.max, 3)
        XCTAssertEqual(summary.mean, 2)
    }

    func testEvenCountUsesMeanOfMiddleValues() throws {
        // sorted [1, 2, 3, 4] → median (2 + 3)/2 = 2.5;
        // |x − 2.5| = [1.5, 0.5, 0.5, 1.5] → sorted [0.5, 0.5, 1.5, 1.5] → MAD (0.5 + 1.5)/2 = 1.
        let summary = try XCTUnwrap(try SampleSummary([4, 1, 3, 2]))
        XCTAssertEqual(summary.median, 2.5)
        XCTAssertEqual(summary.mad, 1)
        XCTAssertEqual(summary.mean, 2.5)
    }

    func testOutlierMovesMeanButNotMedianOrMAD() throws {
        // sorted [10, 10, 11, 12, 1000] → median 11; |x − 11| = [1, 1, 0, 1, 989] → MAD 1.
        // mean = 1043 / 5 = 208.6.
        let summary = try XCTUnwrap(try SampleSummary([10, 12, 1000, 10, 11]))
        XCTAssertEqual(summary.median, 11)
        XCTAssertEqual(summary.mad, 1)
        XCTAssertEqual(summary.mean, 208.6, accuracy: 1e-12)
        XCTAssertEqual(summary.scaledMAD, 1.482_602_218_505_602, accuracy: 1e-15)
        XCTAssertEqual(try XCTUnwrap(summary.relativeMAD), 1.0 / 11.0, accuracy: 1e-15)
    }

    func testSingleValue() throws {
        let summary = try XCTUnwrap(try SampleSummary([7.5]))
        XCTAssertEqual(summary, SampleSummary(count: 1, median: 7.5, mad: 0, min: 7.5, max: 7.5, mean: 7.5))
    }

    func testEmptyIsNilNotZeros() throws {
        XCTAssertNil(try SampleSummary([]))
    }

    func testConstantSampleHasZeroMAD() throws {
        let summary = try XCTUnwrap(try SampleSummary([4, 4, 4, 4]))
        XCTAssertEqual(summary.mad, 0)
        XCTAssertEqual(summary.relativeMAD, 0)
        let zeros = try XCTUnwrap(try SampleSummary([0, 0, 0]))
        XCTAssertNil(zeros.relativeMAD, "relative spread of a zero median is undefined")
    }

    func testHugeValuesDoNotOverflowMedian() throws {
        // (max + max)/2 would overflow to +inf; halving first does not.
        let summary = try XCTUnwrap(try SampleSummary([.greatestFiniteMagnitude, .greatestFiniteMagnitude]))
        XCTAssertEqual(summary.median, .greatestFiniteMagnitude)
    }

    func testNonFiniteValuesAreRejectedByName() {
        XCTAssertThrowsError(try SampleSummary([1, .nan, 3], sampleName: "base")) { error in
            guard case let StatisticsError.nonFiniteValue(sample, index, value) = error else {
                return XCTFail("unexpected error \(error)")
            }
            XCTAssertEqual(sample, "base")
            XCTAssertEqual(index, 1)
            XCTAssertTrue(value.isNaN)
            XCTAssertEqual("\(error)", "base[1] is nan; statistics need finite values")
        }
        XCTAssertThrowsError(try SampleSummary([1, 2, -.infinity])) { error in
            XCTAssertEqual("\(error)", "sample[2] is -inf; statistics need finite values")
        }
    }

    func testCodableRoundTrip() throws {
        let summary = try XCTUnwrap(try SampleSummary([1.25, 9.5, 3, 3.75]))
        let data = try JSONEncoder().encode(summary)
        XCTAssertEqual(try JSONDecoder().decode(SampleSummary.self, from: data), summary)
    }
}
