import Foundation
import XCTest
@testable import FrugalCore

final class RuleCatalogueTests: XCTestCase {
    func testIDsAreUniqueAndNamedByCategory() {
        let ids = RuleCatalogue.all.map(\.id)
        XCTAssertEqual(Set(ids).count, ids.count, "duplicate rule ids")
        for rule in RuleCatalogue.all {
            let prefix = rule.category == .responsiveness ? "main" : rule.category.rawValue
            XCTAssertTrue(rule.id.hasPrefix(prefix + "."), "\(rule.id) is not in category \(rule.category)")
        }
    }

    func testEveryAuditHasARuleAndIsMarkedMeasured() {
        for audit in Audits.all {
            XCTAssertTrue(audit.rule.measured, "\(audit.rule.id) is audited but marked planned")
        }
        let audited = Set(Audits.all.map(\.rule.id))
        for rule in RuleCatalogue.all where rule.measured {
            XCTAssertTrue(audited.contains(rule.id), "\(rule.id) is marked measured but has no audit")
        }
    }

    func testControlPointsAreOrdered() {
        for rule in RuleCatalogue.all {
            if case .logNormal(let good, let poor) = rule.scoring {
                XCTAssertGreaterThan(good, 0, rule.id)
                XCTAssertGreaterThan(poor, good, rule.id)
            }
        }
    }

    /// The repository's root, from this file's path (Tests/FrugalCoreTests/…).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `docs/guide-excerpts.md`: the guide's sentences, copied word for word, under `## chapter › section`
    /// headings, each excerpt a `> ` line. Returns each section's excerpts, normalized.
    static func guideExcerpts() throws -> [String: [String]] {
        let text = try String(contentsOf: repository.appendingPathComponent("docs/guide-excerpts.md"), encoding: .utf8)
        var excerpts: [String: [String]] = [:]
        var section: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                section = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("> "), let section {
                excerpts[section, default: []].append(normalize(String(line.dropFirst(2))))
            }
        }
        return excerpts
    }

    /// No invented rules: every rule's quote stands word for word in `docs/guide-excerpts.md`, the
    /// guide's sentences kept in this repository, under the section the rule names. (Whether those
    /// excerpts are the guide's own words is the next test's, given the guide's text.)
    func testEveryQuoteStandsInTheGuideExcerpts() throws {
        let excerpts = try Self.guideExcerpts()
        XCTAssertFalse(excerpts.isEmpty, "docs/guide-excerpts.md holds no excerpts")
        for rule in RuleCatalogue.all {
            guard let sectionExcerpts = excerpts[rule.guideSection] else {
                XCTFail("\(rule.id): docs/guide-excerpts.md has no section '\(rule.guideSection)'")
                continue
            }
            let quote = Self.normalize(rule.guideQuote)
            XCTAssertTrue(sectionExcerpts.contains { $0.contains(quote) },
                          "\(rule.id): quote not found under '\(rule.guideSection)' in docs/guide-excerpts.md: \(rule.guideQuote)")
        }
    }

    /// The excerpts against the guide itself, which is Apple's and not in this repository: given its
    /// text in `FRUGAL_GUIDE` (a path), every excerpt must stand in it word for word (markup aside).
    func testGuideExcerptsAreTheGuidesOwnWords() throws {
        guard let path = ProcessInfo.processInfo.environment["FRUGAL_GUIDE"] else {
            throw XCTSkip("FRUGAL_GUIDE is not set: the excerpts were not checked against the guide's text (the rule quotes were, against the excerpts)")
        }
        let guide = Self.normalize(try String(contentsOfFile: path, encoding: .utf8))
        for (section, sectionExcerpts) in try Self.guideExcerpts() {
            for excerpt in sectionExcerpts {
                XCTAssertTrue(guide.contains(excerpt), "docs/guide-excerpts.md, '\(section)': not in \(path): \(excerpt)")
            }
        }
    }

    /// docs/RULES.md summarises the catalogue: one table row per rule, quoting it as the code does,
    /// and no row for a rule the code does not have.
    func testRulesPageHasARowForEveryRule() throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
        var rows: [String: String] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let id = line.dropFirst(3).prefix { $0 != "`" }
            XCTAssertNil(rows[String(id)], "docs/RULES.md has two rows for \(id)")
            rows[String(id)] = Self.normalize(String(line))
        }
        XCTAssertEqual(Set(rows.keys), Set(RuleCatalogue.all.map(\.id)), "docs/RULES.md's rows and the catalogue differ")
        for rule in RuleCatalogue.all {
            guard let row = rows[rule.id] else { continue }
            XCTAssertTrue(row.contains(Self.normalize(rule.guideQuote)), "docs/RULES.md, \(rule.id): the guide's words differ from the code's")
        }
    }

    /// The guide's text has Markdown/HTML markup, table cells and line breaks that the quotes leave out.
    static func normalize(_ text: String) -> String {
        var text = text
        for markup in ["`", "<i>", "</i>", "<code>", "</code>", "*"] { text = text.replacingOccurrences(of: markup, with: "") }
        text = text.replacingOccurrences(of: "> /", with: ">/")
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
