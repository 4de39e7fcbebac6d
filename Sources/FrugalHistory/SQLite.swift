import CSQLite
import Foundation

/// An SQLite call that failed: the call, its (extended) result code and SQLite's message for it.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_READ`, not just `SQLITE_IOERR`).
    var code: Int32
    var call: String
    var message: String

    /// The primary result code (`SQLITE_IOERR` for every `SQLITE_IOERR_…`), what callers decide on.
    var primaryCode: Int32 { code & 0xff }

    var description: String { "SQLite error \(code) in \(call): \(message)" }
}

/// A value bound to a statement's `?`.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ text: String?) { self = text.map { .text($0) } ?? .null }
    init(_ real: Double?) { self = real.map { .real($0) } ?? .null }
}

/// One connection to an SQLite database, through the system's libsqlite3. Each sqlite3 call is
/// made in one place here and its result checked there (a failure throws an `SQLiteError` with
/// the code), as swift-nio wraps each system call once.
///
/// Not `Sendable`: it is opened with `SQLITE_OPEN_NOMUTEX`, so its owner (a `HistoryStore`) must
/// not use it from two threads at once, which the compiler holds it to.
final class SQLiteConnection {
    private let handle: OpaquePointer

    /// Opens `path` read-only (nothing is created or written) or read-write, creating the file if
    /// it is absent. A database locked by another process is waited for, up to `busyTimeout`
    /// seconds, before a call fails with `SQLITE_BUSY`.
    init(path: String, readonly: Bool, busyTimeout: TimeInterval) throws {
        let access = readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let opened else {
            // SQLite returns a handle even when the open fails, to read the message from.
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code, call: "sqlite3_open_v2", message: message)
        }
        handle = opened
        // Milliseconds, within what an Int32 holds (a NaN or negative timeout is no wait).
        let milliseconds = Int32((busyTimeout.isNaN ? 0 : min(max(busyTimeout, 0), 2_000_000) * 1000).rounded())
        try check(sqlite3_busy_timeout(handle, milliseconds), "sqlite3_busy_timeout")
        // SQLite leaves foreign keys off on every new connection; the schema's ON DELETE CASCADE
        // (a removed run takes its results and audits) needs them on, as GRDB always set them.
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit {
        // Every statement is finalized by its own deinit before this runs (each holds the
        // connection), so the close cannot be refused for statements still open.
        sqlite3_close_v2(handle)
    }

    /// Throws an `SQLiteError` unless `code` is `SQLITE_OK`.
    func check(_ code: Int32, _ call: String) throws {
        guard code != SQLITE_OK else { return }
        throw SQLiteError(code: code, call: call, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Prepares `sql`, binds `values` to its `?`s and runs it to the end.
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try SQLiteStatement(self, sql).run(values)
    }

    /// The first column of each row `sql` returns, for those that are text.
    func strings(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
        let statement = try SQLiteStatement(self, sql)
        try statement.bind(values)
        var strings: [String] = []
        while try statement.step() {
            if let string = statement.text(0) { strings.append(string) }
        }
        return strings
    }

    /// The rowid of the last row this connection inserted.
    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in one transaction: `BEGIN IMMEDIATE` takes the write lock first (waiting for
    /// another writer up to the busy timeout), so a transaction never fails halfway for a lock;
    /// it commits if `body` returns and rolls back if anything throws, as GRDB's `write` did.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may leave the transaction open (SQLITE_BUSY); SQLite may already
            // have rolled it back after some errors (SQLITE_FULL, SQLITE_IOERR).
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// A prepared statement's handle, for `SQLiteStatement`, which finalizes it.
    fileprivate func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), "sqlite3_prepare_v2")
        guard let statement else {
            // SQL with no statement in it (only a comment or blanks): nothing to run.
            throw SQLiteError(code: SQLITE_MISUSE, call: "sqlite3_prepare_v2", message: "no SQL statement in \"\(sql.prefix(80))\"")
        }
        return statement
    }
}

/// One prepared statement, finalized when it goes away. It holds its connection, so the
/// connection outlives it.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer

    init(_ connection: SQLiteConnection, _ sql: String) throws {
        self.connection = connection
        handle = try connection.prepare(sql)
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the statement's `?`s, in order.
    func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null:
                try connection.check(sqlite3_bind_null(handle, index), "sqlite3_bind_null")
            case .integer(let integer):
                try connection.check(sqlite3_bind_int64(handle, index, integer), "sqlite3_bind_int64")
            case .real(let real):
                try connection.check(sqlite3_bind_double(handle, index, real), "sqlite3_bind_double")
            case .text(let text):
                // By its UTF-8 length, not up to a NUL: a string holding one is stored whole.
                let code = text.utf8CString.withUnsafeBufferPointer { bytes in
                    sqlite3_bind_text(handle, index, bytes.baseAddress, Int32(bytes.count - 1), frugal_sqlite_transient())
                }
                try connection.check(code, "sqlite3_bind_text")
            }
        }
    }

    /// Binds `values`, runs the statement to its end and resets it, to be run again.
    func run(_ values: [SQLiteValue]) throws {
        try bind(values)
        while try step() {}
        try connection.check(sqlite3_reset(handle), "sqlite3_reset")
    }

    /// Runs the statement to its next row: true when there is one to read, false when done.
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: try connection.check(code, "sqlite3_step"); return false
        }
    }

    /// Column `index` of the current row when SQLite holds text there, else nil (NULL, a number
    /// or a blob: SQLite's columns are not typed, and the file is anyone's to edit).
    func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) == SQLITE_TEXT, let bytes = sqlite3_column_text(handle, index) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// Column `index` of the current row when SQLite holds a finite number there, else nil.
    func number(_ index: Int32) -> Double? {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER:
            return Double(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT:
            let number = sqlite3_column_double(handle, index)
            return number.isFinite ? number : nil
        default:
            return nil
        }
    }

    /// Column `index` of the current row when SQLite holds an integer there, else nil.
    func integer(_ index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_INTEGER ? sqlite3_column_int64(handle, index) : nil
    }
}
