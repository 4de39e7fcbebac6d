import XCTest
@testable import FrugalCore

final class BundleResourceTests: XCTestCase {
    func testAnyRangeEqualsTheSameSliceOfTheWhole() {
        for content in [BundleResource.Content.pattern, .random] {
            let resource = BundleResource(path: "a.bin", bytes: 100, content: content, seed: 7)
            let whole = resource.contents(offset: 0, count: 100)
            XCTAssertEqual(whole.count, 100)
            XCTAssertEqual(resource.contents(offset: 13, count: 29), Array(whole[13..<42]), "\(content)")
            XCTAssertEqual(resource.contents(offset: 95, count: 50), Array(whole[95..<100]), "clipped at the end")
            XCTAssertEqual(resource.contents(offset: 100, count: 5), [])
        }
    }

    func testSeedChangesRandomContentAndPatternIsPrintable() {
        let a = BundleResource(path: "a", bytes: 64, content: .random, seed: 1).contents(offset: 0, count: 64)
        let b = BundleResource(path: "a", bytes: 64, content: .random, seed: 2).contents(offset: 0, count: 64)
        XCTAssertNotEqual(a, b)
        XCTAssertGreaterThan(Set(a).count, 32, "random bytes are varied")
        let pattern = BundleResource(path: "p", bytes: 1000, content: .pattern).contents(offset: 0, count: 1000)
        XCTAssertTrue(pattern.allSatisfy { $0 >= 33 && $0 < 127 })
    }
}
