import XCTest
@testable import FrugalCore

/// A black-box program's metrics on a hand-made record: the whole tree from the kernel's exit
/// records, the program's own main thread past a wrapper, and "not seen" never read as zero.
final class ProgramMetricsTests: XCTestCase {
    static let s: UInt64 = 1_000_000_000

    /// `sh -c "wake; true"`: sh (3 wakeups) waits for wake (200 on its main thread, 7 on another
    /// thread); the cgroup counted 0.5 s of CPU; the proxy saw nothing.
    static func record(exits: [TaskExit]?, lost: Bool = false) -> RunRecord {
        let start = 1 * s
        func exit(_ tid: Int32, _ tgid: Int32, _ ppid: Int32, _ command: String, _ from: UInt64, _ to: UInt64, _ wakeups: Int) -> TaskExit {
            TaskExit(tid: tid, tgid: tgid, ppid: ppid, command: command, voluntarySwitches: wakeups, involuntarySwitches: 1, cpuSeconds: 0.1,
                     readBytes: 0, writeBytes: 4096, peakResidentBytes: 8 << 20, startTime: from, endTime: to)
        }
        var record = RunRecord(workload: "sh -c wake", scenario: "command", repetition: 1, startTime: start, endTime: start + 4 * s, pid: 10,
                               steps: [StepRecord(index: 0, step: .launch, start: start, end: start)], events: [], samples: [],
                               outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0),
                               resourceUsage: ResourceUsage(userSeconds: 0.1, systemSeconds: 0, voluntaryContextSwitches: 3,
                                                            involuntaryContextSwitches: 0, maxResidentBytes: 0, majorFaults: 0, minorFaults: 0),
                               blackBox: true, network: NetworkRecord(proxyAddress: "127.0.0.1:1", radio: .lte, trace: ProxyTrace(), origin: OriginStatistics(),
                                                                conditions: [], faults: []))
        var segment = ProcessSegment(pid: 10, startTime: start, endTime: start + 4 * s, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        segment.mainThreadWakeupsAtExit = 3
        record.processes = [segment]
        let tree = [exit(10, 10, 1, "sh", start, start + 4 * s, 3), exit(11, 11, 10, "wake", start + s / 100, start + 4 * s - 1, 200),
                    exit(12, 11, 10, "wake", start + s / 100, start + 3 * s, 7)]
        record.containment = RunContainmentFacts(kind: "cgroup-v2", cgroupPath: "/x", cgroupCPUSeconds: 0.5,
                                                 taskExits: exits ?? (lost ? nil : tree),
                                                 taskExitsUnavailable: exits == nil && lost ? "dropped" : nil)
        return record
    }

    static var fullTree: [TaskExit] { record(exits: nil).containment!.taskExits! }

    func testTheWholeTreeAndTheProgramsOwnMainThread() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(exits: Self.fullTree)))
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.value, 210)
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.source, MetricExtraction.Source.taskstatsVoluntary)
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 200, "wake's main thread, not sh's")
        XCTAssertEqual(metrics[MetricName.cpuTimeSeconds]?.value, 0.5)
        XCTAssertEqual(metrics[MetricName.cpuTimeSeconds]?.source, MetricExtraction.Source.cgroupCPU)
        XCTAssertEqual(metrics[MetricName.diskPhysicalBytesWritten]?.value, 3 * 4096)
        XCTAssertEqual(metrics[MetricName.memoryPeakResidentBytes]?.value, Double(8 << 20))
        let report = ReportBuilder.runReport(Self.record(exits: Self.fullTree))
        XCTAssertEqual(report.processes?.wrapperChain, ["sh", "wake"])
    }

    /// The write budget judges what reached storage in the run, never multiplied out to a day: a
    /// program that wrote 10 MiB in a 1 s run was once projected to 2.4 × 10¹³ bytes/day.
    func testTheWriteBudgetIsNotExtrapolatedAndCountsStorageNotSockets() throws {
        func exit(writeBytes: Int, writeCharacters: Int) -> TaskExit {
            var exit = TaskExit(tid: 11, tgid: 11, ppid: 1, command: "writer", voluntarySwitches: 5, involuntarySwitches: 1, cpuSeconds: 0.1,
                                readBytes: 0, writeBytes: writeBytes, peakResidentBytes: 8 << 20, startTime: 1 * Self.s, endTime: 2 * Self.s)
            exit.writeCharacters = writeCharacters
            exit.writeSyscalls = 10
            return exit
        }
        var writer = Self.record(exits: [exit(writeBytes: 10 << 20, writeCharacters: 10 << 20)])
        writer.endTime = writer.startTime + Self.s
        let metrics = MetricExtraction.metrics(of: RunAnalysis(writer))
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.value, Double(10 << 20), "a 1 s run is judged on what it wrote")
        XCTAssertEqual(metrics[MetricName.diskBytesWrittenPerDay]?.source, MetricExtraction.Source.taskstatsWriteBytes)
        let budget = try XCTUnwrap(ReportBuilder.runReport(writer).audits["disk.write-budget"])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(budget.score), 0.9, "10 MiB is within the budget: \(budget)")

        // Only sockets: 50 MB of write characters, nothing reached storage.
        var talker = Self.record(exits: [exit(writeBytes: 0, writeCharacters: 50_000_000)])
        talker.endTime = talker.startTime + Self.s
        let talkerMetrics = MetricExtraction.metrics(of: RunAnalysis(talker))
        XCTAssertEqual(talkerMetrics[MetricName.diskBytesWrittenPerDay]?.value, 0, "socket writes are not disk writes")
        let talkerBudget = try XCTUnwrap(ReportBuilder.runReport(talker).audits["disk.write-budget"])
        XCTAssertNil(talkerBudget.score, "not applicable: nothing reached storage: \(talkerBudget)")
    }

    func testWithoutExitRecordsTheSpawnedProcessAtExitIsUsedAndSaysSo() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(exits: nil, lost: true)))
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.value, 3)
        XCTAssertEqual(metrics[MetricName.mainThreadWakeups]?.source, MetricExtraction.Source.exitMainVoluntary)
        XCTAssertEqual(metrics[MetricName.cpuWakeups]?.source, MetricExtraction.Source.wait4Voluntary)
    }

    func testWhatAProgramCannotHaveIsUnavailableWithTheReasonNeverZero() {
        let metrics = MetricExtraction.metrics(of: RunAnalysis(Self.record(exits: Self.fullTree)))
        for name in [MetricName.networkBytesSent, MetricName.networkBytesReceived, MetricName.networkTransfers, MetricName.lifecycleLaunchMs,
                     MetricName.mainThreadBlockedSeconds, MetricName.mainThreadHangs] {
            XCTAssertNil(metrics[name]?.value, name)
            XCTAssertFalse((metrics[name]?.unavailable ?? "").isEmpty, "\(name) says why")
        }
        let audits = ReportBuilder.runReport(Self.record(exits: Self.fullTree)).audits
        XCTAssertEqual(audits["lifecycle.background-transition"]?.scoreDisplayMode, .notApplicable)
        XCTAssertTrue(audits["lifecycle.background-transition"]?.explanation?.contains("black-box") ?? false)
    }
}
