import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// A program's memory-warning and input signals, per program in frugal.yml; every mistake is one
/// line naming the key and its line.
final class ProjectConfigProgramSignalTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-signals-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let wake = directory.appendingPathComponent("bin/wake")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: wake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wake.path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func parse(_ text: String) throws -> ProjectConfig {
        try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: directory)
    }

    func assertError(_ text: String, line: Int, contains fragment: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try parse(text), file: file, line: at) { error in
            guard let error = error as? ConfigError else { return XCTFail("\(error)", file: file, line: at) }
            XCTAssertEqual(error.line, line, error.description, file: file, line: at)
            XCTAssertTrue(error.description.hasPrefix("frugal.yml:\(line): "), error.description, file: file, line: at)
            XCTAssertTrue(error.description.contains(fragment), error.description, file: file, line: at)
            XCTAssertFalse(error.description.contains("\n"), "one line", file: file, line: at)
        }
    }

    func testAProgramsSignalsAreRead() throws {
        let config = try parse("""
        apps:
          - name: cache
            kind: program
            executable: bin/wake
            memoryWarningSignal: USR1
            inputSignal: SIGUSR2
          - name: plain
            kind: program
            executable: bin/wake
            memoryWarningSignal: RTMIN+2
        """)
        XCTAssertEqual(config.apps[0].memoryWarningSignal, SIGUSR1)
        XCTAssertEqual(config.apps[0].inputSignal, SIGUSR2)
        XCTAssertEqual(config.apps[1].memoryWarningSignal, 36)
        XCTAssertNil(config.apps[1].inputSignal)
    }

    func testEachSignalMistakeNamesItsKeyAndLine() {
        let program = "apps:\n  - name: p\n    kind: program\n    executable: bin/wake\n"
        assertError(program + "    memoryWarningSignal: FOO\n", line: 5, contains: "memoryWarningSignal 'FOO' is not a signal a program can catch")
        assertError(program + "    inputSignal: KILL\n", line: 5, contains: "inputSignal 'KILL' is not a signal a program can catch")
        assertError(program + "    inputSignal: 99\n", line: 5, contains: "inputSignal '99'")
        assertError(program + "    memoryWarningSignal: USR1\n    inputSignal: 10\n", line: 6, contains: "both SIGUSR1")
        // Kind after the key still counts; an app gets its warnings through FrugalKit.
        assertError("apps:\n  - name: a\n    executable: bin/wake\n    memoryWarningSignal: USR1\n", line: 4,
                    contains: "memoryWarningSignal applies to kind: program")
    }

    func testSignalNames() {
        XCTAssertEqual(ProgramSignal.number("usr1"), SIGUSR1)
        XCTAssertEqual(ProgramSignal.number("SIGHUP"), SIGHUP)
        XCTAssertEqual(ProgramSignal.number("12"), 12)
        XCTAssertNil(ProgramSignal.number("STOP"))
        XCTAssertNil(ProgramSignal.number("9"))
        XCTAssertEqual(ProgramSignal.name(SIGUSR2), "SIGUSR2")
    }
}
