import ArgumentParser
import Foundation
import FrugalCore

/// `frugal rules`: the rule catalogue.
struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Show the rule catalogue: id, guide section, the guide's words, metric, evidence, when not applicable, control points and their sources, weight.")

    @Flag(help: "Print the catalogue as JSON.")
    var json = false

    func run() throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(RuleCatalogue.all), as: UTF8.self))
            return
        }
        defer { printPacks() }
        print("Overall score: \(DisplayFormat.number(ReportBuilder.weakestAuditShare)) × the weakest applicable audit + \(DisplayFormat.number(1 - ReportBuilder.weakestAuditShare)) × the weighted mean of the categories that have a score (docs/SCORING.md).")
        print("A category's score is the weighted mean of its applicable audits; with none it has no score. An audit that does not apply says why and counts nowhere.")
        print("")
        for category in RuleCategory.allCases {
            print("\(category.title)  (weight \(DisplayFormat.number(category.weight)) in the overall mean)")
            for rule in RuleCatalogue.all where rule.category == category {
                let scoring: String
                switch rule.scoring {
                case .logNormal(let good, let poor): scoring = "0.9 at \(DisplayFormat.number(good)), 0.5 at \(DisplayFormat.number(poor)) \(rule.unit)"
                case .binary(let maxPassing): scoring = "pass at ≤ \(DisplayFormat.number(maxPassing)) \(rule.unit)"
                }
                print("  \(rule.id)\(rule.measured ? "" : "  (planned: not measured yet)")")
                print("    \(rule.guideSection)")
                print("    “\(rule.guideQuote)”")
                print("    measures: \(rule.measures)")
                if let evidence = rule.evidence { print("    evidence: \(evidence)") }
                if let notApplicable = rule.notApplicableWhen { print("    not applicable when: \(notApplicable)") }
                print("    scoring: \(scoring); weight \(DisplayFormat.number(rule.weight))")
                print("    control points' sources: \(rule.calibration)")
            }
        }
    }

    /// The rule packs `--rules` adds beside the guide's audits.
    private func printPacks() {
        print("")
        print("Rule pack '\(AppleLimits.packName)' (--rules \(AppleLimits.packName)): Apple's enforced limits, judged beside the guide's audits, reported apart, never scored")
        for limit in AppleLimits.all {
            print("  \(limit.id)  \(limit.title)")
            print("    limit: \(limit.limit)")
            print("    when it trips: \(limit.action)")
            print("    measures: \(limit.measures)")
            print("    source: \(limit.source)")
        }
    }
}
