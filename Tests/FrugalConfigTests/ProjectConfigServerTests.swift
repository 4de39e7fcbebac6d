import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// frugal.yml's `server:` of apps and scenarios: paths resolved and checked, bad input one line
/// naming the file and the line.
final class ProjectConfigServerTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-config-server-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Fixtures/api"), withIntermediateDirectories: true)
        let har = #"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://api.example.test/v1"}, "response": {"status": 200, "content": {"text": "{}"}}}]}}"#
        try Data(har.utf8).write(to: directory.appendingPathComponent("Fixtures/session.har"))
        try Data(#"{"log": {"entries": [{"request": {"method": "GET"}}]}}"#.utf8).write(to: directory.appendingPathComponent("Fixtures/broken.har"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func parse(_ text: String) throws -> ProjectConfig {
        try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: directory)
    }

    func testAppAndScenarioServersResolveTheirPaths() throws {
        let config = try parse("""
        apps:
          - name: weather
            kind: program
            executable: /bin/true
            scenarios: [offline]
            server:
              har: Fixtures/session.har
              fixtures: Fixtures/api/
              timing: 40ms
        scenarios:
          offline:
            server: {fixtures: Fixtures/api}
            steps: [launch]
        """)
        let server = try XCTUnwrap(config.apps.first?.server)
        XCTAssertEqual(server.har, directory.appendingPathComponent("Fixtures/session.har").standardizedFileURL.path)
        XCTAssertEqual(server.fixtures, directory.appendingPathComponent("Fixtures/api").standardizedFileURL.path)
        XCTAssertEqual(server.timing, .fixed(milliseconds: 40))
        let scenario = try XCTUnwrap(config.scenarioServers["offline"])
        XCTAssertEqual(scenario.fixtures, server.fixtures)
        XCTAssertNil(scenario.har)
        let merged = server.overridden(by: scenario)
        XCTAssertNil(merged.har, "the scenario's responses replace the app's")
        XCTAssertEqual(merged.timing, .fixed(milliseconds: 40))
    }

    func assertError(_ text: String, line: Int, contains fragment: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: at) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("frugal.yml:\(line): "), message, file: file, line: at)
            XCTAssertTrue(message.contains(fragment), message, file: file, line: at)
            XCTAssertFalse(message.contains("\n"), "one line", file: file, line: at)
        }
    }

    func testBadServersAreOneLineNamingTheFileAndLine() {
        let app = "apps:\n  - name: w\n    executable: /bin/true\n    kind: program\n    server:\n"
        assertError(app + "      fixtures: Nowhere/\n", line: 6, contains: "fixtures 'Nowhere/' is not a directory")
        assertError(app + "      har: Fixtures/missing.har\n", line: 6, contains: "does not exist")
        assertError(app + "      har: Fixtures/broken.har\n", line: 6, contains: "log.entries[0] lacks request.method, request.url or response.status")
        assertError(app + "      har: Fixtures/session.har\n      timing: fast\n", line: 7, contains: "timing 'fast' is not 'recorded'")
        assertError(app + "      timing: recorded\n", line: 6, contains: "'server' needs fixtures or har")
        assertError(app + "      upstream: http://x\n", line: 6, contains: "server: unknown key 'upstream'")
        assertError("scenarios:\n  s:\n    server: [a]\n    steps: [launch]\n", line: 3, contains: "scenario 's': 'server' must be a mapping")
    }
}
