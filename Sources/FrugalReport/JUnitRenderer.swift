import FrugalCore

/// Renders a report as JUnit XML for CI test views: one `<testsuite>` per workload and
/// scenario, one `<testcase>` per audit.
///
/// When does an audit's test case fail?
/// - If the report carries assertions (`--config`): exactly when an `error`-level assertion on
///   that audit fails. `warn` failures go to `<system-out>`; the test case passes.
/// - Otherwise: when the audit's median score is below 0.5 (the fail band).
/// - In both cases also when a comparison against a baseline found the audit regressed.
/// An audit with no score (not applicable, unavailable here) is `<skipped>` with the reason.
/// Category assertions and metric regressions get test cases of their own
/// (`categories:<id>`, `regression:<metric>`).
public enum JUnitRenderer {
    public static func render(_ report: Report) -> String {
        let assertions = report.assertions
        let regressions = report.comparison?.regressions ?? []
        var suites: [String] = []
        var totalTests = 0, totalFailures = 0, totalSkipped = 0
        for result in report.results {
            var cases: [String] = []
            var failures = 0, skipped = 0
            let className = x(result.workload + "." + result.scenario)
            let checks = assertions?.results.filter { $0.workload == result.workload && $0.scenario == result.scenario } ?? []
            for audit in result.audits.values.sorted(by: { $0.id < $1.id }) {
                var problems: [String] = []
                var notes: [String] = []
                if assertions != nil {
                    for check in checks where check.target == audit.id && !check.passed {
                        if check.level == .error { problems.append("assertion (error): " + check.message) } else { notes.append("assertion (warn): " + check.message) }
                    }
                } else if let score = audit.score, score < 0.5 {
                    problems.append("score \(Int((score * 100).rounded())) is below 50 (fail band): \(audit.displayValue)")
                }
                for regression in regressions where regression.kind == .audit && regression.name == audit.id
                    && regression.workload == result.workload && regression.scenario == result.scenario {
                    problems.append("regressed against the baseline: \(regression.reason)")
                }
                var body = ""
                if !problems.isEmpty {
                    failures += 1
                    body += "<failure message=\"\(x(problems[0]))\" type=\"frugal\">\(x(problems.joined(separator: "\n")))</failure>"
                } else if audit.score == nil {
                    skipped += 1
                    body += "<skipped message=\"\(x(audit.explanation ?? audit.displayValue))\"/>"
                }
                let out = (["\(audit.displayValue) (score \(audit.score.map { String(Int(($0 * 100).rounded())) } ?? "–"))"] + notes).joined(separator: "\n")
                body += "<system-out>\(x(bounded(out)))</system-out>"
                cases.append("<testcase classname=\"\(className)\" name=\"\(x(audit.id))\" time=\"0\">\(body)</testcase>")
            }
            for check in checks where check.target.hasPrefix("categories:") {
                var body = ""
                if !check.passed && check.level == .error {
                    failures += 1
                    body = "<failure message=\"\(x(check.message))\" type=\"frugal\"/>"
                } else {
                    body = "<system-out>\(x(bounded(check.message)))</system-out>"
                }
                cases.append("<testcase classname=\"\(className)\" name=\"\(x(check.target + " " + check.bound))\" time=\"0\">\(body)</testcase>")
            }
            for regression in regressions where regression.kind == .metric && regression.workload == result.workload && regression.scenario == result.scenario {
                failures += 1
                cases.append("<testcase classname=\"\(className)\" name=\"\(x("regression:" + regression.name))\" time=\"0\"><failure message=\"\(x(regression.reason))\" type=\"frugal\"/></testcase>")
            }
            totalTests += cases.count
            totalFailures += failures
            totalSkipped += skipped
            suites.append("  <testsuite name=\"\(x(result.workload + " · " + result.scenario))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"0\">\n    "
                          + cases.joined(separator: "\n    ") + "\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"frugal\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\" skipped=\"\(totalSkipped)\">\n"
            + suites.joined(separator: "\n") + "\n</testsuites>\n"
    }

    /// CI views show `<system-out>` as a PR comment or a log section: the same bound as
    /// `summary.md`.
    public static let systemOutLimit = MarkdownSummaryRenderer.characterLimit

    /// `text`, cut to at most `limit` UTF-16 code units with a note saying so.
    static func bounded(_ text: String, limit: Int = systemOutLimit) -> String {
        guard text.utf16.count > limit else { return text }
        let note = "\n… cut at \(limit) characters: see report.html"
        var kept = ""
        var used = note.utf16.count
        for character in text {
            let size = String(character).utf16.count
            guard used + size <= limit else { break }
            kept.append(character)
            used += size
        }
        return kept + note
    }

    /// Escapes text for XML text and attributes, dropping characters XML 1.0 cannot hold.
    static func x(_ text: String) -> String {
        let allowed = String(String.UnicodeScalarView(text.unicodeScalars.filter { scalar in
            scalar.value == 0x9 || scalar.value == 0xA || scalar.value == 0xD || (scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF)
        }))
        return HTMLEscaping.escape(allowed)
    }
}
