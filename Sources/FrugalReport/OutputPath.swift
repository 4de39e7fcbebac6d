import Foundation
import FrugalCore

/// The one check every file output of the CLI passes before any work starts and again just
/// before its rename: a path is written only if it is absent (in an existing directory, with a
/// name the file system can hold) or a regular file, which the new file replaces. Anything else —
/// a device (`/dev/null` was once replaced by a regular file), a FIFO, a socket, a directory or a
/// symbolic link (replaced, not followed) — is refused with one line that says what it is.
public enum OutputPath {
    /// The longest file name Linux file systems take (`NAME_MAX`), in bytes.
    public static let maximumNameBytes = 255

    /// Throws a `ReportError` naming `path` and why it cannot be written.
    public static func checkReplaceable(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard name.utf8.count <= maximumNameBytes else {
            throw ReportError("\(path): the file name is \(name.utf8.count) bytes, longer than a file system takes (\(maximumNameBytes))")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            guard code == ENOENT else { throw ReportError("\(path): \(String(cString: strerror(code)))") }
            let parent = url.deletingLastPathComponent().path
            var parentInfo = stat()
            guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
                throw ReportError("\(path): its directory \(parent) does not exist")
            }
            return
        }
        if let kind = kind(of: info.st_mode) {
            throw ReportError("refusing to write \(path): it is \(kind), not a regular file; name a regular file or a new path")
        }
    }

    /// What a non-regular file is, in words; nil for a regular file.
    static func kind(of mode: mode_t) -> String? { FileKind.nonRegular(mode: mode) }
}
