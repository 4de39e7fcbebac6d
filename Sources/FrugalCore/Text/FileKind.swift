#if canImport(Glibc)
import Glibc
#endif

/// A file's kind in words, from its `st_mode`: what a one-line refusal says a path is when it is
/// not the regular file a command reads or writes ("it is a FIFO, not a regular file").
public enum FileKind {
    /// "a FIFO", "a directory", ...; nil for a regular file.
    public static func nonRegular(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFLNK: return "a symbolic link"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "not a regular file"
        }
    }
}
