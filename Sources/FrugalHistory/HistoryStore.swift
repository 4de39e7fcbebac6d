import Foundation
import FrugalCore
import GRDB

/// The run history: every `frugal run` appended to a SQLite database (default
/// `.frugal/history.sqlite`), keyed by git commit (when known) and time.
///
/// Tables: `run` (one row per `frugal run`), `result` (one per workload and scenario), `audit`
/// (one per audit of a result: the median score and value over the repetitions).
public final class HistoryStore {
    /// Where `frugal run` keeps it unless told otherwise (ignored by git).
    public static let defaultPath = ".frugal/history.sqlite"

    private let database: DatabaseQueue

    /// How long a write waits for another `frugal run` holding the database before it fails:
    /// two runs at once are normal in CI, and a busy database must not drop a run.
    public static let defaultBusyTimeout: TimeInterval = 30

    /// Opens the database at `path`, creating it and its directory if needed. A database locked
    /// by another process is waited for, up to `busyTimeout` seconds (SQLite's busy handler).
    public init(path: String, busyTimeout: TimeInterval = HistoryStore.defaultBusyTimeout) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        // Creating or migrating the schema is done by one process at a time: two runs that found
        // no history file at once both created its tables, and the second's rows were lost.
        let lock = try HistoryCreationLock(path + ".lock", timeout: busyTimeout)
        defer { lock.release() }
        database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.refuseForeign(database, path: path)
        try Self.migrator.migrate(database)
    }

    /// Opens an existing history to read it: nothing is created, locked, migrated or written
    /// (`frugal report --history` once added the schema to whatever file it was given).
    /// Anything but a regular file (a link is followed) is refused before SQLite opens it:
    /// `frugal history --db FIFO` once waited forever in `open`, and a device was read as an
    /// empty database ("no such table").
    public init(readingFrom path: String, busyTimeout: TimeInterval = HistoryStore.defaultBusyTimeout) throws {
        var info = stat()
        if stat(path, &info) == 0, let kind = FileKind.nonRegular(mode: info.st_mode) {
            throw HistoryError("\(path) is \(kind), not a regular file; name a history file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        // A run writing the history holds it for a moment: wait for it, as a writer does.
        configuration.busyMode = .timeout(busyTimeout)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.refuseForeign(database, path: path)
    }

    /// Checks, before minutes of running, that `path` can take this run: absent (it will be
    /// created), or a Frugal history (or an empty file). A file that is not an SQLite database
    /// or holds someone else's tables throws a `HistoryError`-like error naming it. The kind of
    /// file (regular, not a device, FIFO or link) is the caller's check, as for every output.
    public static func checkUsable(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        _ = try HistoryStore(readingFrom: path)
    }

    /// A database with tables of its own and no trace of Frugal's schema is someone else's: it is
    /// left as it was (the migrator once added its bookkeeping table to a user's file).
    static func refuseForeign(_ database: DatabaseQueue, path: String) throws {
        let tables = try database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        }
        guard !tables.isEmpty, !tables.contains("grdb_migrations") else { return }
        throw HistoryError("\(path) is not a Frugal history database (it holds the tables \(tables.sorted().prefix(5).joined(separator: ", "))); name another --history or --no-history")
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "run") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("recordedAt", .text).notNull()
                t.column("commitHash", .text)
                t.column("toolVersion", .text).notNull()
                t.column("hostname", .text).notNull()
            }
            try db.create(table: "result") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("run", onDelete: .cascade).notNull()
                t.column("workload", .text).notNull()
                t.column("scenario", .text).notNull()
                t.column("repetitions", .integer).notNull()
                t.column("score", .double)
                t.column("totalJoules", .double)
            }
            try db.create(table: "audit") { t in
                t.belongsTo("result", onDelete: .cascade).notNull()
                t.column("auditId", .text).notNull()
                t.column("score", .double)
                t.column("numericValue", .double)
                t.column("numericUnit", .text).notNull()
            }
            try db.create(index: "audit_by_id", on: "audit", columns: ["auditId"])
        }
        return migrator
    }

    /// Appends `report`'s aggregated results; returns the new run's id.
    @discardableResult
    public func append(_ report: Report, commit: String?, recordedAt: String) throws -> Int64 {
        try database.write { db in
            try db.execute(sql: "INSERT INTO run (recordedAt, commitHash, toolVersion, hostname) VALUES (?, ?, ?, ?)",
                           arguments: [recordedAt, commit, report.tool.version, report.environment.hostname])
            let runID = db.lastInsertedRowID
            for result in report.results {
                try db.execute(sql: "INSERT INTO result (runId, workload, scenario, repetitions, score, totalJoules) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [runID, result.workload, result.scenario, result.repetitions, result.score, result.energy?.totalJoules])
                let resultID = db.lastInsertedRowID
                for audit in result.audits.values.sorted(by: { $0.id < $1.id }) {
                    try db.execute(sql: "INSERT INTO audit (resultId, auditId, score, numericValue, numericUnit) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [resultID, audit.id, audit.score, audit.numericValue, audit.numericUnit])
                }
            }
            return runID
        }
    }

    /// Removes a run appended by `append` (its results and audits go with it): the report it
    /// stood for could not be written.
    public func removeRun(_ id: Int64) throws {
        try database.write { db in try db.execute(sql: "DELETE FROM run WHERE id = ?", arguments: [id]) }
    }

    /// How many runs are recorded.
    public func runCount() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM run") ?? 0 }
    }

    /// Each audit's points over the last `limit` runs, oldest first, optionally for one workload.
    public func history(limit: Int = 20, workload: String? = nil) throws -> ReportHistory {
        try database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT run.recordedAt, run.commitHash, result.workload, result.scenario, audit.auditId, audit.score, audit.numericValue
                FROM audit JOIN result ON audit.resultId = result.id JOIN run ON result.runId = run.id
                WHERE run.id IN (SELECT id FROM run ORDER BY id DESC LIMIT ?)
                  AND (? IS NULL OR result.workload = ?)
                ORDER BY result.workload, result.scenario, audit.auditId, run.id
                """, arguments: [limit, workload, workload])
            var order: [String] = []
            var series: [String: HistorySeries] = [:]
            // SQLite columns are not typed and the file is anyone's to edit: a row whose values
            // are not of their column's type is skipped (GRDB's typed subscripts trap on it, and
            // a text score once killed `frugal run` before its report was written).
            func text(_ row: Row, _ column: String) -> String? { String.fromDatabaseValue(row[column] as DatabaseValue) }
            func number(_ row: Row, _ column: String) -> Double? {
                let value: DatabaseValue = row[column]
                guard let number = Double.fromDatabaseValue(value), number.isFinite else { return nil }
                return number
            }
            for row in rows {
                guard let workload = text(row, "workload"), let scenario = text(row, "scenario"), let audit = text(row, "auditId"),
                      let recordedAt = text(row, "recordedAt") else { continue }
                let key = [workload, scenario, audit].joined(separator: "\u{0}")
                if series[key] == nil {
                    order.append(key)
                    series[key] = HistorySeries(workload: workload, scenario: scenario, audit: audit, points: [])
                }
                series[key]?.points.append(HistoryPoint(recordedAt: recordedAt, commit: text(row, "commitHash"),
                                                        score: number(row, "score"), value: number(row, "numericValue")))
            }
            return ReportHistory(series: order.compactMap { series[$0] })
        }
    }
}

/// Why a history file cannot be used, in one line.
public struct HistoryError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

/// An advisory `flock` beside the history file, held while its schema is created or migrated;
/// the kernel releases it however the process ends. The file is left in place (removing it
/// could let a third process lock an unlinked inode beside a holder).
final class HistoryCreationLock {
    private var fd: Int32

    init(_ path: String, timeout: TimeInterval) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw HistoryError("cannot open \(path): \(String(cString: strerror(errno)))") }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                let reason = errno == EWOULDBLOCK ? "another frugal held it for \(Int(timeout)) s" : String(cString: strerror(errno))
                close(fd)
                throw HistoryError("cannot lock \(path): \(reason)")
            }
            usleep(20_000)
        }
    }

    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }
}
