import CSQLite
import Foundation
import FrugalCore

extension HistoryStore {
    /// Checks, before minutes of running, that `path` can take this run's rows, by doing what the
    /// store will do: its folders can be made (and are removed again here), a file can be created
    /// beside it (its `.lock` and SQLite's journal go there), an existing file opens for writing,
    /// and it is a Frugal history or empty (``checkUsable(path:)``). The kind of file (regular,
    /// not a device, FIFO or link) is the caller's check. Throws a `HistoryError` in one line.
    ///
    /// `--history /proc/version` (a "regular file" of procfs), or a path under `/proc` or `/sys`,
    /// once failed only after the whole suite had run (exit 3, the run not recorded).
    public static func checkWritable(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent()
        // The folders this check makes are removed again: the store makes them when it writes.
        var missing: [URL] = []
        var ancestor = parent
        while !FileManager.default.fileExists(atPath: ancestor.path) && ancestor.path != "/" {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        defer { for made in missing { rmdir(made.path) } }
        for folder in missing.reversed() where mkdir(folder.path, 0o755) != 0 && errno != EEXIST {
            throw HistoryError("cannot create the folder \(folder.path): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard stat(parent.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw HistoryError("\(parent.path) is not a directory")
        }
        // A file of our own beside it, not the lock: removing a lock file another run has just
        // opened could let a third one lock a new file beside it.
        let probe = parent.appendingPathComponent(".\(url.lastPathComponent.prefix(200)).frugal-probe-\(getpid())").path
        let fd = open(probe, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HistoryError("cannot create files in \(parent.path) (\(String(cString: strerror(errno)))), where the history and its lock and journal go")
        }
        close(fd)
        unlink(probe)
        if FileManager.default.fileExists(atPath: path) {
            let file = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { throw HistoryError("cannot open it for writing: \(String(cString: strerror(errno)))") }
            close(file)
        }
        try checkUsable(path: path)
    }
}

extension HistoryStore {
    /// Why the history could not be used, in the words of one error line: SQLite's result code
    /// said plainly (SQLite's own text is "file is not a database", with the call it failed in),
    /// a `HistoryError` as it is, Foundation's errors by their cause (``ErrorText``).
    public static func describe(_ error: any Error) -> String {
        if let error = error as? HistoryError { return error.description }
        guard let error = error as? SQLiteError else { return ErrorText.reason(error) }
        // The primary code: an extended one (SQLITE_IOERR_READ) says the same to the user.
        switch error.primaryCode {
        case SQLITE_NOTADB: return "not a database SQLite can read"
        case SQLITE_CORRUPT: return "a damaged SQLite database"
        case SQLITE_CANTOPEN: return "SQLite cannot open it"
        case SQLITE_READONLY: return "SQLite cannot write it (read-only)"
        case SQLITE_BUSY, SQLITE_LOCKED: return "another process holds it locked"
        case SQLITE_FULL: return "the disk is full"
        case SQLITE_IOERR: return "an I/O error"
        case SQLITE_PERM, SQLITE_AUTH: return "permission denied"
        default: return "SQLite: \(error.message)"
        }
    }
}
