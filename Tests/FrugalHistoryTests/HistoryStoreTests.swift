import Foundation
import Synchronization
import XCTest
import FrugalCore
import FrugalHistory
import CSQLite

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
    /// Writers that all find no history file: one creates the schema, the others wait for it
    /// (two runs creating it at once lost rows).
    func testWritersCreatingANewHistoryAtOnceLoseNoRows() throws {
        for attempt in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-new-\(getpid())-\(attempt)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("history.sqlite").path
            let failures = Mutex<[String]>([])
            let report = report(score: 0.5)
            DispatchQueue.concurrentPerform(iterations: 4) { writer in
                do {
                    try HistoryStore(path: path).append(report, commit: "w\(writer)", recordedAt: "2026-01-01T00:00:00Z")
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            XCTAssertEqual(failures.withLock { $0 }, [], "attempt \(attempt)")
            XCTAssertEqual(try HistoryStore(path: path).runCount(), 4, "attempt \(attempt)")
        }
    }

    /// A SQLite file of someone else's is refused and left as it was.
    /// Round three of the probe: any writer may put text where a number belongs (SQLite columns
    /// are not typed); GRDB's typed subscripts (the store's SQLite layer then) trapped, and
    /// `frugal run` died before its report.
    /// A bad value is unavailable, a bad row skipped, the rest read.
    func testValuesOfTheWrongTypeAreSkippedNotTrapped() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-typed-\(getpid()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock") }
        let store = try HistoryStore(path: path)
        try store.append(report(score: 0.9), commit: "aaa", recordedAt: "2026-01-01T00:00:00Z")
        try store.append(report(score: 0.5), commit: "bbb", recordedAt: "2026-01-02T00:00:00Z")
        try store.append(report(score: 0.2), commit: "ccc", recordedAt: "2026-01-03T00:00:00Z")
        try RawSQLite(path).execute("""
            UPDATE audit SET score = 'NaN' WHERE resultId = (SELECT MIN(id) FROM result);
            UPDATE run SET recordedAt = x'ff00fe' WHERE id = 2;
            """)
        let series = try XCTUnwrap(try HistoryStore(readingFrom: path).history(limit: 10)
            .series(workload: "news.polling", scenario: "standard", audit: "power.avoid-polling"))
        XCTAssertEqual(series.points.map(\.commit), ["aaa", "ccc"], "the run with a blob for its time is skipped")
        XCTAssertEqual(series.points.map(\.score), [nil, 0.2], "a text score is unavailable")
    }

    /// The check before a run reads the history: while another process holds it in an exclusive
    /// transaction, the check waits (as a writer does) instead of refusing at once.
    func testTheCheckBeforeARunWaitsForABusyHistory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-held-\(getpid()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: path + ".lock") }
        try HistoryStore(path: path).append(report(score: 0.9), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        let holder = try RawSQLite(path)
        try holder.execute("BEGIN EXCLUSIVE")
        let released = DispatchSemaphore(value: 0)
        // Held for 0.5 s, well inside the check's 30 s wait, whatever the machine's load.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            do { try holder.execute("COMMIT") } catch { XCTFail("\(error)") }
            released.signal()
        }
        XCTAssertNoThrow(try HistoryStore.checkUsable(path: path), "waited for the holder")
        released.wait()
    }

    func testAForeignDatabaseIsRefusedAndLeftAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-foreign-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("theirs.sqlite").path
        try RawSQLite(path).execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
        XCTAssertThrowsError(try HistoryStore(path: path)) { error in
            XCTAssertTrue("\(error)".contains("not a Frugal history database"), "\(error)")
        }
        let tables = try RawSQLite(path).strings("SELECT name FROM sqlite_master WHERE type = 'table'")
        XCTAssertEqual(tables, ["invoices"])
    }

    /// Reading (`frugal history --db`, `frugal report --history`) is refused for what is not a
    /// regular file: SQLite's open of a FIFO waited forever for a writer (issue 24, fresh probe).
    func testReadingAFIFOOrADeviceIsRefusedNotWaitedOn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-fifo-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        final class Outcome: @unchecked Sendable { var error: String? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do { _ = try HistoryStore(readingFrom: fifo) } catch { outcome.error = "\(error)" }
            done.signal()
        }
        // 10 s: the refusal is a stat, well under a millisecond even on a loaded machine.
        if done.wait(timeout: .now() + 10) == .timedOut {
            XCTFail("opening a FIFO as a history blocked")
            // Let the blocked open go: a writer on the FIFO ends its wait.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
            return
        }
        XCTAssertTrue(outcome.error?.contains("a FIFO") == true, outcome.error ?? "no error")
        XCTAssertThrowsError(try HistoryStore(readingFrom: "/dev/null")) { error in
            XCTAssertTrue("\(error)".contains("a character device"), "\(error)")
        }
        XCTAssertThrowsError(try HistoryStore(readingFrom: directory.path)) { error in
            XCTAssertTrue("\(error)".contains("a directory"), "\(error)")
        }
    }

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

    /// The results and audits go by the schema's ON DELETE CASCADE, which SQLite applies only on
    /// a connection with `PRAGMA foreign_keys = ON` (off by default): without it they stayed.
    func testARemovedRunTakesItsRowsWithIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-remove-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("h.sqlite").path
        let store = try HistoryStore(path: path)
        try store.append(report(score: 0.9), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        let id = try store.append(report(score: 0.1), commit: nil, recordedAt: "2026-01-02T00:00:00Z")
        try store.removeRun(id)
        XCTAssertEqual(try store.runCount(), 1)
        XCTAssertEqual(try store.history(limit: 5).series.first?.points.map(\.score), [0.9])
        let raw = try RawSQLite(path)
        XCTAssertEqual(try raw.strings("SELECT runId FROM result"), ["1"], "the removed run's results are gone")
        XCTAssertEqual(try raw.strings("SELECT resultId FROM audit"), ["1"], "and their audits")
    }
}
