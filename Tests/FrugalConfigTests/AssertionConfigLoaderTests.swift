import XCTest
import FrugalConfig
import FrugalCore

final class AssertionConfigLoaderTests: XCTestCase {
    func testLighthouseCIFormInYAML() throws {
        let yaml = """
        ci:
          assert:
            preset: frugal:recommended
            assertions:
              power.avoid-polling: [error, {maxNumericValue: 0.5}]
              categories:power: [warn, {minScore: 0.9}]
              main.no-long-blocks: off
        """
        let set = try AssertionConfigLoader.parse(yaml, file: "frugal.yml")
        XCTAssertEqual(set.preset, "frugal:recommended")
        let polling = set.assertions.first { $0.target == .audit("power.avoid-polling") }
        XCTAssertEqual(polling, Assertion(target: .audit("power.avoid-polling"), level: .error, maxNumericValue: 0.5))
        XCTAssertEqual(set.assertions.first { $0.target == .category(.power) }?.minScore, 0.9)
        // `off` stays the word, not YAML 1.1's boolean false.
        XCTAssertEqual(set.assertions.first { $0.target == .audit("main.no-long-blocks") }?.level, .off)
        XCTAssertEqual(set.assertions.filter { $0.target == .audit("power.avoid-polling") }.count, 1, "the config overrides the preset")
    }

    func testJSONIsReadToo() throws {
        let json = #"{"assertions": {"lifecycle.launch-time": ["error", {"minScore": 0.9}], "power.avoid-polling": "warn"}}"#
        let set = try AssertionConfigLoader.parse(json, file: "lhci.json")
        XCTAssertNil(set.preset)
        XCTAssertEqual(set.assertions.count, 2)
        // A bare level gets Lighthouse CI's default bound, minScore 0.9.
        XCTAssertEqual(set.assertions.first { $0.target == .audit("power.avoid-polling") }?.minScore, 0.9)
    }

    func assertError(_ text: String, line: Int?, contains fragment: String, file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try AssertionConfigLoader.parse(text, file: "c.yml"), file: file, line: at) { error in
            guard let error = error as? ConfigError else { return XCTFail("\(error)", file: file, line: at) }
            XCTAssertEqual(error.line, line, error.description, file: file, line: at)
            XCTAssertTrue(error.description.contains(fragment), error.description, file: file, line: at)
            XCTAssertTrue(error.description.hasPrefix("c.yml"), file: file, line: at)
            XCTAssertFalse(error.description.contains("\n"), "one line", file: file, line: at)
        }
    }

    func testBadConfigsNameTheLineAndTheProblem() {
        assertError("assertions:\n  power.avoid-polling: [error, {minScore: 2}]\n", line: 2, contains: "minScore must be between 0 and 1")
        assertError("assertions:\n  power.avoid-poling: error\n", line: 2, contains: "unknown audit or category 'power.avoid-poling'")
        assertError("preset: frugal:lax\n", line: 1, contains: "unknown preset 'frugal:lax'")
        assertError("assertions:\n  power.avoid-polling: fatal\n", line: 2, contains: "level 'fatal' is not one of off, warn, error")
        assertError("assertions:\n  power.avoid-polling: [error, {maxScore: 1}]\n", line: 2, contains: "unknown option 'maxScore'")
        assertError("assertions:\n  categories:power: [error, {maxNumericValue: 1}]\n", line: 2, contains: "applies to audits")
        assertError("assertions: [\n  x\n", line: 3, contains: "not valid YAML or JSON")
        assertError("asserts: {}\n", line: 1, contains: "unknown key 'asserts'")
    }

    func testUnreadableFileHasNoLine() {
        XCTAssertThrowsError(try AssertionConfigLoader.load(path: "/nonexistent/frugal.yml")) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/frugal.yml: cannot read the file"), "\(error)")
        }
    }
}
