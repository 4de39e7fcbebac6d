import XCTest
@testable import FrugalCore

/// HTML escaping is by bytes: a quote or an angle bracket followed by a combining mark is one
/// Character, which a lookup by Character did not escape (a quote could end an attribute).
final class HTMLEscapeByBytesTests: XCTestCase {
    func testASpecialCharacterWithACombiningMarkIsStillEscaped() {
        let hostile = "a\"\u{301} onload=x <\u{301}script>&\u{301}'\u{301}"
        let escaped = TextSanitizer.html(hostile)
        for raw in ["\"", "<", ">", "'"] { XCTAssertFalse(escaped.contains(raw), "\(raw) left raw in \(escaped)") }
        XCTAssertEqual(escaped, "a&quot;\u{301} onload=x &lt;\u{301}script&gt;&amp;\u{301}&#39;\u{301}")
    }

    func testPlainTextIsReturnedAsItIsAndLinesAreKept() {
        XCTAssertEqual(TextSanitizer.html("résumé · 3 ms\nnext"), "résumé · 3 ms\nnext")
        XCTAssertEqual(TextSanitizer.html("a\u{1B}[31m"), "a\\u{1B}[31m", "controls are still made visible")
    }
}
