import Foundation
import FrugalCore
@testable import FrugalHarness
import NIOPosix
import XCTest

/// The origin answering with an app's own responses — a fixture directory, a HAR file, a
/// recording of a real (local) server — with a real server's manners: content coding, ETag and
/// 304, and every request in the wire log. Real sockets on loopback throughout.
final class OriginServingTests: XCTestCase {
    private var servers: [OriginServer] = []
    private var directories: [URL] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        directories = []
    }

    private func start(_ responder: any OriginResponder, measures: Bool = false) throws -> (OriginServer, Int) {
        let server = OriginServer(measuresCompressibility: measures, responder: responder)
        servers.append(server)
        return (server, try server.start())
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-serving-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        directories.append(url)
        return url
    }

    private func write(_ text: String, to path: String, in directory: URL) throws {
        let url = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A raw request with the given extra header lines, on a fresh or given socket.
    private func get(_ socket: BlockingSocket, _ target: String, method: String = "GET", headers: [String] = [], body: [UInt8] = [])
        throws -> BlockingSocket.Response {
        var head = "\(method) \(target) HTTP/1.1\r\nhost: api.example.test\r\n"
        for line in headers { head += line + "\r\n" }
        if !body.isEmpty { head += "content-length: \(body.count)\r\n" }
        head += "\r\n"
        try socket.send(Array(head.utf8) + body)
        return try socket.readResponse()
    }

    static let forecast = #"{"city":"paris","days":[{"t":21,"sky":"clear"},{"t":19,"sky":"rain"},{"t":17,"sky":"rain"}]}"#

    // MARK: Fixtures

    func testFixtureDirectoryServesFilesWithSidecarHeadersAndNamesWhatItCouldNotFind() throws {
        let directory = try temporaryDirectory()
        try write(Self.forecast, to: "api/v1/forecast.json", in: directory)
        try write(#"{"headers": {"ETag": "\"v7\"", "Cache-Control": "max-age=300"}}"#, to: "api/v1/forecast.json.meta.json", in: directory)
        try write(#"{"city":"oslo"}"#, to: "api/v1/forecast?city=oslo", in: directory)
        try write("created", to: "api/v1/items.txt", in: directory)
        try write(#"{"status": 201, "method": "POST"}"#, to: "api/v1/items.txt.meta.json", in: directory)
        let (server, port) = try start(FixtureResponder(directory: directory.path))
        let socket = try BlockingSocket(port: port)

        let first = try get(socket, "/api/v1/forecast?city=paris")
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(String(decoding: first.body, as: UTF8.self), Self.forecast, "the query is ignored unless a file names it")
        XCTAssertEqual(first.headers["content-type"], "application/json")
        XCTAssertEqual(first.headers["etag"], "\"v7\"")
        XCTAssertEqual(first.headers["cache-control"], "max-age=300")

        let oslo = try get(socket, "/api/v1/forecast?city=oslo")
        XCTAssertEqual(String(decoding: oslo.body, as: UTF8.self), #"{"city":"oslo"}"#, "a file for the exact query wins")

        // The client's copy is current: 304, no body, the validators kept.
        let revalidated = try get(socket, "/api/v1/forecast", headers: [#"If-None-Match: "v7""#])
        XCTAssertEqual(revalidated.status, 304)
        XCTAssertEqual(revalidated.body.count, 0)
        XCTAssertEqual(revalidated.headers["etag"], "\"v7\"")
        let stale = try get(socket, "/api/v1/forecast", headers: [#"If-None-Match: "v6""#])
        XCTAssertEqual(stale.status, 200)

        let posted = try get(socket, "/api/v1/items", method: "POST", body: Array("x".utf8))
        XCTAssertEqual(posted.status, 201)
        let wrongMethod = try get(socket, "/api/v1/items")
        XCTAssertEqual(wrongMethod.status, 404, "items.txt answers POST only")

        let missing = try get(socket, "/api/v2/nothing?x=1")
        XCTAssertEqual(missing.status, 404)
        let text = String(decoding: missing.body, as: UTF8.self)
        XCTAssertTrue(text.contains("GET api.example.test/api/v2/nothing?x=1"), text)
        XCTAssertTrue(text.contains("api/v2/nothing.*"), "says where it looked: \(text)")
        XCTAssertEqual(try get(socket, "/../etc/passwd").status, 404, "no way out of the directory")

        let log = server.wireRequests(origin: 0)
        XCTAssertEqual(log.count, 8)
        XCTAssertEqual(log.map(\.source).filter { $0 == .unmatched }.count, 3)
        XCTAssertEqual(log[0].host, "api.example.test")
        XCTAssertEqual(log[0].path, "/api/v1/forecast")
        XCTAssertEqual(log[0].query, "city=paris")
        XCTAssertEqual(log[0].detail, "fixture api/v1/forecast.json")
        XCTAssertFalse(log[0].reusedConnection)
        XCTAssertTrue(log[1].reusedConnection)
        XCTAssertEqual(log[2].status, 304)
        // The last response's end is logged when its write completes on the loop, just after the client read it.
        XCTAssertTrue(eventually { server.wireRequests(origin: 0).allSatisfy(\.completed) })
    }

    func testARequestWhosePathTheAnswerBeforeHeldIsLoggedAsTheLinkItFollowed() throws {
        // A config naming its feed, the feed naming a story: each request's path is in the
        // answer before it. A request the answers never named (the story's sibling) is not.
        let directory = try temporaryDirectory()
        try write(#"{"feed":"/api/v1/feed.json","refresh":900}"#, to: "api/v1/config.json", in: directory)
        try write(#"{"items":[{"id":0,"link":"https://api.example.test/api/v1/story/0.json"}]}"#, to: "api/v1/feed.json", in: directory)
        try write(#"{"id":0}"#, to: "api/v1/story/0.json", in: directory)
        try write(#"{"id":1}"#, to: "api/v1/story/1.json", in: directory)
        let (server, port) = try start(FixtureResponder(directory: directory.path))
        let socket = try BlockingSocket(port: port)
        for target in ["/api/v1/config.json", "/api/v1/feed.json", "/api/v1/story/0.json", "/api/v1/story/1.json"] {
            XCTAssertEqual(try get(socket, target).status, 200, target)
        }
        // A 404's body names the path it could not find: no link to follow, asked twice.
        XCTAssertEqual(try get(socket, "/api/v2/gone.json").status, 404)
        XCTAssertEqual(try get(socket, "/api/v2/gone.json").status, 404)
        let log = server.wireRequests(origin: 0)
        XCTAssertEqual(log.map(\.namedBy), [nil, "GET /api/v1/config.json", "GET /api/v1/feed.json", nil, nil, nil])
        // A path too short to say anything is never matched.
        XCTAssertNil(WireRequestLog.namingAnswer(of: "/1", in: [("GET /a", Array("[/1, /2]".utf8))]))
        XCTAssertEqual(WireRequestLog.namingAnswer(of: "/next", in: [("GET /a", Array("/next".utf8)), ("GET /b", Array("x /next".utf8))]), "GET /b")
    }

    // MARK: Content coding

    func testGzipAndDeflateAreSentWhenAskedAndCountedBeforeAndAfter() throws {
        let (server, port) = try start(SyntheticResponder(), measures: true)
        let socket = try BlockingSocket(port: port)
        let plain = OriginContent.body(forPath: "/json/200000")!

        let gzip = try get(socket, "/json/200000", headers: ["Accept-Encoding: gzip, deflate, br"])
        XCTAssertEqual(gzip.headers["content-encoding"], "gzip")
        XCTAssertEqual(Array(gzip.body.prefix(2)), [0x1f, 0x8b], "gzip magic")
        XCTAssertEqual(ResponseEncoding.decode(gzip.body), plain)
        XCTAssertEqual(gzip.body.count, ResponseEncoding.encode(plain, as: .gzip)?.count)
        XCTAssertLessThan(gzip.body.count, plain.count / 4, "the JSON records repeat: gzip shrinks them several times")

        let deflate = try get(socket, "/json/200000", headers: ["Accept-Encoding: deflate"])
        XCTAssertEqual(deflate.headers["content-encoding"], "deflate")
        XCTAssertEqual(ResponseEncoding.decode(deflate.body), plain)

        let identity = try get(socket, "/json/200000", headers: ["Accept-Encoding: identity"])
        XCTAssertNil(identity.headers["content-encoding"])
        XCTAssertEqual(identity.body, plain)
        let refused = try get(socket, "/json/200000", headers: ["Accept-Encoding: gzip;q=0, deflate;q=0"])
        XCTAssertNil(refused.headers["content-encoding"], "q=0 refuses a coding")
        // Incompressible media types go as they are, whatever the client accepts.
        let random = try get(socket, "/random/50000", headers: ["Accept-Encoding: gzip"])
        XCTAssertNil(random.headers["content-encoding"])
        XCTAssertEqual(random.body.count, 50_000)

        let log = server.wireRequests(origin: 0)
        XCTAssertEqual(log[0].contentEncoding, "gzip")
        XCTAssertEqual(log[0].responseBodyBytes, gzip.body.count)
        XCTAssertEqual(log[0].responseDecodedBodyBytes, plain.count)
        XCTAssertEqual(log[0].acceptEncoding, "gzip, deflate, br")
        XCTAssertNil(log[2].contentEncoding)
        XCTAssertEqual(log[2].responseBodyBytes, plain.count)
        // The compressibility measure sees what crossed: encoded bodies near their deflated size.
        let stats = try XCTUnwrap(server.statistics().paths["/json/200000"])
        XCTAssertEqual(stats.deflateInputBytes, plain.count * 4)
        let wire = try XCTUnwrap(stats.deflateWireBytes)
        XCTAssertEqual(wire, gzip.body.count + deflate.body.count + 2 * plain.count)
    }

    func testNegotiationAndValidatorsFollowTheRFCs() {
        XCTAssertEqual(ResponseEncoding.negotiate("gzip"), .gzip)
        XCTAssertEqual(ResponseEncoding.negotiate("deflate, gzip;q=0"), .deflate)
        XCTAssertEqual(ResponseEncoding.negotiate("*"), .gzip)
        XCTAssertNil(ResponseEncoding.negotiate("br"))
        XCTAssertNil(ResponseEncoding.negotiate(nil))
        XCTAssertTrue(ResponseEncoding.notModified(ifNoneMatch: #"W/"a", "b""#, etag: #""a""#), "weak comparison")
        XCTAssertTrue(ResponseEncoding.notModified(ifNoneMatch: "*", etag: #""x""#))
        XCTAssertFalse(ResponseEncoding.notModified(ifNoneMatch: #""a""#, etag: nil))
        XCTAssertTrue(ResponseEncoding.isCompressible(contentType: "application/vnd.api+json; charset=utf-8"))
        XCTAssertFalse(ResponseEncoding.isCompressible(contentType: "image/png"))
    }

    // MARK: HAR

    static func harEntry(_ method: String, _ url: String, status: Int = 200, body: String, postData: String? = nil, wait: Double = 0) -> [String: Any] {
        var request: [String: Any] = ["method": method, "url": url, "httpVersion": "HTTP/1.1", "headers": []]
        if let postData { request["postData"] = ["mimeType": "application/json", "text": postData] }
        return ["startedDateTime": "2026-01-01T00:00:00Z", "time": wait, "request": request,
                "response": ["status": status, "statusText": "OK", "httpVersion": "HTTP/1.1",
                             "headers": [["name": "Content-Type", "value": "application/json"], ["name": "Content-Length", "value": "999"],
                                         ["name": "Content-Encoding", "value": "gzip"]],
                             "content": ["size": body.utf8.count, "mimeType": "application/json", "text": body]],
                "timings": ["send": 0, "wait": wait, "receive": 1]]
    }

    private func writeHAR(_ entries: [[String: Any]]) throws -> String {
        let path = try temporaryDirectory().appendingPathComponent("session.har").path
        let data = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries]])
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Round three of the hostile probe: a HAR wait of 1e18 ms trapped converting it to
    /// nanoseconds, and a 1xx status (HAR or a fixture's sidecar) tripped NIO's precondition;
    /// both killed `frugal run` and left the run's sandbox and cgroup behind.
    func testOutOfRangeWaitsAndInterimStatusesAreRefusedOrSkippedNotServed() throws {
        for wait in [1e18, 600_001] {
            let path = try writeHAR([Self.harEntry("GET", "https://api.example.test/x", body: "hi", wait: wait)])
            XCTAssertThrowsError(try HARResponder(path: path, timing: .recorded)) { error in
                XCTAssertTrue("\(error)".contains("entry 0: timings.wait"), "\(error)")
            }
        }
        XCTAssertNoThrow(try HARResponder(path: try writeHAR([Self.harEntry("GET", "https://api.example.test/x", body: "hi", wait: 600_000)]), timing: .recorded))
        // A 1xx entry has no final answer: skipped like DevTools' status 0, so the request is unmatched.
        let har = try HARResponder(path: try writeHAR([Self.harEntry("GET", "https://api.example.test/x", status: 100, body: "hi")]), timing: .recorded)
        let (_, harPort) = try start(har)
        XCTAssertEqual(try get(try BlockingSocket(port: harPort), "/x").status, 404)
        // A fixture whose sidecar says 100 or 199 answers 500 naming the sidecar, and the origin lives on.
        let directory = try temporaryDirectory()
        try write("hi", to: "x", in: directory)
        try write(#"{"status": 100}"#, to: "x.meta.json", in: directory)
        try write("there", to: "y", in: directory)
        try write(#"{"status": 199}"#, to: "y.meta.json", in: directory)
        let (_, port) = try start(FixtureResponder(directory: directory.path))
        let socket = try BlockingSocket(port: port)
        for name in ["x", "y"] {
            let answer = try get(socket, "/\(name)")
            XCTAssertEqual(answer.status, 500)
            XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("not a final HTTP status"), String(decoding: answer.body, as: UTF8.self))
        }
    }

    func testHARReplayMatchesMethodURLQueryAndBodyAndHoldsTheRecordedServerTime() throws {
        let path = try writeHAR([
            Self.harEntry("GET", "https://api.example.test/v1/forecast?city=paris&units=c", body: Self.forecast, wait: 150),
            Self.harEntry("POST", "https://api.example.test/v1/search", body: #"{"hits":1}"#, postData: #"{"q":"a"}"#),
            Self.harEntry("POST", "https://api.example.test/v1/search", body: #"{"hits":2}"#, postData: #"{"q":"b"}"#),
            Self.harEntry("GET", "https://api.example.test/v1/feed", body: #"{"page":1}"#),
            Self.harEntry("GET", "https://api.example.test/v1/feed", body: #"{"page":2}"#),
        ])
        let (server, port) = try start(try HARResponder(path: path, timing: .recorded))
        let socket = try BlockingSocket(port: port)

        let (forecast, seconds) = try timed { try get(socket, "/v1/forecast?units=c&city=paris") }
        XCTAssertEqual(forecast.status, 200)
        XCTAssertEqual(String(decoding: forecast.body, as: UTF8.self), Self.forecast, "parameters in any order")
        XCTAssertEqual(forecast.headers["content-length"], String(Self.forecast.utf8.count), "the recorded length is replaced")
        XCTAssertNil(forecast.headers["content-encoding"], "the recorded coding is not claimed for a decoded body")
        // The recorded 150 ms of server time; the upper bound is loose for a loaded machine.
        XCTAssertGreaterThanOrEqual(seconds, 0.145)
        XCTAssertLessThan(seconds, 2)

        XCTAssertEqual(String(decoding: try get(socket, "/v1/search", method: "POST", body: Array(#"{"q":"b"}"#.utf8)).body, as: UTF8.self), #"{"hits":2}"#)
        XCTAssertEqual(String(decoding: try get(socket, "/v1/search", method: "POST", body: Array(#"{"q":"a"}"#.utf8)).body, as: UTF8.self), #"{"hits":1}"#)
        XCTAssertEqual(try get(socket, "/v1/search", method: "POST", body: Array(#"{"q":"z"}"#.utf8)).status, 404)
        // Repeats get the recorded entries in order, then the last again.
        let pages = try (0..<3).map { _ in String(decoding: try get(socket, "/v1/feed").body, as: UTF8.self) }
        XCTAssertEqual(pages, [#"{"page":1}"#, #"{"page":2}"#, #"{"page":2}"#])

        let unmatched = try get(socket, "/v1/forecast?city=oslo")
        XCTAssertEqual(unmatched.status, 404)
        let log = server.wireRequests(origin: 0)
        let findings = log.filter { $0.source == .unmatched }
        XCTAssertEqual(findings.map(\.target), ["/v1/search", "/v1/forecast?city=oslo"])
        XCTAssertTrue(findings[1].detail?.contains("other query strings") == true, findings[1].detail ?? "")
    }

    func testAHARThenFixturesAnswerTogetherAndA404NamesBothPlacesLooked() throws {
        let path = try writeHAR([Self.harEntry("GET", "https://api.example.test/v1/forecast", body: #"{"from":"har"}"#)])
        let directory = try temporaryDirectory()
        try write(#"{"from":"fixture"}"#, to: "v1/forecast.json", in: directory)
        try write(#"{"from":"fixture"}"#, to: "v1/profile.json", in: directory)
        let chain = FirstMatchResponder([try HARResponder(path: path, timing: .recorded), FixtureResponder(directory: directory.path)])
        let (_, port) = try start(chain)
        let socket = try BlockingSocket(port: port)
        XCTAssertEqual(String(decoding: try get(socket, "/v1/forecast").body, as: UTF8.self), #"{"from":"har"}"#, "the HAR first")
        XCTAssertEqual(String(decoding: try get(socket, "/v1/profile").body, as: UTF8.self), #"{"from":"fixture"}"#)
        let missing = String(decoding: try get(socket, "/v1/other").body, as: UTF8.self)
        XCTAssertTrue(missing.contains("no entry of \(path)") && missing.contains("no fixture in"), missing)
    }

    func testABrokenHARFileIsOneLineNamingTheFileAndTheEntry() throws {
        let path = try writeHAR([["request": ["method": "GET"], "response": ["status": 200, "content": [:]]]])
        XCTAssertThrowsError(try HARResponder(path: path, timing: .recorded)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix(path), text)
            XCTAssertTrue(text.contains("entries[0].request.url"), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }

    // MARK: Recording

    func testRecordingALocalUpstreamReplaysEveryBodyByteForByte() throws {
        // The "real server": fixtures on a second origin, on loopback.
        let directory = try temporaryDirectory()
        try write(Self.forecast, to: "v1/forecast.json", in: directory)
        let image = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try Data(image).write(to: directory.appendingPathComponent("v1/logo.png"))
        let (_, upstreamPort) = try start(FixtureResponder(directory: directory.path))

        let recorder = try UpstreamResponder(url: "http://127.0.0.1:\(upstreamPort)", group: MultiThreadedEventLoopGroup.singleton)
        let (recording, recordingPort) = try start(recorder)
        let socket = try BlockingSocket(port: recordingPort)
        let targets = ["/v1/forecast?city=paris", "/v1/logo", "/json/3000"]
        let recorded = try targets.map { try get(socket, $0, headers: ["Accept-Encoding: gzip"]) }
        XCTAssertEqual(recorded.map(\.status), [200, 200, 404], "the upstream's own 404 is recorded too")
        XCTAssertEqual(recorded[0].headers["content-encoding"], "gzip", "the origin encodes for the app as it asked")
        XCTAssertEqual(ResponseEncoding.decode(recorded[0].body), Array(Self.forecast.utf8))
        XCTAssertEqual(recorded[1].body, image)
        XCTAssertEqual(recording.wireRequests(origin: 0).map(\.source), [.upstream, .upstream, .upstream])

        let harPath = try temporaryDirectory().appendingPathComponent("recorded.har").path
        try recorder.archive().write(path: harPath)
        let archive = try HARArchive.read(path: harPath)
        XCTAssertEqual(archive.log.entries.map(\.request.url), targets.map { "http://api.example.test\($0)" })
        XCTAssertEqual(archive.log.entries[1].response.content.encoding, "base64", "a binary body is kept as base64")

        let (replay, replayPort) = try start(try HARResponder(path: harPath, timing: .fixed(milliseconds: 0)))
        let again = try BlockingSocket(port: replayPort)
        for (target, original) in zip(targets, recorded) {
            let response = try get(again, target)
            XCTAssertEqual(response.status, original.status, target)
            let originalBody = original.headers["content-encoding"] == nil ? original.body : ResponseEncoding.decode(original.body) ?? []
            XCTAssertEqual(Self.checksum(response.body), Self.checksum(originalBody), "\(target): replayed byte for byte")
        }
        XCTAssertEqual(try get(again, "/v1/never-recorded").status, 404)
        let findings = replay.wireRequests(origin: 0).filter { $0.source == .unmatched }
        XCTAssertEqual(findings.map(\.target), ["/v1/never-recorded"])
    }

    /// FNV-1a 64: a checksum of a body for comparing two of them.
    static func checksum(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
