import FrugalCore
import FrugalKit

/// A built-in sample app.
public struct WorkloadDefinition: Sendable {
    /// The name users pass to `--workload` (`news.polling`).
    public let name: String
    /// One line on what it does and what it shows.
    public let summary: String
    /// The scenarios `frugal run` uses when none is named.
    public let defaultScenarios: [String]
    /// Whether `frugal run` with no arguments includes it (test fixtures are excluded).
    public let inDefaultSuite: Bool
    /// Files the harness installs in the app bundle before launch.
    public let bundleResources: [BundleResource]
    /// The user's documents the harness installs in Documents before launch (not the app's writes).
    public let documents: [BundleResource]
    /// Makes the app's delegate, in the workload's process.
    public let makeDelegate: @MainActor @Sendable () -> AppDelegate

    public init(name: String, summary: String, defaultScenarios: [String], inDefaultSuite: Bool = true,
                bundleResources: [BundleResource] = [], documents: [BundleResource] = [],
                makeDelegate: @escaping @MainActor @Sendable () -> AppDelegate) {
        self.name = name
        self.summary = summary
        self.defaultScenarios = defaultScenarios
        self.inDefaultSuite = inDefaultSuite
        self.bundleResources = bundleResources
        self.documents = documents
        self.makeDelegate = makeDelegate
    }
}

/// Every built-in workload, in good/bad pairs. Each area adds its list in its own file.
public enum WorkloadCatalogue {
    public static let all: [WorkloadDefinition] = power + launch + lifecycle + resume + responsiveness + disk + foundationDisk + network + memory + baseline
        + fixtures + responsivenessFixtures + memoryFixtures + threads

    /// The workload called `name`, if any.
    public static func named(_ name: String) -> WorkloadDefinition? { all.first { $0.name == name } }

    /// The workloads `frugal run` uses by default.
    public static var defaultSuite: [WorkloadDefinition] { all.filter(\.inDefaultSuite) }
}
