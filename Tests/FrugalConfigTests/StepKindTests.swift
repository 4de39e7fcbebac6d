import Foundation
import XCTest
import FrugalConfig
import FrugalCore

/// Every step kind is declared once (`StepKind`): each one, enumerated from the registry, reads
/// from a frugal.yml into the step it declares, writes back to the same JSON, and says what it is.
/// A kind whose factory or Codable form drifted from its declaration fails here.
final class StepKindTests: XCTestCase {
    /// An argument of `kind`'s form that its own check accepts, and how frugal.yml writes it.
    func sample(_ kind: StepKind) throws -> (argument: StepArgument, yaml: String) {
        switch kind.form {
        case .none: return (.none, "")
        case .seconds: return (.seconds(2.5), "2.5")
        case .bytes: return (.bytes(48 * 1_048_576), "48MiB")
        case .level: return (.level(.critical), "critical")
        case .text:
            let text = try XCTUnwrap(["tap", "lte"].first { kind.problem(with: .text($0)) == nil }, "\(kind.name) accepts no sample text")
            return (.text(text), text)
        }
    }

    func parse(_ steps: [String]) throws -> [ScenarioStep] {
        let yaml = "scenarios:\n  one:\n    steps:\n" + steps.map { "      - \($0)\n" }.joined()
        let directory = FileManager.default.temporaryDirectory
        let config = try ProjectConfigLoader.parse(yaml, file: "frugal.yml", directory: directory)
        return try XCTUnwrap(config.scenario(named: "one")).steps
    }

    func testEveryKindRoundTripsThroughFrugalYml() throws {
        XCTAssertEqual(StepKind.all.count, 17, "a kind was added or lost: update this count with the new kind's test")
        for kind in StepKind.all {
            let (argument, yaml) = try sample(kind)
            let expected = try XCTUnwrap(kind.step(argument), "\(kind.name) cannot be built from its own form")
            XCTAssertEqual(expected.kind.name, kind.name, "\(kind.name) builds a step of another kind")
            XCTAssertEqual(expected.argument, argument, kind.name)
            let line = kind.form == .none ? kind.name : "\(kind.name): \(yaml)"
            let read = try parse(["launch", line, "terminate"])
            XCTAssertEqual(read, [.launch, expected, .terminate], line)

            let json = try JSONEncoder().encode(expected)
            XCTAssertEqual(try JSONDecoder().decode(ScenarioStep.self, from: json), expected, "\(kind.name) through JSON")
            let written = String(decoding: json, as: UTF8.self)
            XCTAssertTrue(written.contains("\"\(kind.name)\""), "\(kind.name) writes its own name: \(written)")

            if let bare = kind.bareArgument {
                XCTAssertEqual(try parse(["launch", kind.name]).last, kind.step(bare), "bare \(kind.name)")
            } else {
                XCTAssertThrowsError(try parse(["launch", kind.name]), "\(kind.name) needs an argument")
            }
        }
    }

    func testEveryKindSaysWhatItIsAndHasOneName() {
        var names: Set<String> = []
        for kind in StepKind.all {
            XCTAssertTrue(names.insert(kind.name).inserted, "\(kind.name) declared twice")
            XCTAssertGreaterThan(kind.summary.count, 10, "\(kind.name) has no summary")
            XCTAssertFalse(kind.summary.hasPrefix(kind.name + "("), "\(kind.name)'s summary is its short form")
            XCTAssertEqual(StepKind.named(kind.name)?.name, kind.name)
            if let timedBy = kind.timedBy { XCTAssertFalse(timedBy.isEmpty, kind.name) }
        }
    }

    /// Every step the built-in scenarios use is a registered kind (a case added to
    /// `ScenarioStep` without its `StepKind.all` line would be missing here).
    func testBuiltInScenariosUseOnlyRegisteredKinds() {
        let registered = Set(StepKind.all.map(\.name))
        for scenario in ScenarioCatalogue.all {
            for step in scenario.steps {
                XCTAssertTrue(registered.contains(step.name), "\(scenario.name) uses \(step.name)")
            }
        }
    }

    /// Facts that the scheduler, the memory cgroup and the timeline read from the kinds.
    func testFactsTheHarnessReads() {
        XCTAssertEqual(Set(StepKind.all.filter(\.needsMemoryCgroup).map(\.name)), ["pressure", "balloon"])
        XCTAssertEqual(Set(StepKind.all.filter(\.needsMachine).map(\.name)), ["pressure", "balloon", "memoryWarning"])
        XCTAssertEqual(Set(StepKind.all.filter { !$0.appliesToBlackBox }.map(\.name)), ["interrupt", "notify"])
        // What the scheduler's step gate holds the machine for: the steps whose time an audit reads.
        XCTAssertEqual(Set(StepKind.all.filter(\.isTimingJudged).map(\.name)), ["launch", "relaunch", "input", "terminate", "foreground", "background"])
        let scenario = Scenario(name: "s", summary: "", steps: [.launch, .wait(seconds: 2), .interrupt(seconds: 1.5), .terminate])
        XCTAssertEqual(scenario.waitSeconds, 3.5)
    }

    /// A bare name that takes an argument, or none at all, lists the bare names in order.
    func testAnUnknownBareStepListsTheBareOnes() {
        XCTAssertThrowsError(try parse(["launch", "wait"])) { error in
            XCTAssertTrue("\(error)".contains("launch, terminate, interrupt, home, foreground, kill, relaunch"), "\(error)")
        }
        XCTAssertThrowsError(try parse(["launch", "network: nowhere"])) { error in
            XCTAssertTrue("\(error)".contains("unknown network profile 'nowhere'"), "\(error)")
        }
    }

    /// `mark: NAME` (the kind added through the one-declaration path): read from frugal.yml into
    /// a step of its own, drawn with its name, and refused when its name is no label.
    func testAMarkIsANamedLabelOnTheTimeline() throws {
        let read = try parse(["launch", "mark: after-sync", "terminate"])
        XCTAssertEqual(read, [.launch, .mark("after-sync"), .terminate])
        XCTAssertEqual(read[1].description, "mark(after-sync)")
        XCTAssertFalse(StepKind.mark.isTimingJudged)
        XCTAssertTrue(StepKind.mark.appliesToBlackBox)
        XCTAssertEqual(StepKind.mark.label, .argument(prefix: "mark "))
        for bad in ["\"\"", String(repeating: "m", count: StepKind.maximumMarkLength + 1), "\"two\\nlines\""] {
            XCTAssertThrowsError(try parse(["launch", "mark: \(bad)"]), bad) { error in
                XCTAssertTrue("\(error)".contains("a mark's name is 1 to 64 characters"), "\(error)")
            }
        }
        XCTAssertNil(StepKind.mark.problem(with: .text(String(repeating: "m", count: StepKind.maximumMarkLength))))
    }

    /// `background: SECONDS` (an app switch): read from frugal.yml into one step, refused bare or
    /// out of the seconds' range as a wait is, its seconds counted in the scenario's length, and
    /// timed (its resume), so the step gate holds the machine for it.
    func testABackgroundIsAnAppSwitchReadFromFrugalYml() throws {
        let read = try parse(["launch", "background: 2.5", "terminate"])
        XCTAssertEqual(read, [.launch, .background(seconds: 2.5), .terminate])
        XCTAssertEqual(read[1].description, "background(2.5)")
        XCTAssertEqual(Scenario(name: "s", summary: "", steps: read).waitSeconds, 2.5)
        XCTAssertTrue(StepKind.background.isTimingJudged)
        XCTAssertTrue(StepKind.background.appliesToBlackBox)
        XCTAssertThrowsError(try parse(["launch", "background"]), "needs its seconds")
        for (bad, problem) in [("-1", "background needs a number of seconds from 0 to 3600"),
                               ("3601", "background needs a number of seconds from 0 to 3600"),
                               ("soon", "'background' needs a number")] {
            XCTAssertThrowsError(try parse(["launch", "background: \(bad)"]), bad) { error in
                XCTAssertTrue("\(error)".contains(problem), "\(error)")
                XCTAssertTrue("\(error)".contains("frugal.yml:5"), "names the step's line: \(error)")
            }
        }
    }

    /// A step holds an argument of its kind's form only: the one way to build one from values checks it.
    func testAStepRefusesAnArgumentOfAnotherForm() {
        XCTAssertNil(ScenarioStep(kind: .wait, argument: .text("soon")))
        XCTAssertNil(ScenarioStep(kind: .launch, argument: .seconds(1)))
        XCTAssertEqual(ScenarioStep(kind: .wait, argument: .seconds(1)), .wait(seconds: 1))
        XCTAssertNotEqual(ScenarioStep.input(kind: "tap"), .notify(name: "tap"), "same argument, other kind")
    }
}
