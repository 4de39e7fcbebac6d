import CFrugalSystem
import Foundation
import FrugalCore
import FrugalProbe

/// Writes a report set as one: every file goes into a staging directory beside the target, and
/// the staging directory is swapped with the target in one `renameat2(RENAME_EXCHANGE)`. A reader
/// of the directory sees the old set or the new one, never a mix of two runs and never half a
/// file; after a failure nothing of the staging directory is left and the old set is untouched.
///
/// A directory holding other files than report files (a user's `--out .`) is never swapped
/// away: there each file is renamed into place on its own (each file whole, the set not at once).
public enum ReportDirectory {
    /// A file of the set: its path inside the directory (may hold `/`) and how to write it.
    public struct File {
        public var path: String
        /// Writes the file's content to the URL it is given (a new file in the staging directory).
        public var write: (URL) throws -> Void

        public init(path: String, write: @escaping (URL) throws -> Void) {
            self.path = path
            self.write = write
        }

        public init(path: String, data: Data) {
            self.init(path: path) { try data.write(to: $0) }
        }
    }

    /// The least free space `checkWritable` accepts: the default suite's set is about 10 MB.
    public static let minimumFreeBytes: UInt64 = 32 << 20

    /// Checks, before anything runs, that `directory` can take a report set: it is a directory
    /// (or can be created), a staging directory can be made beside it, and its file system has
    /// `minimumFreeBytes` free. Throws a `ReportError` that names the problem.
    public static func checkWritable(_ directory: URL) throws {
        let path = directory.standardizedFileURL.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ReportError("\(path) exists and is not a directory")
        }
        if let long = directory.standardizedFileURL.pathComponents.first(where: { $0.utf8.count > OutputPath.maximumNameBytes }) {
            throw ReportError("\(path): the name \(long.prefix(24))… is \(long.utf8.count) bytes, longer than a file system takes (\(OutputPath.maximumNameBytes))")
        }
        let parent = directory.standardizedFileURL.deletingLastPathComponent()
        // The directories this check makes are removed again if it refuses: a refused --out
        // once left its whole parent chain behind.
        var missing: [URL] = []
        var ancestor = parent
        while !FileManager.default.fileExists(atPath: ancestor.path) && ancestor.path != "/" {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        var refused = true
        defer { if refused { for made in missing { rmdir(made.path) } } }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw ReportError("cannot create \(parent.path): \(reason(error))")
        }
        // Making (and removing) a staging directory is the exact operation the write will need;
        // as root, permission bits say nothing, so trying is the only honest check.
        let mountPoint = isMountPoint(directory.standardizedFileURL)
        let probe = mountPoint ? try makeStaging(inside: directory.standardizedFileURL) : try makeStaging(for: directory)
        try? FileManager.default.removeItem(at: probe)
        // The file system the set is staged on: a mount point's own (its parent is another one,
        // and a 40 KiB tmpfs once passed this check by its parent's free space).
        let stagedOn = mountPoint ? directory.standardizedFileURL.path : parent.path
        var stats = statvfs()
        if statvfs(stagedOn, &stats) == 0 {
            let free = UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
            guard free >= minimumFreeBytes else {
                throw ReportError("only \(free / 1024 / 1024) MiB free on the file system of \(stagedOn); a report set needs \(minimumFreeBytes / 1024 / 1024) MiB")
            }
        }
        refused = false
    }

    /// Replaces the report set in `directory` by `files`; `replaceable` names the top-level entries
    /// a report set may hold (an old set's files), which decides whether the directory is swapped
    /// whole. Returns the written files' URLs.
    @discardableResult
    public static func replace(_ directory: URL, with files: [File], replaceable: Set<String>) throws -> [URL] {
        let directory = directory.standardizedFileURL
        // A mount point cannot be renamed or swapped, and its parent is another file system: the
        // set is staged inside it and moved in file by file (each file whole, the set not at once).
        let mountPoint = isMountPoint(directory)
        let staging = mountPoint ? try makeStaging(inside: directory) : try makeStaging(for: directory)
        var stagingExists = true
        // After a swap the staging path holds the OLD set, which may hold a mount (a bind-mounted
        // folder was once emptied through it): removed without leaving its mount.
        defer { if stagingExists { FileTreeRemoval.remove(staging.path) } }
        for file in files {
            let url = staging.appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.write(url)
            } catch {
                throw ReportError("cannot write \(file.path) for \(directory.path): \(reason(error))")
            }
        }
        let urls = files.map { directory.appendingPathComponent($0.path) }
        // A new directory: one rename puts the whole set in place.
        if !mountPoint, rename(staging.path, directory.path) == 0 {
            stagingExists = false
            return urls
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let ours = replaceable.union(files.map { topLevel($0.path) })
        if !mountPoint, entries.allSatisfy({ ours.contains($0) }) {
            guard frugal_rename_exchange(staging.path, directory.path) == 0 else {
                throw ReportError("cannot swap \(staging.path) with \(directory.path): \(String(cString: strerror(errno)))")
            }
            // The staging path now holds the old set; the deferred removal takes it away.
            return urls
        }
        // Other files live here: replace ours one by one, each rename atomic.
        for name in Set(files.map { topLevel($0.path) }).sorted() {
            let target = directory.appendingPathComponent(name)
            let staged = staging.appendingPathComponent(name)
            if rename(staged.path, target.path) != 0 {
                let code = errno
                // A directory (a timelines folder) cannot be renamed over a full one: swap it.
                guard (code == ENOTEMPTY || code == EEXIST || code == EISDIR), frugal_rename_exchange(staged.path, target.path) == 0 else {
                    throw ReportError("cannot move \(name) into \(directory.path): \(String(cString: strerror(code)))")
                }
            }
        }
        return urls
    }

    /// Whether `directory` exists and is the root of a mount (its device differs from its
    /// parent's, or its mount id does, or it is `/`). A bind mount of a folder of the same file
    /// system has its parent's device: checked by device alone, `--out` on one ran the whole
    /// suite and then failed its swap with EBUSY (exit 3, no report).
    static func isMountPoint(_ directory: URL) -> Bool {
        var own = stat(), parent = stat()
        guard stat(directory.path, &own) == 0, own.st_mode & S_IFMT == S_IFDIR else { return false }
        if directory.path == "/" { return true }
        let parentPath = directory.deletingLastPathComponent().path
        guard stat(parentPath, &parent) == 0 else { return false }
        if own.st_dev != parent.st_dev { return true }
        var ownMount: UInt64 = 0, parentMount: UInt64 = 0
        if frugal_mount_id(AT_FDCWD, directory.path, &ownMount) == 0, frugal_mount_id(AT_FDCWD, parentPath, &parentMount) == 0 {
            return ownMount != parentMount
        }
        // No mount ids from this kernel (before 5.8): the mount table names it or not.
        return FileTreeRemoval.mountPoints(under: parentPath).contains(directory.path)
    }

    /// A fresh, empty directory beside `directory`, hidden, named after it and this process.
    static func makeStaging(for directory: URL) throws -> URL {
        try makeStaging(in: directory.deletingLastPathComponent(), named: OutputPath.hiddenSibling(of: directory.lastPathComponent, suffix: ".frugal-staging"))
    }

    /// Removes the staging directories a writer of `directory`'s set left when it died (SIGKILL,
    /// a crash) mid-write: `.<name>.frugal-staging-<pid>-<n>` beside it, `.frugal-staging-<pid>-<n>`
    /// inside it, whose pid is gone. They were never swept: a fresh probe of issue 24 found ten
    /// beside one `--out` after crashed merges. Called with the directory's lock held, when the
    /// lock file was there before (``ReportDirectoryLock``: only a holder that died leaves it).
    static func removeStaleStaging(for directory: URL) {
        let beside = OutputPath.hiddenSibling(of: directory.lastPathComponent, suffix: ".frugal-staging") + "-"
        for (parent, prefix) in [(directory.deletingLastPathComponent(), beside), (directory, ".frugal-staging-")] {
            for name in (try? FileReader.directoryEntries(parent.path)) ?? [] where name.hasPrefix(prefix) {
                let parts = name.dropFirst(prefix.count).split(separator: "-")
                guard parts.count == 2, let pid = pid_t(parts[0]), Int(parts[1]) != nil, pid > 0, pid != getpid(),
                      kill(pid, 0) != 0, errno == ESRCH else { continue }
                FileTreeRemoval.remove(parent.appendingPathComponent(name).path)
            }
        }
    }

    /// A fresh, empty hidden directory inside `directory` (a mount point's set is staged there).
    static func makeStaging(inside directory: URL) throws -> URL {
        try makeStaging(in: directory, named: ".frugal-staging")
    }

    private static func makeStaging(in parent: URL, named prefix: String) throws -> URL {
        for attempt in 0..<100 {
            let staging = parent.appendingPathComponent("\(prefix)-\(getpid())-\(attempt)")
            if mkdir(staging.path, 0o755) == 0 { return staging }
            guard errno == EEXIST else {
                throw ReportError("cannot create a staging directory in \(parent.path): \(String(cString: strerror(errno)))")
            }
        }
        throw ReportError("cannot create a staging directory in \(parent.path): 100 names taken")
    }

    private static func topLevel(_ path: String) -> String { String(path.split(separator: "/").first ?? Substring(path)) }

    private static func reason(_ error: Error) -> String { ErrorText.reason(error) }
}

/// Held by the `frugal run` writing a report directory, for the whole run: a second run given the
/// same `--out` is refused at its start instead of silently replacing the first one's report.
///
/// Keyed on the directory itself, not on the name it was given: the path is first made the one
/// the kernel reaches (``OutputPath/canonicalDirectory(_:)``: links and `..` followed), the lock
/// file is opened in the parent directory by its descriptor (so the parent reached by any name,
/// a bind mount included, holds the one file), and the directory's own descriptor is locked too
/// where it exists (a mount point, which is never swapped, reached through a second mount of it).
/// Two names for one `--out` once took two locks.
///
/// An advisory `flock`; the kernel releases it whatever way the process ends. Only the holder
/// removes the lock file, and only while it holds the lock: a refused run leaves it alone (it once
/// deleted the holder's file, so a third run got in). A run that opened the file just before the
/// holder removed it finds its inode gone from the name once it has the lock, and tries again.
public final class ReportDirectoryLock {
    let path: String
    private let name: String
    private let parentFD: Int32
    private let fd: Int32
    /// The directory's own descriptor, locked; -1 when it did not exist yet.
    private let directoryFD: Int32

    /// Takes the lock, or throws a `ReportError` naming the run that holds it.
    public init(_ directory: URL) throws {
        let directory = URL(fileURLWithPath: try OutputPath.canonicalDirectory(directory.path))
        let parent = directory.deletingLastPathComponent().path
        name = OutputPath.hiddenSibling(of: directory.lastPathComponent, suffix: ".frugal-lock")
        path = directory.deletingLastPathComponent().appendingPathComponent(name).path
        let parentFD = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentFD >= 0 else { throw ReportError("cannot open \(parent): \(String(cString: strerror(errno)))") }
        let fd: Int32
        let inherited: Bool
        do {
            (fd, inherited) = try Self.acquire(name, in: parentFD, path: path, directory: directory)
        } catch {
            close(parentFD)
            throw error
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        // The directory itself (O_NOFOLLOW: it is the link's target already). Another name for it
        // whose parent is not this one (a second mount of a mount point) meets this lock.
        let own = open(directory.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if own >= 0, flock(own, LOCK_EX | LOCK_NB) != 0 {
            let holder = Self.holder(ofDirectory: own)
            close(own)
            unlinkat(parentFD, name, 0)
            close(fd)
            close(parentFD)
            throw ReportError("another frugal run\(holder.map { " (pid \($0))" } ?? "") is writing a report to \(directory.path) by another name")
        }
        self.parentFD = parentFD
        self.fd = fd
        directoryFD = own
        // Held: no live run writes here now, so a staging directory of a dead one is a leftover.
        // Only a writer that died holding the lock leaves one, and it leaves its lock file too
        // (a holder removes the file as it lets go): a lock file made afresh means no dead
        // writer to clean up after, and the parent (`/tmp`, say, thousands of entries on a
        // shared machine: 2–3 ms of a short run's CPU, issue 31) is not listed.
        if inherited { ReportDirectory.removeStaleStaging(for: directory) }
    }

    /// Opens and locks the lock file; `inherited` when it was there before this process (a
    /// holder that died, or one that let go between this open and its lock).
    private static func acquire(_ name: String, in parentFD: Int32, path: String, directory: URL) throws -> (fd: Int32, inherited: Bool) {
        for _ in 0..<100 {
            var inherited = false
            var fd = openat(parentFD, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if fd < 0 && errno == EEXIST {
                inherited = true
                fd = openat(parentFD, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
                // Removed between the two opens by a holder letting go: make it afresh.
                if fd < 0 && errno == ENOENT { continue }
            }
            guard fd >= 0 else { throw ReportError("cannot create \(path): \(String(cString: strerror(errno)))") }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                var bytes = [UInt8](repeating: 0, count: 32)
                let count = pread(fd, &bytes, bytes.count, 0)
                let holder = String(decoding: bytes.prefix(max(0, count)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                close(fd)
                throw ReportError("another frugal run\(holder.isEmpty ? "" : " (pid \(holder))") is writing a report to \(directory.path)")
            }
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, fstatat(parentFD, name, &named, AT_SYMLINK_NOFOLLOW) == 0,
               held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return (fd, inherited)
            }
            // The previous holder removed the file between our open and our lock: lock the new one.
            close(fd)
        }
        throw ReportError("cannot take the lock \(path): it was replaced 100 times in a row")
    }

    /// The pid holding a `flock` on the directory open as `fd`, from `/proc/locks` (by the inode),
    /// or nil when it cannot be told.
    static func holder(ofDirectory fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": pid, then major:minor:inode (hex device numbers).
        let dev = UInt64(info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff), minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        let device = String(format: "%02llx:%02llx:%llu", major, minor, UInt64(info.st_ino))
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 5, fields[1] == "FLOCK", fields[5] == device { return String(fields[4]) }
        }
        return nil
    }

    deinit {
        // Still holding the lock: no other process can be between its open and its lock check.
        unlinkat(parentFD, name, 0)
        close(fd)
        if directoryFD >= 0 { close(directoryFD) }
        close(parentFD)
    }
}
