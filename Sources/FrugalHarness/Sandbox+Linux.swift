import Foundation
import FrugalCore
import FrugalProbe

/// A run's app home on disk: created before launch, kept across a relaunch within the run,
/// removed at the end unless asked to keep it.
final class Sandbox {
    let root: URL

    /// Creates the layout under `parent`, installs `resources` in the bundle and makes it
    /// read-only, and installs `documents` (writable) in Documents.
    init(parent: URL, workload: String, resources: [BundleResource], documents: [BundleResource] = []) throws {
        // At most 60 characters of the name, ASCII only: the directory is one path component
        // (NAME_MAX, 255 bytes), and a command line of 230 characters once made the run fail after
        // it had run. The random suffix keeps it unique; the name is for a person looking at /tmp.
        let safeName = workload.prefix(60).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "-" }
        root = parent.appendingPathComponent("frugal-sandbox-\(String(safeName))-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            try install(resources: resources, documents: documents)
        } catch {
            // What was made is removed: documents larger than the free space of TMPDIR once
            // left a half-made sandbox behind with the failed run (issue 24, fresh probe).
            remove()
            throw error
        }
    }

    private func install(resources: [BundleResource], documents: [BundleResource]) throws {
        let manager = FileManager.default
        for directory in SandboxLayout.all {
            try manager.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        let bundle = root.appendingPathComponent(SandboxLayout.bundle)
        for resource in resources {
            let url = try Self.install(resource, in: bundle)
            try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        }
        try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: bundle.path)
        let documentsDirectory = root.appendingPathComponent(SandboxLayout.documents)
        for document in documents { _ = try Self.install(document, in: documentsDirectory) }
    }

    /// Writes `resource` under `directory` (its bytes, or a copy of its source file) and syncs it.
    private static func install(_ resource: BundleResource, in directory: URL) throws -> URL {
        let manager = FileManager.default
        let url = directory.appendingPathComponent(resource.path)
        guard url.standardizedFileURL.path.hasPrefix(directory.standardizedFileURL.path + "/") else {
            throw HarnessError.resourceOutside(path: resource.path, directory: directory.lastPathComponent)
        }
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard manager.createFile(atPath: url.path, contents: nil) else { throw HarnessError.file(path: url.path, operation: "create") }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        if resource.content == .file {
            guard let source = resource.sourcePath, let input = FileHandle(forReadingAtPath: source) else {
                throw HarnessError.file(path: resource.sourcePath ?? resource.path, operation: "read")
            }
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try handle.write(contentsOf: chunk) }
        } else {
            var offset = 0
            while offset < resource.bytes {
                let chunk = resource.contents(offset: offset, count: 1 << 20)
                try handle.write(contentsOf: chunk)
                offset += chunk.count
            }
        }
        // Installed means on storage: with clean pages the app's page cache can be dropped
        // (posix_fadvise DONTNEED) and re-read, as an installed app's bundle would be.
        try handle.synchronize()
        return url
    }

    /// The environment a workload needs to find its sandbox.
    var environment: [String: String] { [SandboxLayout.environmentVariable: root.path] }

    /// Deletes the sandbox (making the bundle writable again first, so it can be removed),
    /// without crossing into a file system mounted inside it; returns what was left (mounts).
    @discardableResult
    func remove() -> [String] {
        let bundle = root.appendingPathComponent(SandboxLayout.bundle)
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bundle.path)
        return FileTreeRemoval.remove(root.path)
    }
}
