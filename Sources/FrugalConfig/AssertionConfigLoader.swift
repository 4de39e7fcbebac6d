import Foundation
import FrugalCore
import Yams

/// A config file that cannot be used: the file, the line, and the problem, for one line on
/// standard error (`FILE:LINE: problem`).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based; nil when the problem has no place (an unreadable file).
    public var line: Int?
    public var problem: String

    public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(problem)" }

    public init(file: String, line: Int?, problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }
}

/// Reads assertions in Lighthouse CI's form from YAML or JSON (JSON is read as YAML, so both
/// report line numbers):
///
/// ```yaml
/// ci:
///   assert:
///     preset: frugal:recommended
///     assertions:
///       power.avoid-polling: [error, {maxNumericValue: 0.5}]
///       categories:power: [warn, {minScore: 0.9}]
///       main.no-long-blocks: off
/// ```
/// The `ci:` and `assert:` levels are optional.
public enum AssertionConfigLoader {
    /// Loads the file at `path`.
    public static func load(path: String) throws -> AssertionSet {
        try parse(YAMLText.read(path: path), file: path)
    }

    /// Parses `text`; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> AssertionSet {
        guard let root = try YAMLText.compose(text, file: file) else {
            throw ConfigError(file: file, line: 1, problem: "the file is empty; expected 'preset' or 'assertions'")
        }
        var section = root
        for level in ["ci", "assert"] {
            if let inner = value(section, level) { section = inner }
        }
        guard let mapping = section.mapping else {
            throw ConfigError(file: file, line: line(section), problem: "expected a mapping with 'preset' and/or 'assertions'")
        }
        return try assertionSet(Array(mapping), file: file)
    }

    /// The assertions of a section's `preset` and `assertions` entries (frugal.yml's loader
    /// hands over the section it found).
    static func assertionSet(_ pairs: [(key: Node, value: Node)], file: String) throws -> AssertionSet {
        var preset: AssertionPreset?
        var assertions: [Assertion] = []
        for (keyNode, valueNode) in pairs {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "preset":
                let name = valueNode.scalar?.string ?? ""
                guard let known = AssertionPreset(rawValue: name) else {
                    throw ConfigError(file: file, line: line(valueNode),
                                      problem: "unknown preset '\(name)'; known presets: \(AssertionPreset.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                preset = known
            case "assertions":
                guard let entries = valueNode.mapping else {
                    throw ConfigError(file: file, line: line(valueNode), problem: "'assertions' must be a mapping of audit or category to a level")
                }
                for (targetNode, ruleNode) in entries {
                    assertions.append(try assertion(targetNode, ruleNode, file: file))
                }
            default:
                throw ConfigError(file: file, line: line(keyNode), problem: "unknown key '\(key)'; expected 'preset' or 'assertions'")
            }
        }
        return AssertionSet.merging(preset: preset, overrides: assertions)
    }

    private static func assertion(_ targetNode: Node, _ ruleNode: Node, file: String) throws -> Assertion {
        let name = targetNode.scalar?.string ?? ""
        guard let target = AssertionTarget(name) else {
            throw ConfigError(file: file, line: line(targetNode),
                              problem: "unknown audit or category '\(name)' (see 'frugal rules'; categories are written categories:<id>)")
        }
        // `off`, `warn`, `error` alone, or [level, {minScore, maxNumericValue}].
        let levelNode: Node
        var options: Node?
        if let sequence = ruleNode.sequence {
            guard let first = sequence.first, sequence.count <= 2 else {
                throw ConfigError(file: file, line: line(ruleNode), problem: "'\(name)' must be [level, {options}]")
            }
            levelNode = first
            options = sequence.count == 2 ? sequence[1] : nil
        } else {
            levelNode = ruleNode
        }
        // Read the raw text: YAML 1.1 would otherwise turn `off` into false.
        let levelText = levelNode.scalar?.string ?? ""
        guard let level = AssertionLevel(rawValue: levelText) else {
            throw ConfigError(file: file, line: line(levelNode), problem: "'\(name)': level '\(levelText)' is not one of off, warn, error")
        }
        var result = Assertion(target: target, level: level)
        if let options {
            guard let entries = options.mapping else {
                throw ConfigError(file: file, line: line(options), problem: "'\(name)': options must be a mapping such as {minScore: 0.9}")
            }
            for (keyNode, valueNode) in entries {
                let key = keyNode.scalar?.string ?? ""
                guard let number = valueNode.float, number.isFinite else {
                    throw ConfigError(file: file, line: line(valueNode), problem: "'\(name)': \(key) must be a number, not '\(valueNode.scalar?.string ?? "a collection")'")
                }
                switch key {
                case "minScore":
                    guard (0...1).contains(number) else {
                        throw ConfigError(file: file, line: line(valueNode), problem: "'\(name)': minScore must be between 0 and 1, not \(number)")
                    }
                    result.minScore = number
                case "maxNumericValue":
                    guard case .audit = target else {
                        throw ConfigError(file: file, line: line(keyNode), problem: "'\(name)': maxNumericValue applies to audits, not categories")
                    }
                    result.maxNumericValue = number
                default:
                    throw ConfigError(file: file, line: line(keyNode), problem: "'\(name)': unknown option '\(key)'; expected minScore or maxNumericValue")
                }
            }
        }
        if level != .off && result.minScore == nil && result.maxNumericValue == nil {
            // Lighthouse CI's default bound for a bare level.
            result.minScore = 0.9
        }
        return result
    }

    private static func value(_ node: Node, _ key: String) -> Node? { YAMLText.value(node, key) }

    private static func line(_ node: Node) -> Int? { YAMLText.line(node) }
}
