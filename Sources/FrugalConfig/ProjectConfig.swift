import Foundation
import FrugalCore

/// A user's project as `frugal.yml` describes it: the apps to run, the scenarios they run
/// under, and the assertions CI checks (Lighthouse CI's `ci:`/`assert:` form).
public struct ProjectConfig: Sendable {
    /// The file's path, as given (errors name it).
    public var file: String
    /// The directory relative paths in the file are read from.
    public var directory: URL
    public var apps: [AppConfig]
    /// The file's own scenarios, in the file's order.
    public var scenarios: [Scenario]
    /// The assertions, when the file has any.
    public var assertions: AssertionSet?
    /// The `server:` of the file's scenarios that have one, by scenario name.
    public var scenarioServers: [String: ServerSettings] = [:]

    public init(file: String, directory: URL, apps: [AppConfig] = [], scenarios: [Scenario] = [], assertions: AssertionSet? = nil) {
        self.file = file
        self.directory = directory
        self.apps = apps
        self.scenarios = scenarios
        self.assertions = assertions
    }

    /// The scenario called `name`: the file's own, else a built-in one.
    public func scenario(named name: String) -> Scenario? {
        scenarios.first { $0.name == name } ?? ScenarioCatalogue.named(name)
    }

    /// The app called `name`, if the file has one.
    public func app(named name: String) -> AppConfig? { apps.first { $0.name == name } }

    /// The SwiftPM products the file's apps are built from, in order, each once.
    public var products: [String] {
        var seen: Set<String> = []
        return apps.compactMap { app -> String? in
            guard case .product(let product) = app.source, seen.insert(product).inserted else { return nil }
            return product
        }
    }
}

/// One entry of `frugal.yml`'s `apps:`.
public struct AppConfig: Sendable, Equatable {
    /// What the executable is.
    public enum Kind: String, Sendable {
        /// Linked with FrugalKit: it speaks the harness's protocol; every audit applies.
        case app
        /// Any program, run as a black box: process-level metrics, the rest unavailable with the reason.
        case program
    }

    /// Where the executable comes from.
    public enum Source: Sendable, Equatable {
        /// An executable file (an absolute path, resolved against the config's directory).
        case executable(String)
        /// A SwiftPM executable product of the package beside `frugal.yml`, built in release.
        case product(String)
    }

    public var name: String
    public var kind: Kind
    public var source: Source
    public var arguments: [String]
    public var environment: [String: String]
    /// Files installed read-only in the app's bundle (from the `resources` folder).
    public var resources: [BundleResource]
    /// Files installed in the sandbox's Documents before launch (from the `documents` folder).
    public var documents: [BundleResource]
    /// The scenarios the app runs under, by name (the file's own or built-in).
    public var scenarios: [String]
    /// The entry's line in the file.
    public var line: Int
    /// What the run's origin answers the app with (`server:`); nil: the synthetic routes.
    public var server: ServerSettings?
    /// A `kind: program`'s memory warning (`memoryWarningSignal:`): the signal a scenario's
    /// `memoryWarning` step (and the kernel's pressure, relayed) sends it; nil: none, the memory
    /// audits that need one are not applicable.
    public var memoryWarningSignal: Int32?
    /// A `kind: program`'s input (`inputSignal:`): the signal a scenario's `input` step sends it;
    /// nil: `input` steps are not applicable to it.
    public var inputSignal: Int32?
    /// What `frugal verdicts --config` expects of the app (`verdict:`); nil: not judged.
    public var verdict: AppVerdict?

    public init(name: String, kind: Kind = .app, source: Source, arguments: [String] = [], environment: [String: String] = [:],
                resources: [BundleResource] = [], documents: [BundleResource] = [], scenarios: [String], line: Int = 1) {
        self.name = name
        self.kind = kind
        self.source = source
        self.arguments = arguments
        self.environment = environment
        self.resources = resources
        self.documents = documents
        self.scenarios = scenarios
        self.line = line
    }
}
