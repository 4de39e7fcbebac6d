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

    /// The hidden name of a file made beside `name` (a staging directory, a temporary file, a
    /// lock): `.NAME` + `suffix`, with NAME shortened (and a hash of the whole of it added) when
    /// the result would be longer than ``maximumNameBytes``. Any name the file system takes
    /// thus gets its companions: a 250-byte `--out` was refused because `.NAME.frugal-staging-PID-N`
    /// was not. The same name always gives the same result (the lock is found by it).
    /// `reserve`: bytes the caller appends after the suffix (a pid and a counter).
    public static func hiddenSibling(of name: String, suffix: String, reserve: Int = 24) -> String {
        let whole = "." + name + suffix
        guard whole.utf8.count + reserve > maximumNameBytes else { return whole }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs and processes
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let tag = "~" + String(hash, radix: 16)
        let room = max(0, maximumNameBytes - reserve - suffix.utf8.count - tag.utf8.count - 1)
        var prefix = ""
        for character in name where prefix.utf8.count + character.utf8.count <= room { prefix.append(character) }
        return "." + prefix + tag + suffix
    }
}
