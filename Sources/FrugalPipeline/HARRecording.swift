import Foundation

/// `frugal record` as a library, around the run it makes: the run's extra options, and the check
/// that the run wrote the recording.
public enum HARRecording {
    /// `runArguments` (frugal run's options, maybe a command after `--`) with the options that
    /// make the run's origin forward to `upstream` and write the exchanges to `path`, put before
    /// the command so they are read as frugal run's.
    public static func runArguments(_ runArguments: [String], upstream: String, path: String) -> [String] {
        var arguments = runArguments
        let extra = ["--record-upstream", upstream, "--record-to", path]
        if let terminator = arguments.firstIndex(of: "--") {
            arguments.insert(contentsOf: extra, at: terminator)
        } else {
            arguments += extra
        }
        return arguments
    }

    /// Checks that the run that started at `started` and ended well wrote the recording at `path`:
    /// a regular file modified since then (1 s of slack for a file system's coarse times).
    public static func confirmWritten(_ path: String, since started: Date) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular,
              let written = attributes?[.modificationDate] as? Date, written >= started.addingTimeInterval(-1) else {
            throw PipelineFailure.harness("the recording was not written to \(path) (the report's network section says why)")
        }
    }
}
