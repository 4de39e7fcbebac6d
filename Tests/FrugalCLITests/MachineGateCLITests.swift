import Foundation
import XCTest

/// Two `frugal run`s on one machine that name the same gate (`FRUGAL_MACHINE_GATE`) take turns:
/// each black-box program has the machine to itself (a program's run is exclusive), so two 1 s
/// programs started together take at least 2 s in all. Without the gate they overlap (about 1 s),
/// which is not asserted: only the lower bound, which load can only lengthen.
final class MachineGateCLITests: XCTestCase {
    func testTwoRunsSharingTheGateTakeTurns() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-gate-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let gate = [ "FRUGAL_MACHINE_GATE": scratch.appendingPathComponent("gate").path ]
        let started = Date()
        let results = LockedResults()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let out = scratch.appendingPathComponent("run\(index)").path
            results.set(index, Result { try CLITests.run(CLITests.binary, ["run", "--no-history", "--quiet", "--out", out, "--", "sleep", "1"],
                                                          adding: gate) })
        }
        let elapsed = Date().timeIntervalSince(started)
        for index in 0..<2 {
            let result = try XCTUnwrap(results.get(index)).get()
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        XCTAssertGreaterThanOrEqual(elapsed, 1.95, "two 1 s programs sharing the gate overlapped")
    }

    func testAGateFileThatCannotBeMadeIsOneLineAndExitOne() throws {
        let result = try CLITests.run(CLITests.binary, ["run", "--no-history", "--quiet", "--out", "/tmp/frugal-gate-never", "--", "true"],
                                      adding: ["FRUGAL_MACHINE_GATE": "/no/such/dir/gate"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("FRUGAL_MACHINE_GATE=/no/such/dir/gate"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/frugal-gate-never/report.json"))
    }

    // @unchecked: every field is read and written holding `lock`.
    final class LockedResults: @unchecked Sendable {
        let lock = NSLock()
        private var results: [Int: Swift.Result<CLITests.Result, Error>] = [:]
        func set(_ index: Int, _ result: Swift.Result<CLITests.Result, Error>) { lock.withLock { results[index] = result } }
        func get(_ index: Int) -> Swift.Result<CLITests.Result, Error>? { lock.withLock { results[index] } }
    }
}
