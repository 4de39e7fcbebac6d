import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore

final class PeakResidentTests: XCTestCase {
    /// glibc's posix_spawn runs the child in the parent's address space until exec, and the kernel
    /// folds that address space's peak into the child's `ru_maxrss`. The app's peak must be its
    /// own: here the harness (this test process) holds 256 MiB while the idle app runs.
    func testThePeakIsTheAppsOwnNotTheHarnesss() throws {
        let size = 256 << 20
        let ballast = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
        defer { ballast.deallocate() }
        for offset in stride(from: 0, to: size, by: 4096) { ballast.storeBytes(of: 1, toByteOffset: offset, as: UInt8.self) }
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .builtIn(name: "idle"), scenario: ScenarioRunnerTests.short, repetition: 1))
        let peak = try XCTUnwrap(ReportBuilder.runReport(record).metrics[MetricName.memoryPeakResidentBytes])
        XCTAssertEqual(peak.source, "proc:status.VmHWM")
        let bytes = try XCTUnwrap(peak.value)
        XCTAssertGreaterThan(bytes, Double(1 << 20), "an app has some resident memory")
        XCTAssertLessThan(bytes, Double(128 << 20), "the idle app does not hold the harness's 256 MiB")
        blackHole(ballast.load(fromByteOffset: size - 4096, as: UInt8.self))
    }

    @inline(never) func blackHole(_ value: UInt8) { _ = value }
}
