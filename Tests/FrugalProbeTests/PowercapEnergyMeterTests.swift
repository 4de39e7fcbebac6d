import Foundation
import XCTest
@testable import FrugalProbe
import FrugalCore

/// RAPL's package energy through powercap, read from a powercap tree of the test's own (this VM
/// has none): the reader's real code on files laid out as the kernel lays them out.
final class PowercapEnergyMeterTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("powercap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func zone(_ directory: String, name: String, energy: UInt64, range: UInt64 = 262_143_328_850) throws {
        let url = root.appendingPathComponent(directory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try "\(name)\n".write(to: url.appendingPathComponent("name"), atomically: true, encoding: .utf8)
        try "\(energy)\n".write(to: url.appendingPathComponent("energy_uj"), atomically: true, encoding: .utf8)
        try "\(range)\n".write(to: url.appendingPathComponent("max_energy_range_uj"), atomically: true, encoding: .utf8)
    }

    func setEnergy(_ directory: String, _ energy: UInt64) throws {
        try "\(energy)\n".write(to: root.appendingPathComponent(directory).appendingPathComponent("energy_uj"), atomically: true, encoding: .utf8)
    }

    func testPackagesAreSummedAndTheirPartsAndPsysLeftOut() throws {
        try zone("intel-rapl:0", name: "package-0", energy: 1_000_000)
        try zone("intel-rapl:0:0", name: "core", energy: 500_000)
        try zone("intel-rapl:1", name: "psys", energy: 9_000_000)
        try zone("intel-rapl:2", name: "package-1", energy: 2_000_000)
        let clock = ClockDouble()
        let meter = PowercapEnergyMeter(root: root.path, clock: { clock.tick() })
        let session = try meter.begin().get()
        try setEnergy("intel-rapl:0", 3_500_000)   // +2.5 J
        try setEnergy("intel-rapl:0:0", 9_500_000) // a part of package-0: not added again
        try setEnergy("intel-rapl:1", 99_000_000)  // psys contains the packages: not added
        try setEnergy("intel-rapl:2", 2_250_000)   // +0.25 J
        let measured = session.end()
        XCTAssertNil(measured.unavailable)
        XCTAssertEqual(try XCTUnwrap(measured.joules), 2.75, accuracy: 1e-9)
        XCTAssertEqual(measured.zones, ["intel-rapl:0 package-0", "intel-rapl:2 package-1"])
        XCTAssertEqual(try XCTUnwrap(measured.seconds), 1, accuracy: 1e-9)
    }

    func testACounterThatWrappedIsUnwrappedAtItsRange() throws {
        try zone("intel-rapl:0", name: "package-0", energy: 999_000, range: 1_000_000)
        let session = try PowercapEnergyMeter(root: root.path).begin().get()
        try setEnergy("intel-rapl:0", 4_000)
        XCTAssertEqual(try XCTUnwrap(session.end().joules), 0.005, accuracy: 1e-9, "1,000 µJ to the wrap, 4,000 after")
    }

    func testNoPowercapIsUnavailableWithTheReason() throws {
        let missing = root.appendingPathComponent("absent").path
        guard case .failure(let reason) = PowercapEnergyMeter(root: missing).begin() else { return XCTFail("no tree, no reading") }
        XCTAssertTrue(reason.description.contains("no RAPL"), reason.description)
        try zone("intel-rapl:1", name: "psys", energy: 1)
        guard case .failure(let noPackage) = PowercapEnergyMeter(root: root.path).begin() else { return XCTFail("no package, no reading") }
        XCTAssertTrue(noPackage.description.contains("no RAPL package zone"), noPackage.description)
    }

    /// The real tree: a reading where the machine has RAPL and the harness may read it (root),
    /// the reason where it has none (this VM) or may not.
    func testTheRealMachineMeasuresOrSaysWhyNot() throws {
        switch PowercapEnergyMeter().begin() {
        case .success(let session):
            let measured = session.end()
            if let joules = measured.joules { XCTAssertGreaterThanOrEqual(joules, 0) } else { XCTAssertNotNil(measured.unavailable) }
        case .failure(let reason):
            XCTAssertFalse(reason.description.isEmpty)
            print("note: no measured energy on this machine: \(reason)")
        }
    }
}

/// A clock that advances one second per reading.
final class ClockDouble: @unchecked Sendable {
    private let lock = NSLock()
    private var now: UInt64 = 0
    func tick() -> UInt64 { lock.withLock { now += 1_000_000_000; return now } }
}
