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

    /// Every quote must stand in the guide (shared/seeds, beside the repository): no invented rules.
    func testEveryQuoteIsTheGuidesOwnWords() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = repository.deletingLastPathComponent().appendingPathComponent("shared/seeds/001_7e638986274ef836.txt")
        guard let text = try? String(contentsOf: guide, encoding: .utf8) else {
            throw XCTSkip("the guide is not at \(guide.path) (shared/ is not beside this checkout)")
        }
        let normalizedGuide = Self.normalize(text)
        for rule in RuleCatalogue.all {
            XCTAssertTrue(normalizedGuide.contains(Self.normalize(rule.guideQuote)), "\(rule.id): quote not found in the guide: \(rule.guideQuote)")
        }
    }

    /// The guide's text has Markdown/HTML markup and line breaks that the quotes leave out.
    static func normalize(_ text: String) -> String {
        var text = text
        for markup in ["`", "<i>", "</i>", "<code>", "</code>", "*"] { text = text.replacingOccurrences(of: markup, with: "") }
        text = text.replacingOccurrences(of: "> /", with: ">/")
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
