import Foundation

/// Frugal's diagnostics stream. Standard error may be closed or a pipe whose reader has gone
/// (`frugal run 2>&-`, a log reader that exits): a diagnostic that cannot be written is dropped,
/// never fatal. Foundation's `FileHandle.write(_:)` traps on EPIPE, and without `SIG_IGN` the
/// write itself raises SIGPIPE: either ended a whole suite over a progress line.
public enum StandardError {
    /// Ignores SIGPIPE for the process: a closed pipe then fails the one write with EPIPE.
    /// Call once, first thing.
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text` whole, retrying short writes and EINTR; drops what cannot be written.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
