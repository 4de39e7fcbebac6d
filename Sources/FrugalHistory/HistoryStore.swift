import Foundation
import FrugalCore

/// The run history: every `frugal run` appended to a SQLite database (default
/// `.frugal/history.sqlite`), keyed by git commit (when known) and time.
///
/// Tables: `run` (one row per `frugal run`), `result` (one per workload and scenario), `audit`
/// (one per audit of a result: the median score and value over the repetitions).
///
/// Not `Sendable`: a store owns its one SQLite connection (opened without SQLite's own mutex,
/// closed when the store goes), and whoever made it uses it on one thread, one call after another
/// (`EvidenceReport.record` appends, reads the trends and may remove the run; `HistoryQuery` and
/// `frugal report --history` read once). The compiler refuses to share it across threads.
public final class HistoryStore {
    /// Where `frugal run` keeps it unless told otherwise (ignored by git).
    public static let defaultPath = ".frugal/history.sqlite"

    private let database: SQLiteConnection

    /// How long a write waits for another `frugal run` holding the database before it fails:
    /// two runs at once are normal in CI, and a busy database must not drop a run.
    public static let defaultBusyTimeout: TimeInterval = 30

    /// Opens the database at `path`, creating it and its directory if needed. A database locked
    /// by another process is waited for, up to `busyTimeout` seconds (SQLite's busy handler).
    public init(path: String, busyTimeout: TimeInterval = HistoryStore.defaultBusyTimeout) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Creating or migrating the schema is done by one process at a time: two runs that found
        // no history file at once both created its tables, and the second's rows were lost.
        let lock = try HistoryCreationLock(path + ".lock", timeout: busyTimeout)
        defer { lock.release() }
        database = try SQLiteConnection(path: path, readonly: false, busyTimeout: busyTimeout)
        try Self.refuseForeign(database, path: path)
        try Self.migrate(database)
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
        // A run writing the history holds it for a moment: wait for it, as a writer does.
        database = try SQLiteConnection(path: path, readonly: true, busyTimeout: busyTimeout)
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
    /// left as it was (the migrator once added its bookkeeping table to a user's file). Reading
    /// `sqlite_master` is also what finds a file that is not a database at all (SQLITE_NOTADB).
    static func refuseForeign(_ database: SQLiteConnection, path: String) throws {
        let tables = try database.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard !tables.isEmpty, !tables.contains("grdb_migrations") else { return }
        throw HistoryError("\(path) is not a Frugal history database (it holds the tables \(tables.sorted().prefix(5).joined(separator: ", "))); name another --history or --no-history")
    }

    /// The schema's version 1, exactly as GRDB's migrator wrote it (GRDB was the store's SQLite
    /// layer until issue 28): the same text in `sqlite_master`, so files of either are the same.
    /// `belongsTo` made the `…Id` columns with their cascade and an index on each.
    static let schemaV1 = [
        #"CREATE TABLE "run" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "recordedAt" TEXT NOT NULL, "commitHash" TEXT, "toolVersion" TEXT NOT NULL, "hostname" TEXT NOT NULL)"#,
        #"CREATE TABLE "result" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "runId" INTEGER NOT NULL REFERENCES "run"("id") ON DELETE CASCADE, "workload" TEXT NOT NULL, "scenario" TEXT NOT NULL, "repetitions" INTEGER NOT NULL, "score" DOUBLE, "totalJoules" DOUBLE)"#,
        #"CREATE INDEX "result_on_runId" ON "result"("runId")"#,
        #"CREATE TABLE "audit" ("resultId" INTEGER NOT NULL REFERENCES "result"("id") ON DELETE CASCADE, "auditId" TEXT NOT NULL, "score" DOUBLE, "numericValue" DOUBLE, "numericUnit" TEXT NOT NULL)"#,
        #"CREATE INDEX "audit_on_resultId" ON "audit"("resultId")"#,
        #"CREATE INDEX "audit_by_id" ON "audit"("auditId")"#,
    ]

    /// Creates the schema unless `grdb_migrations` says it is there. The table keeps GRDB's name
    /// and rows because the files in use carry them: `refuseForeign` knows a Frugal history by
    /// it, and an older Frugal (GRDB's migrator) opening a file made here must find `v1` applied
    /// rather than create the tables again over the existing ones and fail.
    static func migrate(_ database: SQLiteConnection) throws {
        // Outside the transaction, as GRDB's migrator did; the caller holds the creation lock.
        try database.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        guard try !database.strings("SELECT identifier FROM grdb_migrations").contains("v1") else { return }
        try database.transaction {
            for statement in schemaV1 { try database.execute(statement) }
            try database.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [.text("v1")])
        }
    }

    /// Appends `report`'s aggregated results; returns the new run's id.
    @discardableResult
    public func append(_ report: Report, commit: String?, recordedAt: String) throws -> Int64 {
        try database.transaction {
            try database.execute("INSERT INTO run (recordedAt, commitHash, toolVersion, hostname) VALUES (?, ?, ?, ?)",
                                 [.text(recordedAt), SQLiteValue(commit), .text(report.tool.version), .text(report.environment.hostname)])
            let runID = database.lastInsertedRowID
            let insertResult = try SQLiteStatement(database, "INSERT INTO result (runId, workload, scenario, repetitions, score, totalJoules) VALUES (?, ?, ?, ?, ?, ?)")
            let insertAudit = try SQLiteStatement(database, "INSERT INTO audit (resultId, auditId, score, numericValue, numericUnit) VALUES (?, ?, ?, ?, ?)")
            for result in report.results {
                try insertResult.run([.integer(runID), .text(result.workload), .text(result.scenario), .integer(Int64(result.repetitions)),
                                      SQLiteValue(result.score), SQLiteValue(result.energy?.totalJoules)])
                let resultID = database.lastInsertedRowID
                for audit in result.audits.values.sorted(by: { $0.id < $1.id }) {
                    try insertAudit.run([.integer(resultID), .text(audit.id), SQLiteValue(audit.score), SQLiteValue(audit.numericValue),
                                         .text(audit.numericUnit)])
                }
            }
            return runID
        }
    }

    /// Removes a run appended by `append` (its results and audits go with it, by the schema's
    /// ON DELETE CASCADE, which needs the connection's `foreign_keys` on): the report it stood
    /// for could not be written.
    public func removeRun(_ id: Int64) throws {
        try database.transaction { try database.execute("DELETE FROM run WHERE id = ?", [.integer(id)]) }
    }

    /// How many runs are recorded.
    public func runCount() throws -> Int {
        let statement = try SQLiteStatement(database, "SELECT COUNT(*) FROM run")
        guard try statement.step(), let count = statement.integer(0) else { return 0 }
        return Int(count)
    }

    /// Each audit's points over the last `limit` runs, oldest first, optionally for one workload.
    public func history(limit: Int = 20, workload: String? = nil) throws -> ReportHistory {
        let rows = try SQLiteStatement(database, """
            SELECT run.recordedAt, run.commitHash, result.workload, result.scenario, audit.auditId, audit.score, audit.numericValue
            FROM audit JOIN result ON audit.resultId = result.id JOIN run ON result.runId = run.id
            WHERE run.id IN (SELECT id FROM run ORDER BY id DESC LIMIT ?)
              AND (? IS NULL OR result.workload = ?)
            ORDER BY result.workload, result.scenario, audit.auditId, run.id
            """)
        try rows.bind([.integer(Int64(limit)), SQLiteValue(workload), SQLiteValue(workload)])
        var order: [String] = []
        var series: [String: HistorySeries] = [:]
        // SQLite columns are not typed and the file is anyone's to edit: a row whose text values
        // are not text is skipped, and a score or value that is not a finite number is unavailable
        // (GRDB's typed subscripts trapped on a text score, killing `frugal run` before its report).
        while try rows.step() {
            guard let recordedAt = rows.text(0), let workload = rows.text(2), let scenario = rows.text(3),
                  let audit = rows.text(4) else { continue }
            let key = [workload, scenario, audit].joined(separator: "\u{0}")
            if series[key] == nil {
                order.append(key)
                series[key] = HistorySeries(workload: workload, scenario: scenario, audit: audit, points: [])
            }
            series[key]?.points.append(HistoryPoint(recordedAt: recordedAt, commit: rows.text(1),
                                                    score: rows.number(5), value: rows.number(6)))
        }
        return ReportHistory(series: order.compactMap { series[$0] })
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
