import Foundation
import XCTest
import FrugalTestSupport

/// No stub runs in the measured process: `frugal run -- sleep 0.003` starts the program directly
/// in its cgroup (clone3 `CLONE_INTO_CGROUP`), so its `run.wallSeconds` is its own wall time,
/// no more than 2 ms over the same command started by `posix_spawn` and waited for here, the fastest of 5
/// each (both ends are a blocked thread's wakeup, which a loaded machine delays by tens of ms in
/// any one run: the fastest is the one the scheduler did not delay). The old `/bin/sh` stub added
/// 11–16 ms, a copy-on-write child's exec 10–16 ms late in a test run. Checked through the CLI, the harness a user runs: its process is as large as a
/// suite's first runs make it, where a test process late in the suite is far larger
/// (BlackBoxRunTests.testAShortProgramsWallTimeAndWakeupsAreItsOwn says why that matters).
final class ProgramWallTimeCLITests: XCTestCase {
    func testAShortProgramsWallTimeIsItsOwn() throws {
        // Without a run cgroup the program is started in a process group instead, which the
        // report says (processes.spawn); the comparison holds for either path.
        let command = ["/bin/sleep", "0.003"]
        let spawned = DirectSpawn.wallSeconds(of: command, times: 5)
        XCTAssertFalse(spawned.contains(nil), "posix_spawn of \(command[0]) failed")
        let direct = spawned.compactMap { $0 }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-wall-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        var measured: [Double] = []
        for index in 0..<5 {
            let out = directory.appendingPathComponent("run\(index)").path
            let result = try CLITests.frugal(["run", "--no-history", "--no-trace", "--quiet", "--out", out, "--"] + command)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any]
            let runs = try XCTUnwrap(json?["runs"] as? [[String: Any]])
            let metrics = try XCTUnwrap(runs.first?["metrics"] as? [String: Any])
            measured.append(try XCTUnwrap((metrics["run.wallSeconds"] as? [String: Any])?["value"] as? Double))
        }
        // The bound, 2 ms. The held child shares the harness's memory until its exec
        // (CLONE_VM), so the exec no longer tears down a copy of it (that was 10-16 ms late in a
        // test run). Beside CPU hogs (more than 2 runnable tasks per core) the harness's own
        // threads, which start with the program (sampler, outside watch), compete with it for a
        // CPU and cost the fastest run 0.5-4 ms more: 5 ms there, still under half the old stub's
        // 11-16 ms.
        // One-sided: what the issue bounds is what frugal adds. The reference can only be late
        // (posix_spawn from this test process, far larger than `frugal`, at the end of a lane:
        // its fastest of 5 read 7.2 ms where frugal's read 5.2 ms, at load 1.5 per core), and a
        // late reference hides no stub. Below, the program's own 3 ms sleep: a wall time under it
        // was not measured from the program's start to its end.
        let load = CLITests.loadPerCore()
        let bound = load > 2 ? 0.005 : 0.002
        XCTAssertLessThanOrEqual(measured.min()!, direct.min()! + bound,
                                 "frugal run \(measured), posix_spawn \(direct), load \(load) per core")
        XCTAssertGreaterThanOrEqual(measured.min()!, 0.003, "frugal run \(measured): shorter than the program's sleep")
    }
}
