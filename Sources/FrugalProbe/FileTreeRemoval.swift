import Foundation

/// Removes a directory tree the harness made (a run's sandbox) without leaving its file system:
/// every directory is opened relative to its parent with `O_NOFOLLOW | O_DIRECTORY`, and one on
/// another device — a bind mount or any mount inside the sandbox — is left as it is, with all
/// that is under it. `FileManager.removeItem` followed a bind mount inside a sandbox and deleted
/// files on the host.
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
        removeContents(of: fd, path: path, device: info.st_dev, left: &left)
        close(fd)
        if left.isEmpty, rmdir(path) != 0, errno != ENOENT { left.append(path) }
        return left
    }

    /// Empties the directory open at `fd` (which is on `device`), depth first.
    private static func removeContents(of fd: Int32, path: String, device: dev_t, left: inout [String]) {
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
                guard info.st_dev == device else {
                    // A mount: neither it nor anything under it is the sandbox's to delete.
                    left.append(child)
                    continue
                }
                let childFD = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard childFD >= 0 else { left.append(child); continue }
                var opened = stat()
                // Checked again on the open descriptor: the name could have been swapped since.
                guard fstat(childFD, &opened) == 0, opened.st_dev == device else {
                    close(childFD)
                    left.append(child)
                    continue
                }
                let before = left.count
                removeContents(of: childFD, path: child, device: device, left: &left)
                close(childFD)
                if left.count == before, unlinkat(fd, name, AT_REMOVEDIR) != 0, errno != ENOENT { left.append(child) }
            } else if unlinkat(fd, name, 0) != 0, errno != ENOENT {
                left.append(child)
            }
        }
    }
}
