import Foundation
import Synchronization
import XCTest
import FrugalCore
import FrugalHistory

final class HistoryStoreTests: XCTestCase {
    func report(score: Double) -> Report {
        let audit = AggregatedAudit(median: AuditResult(id: "power.avoid-polling", title: "t", score: score, scoreDisplayMode: .numeric,
                                                        numericValue: 1 - score, numericUnit: "1/s", displayValue: "d"),
                                    values: [1 - score], minValue: 1 - score, maxValue: 1 - score)
        let result = WorkloadResult(workload: "news.polling", scenario: "standard", repetitions: 1, outcomes: ["completed": 1],
                                    audits: [audit.id: audit], categories: [:], score: score)
        return Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: EnvironmentInfo(hostname: "h", kernel: "k", cores: 1, memoryBytes: 1, virtualMachine: nil, papiVersion: nil, counters: [], notes: []),
                      runs: [], results: [result])
    }

    func testRunsAreAppendedAndReadBackOldestFirst() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-\(getpid())/nested/history.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent().path) }
        let store = try HistoryStore(path: path)
        try store.append(report(score: 0.9), commit: "aaa", recordedAt: "2026-01-01T00:00:00Z")
        try store.append(report(score: 0.5), commit: nil, recordedAt: "2026-01-02T00:00:00Z")
        try store.append(report(score: 0.2), commit: "ccc", recordedAt: "2026-01-03T00:00:00Z")
        XCTAssertEqual(try store.runCount(), 3)

        // Reopening keeps the rows (the migration runs once).
        let reopened = try HistoryStore(path: path)
        let history = try reopened.history(limit: 2)
        XCTAssertEqual(history.series.count, 1)
        let series = try XCTUnwrap(history.series(workload: "news.polling", scenario: "standard", audit: "power.avoid-polling"))
        XCTAssertEqual(series.points.map(\.score), [0.5, 0.2], "the last two runs, oldest first")
        XCTAssertEqual(series.points.map(\.commit), [nil, "ccc"])
        XCTAssertEqual(try reopened.history(limit: 10, workload: "idle").series, [])
    }

    /// Two `frugal run`s at once used to lose runs to "database is locked". Separate connections
    /// (as separate processes have) appending at the same time must all land.
    func testConcurrentWritersWaitInsteadOfDroppingRuns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-busy-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history.sqlite").path
        _ = try HistoryStore(path: path)
        let writers = 6, appends = 15
        let failures = Mutex<[String]>([])
        let report = report(score: 0.5)
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let store = try HistoryStore(path: path)
                for index in 0..<appends {
                    try store.append(report, commit: "w\(writer)", recordedAt: "2026-01-01T00:00:\(index)Z")
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(try HistoryStore(path: path).runCount(), writers * appends)
    }

    func testARemovedRunTakesItsRowsWithIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-remove-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try HistoryStore(path: directory.appendingPathComponent("h.sqlite").path)
        try store.append(report(score: 0.9), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        let id = try store.append(report(score: 0.1), commit: nil, recordedAt: "2026-01-02T00:00:00Z")
        try store.removeRun(id)
        XCTAssertEqual(try store.runCount(), 1)
        XCTAssertEqual(try store.history(limit: 5).series.first?.points.map(\.score), [0.9])
    }
}
