import Foundation
import FrugalCore
@testable import FrugalReport
import XCTest

/// ``SortedJSONEncoder`` writes what `JSONEncoder` writes with `.sortedKeys`, byte for byte: the
/// edge cases of its tree and its writer here, a real report here too (Reports/baseline.json),
/// and real evidence in `EvidenceEncodingTests`.
final class SortedJSONEncoderTests: XCTestCase {
    /// The two option sets Frugal writes with: evidence.json's, and report.json's.
    static func pairs() -> [(name: String, reference: JSONEncoder, fast: SortedJSONEncoder)] {
        let compact = JSONEncoder()
        compact.outputFormatting = [.sortedKeys]
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        pretty.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return [
            ("compact", compact, SortedJSONEncoder()),
            ("pretty", pretty, SortedJSONEncoder(prettyPrinted: true, escapesSlashes: false,
                                                 nonConformingFloats: ("Infinity", "-Infinity", "NaN"))),
        ]
    }

    /// Asserts both encoders give the same bytes (or both throw) for `value`.
    static func assertSame<T: Encodable>(_ value: T, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for pair in pairs() {
            let expected = Result { try pair.reference.encode(value) }
            let actual = Result { try pair.fast.encode(value) }
            switch (expected, actual) {
            case (.success(let expected), .success(let actual)):
                XCTAssertTrue(expected == actual, "\(label) (\(pair.name)):\nJSONEncoder: \(String(decoding: expected, as: UTF8.self))\nsorted:      \(String(decoding: actual, as: UTF8.self))",
                              file: file, line: line)
            case (.failure, .failure):
                break
            default:
                XCTFail("\(label) (\(pair.name)): JSONEncoder \(expected), sorted \(actual)", file: file, line: line)
            }
        }
    }

    struct Plain: Codable {
        var name = "a \"quoted\" \\ path/to/x\n\r\t\u{8}\u{c}\u{0}\u{1f}\u{7f} é 😀"
        var count = 3
        var ratio = 0.1
        var whole = 2.0
        var tiny = 1e-7
        var huge = 1.5e300
        var negativeZero = -0.0
        var smallest = Int.min
        var largest = UInt64.max
        var float: Float = 0.3
        var flags = [true, false]
        var missing: String?
        var present: Double? = 12.5
        var nested = ["b": [1, 2], "a": [], "B": [3], "a1": [4], "é": [5], "z": [6]]
        var byNumber = [10: "ten", 2: "two", -1: "minus one"]
        var holes: [Int?] = [1, nil, 3]
        var empty: [String: Int] = [:]
        var emptyArray: [Double] = []
        var matrix = [[1.25, 2], [], [3e20, 4e-5]]
        var strings = ["x/y", "", "\u{1}"]
        var small: [Int8] = [-128, 127]
    }

    func testPlainValuesNumbersAndStringsAreWrittenAlike() {
        Self.assertSame(Plain(), "plain")
        Self.assertSame([Plain(), Plain()], "array of objects")
        Self.assertSame("top-level /string", "fragment")
        Self.assertSame(42, "number fragment")
        Self.assertSame(Optional<Int>.none, "null fragment")
        Self.assertSame([String: [String: Int]](), "empty object")
        for number in [0.0, 1, -1, 0.5, 1.0 / 3, 100, 1e15, 1e16, 1e-4, 1e-5, 123456.789, 2.5e-320, Double.greatestFiniteMagnitude, .pi] {
            Self.assertSame(["n": number], "\(number)")
        }
    }

    func testNonFiniteNumbersAreStringsOrThrowAsJSONEncoderDoes() {
        Self.assertSame(["inf": Double.infinity, "minus": -Double.infinity, "nan": Double.nan], "non-finite doubles")
        Self.assertSame([Float.nan, Float.infinity], "non-finite floats")
        Self.assertSame(Double.nan, "non-finite fragment")
        XCTAssertThrowsError(try SortedJSONEncoder().encode([Double.nan]), "no strategy: JSONEncoder throws")
    }

    struct Foundationish: Encodable {
        var url = URL(string: "https://example.com/a?b=c")!
        var file = URL(fileURLWithPath: "/tmp/x y")
        var data = Data([0, 1, 2, 250, 251, 252])
        var date = Date(timeIntervalSinceReferenceDate: 12345.678)
        var decimal = Decimal(string: "3.14159")!
        var urls = [URL(string: "relative/path", relativeTo: URL(string: "https://example.com/base/"))!]
    }

    func testFoundationTypesAreWrittenJSONEncodersWay() {
        Self.assertSame(Foundationish(), "URL, Data, Date, Decimal")
    }

    /// A hand-written `encode(to:)` that uses what synthesized code never does.
    struct Odd: Encodable {
        enum Keys: String, CodingKey { case a, b, c, nested, list, again }
        func encode(to encoder: Encoder) throws {
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(1, forKey: .a)
            try keyed.encode("first", forKey: .b)
            try keyed.encode("second", forKey: .b)
            var nested = keyed.nestedContainer(keyedBy: Keys.self, forKey: .nested)
            try nested.encode(true, forKey: .c)
            try nested.encodeNil(forKey: .a)
            var list = keyed.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            var inner = list.nestedContainer(keyedBy: Keys.self)
            try inner.encode(2.5, forKey: .a)
            var deeper = list.nestedUnkeyedContainer()
            try deeper.encode("x")
            try list.encodeNil()
            // The same keyed container asked for again adds to the same object.
            var again = encoder.container(keyedBy: Keys.self)
            try again.encode([String](), forKey: .again)
            let parent = keyed.superEncoder()
            var parentFields = parent.container(keyedBy: Keys.self)
            try parentFields.encode("from super", forKey: .c)
            _ = keyed.superEncoder(forKey: .c)
        }
    }

    struct Silent: Encodable {
        func encode(to encoder: Encoder) throws {}
    }

    struct HoldsSilent: Encodable {
        var silent = Silent()
        var list = [Silent()]
    }

    func testNestedContainersRepeatedKeysAndEmptyValuesAreWrittenAlike() {
        Self.assertSame(Odd(), "nested and super encoders")
        Self.assertSame([Odd()], "nested inside an array")
        Self.assertSame(HoldsSilent(), "a value that encodes nothing, inside another")
        XCTAssertThrowsError(try SortedJSONEncoder().encode(Silent()), "a top-level value that encodes nothing is refused")
        XCTAssertThrowsError(try JSONEncoder().encode(Silent()), "as JSONEncoder refuses it")
    }

    func testKeysAreSortedByTheirBytes() {
        XCTAssertEqual(SortedJSONWriter.sortedMembers(["b", "a", "B", "a", "ab", "é", "A1"]), [6, 2, 3, 4, 0, 5],
                       "A1 < B < a (the last of the two) < ab < b < é")
    }

    /// A real report: the repository's baseline (every built-in workload's runs), as report.json
    /// is written, and its results as evidence's compact encoding writes them.
    func testARealReportIsWrittenAlike() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Reports/baseline.json")
        let report = try ReportJSON.decode(try Data(contentsOf: path))
        XCTAssertFalse(report.runs.isEmpty)
        Self.assertSame(report, "Reports/baseline.json")
        XCTAssertTrue(try ReportJSONWriter.encode(report) == ReportJSON.encode(report), "the streaming writer, built on the sorted encoder, writes JSONEncoder's bytes")
    }
}
