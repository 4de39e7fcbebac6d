import FrugalHarness
import Foundation
import XCTest

final class OriginServerTests: XCTestCase {
    private var server: OriginServer!
    private var port = 0

    override func setUpWithError() throws {
        server = OriginServer()
        port = try server.start()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    func testPingAndKeepAliveReuseOneConnection() throws {
        let socket = try BlockingSocket(port: port)
        for _ in 0..<3 {
            let response = try socket.request("/ping")
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "pong")
        }
        let stats = server.statistics()
        XCTAssertEqual(stats.connections, 1, "keep-alive must reuse the connection")
        XCTAssertEqual(stats.paths["/ping"]?.requests, 3)
        XCTAssertEqual(stats.paths["/ping"]?.responseBodyBytes, 12)
    }

    func testBytesAreDeterministicRepeatingPattern() throws {
        let socket = try BlockingSocket(port: port)
        let first = try socket.request("/bytes/100000").body
        let second = try socket.request("/bytes/100000").body
        XCTAssertEqual(first.count, 100_000)
        XCTAssertEqual(first, second)
        XCTAssertEqual(first, OriginContent.body(forPath: "/bytes/100000"))
        let period = OriginContent.patternPeriod
        XCTAssertEqual(Array(first[0..<period]), Array(first[period..<(2 * period)]))
        XCTAssertTrue(first.allSatisfy { $0 >= 0x21 && $0 < 0x7F }, "printable pattern")
        let other = try socket.request("/bytes/1000").body
        XCTAssertNotEqual(Array(other[0..<100]), Array(first[0..<100]), "seeded by path")
    }

    func testRandomIsDeterministicAndLooksIncompressible() throws {
        let socket = try BlockingSocket(port: port)
        let body = try socket.request("/random/262144").body
        XCTAssertEqual(body.count, 262_144)
        XCTAssertEqual(body, OriginContent.body(forPath: "/random/262144"))
        var histogram = [Int](repeating: 0, count: 256)
        for byte in body { histogram[Int(byte)] += 1 }
        // 1,024 expected per value; a repeating or text-like body would be far off.
        XCTAssertGreaterThan(histogram.min()!, 850)
        XCTAssertLessThan(histogram.max()!, 1_200)
    }

    func testJSONHasExactLengthAndParses() throws {
        let socket = try BlockingSocket(port: port)
        for n in [0, 12, 13, 80, 81, 1_000, 65_537, 300_000] {
            let response = try socket.request("/json/\(n)")
            XCTAssertEqual(response.headers["content-type"], "application/json")
            XCTAssertEqual(response.body.count, max(n, OriginContent.minimumJSONLength), "n = \(n)")
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            let items = object?["items"] as? [[String: Any]]
            XCTAssertNotNil(items, "n = \(n)")
            if n >= 1_000 { XCTAssertGreaterThan(items?.count ?? 0, n / 100) }
        }
    }

    func testUploadCountsBytes() throws {
        let socket = try BlockingSocket(port: port)
        let payload = [UInt8](repeating: 7, count: 300_000)
        let response = try socket.request("/upload", method: "POST", body: payload)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"received":300000}"#)
        let stats = server.statistics()
        XCTAssertEqual(stats.paths["/upload"]?.requestBodyBytes, 300_000)
        XCTAssertEqual(stats.requestBodyBytes, 300_000)
    }

    func testUnknownPathAndBadLength() throws {
        let socket = try BlockingSocket(port: port)
        XCTAssertEqual(try socket.request("/nope").status, 404)
        XCTAssertEqual(try socket.request("/bytes/-1").status, 400)
        XCTAssertEqual(try socket.request("/bytes/lots").status, 400)
        XCTAssertEqual(try socket.request("/ping").status, 200, "connection still usable")
    }

    func testConnectionCloseIsHonoured() throws {
        let socket = try BlockingSocket(port: port, timeout: 5)
        let response = try socket.request("/bytes/10", close: true)
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertEqual(socket.drain().ending, .eof)
    }

    func testLargeBodyStreamsAndIsCounted() throws {
        let socket = try BlockingSocket(port: port)
        let response = try socket.request("/random/20000000", keepBody: false)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["content-length"], "20000000")
        XCTAssertEqual(server.statistics().responseBodyBytes, 20_000_000)
        XCTAssertEqual(try socket.request("/ping").status, 200)
        XCTAssertEqual(server.statistics().requests, 2)
    }
}
