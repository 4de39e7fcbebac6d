import CSQLite
import Foundation
import XCTest
import FrugalCore
import FrugalHistory

/// The history file stays the one GRDB wrote (GRDB was the store's SQLite layer until issue 28):
/// histories in use must read on, and an older Frugal must open the files this one makes.
final class HistoryFileFormatTests: XCTestCase {
    /// Written by the GRDB version (Fixtures/README.md): three runs, commits "aaa", none, "ccc".
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/grdb-v1-history.sqlite").path

    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-history-format-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Everything in `sqlite_master`, which says the schema in SQL text.
    func schema(_ path: String) throws -> [String] {
        try RawSQLite(path).strings("SELECT type || ' ' || name || ' ' || tbl_name || ' ' || ifnull(sql, '-') FROM sqlite_master ORDER BY name")
    }

    func report(score: Double, workload: String = "news.polling") -> Report {
        let audit = AggregatedAudit(median: AuditResult(id: "power.avoid-polling", title: "t", score: score, scoreDisplayMode: .numeric,
                                                        numericValue: 1 - score, numericUnit: "1/s", displayValue: "d"),
                                    values: [1 - score], minValue: 1 - score, maxValue: 1 - score)
        let result = WorkloadResult(workload: workload, scenario: "standard", repetitions: 1, outcomes: ["completed": 1],
                                    audits: [audit.id: audit], categories: [:], score: score)
        return Report(tool: ToolInfo(version: "t"), generatedAt: "g", environment: EnvironmentInfo(hostname: "h", kernel: "k", cores: 1, memoryBytes: 1, virtualMachine: nil, papiVersion: nil, counters: [], notes: []),
                      runs: [], results: [result])
    }

    func testAHistoryWrittenByTheGRDBVersionIsReadAndAppendedTo() throws {
        let path = scratch.appendingPathComponent("old.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        let before = try schema(path)

        let read = try XCTUnwrap(try HistoryStore(readingFrom: path).history(limit: 10)
            .series(workload: "news.polling", scenario: "standard", audit: "power.avoid-polling"))
        XCTAssertEqual(read.points.map(\.score), [0.9, 0.5, 0.2])
        XCTAssertEqual(read.points.map(\.commit), ["aaa", nil, "ccc"])
        XCTAssertEqual(read.points.map(\.recordedAt), ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"])

        let store = try HistoryStore(path: path)
        XCTAssertEqual(try store.append(report(score: 0.25), commit: "ddd", recordedAt: "2026-01-04T00:00:00Z"), 4,
                       "the next id of GRDB's AUTOINCREMENT")
        XCTAssertEqual(try store.runCount(), 4)
        let appended = try XCTUnwrap(try HistoryStore(readingFrom: path).history(limit: 2)
            .series(workload: "news.polling", scenario: "standard", audit: "power.avoid-polling"))
        XCTAssertEqual(appended.points.map(\.score), [0.2, 0.25])
        XCTAssertEqual(appended.points.map(\.commit), ["ccc", "ddd"])
        XCTAssertEqual(appended.points.map(\.value), [0.8, 0.75])
        XCTAssertEqual(try schema(path), before, "opening it changed no table or index")
        XCTAssertEqual(try RawSQLite(path).strings("SELECT identifier FROM grdb_migrations"), ["v1"], "not migrated again")
    }

    /// A new file holds the same `sqlite_master` as GRDB's, text for text, and GRDB's
    /// `grdb_migrations` row, so GRDB's migrator (an older Frugal) finds nothing to do in it.
    func testANewHistoryHasGRDBsSchemaToTheByte() throws {
        let path = scratch.appendingPathComponent("new.sqlite").path
        try HistoryStore(path: path).append(report(score: 0.5), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        XCTAssertEqual(try schema(path), try schema(Self.fixture))
        XCTAssertEqual(try RawSQLite(path).strings("SELECT identifier FROM grdb_migrations"), ["v1"])
        // Reopening neither fails on the existing tables nor adds a row.
        _ = try HistoryStore(path: path)
        XCTAssertEqual(try RawSQLite(path).strings("SELECT identifier FROM grdb_migrations"), ["v1"])
        XCTAssertEqual(try schema(path), try schema(Self.fixture))
    }

    /// An empty file (what `touch` makes) is taken as a new history and given the schema.
    func testAnEmptyFileIsGivenTheSchema() throws {
        let path = scratch.appendingPathComponent("empty.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        try HistoryStore.checkUsable(path: path)
        let store = try HistoryStore(path: path)
        try store.append(report(score: 0.5), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        XCTAssertEqual(try store.runCount(), 1)
        XCTAssertEqual(try schema(path), try schema(Self.fixture))
    }

    /// `init(readingFrom:)` opens read-only: no file, lock or journal is created, no byte written.
    func testReadingCreatesAndWritesNothing() throws {
        let absent = scratch.appendingPathComponent("absent.sqlite").path
        XCTAssertThrowsError(try HistoryStore(readingFrom: absent)) { error in
            XCTAssertEqual(HistoryStore.describe(error), "SQLite cannot open it", "\(error)")
        }
        let path = scratch.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(try HistoryStore(readingFrom: path).runCount(), 3)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["copy.sqlite"])
    }

    /// Each SQLite failure is said in plain words from its (primary) result code.
    func testSQLiteFailuresAreDescribedByTheirResultCode() throws {
        let text = scratch.appendingPathComponent("notes.sqlite").path
        try String(repeating: "not a database, just notes\n", count: 40).write(toFile: text, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try HistoryStore(readingFrom: text)) { error in
            XCTAssertEqual(HistoryStore.describe(error), "not a database SQLite can read", "\(error)")
        }
        XCTAssertThrowsError(try HistoryStore.checkUsable(path: text)) { error in
            XCTAssertEqual(HistoryStore.describe(error), "not a database SQLite can read", "\(error)")
        }

        // A writer holding the file past a reader's busy timeout.
        let held = scratch.appendingPathComponent("held.sqlite").path
        try HistoryStore(path: held).append(report(score: 0.5), commit: nil, recordedAt: "2026-01-01T00:00:00Z")
        let holder = try RawSQLite(held)
        try holder.execute("BEGIN EXCLUSIVE")
        XCTAssertThrowsError(try HistoryStore(readingFrom: held, busyTimeout: 0.05)) { error in
            XCTAssertEqual(HistoryStore.describe(error), "another process holds it locked", "\(error)")
        }
        try holder.execute("COMMIT")

        // Any other code: SQLite's own message after "SQLite:".
        let partial = scratch.appendingPathComponent("partial.sqlite").path
        try RawSQLite(partial).execute("""
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE run (id INTEGER PRIMARY KEY);
            """)
        XCTAssertThrowsError(try HistoryStore(readingFrom: partial).history()) { error in
            XCTAssertEqual(HistoryStore.describe(error), "SQLite: no such table: audit", "\(error)")
        }
    }
}

/// SQLite through its C API with no Frugal code between, to make and look at files as another
/// program would. Opened in serialized mode (SQLite's default mutex), so it may be handed to
/// another thread.
final class RawSQLite: @unchecked Sendable {
    let handle: OpaquePointer

    init(_ path: String) throws {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw RawSQLiteError(description: "open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        handle = opened
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements).
    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    /// The first column of each row, as SQLite converts it to text ("<null>" for NULL).
    func strings(_ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "<null>")
            case SQLITE_DONE: return rows
            default: throw RawSQLiteError(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
        }
    }
}

struct RawSQLiteError: Error, CustomStringConvertible {
    var description: String
}
