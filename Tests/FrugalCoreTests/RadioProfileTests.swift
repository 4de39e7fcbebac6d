import Foundation
import XCTest
@testable import FrugalCore

final class RadioProfileTests: XCTestCase {
    private func profileJSON(_ name: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // FrugalCoreTests
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // package root
            .appendingPathComponent("Sources/FrugalCore/Radio/Profiles/\(name).json")
        return try Data(contentsOf: url)
    }

    func testJSONProfilesDecodeToTheBuiltInValues() throws {
        let pairs: [(String, RadioProfile)] = [("lte", .lte), ("threeG", .threeG), ("wifi", .wifi)]
        for (file, builtIn) in pairs {
            let decoded = try JSONDecoder().decode(RadioProfile.self, from: profileJSON(file))
            XCTAssertEqual(decoded, builtIn, "\(file).json has drifted from RadioProfile.\(file)")
        }
    }

    func testAnEditedJSONProfileNoLongerMatches() throws {
        // Guards against the equality above passing vacuously.
        let text = try XCTUnwrap(String(data: profileJSON("lte"), encoding: .utf8))
        XCTAssertTrue(text.contains("\"tailSeconds\" : 11.576"))
        let edited = text.replacingOccurrences(of: "\"tailSeconds\" : 11.576", with: "\"tailSeconds\" : 10.12")
        let decoded = try JSONDecoder().decode(RadioProfile.self, from: Data(edited.utf8))
        XCTAssertNotEqual(decoded, RadioProfile.lte)
    }

    func testEveryConstantHasANoteAndEveryProfileHasSources() {
        for profile in RadioProfile.builtIn {
            XCTAssertFalse(profile.sources.isEmpty, profile.name)
            for key in numericKeys(of: profile) {
                XCTAssertNotNil(profile.notes[key], "\(profile.name) has no note for \(key)")
            }
        }
    }

    func testIdleAveragePower() {
        // LTE: 0.594 W × 0.043 s / 1.28 s = 0.0199546875 W; Wi-Fi: flat 0.02 W; 3G: 0 W.
        XCTAssertEqual(RadioProfile.lte.idleAverageWatts, 0.0199546875, accuracy: 1e-12)
        XCTAssertEqual(RadioProfile.wifi.idleAverageWatts, 0.02, accuracy: 1e-12)
        XCTAssertEqual(RadioProfile.threeG.idleAverageWatts, 0, accuracy: 1e-12)
    }

    func testActiveEnergyIsLinearInMegabits() {
        // 125,000 B = 1 Mbit. Up: 0.43839 J; down: 0.05197 J; plus 2 s × 1.28804 W = 2.57608 J.
        let lte = RadioProfile.lte
        XCTAssertEqual(lte.activeJoules(seconds: 0, uplinkBytes: 125_000, downlinkBytes: 0), 0.43839, accuracy: 1e-12)
        XCTAssertEqual(lte.activeJoules(seconds: 0, uplinkBytes: 0, downlinkBytes: 125_000), 0.05197, accuracy: 1e-12)
        XCTAssertEqual(lte.activeJoules(seconds: 2, uplinkBytes: 125_000, downlinkBytes: 125_000), 3.06644, accuracy: 1e-12)
    }

    func testReportRoundTripsThroughJSON() throws {
        let report = RadioProfile.threeG.model.report(
            for: RadioFixture.transfer(at: 10) + RadioFixture.transfer(at: 22),
            window: ObservationWindow(start: 0, end: 60)
        )
        let decoded = try JSONDecoder().decode(RadioReport.self, from: JSONEncoder().encode(report))
        XCTAssertEqual(decoded, report)
    }

    /// Property names of every number in a profile, nested ones as `parent.child`.
    private func numericKeys(of value: Any, prefix: String = "") -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            guard let label = child.label else { return [] }
            let key = prefix.isEmpty ? label : "\(prefix).\(label)"
            switch child.value {
            case is Double, is Int: return [key]
            case let nested as BurstCriteria: return numericKeys(of: nested, prefix: key)
            default: return []
            }
        }
    }
}
