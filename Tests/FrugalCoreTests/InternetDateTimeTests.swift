import Foundation
import XCTest
@testable import FrugalCore

/// `InternetDateTime` stands in for `ISO8601DateFormatter()` in the evidence file's
/// `generatedAt`: the text must be the formatter's, byte for byte.
final class InternetDateTimeTests: XCTestCase {
    func testTheTextIsTheFormattersForManyMoments() {
        let formatter = ISO8601DateFormatter()
        var generator = SystemRandomNumberGenerator()
        // 1970 to 2100, fractions of a second included, leap days among them.
        var moments = (0..<2000).map { _ in Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &generator)) }
        moments += [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_399.999), Date(timeIntervalSince1970: 1_709_164_800.5), Date()]
        // Just below a whole second, where the formatter's rounding to milliseconds shows (found here first).
        moments += [922_334_964.9995967, 936_257_398.999541, 3_429_933_383.999725, 1_000_000_000.9994, 1_000_000_000.9995, 1_000_000_000.0004].map(Date.init(timeIntervalSince1970:))
        moments += (0..<2000).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: 0..<4_102_444_800, using: &generator)) + Double.random(in: 0.998..<1, using: &generator)) }
        for moment in moments {
            XCTAssertEqual(InternetDateTime.string(from: moment), formatter.string(from: moment), "\(moment.timeIntervalSince1970)")
        }
    }
}
