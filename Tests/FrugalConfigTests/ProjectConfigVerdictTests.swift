import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// frugal.yml's `verdict:` of apps: the good apps and the pairs `frugal verdicts --config`
/// judges, and every mistake in them one line naming the file and the line.
final class ProjectConfigVerdictTests: XCTestCase {
    func parse(_ text: String) throws -> ProjectConfig {
        try ProjectConfigLoader.parse(text, file: "frugal.yml", directory: FileManager.default.temporaryDirectory)
    }

    func problem(_ text: String) -> ConfigError? {
        do { _ = try parse(text); return nil } catch { return error as? ConfigError }
    }

    func testVerdictsGivePairsAndGoodAppsWithoutATwin() throws {
        let config = try parse("""
        apps:
          - {name: tail, kind: program, executable: /bin/true, verdict: good}
          - {name: loop, kind: program, executable: /bin/true, verdict: {fails: power.avoid-polling, twin: tail}}
          - {name: alone, kind: program, executable: /bin/true, verdict: good}
          - {name: unjudged, kind: program, executable: /bin/true}
        """)
        XCTAssertEqual(config.verdictPairs, [WorkloadPair(bad: "loop", good: "tail", audit: "power.avoid-polling")])
        XCTAssertEqual(config.goodWithoutTwin, ["alone"])
        XCTAssertEqual(config.app(named: "tail")?.verdict, .good)
        XCTAssertNil(config.app(named: "unjudged")?.verdict)
    }

    func testMistakesAreOneLineWithTheirLine() {
        let unknownAudit = problem("""
        apps:
          - {name: good, kind: program, executable: /bin/true, verdict: good}
          - name: bad
            kind: program
            executable: /bin/true
            verdict: {fails: power.avoid-poling, twin: good}
        """)
        XCTAssertEqual(unknownAudit?.line, 6)
        XCTAssertTrue(unknownAudit?.problem.contains("'power.avoid-poling', which is no audit") == true, "\(String(describing: unknownAudit))")

        let missingTwin = problem("""
        apps:
          - {name: bad, kind: program, executable: /bin/true, verdict: {fails: power.avoid-polling, twin: nowhere}}
        """)
        XCTAssertEqual(missingTwin?.line, 2)
        XCTAssertTrue(missingTwin?.problem.contains("twin 'nowhere' is not an app of this file") == true, "\(String(describing: missingTwin))")

        let badTwin = problem("""
        apps:
          - {name: other, kind: program, executable: /bin/true}
          - {name: bad, kind: program, executable: /bin/true, verdict: {fails: power.avoid-polling, twin: other}}
        """)
        XCTAssertTrue(badTwin?.problem.contains("twin 'other' must have verdict: good") == true, "\(String(describing: badTwin))")

        for wrong in ["verdict: bad", "verdict: {fails: power.avoid-polling}", "verdict: {twin: a, audit: x}", "verdict: [good]"] {
            let error = problem("""
            apps:
              - {name: a, kind: program, executable: /bin/true, \(wrong)}
            """)
            XCTAssertTrue(error?.problem.contains("'verdict' must be good or {fails: AUDIT, twin: GOOD-APP}") == true, "\(wrong): \(String(describing: error))")
        }
    }
}
