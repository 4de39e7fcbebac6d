import Foundation
import FrugalProtocol

/// The app's home directory, as the harness laid it out (`FRUGAL_SANDBOX`): Documents,
/// Library/Application Support, Library/Caches, tmp, and the read-only bundle.
public struct Sandbox: Sendable {
    /// The sandbox's root directory.
    public let root: URL

    /// The sandbox laid out under `root`.
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

    /// User documents: critical data, backed up.
    public var documents: URL { root.appendingPathComponent(SandboxLayout.documents) }
    /// Files the app needs but the user does not see; backed up.
    public var applicationSupport: URL { root.appendingPathComponent(SandboxLayout.applicationSupport) }
    /// Re-creatable caches; not backed up.
    public var caches: URL { root.appendingPathComponent(SandboxLayout.caches) }
    /// Temporary files, to delete when done.
    public var tmp: URL { root.appendingPathComponent(SandboxLayout.tmp) }
    /// The read-only app bundle: frugal.yml's `resources`.
    public var bundle: URL { root.appendingPathComponent(SandboxLayout.bundle) }
}
