import CFrugalSystem
import Foundation

/// Removes a directory tree the harness made (a run's sandbox, an old report set) without leaving
/// its mount: every directory is opened relative to its parent with `O_NOFOLLOW | O_DIRECTORY`,
/// and one on another mount — any mount inside the tree, a bind mount of a directory of the same
/// file system included — is left as it is, with all that is under it. `FileManager.removeItem`
/// followed a bind mount inside a sandbox and deleted files on the host; a check of `st_dev`
/// alone missed a bind mount from the same file system (same device, another mount), so each
/// directory's mount id (statx) is compared too, and where the kernel gives none, the mount
/// points listed in `/proc/self/mountinfo` are left alone.
public enum FileTreeRemoval {
    /// Removes `path` and everything under it on the same file system. Returns the paths left in
    /// place: mount points (and the directories holding them, which cannot be emptied).
    @discardableResult
    public static func remove(_ path: String) -> [String] {
        var info = stat()
        guard lstat(path, &info) == 0 else { return [] }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return unlink(path) == 0 || errno == ENOENT ? [] : [path]
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return [path] }
        var left: [String] = []
        var rootMount: UInt64 = 0
        let mount = Mount(device: info.st_dev, id: frugal_mount_id(fd, "", &rootMount) == 0 ? rootMount : nil,
                          mountPoints: mountPoints(under: path))
        removeContents(of: fd, path: path, mount: mount, left: &left)
        close(fd)
        if left.isEmpty, rmdir(path) != 0, errno != ENOENT { left.append(path) }
        return left
    }

    /// The mount the tree is on: its device, its mount id (nil where statx gives none) and the
    /// mount points under the tree when it began (from mountinfo).
    struct Mount {
        var device: dev_t
        var id: UInt64?
        var mountPoints: Set<String>

        /// Whether `name` in the directory open at `fd` (or, with `name` "", `fd` itself) is on this mount.
        func holds(_ fd: Int32, _ name: String, path: String, info: stat) -> Bool {
            guard info.st_dev == device, !mountPoints.contains(path) else { return false }
            guard let id else { return true }
            var other: UInt64 = 0
            return frugal_mount_id(fd, name, &other) == 0 && other == id
        }
    }

    /// The mount points strictly under `root`, from /proc/self/mountinfo (field 5, octal escapes
    /// undone); empty when it cannot be read.
    public static func mountPoints(under root: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return [] }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        var points: Set<String> = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5)
            guard fields.count > 4 else { continue }
            let point = unescape(String(fields[4]))
            if point.hasPrefix(prefix) { points.insert(point) }
        }
        return points
    }

    /// mountinfo writes space, tab, newline and backslash in a path as `\ooo`.
    static func unescape(_ field: String) -> String {
        guard field.contains("\\") else { return field }
        var bytes: [UInt8] = []
        var iterator = Array(field.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "\\"), iterator.count >= 3,
               let value = UInt8(String(decoding: iterator.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                iterator = iterator.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Empties the directory open at `fd` (which is on `mount`), depth first.
    private static func removeContents(of fd: Int32, path: String, mount: Mount, left: inout [String]) {
        // A duplicate for the listing: closedir closes the descriptor it was given.
        let listing = dup(fd)
        guard listing >= 0, let directory = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            left.append(path)
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names {
            let child = path + "/" + name
            var info = stat()
            guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                guard mount.holds(fd, name, path: child, info: info) else {
                    // A mount: neither it nor anything under it is the tree's to delete.
                    left.append(child)
                    continue
                }
                let childFD = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard childFD >= 0 else { left.append(child); continue }
                var opened = stat()
                // Checked again on the open descriptor: the name could have been swapped since.
                guard fstat(childFD, &opened) == 0, mount.holds(childFD, "", path: child, info: opened) else {
                    close(childFD)
                    left.append(child)
                    continue
                }
                let before = left.count
                removeContents(of: childFD, path: child, mount: mount, left: &left)
                close(childFD)
                if left.count == before, !unlinkEvenIfImmutable(name, in: fd, flags: AT_REMOVEDIR) { left.append(child) }
            } else if !unlinkEvenIfImmutable(name, in: fd, flags: 0) {
                left.append(child)
            }
        }
    }

    /// Unlinks `name` in the directory open at `fd`; true when it is gone. A file or directory
    /// marked immutable or append-only (`chattr +i`, which a workload running as root can do in
    /// its sandbox) refuses with EPERM, as does every entry of an immutable directory: the
    /// attributes of both are cleared and the unlink tried once more. That needs the capability
    /// that set them (CAP_LINUX_IMMUTABLE), so whoever could mark them can remove them.
    private static func unlinkEvenIfImmutable(_ name: String, in fd: Int32, flags: Int32) -> Bool {
        if unlinkat(fd, name, flags) == 0 || errno == ENOENT { return true }
        guard errno == EPERM else { return false }
        _ = frugal_clear_immutable(fd, "")
        _ = frugal_clear_immutable(fd, name)
        return unlinkat(fd, name, flags) == 0 || errno == ENOENT
    }
}
