import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// The report.json writer's numbers without a string (`JSONNumber`, `JSONBytes`) against
/// `description` less a trailing `.0`, which is what `JSONEncoder` writes.
final class JSONNumberTests: XCTestCase {
    static func encoderText(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    static func written(_ write: (inout ReportJSONWriter.JSONBytes) -> Void) -> String {
        var sink = ReportJSONWriter.Sink(handle: nil)
        sink.appendRaw(maximumBytes: 64, write)
        return String(decoding: sink.buffer, as: UTF8.self)
    }

    func testNumbersAreWrittenAsJSONEncoderWritesThem() {
        var random = SplitMix64(seed: 28)
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 0.001, 0.0009999, 0.0001, 1e-5, 0.1 + 0.2, 1.5, 4.35, 1e15, 1e16, 0x1p50, 0x1p50 - 1,
                                0x1p53, 123456789.125, 999999.9999995, 0.1234567, 1.7976931348623157e308, .leastNonzeroMagnitude]
        for _ in 0..<200_000 {
            let scale = Int(random.next() % 8)
            let digits = Double(random.next() % 10_000_000_000)
            switch random.next() % 4 {
            case 0: values.append(digits / pow(10, Double(scale)))                       // a value of a few decimals, as a timestamp
            case 1: values.append(Double(bitPattern: random.next() & 0x7fef_ffff_ffff_ffff)) // any finite positive
            case 2: values.append(Double(Int64(bitPattern: random.next()) % 100_000) / 1000 * 3.7)
            default: values.append(-(digits / pow(10, Double(scale))))
            }
        }
        var fast = 0
        for value in values {
            if JSONNumber.decimal(value) != nil { fast += 1 }
            let text = Self.written { $0.number(value) }
            XCTAssertEqual(text, Self.encoderText(value), "\(value.bitPattern)")
            if text != Self.encoderText(value) { return }
        }
        // Most of them take the way without a string, or this tests nothing of it.
        XCTAssertGreaterThan(fast, values.count / 3)
    }

    func testIntegersAreWrittenAsStringWritesThem() {
        var random = SplitMix64(seed: 14)
        for value in [0, 1, -1, 9, 10, 99, 100, Int.max, Int.min, Int.min + 1] + (0..<10_000).map({ _ in Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 63) }) {
            XCTAssertEqual(Self.written { $0.integer(value) }, String(value))
        }
    }
}
