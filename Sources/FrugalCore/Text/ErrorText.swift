#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The cause of a failure in the words of one error line. Foundation's own text is no such line:
/// on Linux a file Foundation cannot read says "The operation could not be completed. (error
/// 256)" or "Error Domain=NSCocoaErrorDomain Code=260 … UserInfo={…}", and a directory or a FIFO
/// "permission". The errno under it says what happened (`strerror`: "No such file or directory",
/// "Is a directory"); Foundation's code says it where there is none. This tool's own errors
/// (`SystemCallError`, `ReportError`, `ConfigError`, …) already are one line: their description.
public enum ErrorText {
    /// The cause of `error`, without the path (the caller's line names it).
    public static func reason(_ original: any Error) -> String {
        let error = original as NSError
        // This tool's own errors print their description; bridged to NSError they would not.
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else { return "\(original)" }
        if error.domain == NSPOSIXErrorDomain { return posix(Int32(truncatingIfNeeded: error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(truncatingIfNeeded: underlying.code))
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return posix(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return posix(EACCES)
        case .fileWriteOutOfSpace: return posix(ENOSPC)
        case .fileWriteVolumeReadOnly: return posix(EROFS)
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "not a valid file name"
        case .fileWriteFileExists: return posix(EEXIST)
        case .fileReadTooLarge: return "too large to read"
        case .fileReadUnknownStringEncoding, .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding:
            return "not UTF-8 text"
        case .fileReadCorruptFile: return "not in the expected format"
        case .fileLocking: return "locked by another process"
        case .fileReadUnknown, .fileWriteUnknown:
            // Foundation kept no errno (a folder made under a file): the path says what is in the way.
            if let path = error.userInfo[NSFilePathErrorKey] as? String, let blocker = fileInTheWay(of: path) {
                return "\(blocker) is not a directory"
            }
            return error.code == CocoaError.Code.fileReadUnknown.rawValue ? "it cannot be read" : "it cannot be written"
        default:
            // No errno and no code this tool knows: Foundation's code, not its sentence about it.
            return "Foundation error \(error.code)"
        }
    }

    /// What a `JSONDecoder` that refused a document as a whole says: Foundation's "The given data
    /// was not valid JSON." names no place and no cause. Where the bytes are at hand, a second
    /// parse (`JSONSerialization`, on the failure path only) finds the place.
    public static func invalidJSON(_ data: Data?) -> String {
        guard let data else { return "not valid JSON" }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            if var detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String, !detail.isEmpty {
                if detail.hasSuffix(".") { detail.removeLast() }
                return "not valid JSON (\(detail.prefix(1).lowercased() + detail.dropFirst()))"
            }
        }
        return "not valid JSON"
    }

    /// Whether a decoding failure's context is Foundation's whole-document one (no place, no cause).
    public static func isWholeDocument(_ context: DecodingError.Context) -> Bool {
        context.codingPath.isEmpty && context.debugDescription.hasPrefix("The given data was not valid JSON")
    }

    /// The first component of `path` that exists and is not a directory, with a name after it.
    static func fileInTheWay(of path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/").map(String.init)
        for component in components.dropLast() {
            prefix += "/" + component
            var info = stat()
            guard stat(prefix, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT != S_IFDIR { return prefix }
        }
        return nil
    }

    /// As every other line of this tool gives an errno: `strerror`'s words.
    private static func posix(_ code: Int32) -> String { String(cString: strerror(code)) }
}
