import Foundation
import XCTest
@testable import FrugalCore

/// `InternetDateTime` stands in for `ISO8601DateFormatter()` in the evidence file's
/// `generatedAt`: the text must be the formatter's, byte for byte.
final class InternetDateTimeTests: XCTestCase {
    func testTheTextIsTheFormattersForManyMoments() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        // 1970 to 2100, fractions of a second included (both round down), leap days among them.
        var moments = (0..<2000).map { _ in Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &generator)) }
        moments += [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_399.999), Date(timeIntervalSince1970: 1_709_164_800.5), Date()]
        for moment in moments {
            XCTAssertEqual(InternetDateTime.string(from: moment), formatter.string(from: moment), "\(moment.timeIntervalSince1970)")
        }
    }
}
