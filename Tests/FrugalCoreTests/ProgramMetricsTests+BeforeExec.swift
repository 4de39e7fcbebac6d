import XCTest
@testable import FrugalCore

/// The program's counts start at its execve: what the held child's setup slept before it (its
/// cgroup writes, closing descriptors, locks under load) is in the kernel's exit records but is
/// the harness's, so it is taken off the program's main thread only when the spawned process is
/// the program, and off the run's total always.
final class ProgramSwitchesBeforeExecTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    static func record(root command: String, childOf wrapper: Bool, beforeExec: Int?) -> RunRecord {
        var record = ProgramMetricsTests.record(exits: nil)
        let start = record.startTime
        func exit(_ tid: Int32, _ tgid: Int32, _ ppid: Int32, _ command: String, _ wakeups: Int) -> TaskExit {
            TaskExit(tid: tid, tgid: tgid, ppid: ppid, command: command, voluntarySwitches: wakeups, involuntarySwitches: 1, cpuSeconds: 0.01,
                     readBytes: 0, writeBytes: 0, peakResidentBytes: 1 << 20, startTime: start, endTime: start + s / 100)
        }
        // 10 voluntary switches at exit on the spawned process's main thread, 8 of them before its exec.
        var exits = [exit(10, 10, 1, command, 10)]
        if wrapper { exits.append(exit(11, 11, 10, "sleep", 2)) }
        record.containment?.taskExits = exits
        record.processes?[0].voluntarySwitchesBeforeExec = beforeExec
        return record
    }

    func testTheSpawnedProgramsCountStartsAtItsExec() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(root: "sleep", childOf: false, beforeExec: 8)))
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 2, "10 at exit less the 8 of the setup before the exec")
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.value, 2)
    }

    func testAWrappersChildKeepsItsWholeCountAndTheTotalLosesTheSetup() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(root: "sh", childOf: true, beforeExec: 8)))
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 2, "the program is sleep, forked by sh: nothing of the harness ran in it")
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.value, 4, "sh's 10 and sleep's 2, less sh's 8 before its exec")
    }

    func testAnUnknownSetupIsNotGuessed() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(root: "sleep", childOf: false, beforeExec: nil)))
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 10, "an older record: the kernel's count as it is")
    }

    func testARecordWithoutTheFieldStillDecodes() throws {
        var segment = ProcessSegment(pid: 1, startTime: 0, endTime: 1, exitStatus: nil, resourceUsage: nil)
        segment.voluntarySwitchesBeforeExec = 3
        var json = try XCTUnwrap(try JSONSerialization.jsonObject(with: JSONEncoder().encode(segment)) as? [String: Any])
        XCTAssertEqual(json["voluntarySwitchesBeforeExec"] as? Int, 3)
        json["voluntarySwitchesBeforeExec"] = nil
        let decoded = try JSONDecoder().decode(ProcessSegment.self, from: JSONSerialization.data(withJSONObject: json))
        XCTAssertNil(decoded.voluntarySwitchesBeforeExec)
    }
}
