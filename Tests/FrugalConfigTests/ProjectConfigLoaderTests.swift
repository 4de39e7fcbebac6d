import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// `frugal.yml`: the issue's example reads as written, and every malformed case is one
/// `frugal.yml:LINE: problem` before anything runs.
final class ProjectConfigLoaderTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-config-\(UUID().uuidString.prefix(8))")
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("Resources/images"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.appendingPathComponent("Fixtures/Documents"), withIntermediateDirectories: true)
        try Data(repeating: 7, count: 100).write(to: directory.appendingPathComponent("Resources/images/hero.bin"))
        try Data("[]".utf8).write(to: directory.appendingPathComponent("Fixtures/Documents/notes.json"))
        try manager.createDirectory(at: directory.appendingPathComponent("bin"), withIntermediateDirectories: true)
        let wake = directory.appendingPathComponent("bin/wake")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: wake)
        try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wake.path)
        try Data("not executable".utf8).write(to: directory.appendingPathComponent("bin/plain"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func parse(_ text: String) throws -> ProjectConfig {
        try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: directory)
    }

    /// The issue's example, kept working as written (the program's path points into the test's directory).
    func testTheIssuesExampleReads() throws {
        let config = try parse("""
        apps:
          - name: notes
            product: NotesProfile          # or: executable: path/to/binary
            arguments: [--store, sqlite]
            resources: Resources/
            documents: Fixtures/Documents/
            scenarios: [day, background]
          - name: wake                     # any program, not linked with FrugalKit
            kind: program
            executable: bin/wake
            arguments: ["50", "20"]
            scenarios: [background]
        scenarios:
          day:
            steps: [launch, {wait: 2}, {input: edit}, {interrupt: 1}, {wait: 3}, terminate]
          background:
            backgroundTimeBudget: 10
            steps: [launch, {wait: 2}, home, {wait: 5}, foreground, {wait: 1}, terminate]
        assert:
          preset: frugal:recommended
        """)
        XCTAssertEqual(config.apps.map(\.name), ["notes", "wake"])
        let notes = try XCTUnwrap(config.app(named: "notes"))
        XCTAssertEqual(notes.source, .product("NotesProfile"))
        XCTAssertEqual(notes.arguments, ["--store", "sqlite"])
        XCTAssertEqual(notes.resources.map(\.path), ["images/hero.bin"])
        XCTAssertEqual(notes.resources.first?.bytes, 100)
        XCTAssertEqual(notes.resources.first?.content, .file)
        XCTAssertEqual(notes.documents.map(\.path), ["notes.json"])
        let wake = try XCTUnwrap(config.app(named: "wake"))
        XCTAssertEqual(wake.kind, .program)
        XCTAssertEqual(wake.source, .executable(directory.appendingPathComponent("bin/wake").path))
        XCTAssertEqual(wake.arguments, ["50", "20"])
        XCTAssertEqual(config.products, ["NotesProfile"])
        let day = try XCTUnwrap(config.scenario(named: "day"))
        XCTAssertEqual(day.steps, [.launch, .wait(seconds: 2), .input(kind: "edit"), .interrupt(seconds: 1), .wait(seconds: 3), .terminate])
        XCTAssertEqual(config.scenario(named: "background")?.backgroundTimeBudget, 10)
        XCTAssertEqual(config.assertions?.preset, "frugal:recommended")
        // Built-in scenarios can be named too.
        XCTAssertEqual(config.scenario(named: "standard"), ScenarioCatalogue.standard)
    }

    /// Every step the harness has, with the scenario options, in the encoding `ScenarioStep` has.
    func testEveryStepAndOption() throws {
        let config = try parse("""
        scenarios:
          everything:
            summary: all of it
            network: 3g
            radio: wifi
            steps:
              - launch
              - wait: 0.5
              - input: tap
              - interrupt
              - home
              - foreground
              - notify: significant-time-change
              - memoryWarning: critical
              - pressure: 48MiB
              - balloon: 1048576
              - network: offline
              - fault: reset
              - kill
              - relaunch
              - terminate
        """)
        let scenario = try XCTUnwrap(config.scenario(named: "everything"))
        XCTAssertEqual(scenario.steps, [.launch, .wait(seconds: 0.5), .input(kind: "tap"), .interrupt(seconds: 1), .home, .foreground,
                                        .notify(name: "significant-time-change"), .memoryWarning(level: .critical),
                                        .pressure(limitBytes: 48 * 1_048_576), .balloon(bytes: 1_048_576), .network(profile: "offline"),
                                        .fault(kind: "reset"), .kill, .relaunch, .terminate])
        XCTAssertEqual(scenario.networkProfile, "3g")
        XCTAssertEqual(scenario.radio, .wifi)
        XCTAssertEqual(scenario.summary, "all of it")
    }

    /// The assertion-only form of before stays valid as a frugal.yml.
    func testTheAssertionOnlyFormStaysValid() throws {
        let config = try parse("""
        ci:
          assert:
            preset: frugal:recommended
            assertions:
              power.avoid-polling: [error, {maxNumericValue: 0.5}]
        """)
        XCTAssertTrue(config.apps.isEmpty)
        XCTAssertEqual(config.assertions?.preset, "frugal:recommended")
        XCTAssertEqual(config.assertions?.assertions.first { $0.target == .audit("power.avoid-polling") }?.maxNumericValue, 0.5)
        XCTAssertEqual(try parse("assertions:\n  power.avoid-polling: warn\n").assertions?.assertions.count, 1)
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

    /// Found by FuzzReplayTests: a wait past Int's range trapped while the scenario's summary was
    /// written. It reads and describes itself (running it is the user's choice).
    /// A wait of 1e300 s read without trapping and then ran forever: every wait has a maximum
    /// (an hour), and a longer one is refused with its line, not trapped.
    func testAHugeWaitIsRefusedWithoutTrapping() throws {
        assertError("scenarios:\n  long:\n    steps: [launch, {wait: 1e300}, terminate]\n", line: 3, contains: "from 0 to 3600")
        assertError("scenarios:\n  long:\n    steps: [launch, {interrupt: 9.3e18}, terminate]\n", line: 3, contains: "from 0 to 3600")
        let config = try parse("scenarios:\n  long:\n    steps: [launch, {wait: 3600}, terminate]\n")
        XCTAssertTrue(try XCTUnwrap(config.scenario(named: "long")?.summary).contains("wait(3600)"))
        XCTAssertEqual(ScenarioStep.wait(seconds: 2).description, "wait(2)")
    }

    /// A background time budget of 1e308 s was accepted, and an app that kept a background task
    /// open held `home` for ever, past `--timeout` (issue 24, fresh probe): at most an hour, as a wait.
    func testAHugeBackgroundTimeBudgetIsRefused() throws {
        assertError("scenarios:\n  long:\n    backgroundTimeBudget: 1e308\n    steps: [launch, home, terminate]\n", line: 3, contains: "up to 3600")
        assertError("scenarios:\n  long:\n    backgroundTimeBudget: 3600.5\n    steps: [launch, home, terminate]\n", line: 3, contains: "up to 3600")
        let config = try parse("scenarios:\n  long:\n    backgroundTimeBudget: 3600\n    steps: [launch, home, terminate]\n")
        XCTAssertEqual(config.scenario(named: "long")?.backgroundTimeBudget, 3600)
    }

    /// `documents: /` walked the whole file system into every sandbox: a folder outside the
    /// project (or a link out of it) is refused with its line.
    func testDocumentsOutsideTheProjectAreRefused() throws {
        let app = "apps:\n  - name: a\n    executable: bin/wake\n"
        assertError(app + "    documents: /\n", line: 4, contains: "outside the project")
        assertError(app + "    documents: ../\n", line: 4, contains: "outside the project")
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("escape"), withDestinationURL: URL(fileURLWithPath: "/etc"))
        assertError(app + "    documents: escape\n", line: 4, contains: "outside the project")
        XCTAssertNoThrow(try parse(app + "    documents: Fixtures/Documents/\n"))
    }

    func testEachMalformedCaseNamesItsLine() {
        let app = "apps:\n  - name: a\n    executable: bin/wake\n"
        // An unknown step.
        assertError("scenarios:\n  s:\n    steps: [launch, teleport]\n", line: 3, contains: "unknown step 'teleport'")
        assertError("scenarios:\n  s:\n    steps:\n      - launch\n      - {fly: 2}\n", line: 5, contains: "unknown step 'fly'")
        // A bad duration.
        assertError("scenarios:\n  s:\n    steps:\n      - launch\n      - wait: 2s\n", line: 5, contains: "'wait' needs a number, not '2s'")
        assertError("scenarios:\n  s:\n    steps:\n      - launch\n      - wait: -1\n", line: 5, contains: "from 0 to 3600")
        assertError("scenarios:\n  s:\n    backgroundTimeBudget: soon\n    steps: [launch]\n", line: 3, contains: "backgroundTimeBudget")
        // An app whose executable is missing, or not executable.
        assertError("apps:\n  - name: a\n    executable: bin/missing\n", line: 3, contains: "executable 'bin/missing' does not exist")
        assertError("apps:\n  - name: a\n    executable: bin/plain\n", line: 3, contains: "is not executable")
        assertError("apps:\n  - name: a\n    arguments: [x]\n", line: 2, contains: "neither 'executable' nor 'product'")
        // A scenario that names nothing.
        assertError(app + "    scenarios: [day]\n", line: 4, contains: "scenario 'day' names nothing")
        // Folders that are not there, keys nobody knows, scenarios that cannot run.
        assertError(app + "    resources: NoSuchFolder/\n", line: 4, contains: "resources 'NoSuchFolder/' does not exist")
        assertError(app + "    colour: blue\n", line: 4, contains: "unknown key 'colour'")
        assertError("scenarios:\n  s:\n    steps: [{wait: 1}, terminate]\n", line: 3, contains: "must start with launch")
        assertError("scenarios:\n  s:\n    steps: [launch, {network: 9g}]\n", line: 3, contains: "unknown network profile '9g'")
        assertError("scenarios:\n  standard:\n    steps: [launch]\n", line: 2, contains: "already a built-in scenario")
        assertError("apps: [\n", line: 2, contains: "not valid YAML")
        assertError("colour: blue\n", line: 1, contains: "unknown key 'colour'")
        assertError("assert:\n  preset: frugal:nothing\n", line: 2, contains: "unknown preset")
    }
}
