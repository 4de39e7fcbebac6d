import Foundation

/// Checks out git revisions in worktrees of their own and builds them, for `frugal ab` and
/// `frugal bisect`: the user's checkout is never touched, and a revision built once is reused
/// (its worktree is named by its full commit id and keeps a marker of a finished build).
public struct GitRevisionBuilder: Sendable {
    /// The repository the revisions come from.
    public var repository: URL
    /// Where the worktrees go.
    public var worktrees: URL
    /// The build, run with `/bin/sh -c` in the worktree; nil: `swift build -c release`.
    public var buildCommand: String?

    public init(repository: URL, worktrees: URL, buildCommand: String?) {
        self.repository = repository
        self.worktrees = worktrees
        self.buildCommand = buildCommand
    }

    /// A failure of git or of the build, with what it printed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// A built revision.
    public struct Built: Sendable {
        public var commit: String
        public var directory: URL
        /// Whether this call built it (false: an earlier build was reused).
        public var built: Bool
    }

    /// The full commit id of `revision`.
    public func resolve(_ revision: String) throws -> String {
        let result = try git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"])
        guard result.status == 0 else { throw Failure(description: "not a commit in \(repository.path): \(revision)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The commits after `good` up to and including `bad`, oldest first, along the first-parent
    /// line (what bisection walks).
    public func commits(after good: String, through bad: String) throws -> [String] {
        let result = try git(["rev-list", "--first-parent", "--ancestry-path", "--reverse", "\(good)..\(bad)"])
        guard result.status == 0 else { throw Failure(description: "git rev-list \(good)..\(bad) failed: \(result.output)") }
        return result.output.split(separator: "\n").map(String.init)
    }

    /// The one-line subject of `commit`.
    public func subject(_ commit: String) -> String {
        (try? git(["log", "-1", "--format=%s", commit]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
    }

    /// `revision` checked out in its worktree and built; reused when built before.
    public func build(_ revision: String, log: (String) -> Void = { _ in }) throws -> Built {
        let commit = try resolve(revision)
        let directory = worktrees.appendingPathComponent(commit)
        let marker = directory.appendingPathComponent(".frugal-built")
        if FileManager.default.fileExists(atPath: marker.path) {
            return Built(commit: commit, directory: directory, built: false)
        }
        try FileManager.default.createDirectory(at: worktrees, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: directory.path) {
            // A worktree left by an interrupted add is pruned first, or git refuses the path.
            _ = try git(["worktree", "prune"])
            let add = try git(["worktree", "add", "--detach", "--force", directory.path, commit])
            guard add.status == 0 else { throw Failure(description: "git worktree add \(commit) failed: \(add.output)") }
        }
        let command = buildCommand ?? "swift build -c release"
        log("frugal: building \(commit.prefix(12)) (\(command)) in \(directory.path)")
        let result = try Self.execute("/bin/sh", ["-c", command], in: directory, capture: false)
        guard result.status == 0 else { throw Failure(description: "the build of \(commit.prefix(12)) failed (\(command) exited \(result.status))") }
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
        return Built(commit: commit, directory: directory, built: true)
    }

    private func git(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.execute("/usr/bin/env", ["git", "-C", repository.path] + arguments, in: nil, capture: true)
    }

    /// Runs a program to its end; its output is captured, or goes to standard error (progress).
    static func execute(_ program: String, _ arguments: [String], in directory: URL?, capture: Bool) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = capture ? pipe : FileHandle.standardError
        process.standardError = capture ? pipe : FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(program): \(error)")
        }
        let output = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
