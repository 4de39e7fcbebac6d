import XCTest
@testable import FrugalKit

final class HTTPMessageTests: XCTestCase {
    func testRequestBytes() {
        let get = HTTPMessage.serialize(.get("/json/10"), host: "127.0.0.1:9")
        XCTAssertEqual(String(decoding: get, as: UTF8.self), "GET /json/10 HTTP/1.1\r\nhost: 127.0.0.1:9\r\n\r\n")
        let post = HTTPMessage.serialize(.post("/upload/a", body: [1, 2, 3], contentType: "x/y"), host: "h")
        XCTAssertEqual(Array(post.suffix(3)), [1, 2, 3])
        XCTAssertEqual(String(decoding: post.dropLast(3), as: UTF8.self),
                       "POST /upload/a HTTP/1.1\r\nhost: h\r\ncontent-length: 3\r\ncontent-type: x/y\r\n\r\n")
    }

    func testResponseParsedFromPiecesOfAnySize() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello".utf8)
        for piece in [1, 3, 7, bytes.count] {
            var parser = HTTPResponseParser()
            var offset = 0
            while offset < bytes.count {
                XCTAssertFalse(parser.isComplete)
                try parser.feed(bytes[offset..<min(offset + piece, bytes.count)])
                offset += piece
            }
            XCTAssertTrue(parser.isComplete, "pieces of \(piece)")
            XCTAssertEqual(parser.status, 200)
            XCTAssertEqual(parser.body, Array("hello".utf8))
            XCTAssertTrue(parser.closes)
            XCTAssertEqual(parser.surplus, 0)
        }
    }

    func testEmptyBodyAndMalformedHeads() throws {
        var parser = HTTPResponseParser()
        try parser.feed(ArraySlice("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n".utf8))
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(parser.status, 404)
        var bad = HTTPResponseParser()
        XCTAssertThrowsError(try bad.feed(ArraySlice("SMTP 220 hi\r\n\r\n".utf8)))
        var chunked = HTTPResponseParser()
        XCTAssertThrowsError(try chunked.feed(ArraySlice("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n".utf8)))
    }

    func testEndpointFromTheEnvironment() {
        XCTAssertEqual(NetworkEndpoint.fromEnvironment(["FRUGAL_PROXY": "127.0.0.1:4242"]), NetworkEndpoint(host: "127.0.0.1", port: 4242))
        XCTAssertNil(NetworkEndpoint.fromEnvironment([:]))
        XCTAssertNil(NetworkEndpoint("127.0.0.1"))
        XCTAssertNil(NetworkEndpoint("127.0.0.1:0"))
    }
}
