import XCTest
import NIOCore
@testable import FrugalHarness

/// A refused connection's first line names its request (``RefusedRequest``): plain HTTP/1 only.
final class RefusedRequestTests: XCTestCase {
    func testAnHTTPRequestLineIsNamedAndAnythingElseIsNot() {
        XCTAssertEqual(RefusedRequest.label(firstLineOf: Array("POST /upload/note-2-0 HTTP/1.1\r\nHost: a\r\n".utf8)), "POST /upload/note-2-0")
        XCTAssertEqual(RefusedRequest.label(firstLineOf: Array("GET http://api.test/feed?x=1 HTTP/1.1\r\n".utf8)), "GET /feed?x=1")
        XCTAssertNil(RefusedRequest.label(firstLineOf: Array("POST /upload/note".utf8)), "no whole line")
        XCTAssertNil(RefusedRequest.label(firstLineOf: [0x16, 0x03, 0x01, 0x02, 0x00, 0x0A]), "a TLS ClientHello")
        XCTAssertNil(RefusedRequest.label(firstLineOf: Array("hello there\n".utf8)))
    }

    func testReadingStopsAtTheFirstLineOrTheLimit() {
        var refused = RefusedRequest()
        XCTAssertFalse(refused.add(ByteBuffer(string: "PUT /a")))
        XCTAssertTrue(refused.add(ByteBuffer(string: " HTTP/1.1\r\n")))
        XCTAssertEqual(refused.label, "PUT /a")
        var long = RefusedRequest()
        XCTAssertTrue(long.add(ByteBuffer(string: String(repeating: "x", count: RefusedRequest.readLimit + 10))))
        XCTAssertNil(long.label)
    }
}
