import Foundation
import FrugalCore

/// The app's home directory, as the harness laid it out (`FRUGAL_SANDBOX`): Documents,
/// Library/Application Support, Library/Caches, tmp, and the read-only bundle.
public struct Sandbox: Sendable {
    public let root: URL

    public init(root: URL) { self.root = root }

    /// The sandbox the harness gave this process; an app run by hand gets a fresh one in the
    /// temporary directory.
    public static let current: Sandbox = {
        if let path = ProcessInfo.processInfo.environment[SandboxLayout.environmentVariable] {
            return Sandbox(root: URL(fileURLWithPath: path))
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-sandbox-\(getpid())")
        for directory in SandboxLayout.all {
            try? FileManager.default.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
        return Sandbox(root: root)
    }()

    public var documents: URL { root.appendingPathComponent(SandboxLayout.documents) }
    public var applicationSupport: URL { root.appendingPathComponent(SandboxLayout.applicationSupport) }
    public var caches: URL { root.appendingPathComponent(SandboxLayout.caches) }
    public var tmp: URL { root.appendingPathComponent(SandboxLayout.tmp) }
    public var bundle: URL { root.appendingPathComponent(SandboxLayout.bundle) }
}
