import FrugalProtocol
import FrugalSystem
import CFrugalSystem
#if canImport(Glibc)
import Glibc
#endif

/// Reports FrugalKit calls that may block (file and network I/O) with their call site, so the
/// report can name work done on the main thread. FrugalKit's services wrap each such call:
///
///     try BlockingCalls.measure("file.write", detail: path, file: file, line: line) { try write() }
public enum BlockingCalls {
    /// Whether the calling thread is the process's main thread (its tid is the pid on Linux).
    public static var isMainThread: Bool { frugal_gettid() == getpid() }

    /// Runs `body` and reports it as a blocking call of `kind` made at `file:line`.
    public static func measure<T>(_ kind: String, detail: String, file: String = #fileID, line: Int = #line,
                                  _ body: () throws -> T) rethrows -> T {
        let start = MonotonicClock.now()
        defer {
            let end = MonotonicClock.now()
            Application.current?.emitter.emit(.blockingCall(BlockingCall(kind: kind, detail: detail, callSite: "\(file):\(line)",
                                                                         start: start, end: end, onMainThread: isMainThread)), at: end)
        }
        return try body()
    }
}
