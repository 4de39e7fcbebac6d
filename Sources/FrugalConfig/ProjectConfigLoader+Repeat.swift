import Foundation
import FrugalCore
import Yams

/// `repeat:` in a scenario's steps: a block of steps run N times in a row, expanded when the file
/// is read, so the run, the report and the timeline see the plain steps
/// (`- repeat: {times: 10, steps: [home, {wait: 2}, foreground, {wait: 1}]}`).
/// It is a form of frugal.yml, not a step kind: nothing downstream needs to know it was written so.
extension ProjectConfigReader {
    /// The most times one `repeat:` runs its block.
    static let maximumRepeatTimes = 1000
    /// The most steps a scenario may have once its repeats are expanded: a scenario is a test of
    /// an app's behaviour, and nested repeats multiply.
    static let maximumScenarioSteps = 10_000

    /// `nodes` as steps, each `repeat:` expanded in place.
    func expandedSteps(_ nodes: [Node], scenario: String) throws -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        for node in nodes {
            guard let block = YAMLText.value(node, "repeat"), node.mapping?.count == 1 else {
                steps.append(try step(node, scenario: scenario))
                continue
            }
            let (times, body) = try repeated(block, scenario: scenario)
            guard steps.count + times * body.count <= Self.maximumScenarioSteps else {
                throw error(node, "scenario '\(scenario)': its repeats make more than \(Self.maximumScenarioSteps) steps")
            }
            for _ in 0..<times { steps += body }
        }
        return steps
    }

    /// A `repeat:` block: `times` (1 to ``maximumRepeatTimes``) and a non-empty `steps` list,
    /// which may hold repeats of its own.
    private func repeated(_ block: Node, scenario: String) throws -> (times: Int, steps: [ScenarioStep]) {
        let form = "repeat needs {times: N, steps: [...]} with N from 1 to \(Self.maximumRepeatTimes)"
        guard let mapping = block.mapping else { throw error(block, "scenario '\(scenario)': \(form)") }
        var times: Int?
        var steps: [ScenarioStep]?
        for (keyNode, valueNode) in mapping {
            switch keyNode.scalar?.string ?? "" {
            case "times":
                guard let count = valueNode.int, (1...Self.maximumRepeatTimes).contains(count) else {
                    throw error(valueNode, "scenario '\(scenario)': \(form), not '\(valueNode.scalar?.string ?? "a collection")'")
                }
                times = count
            case "steps":
                guard let sequence = valueNode.sequence, !sequence.isEmpty else {
                    throw error(valueNode, "scenario '\(scenario)': repeat's steps must be a non-empty list")
                }
                steps = try expandedSteps(Array(sequence), scenario: scenario)
            default:
                throw error(keyNode, "scenario '\(scenario)': unknown key '\(keyNode.scalar?.string ?? "")' in repeat (\(form))")
            }
        }
        guard let times, let steps else { throw error(block, "scenario '\(scenario)': \(form)") }
        return (times, steps)
    }
}
