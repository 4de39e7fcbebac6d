import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// frugal.yml's `repeat:`: a block of steps N times, expanded when the file is read; every
/// malformed or oversized repeat is one `frugal.yml:LINE: problem`.
final class ProjectConfigRepeatTests: XCTestCase {
    func parse(_ steps: String) throws -> [ScenarioStep] {
        let config = try ProjectConfigLoader.parse("scenarios:\n  loops:\n    steps:\n" + steps, file: "frugal.yml",
                                                   directory: FileManager.default.temporaryDirectory)
        return try XCTUnwrap(config.scenario(named: "loops")).steps
    }

    func problem(_ steps: String) -> ConfigError? {
        do { _ = try parse(steps); return nil } catch { return error as? ConfigError }
    }

    func testARepeatIsExpandedInPlaceAndMayNest() throws {
        let steps = try parse("""
              - launch
              - repeat: {times: 2, steps: [home, {wait: 1}, foreground]}
              - repeat:
                  times: 2
                  steps:
                    - input: tap
                    - repeat: {times: 3, steps: [{wait: 0.5}]}
              - terminate

        """)
        let cycle: [ScenarioStep] = [.home, .wait(seconds: 1), .foreground]
        let taps: [ScenarioStep] = [.input(kind: "tap")] + Array(repeating: .wait(seconds: 0.5), count: 3)
        XCTAssertEqual(steps, [.launch] + cycle + cycle + taps + taps + [.terminate])
    }

    func testTheLaunchMayComeFromARepeat() throws {
        XCTAssertEqual(try parse("      - repeat: {times: 1, steps: [launch, {wait: 1}]}\n"), [.launch, .wait(seconds: 1)])
        XCTAssertTrue(problem("      - repeat: {times: 1, steps: [{wait: 1}]}\n")?.problem.contains("must start with launch") == true)
    }

    func testEachMalformedRepeatNamesItsLine() {
        let cases: [(String, String)] = [
            ("  - repeat: {times: 0, steps: [home]}", "with N from 1 to 1000, not '0'"),
            ("  - repeat: {times: 1001, steps: [home]}", "not '1001'"),
            ("  - repeat: {times: two, steps: [home]}", "not 'two'"),
            ("  - repeat: {steps: [home]}", "repeat needs {times: N, steps: [...]}"),
            ("  - repeat: {times: 2}", "repeat needs {times: N, steps: [...]}"),
            ("  - repeat: {times: 2, steps: []}", "repeat's steps must be a non-empty list"),
            ("  - repeat: {times: 2, steps: [home], every: 3}", "unknown key 'every' in repeat"),
            ("  - repeat: [home]", "repeat needs {times: N, steps: [...]}"),
            ("  - repeat: {times: 2, steps: [jump]}", "unknown step 'jump'"),
            ("  - repeat: {times: 1000, steps: [{repeat: {times: 1000, steps: [{wait: 0}]}}]}", "more than 10000 steps"),
        ]
        for (line, expected) in cases {
            let found = problem("      - launch\n    " + line + "\n")
            XCTAssertEqual(found?.line, 5, "\(line): \(String(describing: found))")
            XCTAssertTrue(found?.problem.contains(expected) == true, "\(line): \(String(describing: found))")
        }
    }
}
