import Foundation
import FrugalCore
import Yams

/// What `frugal verdicts --config` expects of one app of `frugal.yml` (its `verdict:` key):
///
/// ```yaml
///   - name: poller.timer
///     verdict: good                                   # passes every audit that applies to it
///   - name: poller.busy
///     verdict: {fails: power.avoid-polling, twin: poller.timer}   # fails this audit; its good twin
/// ```
///
/// The same roles the built-in suite's pairs give its workloads (`WorkloadCatalogue.pairs`), so a
/// project's own corpus of good and bad apps is judged by the same confusion matrix.
public enum AppVerdict: Sendable, Equatable {
    /// Expected to pass (≥ 0.9) every audit that applies to it.
    case good
    /// Expected to fail (< 0.5) `audit`; `twin` is the good app it is compared with overall.
    case bad(audit: String, twin: String)
}

extension ProjectConfig {
    /// The file's bad apps with their audits and good twins, in the file's order.
    public var verdictPairs: [WorkloadPair] {
        apps.compactMap { app in
            guard case .bad(let audit, let twin) = app.verdict else { return nil }
            return WorkloadPair(bad: app.name, good: twin, audit: audit)
        }
    }

    /// The file's good apps that no bad app names as its twin.
    public var goodWithoutTwin: [String] {
        let twins = Set(verdictPairs.map(\.good))
        return apps.filter { $0.verdict == .good && !twins.contains($0.name) }.map(\.name)
    }
}

enum AppVerdictReader {
    /// Parses one app's `verdict:`; `fail` makes the error naming the node's line.
    static func verdict(_ node: Node, label: String, fail: (Node, String) -> ConfigError) throws -> AppVerdict {
        let usage = "\(label): 'verdict' must be good or {fails: AUDIT, twin: GOOD-APP}"
        if let text = node.scalar?.string {
            guard text == "good" else { throw fail(node, usage) }
            return .good
        }
        guard let mapping = node.mapping else { throw fail(node, usage) }
        var audit: String?
        var twin: String?
        for (keyNode, valueNode) in mapping {
            guard let value = valueNode.scalar?.string, !value.isEmpty else { throw fail(valueNode, usage) }
            switch keyNode.scalar?.string ?? "" {
            case "fails":
                guard RuleCatalogue.rule(value) != nil else {
                    throw fail(valueNode, "\(label): verdict fails '\(value)', which is no audit (frugal rules lists them)")
                }
                audit = value
            case "twin": twin = value
            default: throw fail(keyNode, usage)
            }
        }
        guard let audit, let twin else { throw fail(node, usage) }
        return .bad(audit: audit, twin: twin)
    }

    /// Every bad app's twin is an app of the file whose verdict is good.
    static func checkTwins(_ apps: [AppConfig], fail: (Int, String) -> ConfigError) throws {
        for app in apps {
            guard case .bad(_, let twin) = app.verdict else { continue }
            guard let good = apps.first(where: { $0.name == twin }) else {
                throw fail(app.line, "app '\(app.name)': its verdict's twin '\(twin)' is not an app of this file")
            }
            guard good.verdict == .good else {
                throw fail(app.line, "app '\(app.name)': its verdict's twin '\(twin)' must have verdict: good")
            }
        }
    }
}
