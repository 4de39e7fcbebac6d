/// Which thread of a black-box program the harness judged to be its main thread, from when, and
/// why: the thread that runs the program's main queue or run loop, found from evidence (libdispatch's
/// drain lock on its main queue, read from outside), else the process's first thread.
public struct MainThreadChoice: Codable, Sendable, Equatable {
    /// The program's process and the thread judged.
    public var pid: Int32
    public var tid: Int32
    /// Monotonic ns of the first sample that judged it so.
    public var since: UInt64
    /// How it was judged: `first-thread` (no main queue to read, or the queue is bound to it),
    /// `main-queue-bound` (libdispatch's main queue is bound to this thread: it runs the run loop),
    /// `main-queue-drainer` (under `dispatchMain()`, this pool thread held the main queue's drain lock).
    public var basis: String
    /// The evidence in words, for the report.
    public var evidence: String

    public init(pid: Int32, tid: Int32, since: UInt64, basis: String, evidence: String) {
        self.pid = pid
        self.tid = tid
        self.since = since
        self.basis = basis
        self.evidence = evidence
    }

    /// The basis names.
    public static let firstThread = "first-thread"
    public static let mainQueueBound = "main-queue-bound"
    public static let mainQueueDrainer = "main-queue-drainer"

    /// One line for a report: which thread, and why; several threads (a pool thread each time the
    /// main queue was drained) are summed up by their evidence.
    public static func summary(_ choices: [MainThreadChoice]) -> String? {
        guard let first = choices.first else { return nil }
        let threads = choices.map { "\($0.tid)" }
        var seen: Set<String> = []
        let reasons = choices.map(\.evidence).filter { seen.insert($0).inserted }
        let which = choices.count == 1 ? "thread \(first.tid) of pid \(first.pid)" : "threads \(threads.prefix(6).joined(separator: ", "))\(threads.count > 6 ? ", ..." : "")"
        return "\(which): " + reasons.prefix(3).joined(separator: "; ")
    }
}
