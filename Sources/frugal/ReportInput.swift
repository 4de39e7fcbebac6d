import Foundation
import FrugalCore
import FrugalReport

/// Reading the files a command is given, each failure as one bad-input line naming the file.
enum ReportInput {
    static func load(_ path: String) throws -> Report { try load(path, timelines: true) }

    /// `timelines: false` reads what a comparison reads (``ReportJSON/decodeWithoutTimelines(_:)``).
    static func load(_ path: String, timelines: Bool) throws -> Report {
        let data: Data
        // Foundation names a FIFO or device "permission" and a directory "error 256": say what it is.
        var info = stat()
        if stat(path, &info) == 0, let kind = FileKind.nonRegular(mode: info.st_mode) {
            throw CLIFailure.badInput("cannot read \(path): it is \(kind), not a report file")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > ReportJSON.maxBytes {
            throw CLIFailure.badInput("\(path) is \(size / 1_048_576) MiB, larger than a report can be (\(ReportJSON.maxBytes / 1_048_576) MiB)")
        }
        do {
            // Mapped, not read: a large report is not held twice (file bytes and decoded model).
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw CLIFailure.badInput("cannot read \(path): \(ErrorText.reason(error))")
        }
        do {
            return try timelines ? ReportJSON.decode(data) : ReportJSON.decodeWithoutTimelines(data)
        } catch let error as DecodingError {
            throw CLIFailure.badInput("\(path) is not a Frugal report: \(DecodingErrorText.describe(error, data: data))")
        } catch {
            throw CLIFailure.badInput("\(path): \(ErrorText.reason(error))")
        }
    }

    /// Checks each named output (flag, path) before any work: absent or a regular file only.
    static func checkOutputs(_ outputs: [(flag: String, path: String?)]) throws {
        for case let (flag, path?) in outputs {
            do {
                try OutputPath.checkReplaceable(path)
            } catch {
                throw CLIFailure.badInput("\(flag) \(path): \(error)")
            }
        }
    }

    /// `--out` as the directory it names, by its one name (``OutputPath/canonicalDirectory(_:)``):
    /// symbolic links are followed once, here, so the set is swapped into the target and the lock
    /// is the target's (a link was itself swapped away and replaced by a directory, and a second
    /// name for one directory, `link/` or `a/../out`, escaped the lock). A link to nothing is refused.
    static func resolveOut(_ out: String) throws -> String {
        do {
            return try OutputPath.canonicalDirectory(out)
        } catch {
            throw CLIFailure.badInput("--out \(error)")
        }
    }

    /// Checks that `--out` can take a report set and takes its lock, before any work: a second
    /// run or merge into the same directory is refused at once. Hold the lock until the set is written.
    static func lockOut(_ out: String) throws -> ReportDirectoryLock {
        let directory = URL(fileURLWithPath: out)
        do {
            try ReportDirectory.checkWritable(directory)
            return try ReportDirectoryLock(directory)
        } catch {
            throw CLIFailure.badInput("--out \(out): \(error)")
        }
    }

    static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }

    static func write(_ data: Data, to path: String) throws {
        do {
            try ReportFiles.writeAtomically(data, to: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.badInput("cannot write \(path): \(ErrorText.reason(error))")
        }
    }

    /// report.json, written as it is encoded.
    static func writeReport(_ report: Report, to path: String) throws {
        do {
            try ReportFiles.writeAtomically(to: URL(fileURLWithPath: path)) { try ReportJSONWriter.write(report, to: $0) }
        } catch {
            throw CLIFailure.badInput("cannot write \(path): \(ErrorText.reason(error))")
        }
    }

    /// The git commit of the working directory: `FRUGAL_COMMIT` or `GITHUB_SHA` if set, else the
    /// checkout's `HEAD` as its files say (``GitHead``), else `git rev-parse HEAD`; nil outside a
    /// repository or without git.
    static func gitCommit() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let commit = environment["FRUGAL_COMMIT"] ?? environment["GITHUB_SHA"], !commit.isEmpty { return commit }
        if let commit = GitHead.commit(in: FileManager.default.currentDirectoryPath, environment: environment) { return commit }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "HEAD"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let commit = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }
}

/// What a command prints for CI once a report is final, and the findings exit (2).
enum CIOutput {
    /// Prints annotations and JSON as asked; throws the findings failure when an error-level
    /// assertion failed or a significant regression was found.
    static func finish(_ report: Report, jsonStdout: Bool, annotations: Bool) throws {
        if annotations {
            for line in GitHubAnnotations.render(report) { print(line) }
        }
        if jsonStdout {
            do {
                try ReportJSONWriter.write(report, to: FileHandle.standardOutput)
            } catch {
                throw CLIFailure.harness("cannot write the report to standard output: \(ErrorText.reason(error))")
            }
        }
        try findings(report)
    }

    static func findings(_ report: Report) throws {
        var problems: [String] = []
        if let comparison = report.comparison, !comparison.regressions.isEmpty {
            problems.append("\(comparison.regressions.count) significant regression\(comparison.regressions.count == 1 ? "" : "s") against \(comparison.baseline), worst: "
                            + comparison.regressions.prefix(3).map { "\($0.name) (\($0.workload))" }.joined(separator: ", "))
        }
        if let assertions = report.assertions, assertions.failed {
            let failing = assertions.results.filter { !$0.passed && $0.level == .error }
            problems.append("\(failing.count) error-level assertion\(failing.count == 1 ? "" : "s") failed, first: \(failing[0].target) (\(failing[0].workload))")
        }
        if !problems.isEmpty { throw CLIFailure(code: .findings, message: problems.joined(separator: "; ")) }
    }
}
