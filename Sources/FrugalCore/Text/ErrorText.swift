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
    public static func reason(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else { return "\(error as any Error)" }
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
        default:
            // No errno and no code this tool knows: Foundation's code, not its sentence about it.
            return "Foundation error \(error.code)"
        }
    }

    /// As every other line of this tool gives an errno: `strerror`'s words.
    private static func posix(_ code: Int32) -> String { String(cString: strerror(code)) }
}
