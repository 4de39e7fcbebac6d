import Foundation
import FrugalCore

extension OutputPath {
    /// `path` as the kernel resolves it, so one directory has one name: every symbolic link
    /// followed (the last name's too, with or without a trailing `/`) and every `..` taken after
    /// the link before it, as `ls a/../out` does. The part that does not exist yet is appended
    /// as written (its `.` and `..` by name). Throws a `ReportError` for a link to nothing, a
    /// file where a directory must be, or a path the kernel refuses.
    ///
    /// Lexically, `a/../out` (with `a` a link) and `link/` (a link to a directory) were other
    /// names than the directory the kernel reaches: two runs took two locks for one directory,
    /// and `link/` had its link swapped away and replaced by a directory.
    public static func canonicalDirectory(_ path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var head = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let candidate = "/" + head.joined(separator: "/")
            if let resolved = realpath(candidate, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                guard !rest.isEmpty else { return base }
                return URL(fileURLWithPath: base).appendingPathComponent(rest.joined(separator: "/")).standardizedFileURL.path
            }
            let code = errno
            var info = stat()
            if lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                throw ReportError("\(path): \(candidate) is a symbolic link to nothing (\(String(cString: strerror(code)))); name a directory or a new path")
            }
            guard code == ENOENT, let last = head.popLast() else {
                throw ReportError("\(path): \(String(cString: strerror(code)))")
            }
            rest.insert(last, at: 0)
        }
    }
}
