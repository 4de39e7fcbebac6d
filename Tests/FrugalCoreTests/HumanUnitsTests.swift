import XCTest
@testable import FrugalCore

final class HumanUnitsTests: XCTestCase {
    func testUnitsAreScaledForReading() {
        XCTAssertEqual(HumanUnits.format(26_001_408, unit: "bytes"), "24.8 MiB")
        XCTAssertEqual(HumanUnits.format(512, unit: "bytes"), "512 B")
        XCTAssertEqual(HumanUnits.format(262_144, unit: "bytes"), "256 KiB")
        XCTAssertEqual(HumanUnits.format(121_602_210_451, unit: "bytes/day"), "113 GiB/day")
        XCTAssertEqual(HumanUnits.format(3.07e-05, unit: "J"), "30.7 µJ")
        XCTAssertEqual(HumanUnits.format(0.0112, unit: "J"), "11.2 mJ")
        XCTAssertEqual(HumanUnits.format(1.21, unit: "W"), "1.21 W")
        XCTAssertEqual(HumanUnits.format(1200, unit: "ms"), "1.2 s")
        XCTAssertEqual(HumanUnits.format(0.0472, unit: "ms"), "47.2 µs")
        XCTAssertEqual(HumanUnits.format(850, unit: "ms"), "850 ms")
        XCTAssertEqual(HumanUnits.format(0, unit: "ms/min"), "0 ms/min", "zero keeps the unit it was measured in")
        XCTAssertEqual(HumanUnits.format(300, unit: "s"), "5 min")
        XCTAssertEqual(HumanUnits.format(1068, unit: "ms/min"), "1.07 s/min")
        XCTAssertEqual(HumanUnits.format(45_000, unit: "count"), "45,000")
        XCTAssertEqual(HumanUnits.format(-1_234_567, unit: "count"), "-1,234,567")
        XCTAssertEqual(HumanUnits.format(0.06, unit: "fraction"), "6 %")
        XCTAssertEqual(HumanUnits.format(4.03, unit: "ratio"), "4.03×")
        XCTAssertEqual(HumanUnits.format(19.5, unit: "1/s"), "19.5/s")
        XCTAssertEqual(HumanUnits.format(3, unit: "widgets"), "3 widgets", "an unknown unit is kept as it is")
    }

    func testTheExactValueKeepsEveryDigit() {
        XCTAssertEqual(HumanUnits.exact(26_001_408, unit: "bytes"), "26001408 bytes")
        XCTAssertEqual(HumanUnits.exact(3.07e-05, unit: "J"), "3.07e-05 J")
        XCTAssertEqual(HumanUnits.exact(2.5, unit: ""), "2.5")
    }
}
