import Foundation
import Yams

/// The one place Frugal's config files are parsed from text: every loader goes through
/// `compose`, so limits on what a file may make the parser do (its size, its aliases) are set here.
enum YAMLText {
    /// The YAML (or JSON) document in `text`, or nil when it is empty; `file` names it in errors.
    static func compose(_ text: String, file: String) throws -> Node? {
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw ConfigError(file: file, line: nil, problem: "\(error)")
        }
    }

    /// The text of the file at `path`, or a `ConfigError` naming it.
    static func read(path: String) throws -> String {
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, line: nil, problem: "cannot read the file (\(error.localizedDescription))")
        }
    }

    /// A node's 1-based line.
    static func line(_ node: Node) -> Int? { node.mark?.line }

    /// The value under `key` in a mapping node.
    static func value(_ node: Node, _ key: String) -> Node? {
        node.mapping?.first { $0.key.scalar?.string == key }?.value
    }

    private static func syntaxError(_ error: YamlError, file: String) -> ConfigError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return ConfigError(file: file, line: mark.line, problem: "not valid YAML or JSON: \(problem)")
        default:
            return ConfigError(file: file, line: nil, problem: "not valid YAML or JSON: \(error)")
        }
    }
}
