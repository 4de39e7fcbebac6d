/// Where a run's Perfetto trace is, relative to report.json, or why it was not written.
public struct RunTraceFile: Codable, Sendable, Equatable {
    /// The trace's path inside the report directory (`traces/03-news.polling-idle-1.pftrace`);
    /// nil when it was not written.
    public var path: String?
    /// Its size in bytes, when written.
    public var bytes: Int?
    /// Why it was not written (over the budget, `--no-trace`), when it was not.
    public var omitted: String?

    public init(path: String, bytes: Int) {
        self.path = path
        self.bytes = bytes
    }

    public init(omitted reason: String) {
        self.omitted = reason
    }
}
