import Foundation
import FrugalProtocol

/// One app an executable holds: the name `frugal.yml` (or the built-in catalogue) selects it by,
/// and how to make its delegate.
public struct AppEntry: Sendable {
    /// The name the harness selects the app by (`FRUGAL_APP`).
    public let name: String
    /// Makes the app's delegate; called once, on the main thread, before launch.
    public let makeDelegate: @MainActor @Sendable () -> AppDelegate

    /// An app called `name` whose delegate `makeDelegate` makes.
    public init(_ name: String, makeDelegate: @escaping @MainActor @Sendable () -> AppDelegate) {
        self.name = name
        self.makeDelegate = makeDelegate
    }
}

/// The entry point of an executable whose apps Frugal runs, as `@main` makes a type the
/// entry point of a Swift program:
///
/// ```swift
/// import FrugalKit
///
/// @main
/// struct NotesProfile: FrugalApp {
///     static let apps = [AppEntry("notes") { NotesAppDelegate() }]
/// }
/// ```
///
/// Started by `frugal run`, the executable runs the app `frugal.yml` names (an executable with
/// one app runs it whatever its name there). Started by hand, it prints one line saying it must
/// be started by `frugal run`, and exits 1.
public protocol FrugalApp {
    /// The apps this executable holds; the harness selects one by name.
    static var apps: [AppEntry] { get }
}

extension FrugalApp {
    /// Runs the app the harness asked for on the main thread; never returns.
    @MainActor
    public static func main() {
        Application.main(apps: apps)
    }
}

extension Application {
    /// Runs the app among `apps` that the harness selected (`FRUGAL_APP`) on the calling (main)
    /// thread until it terminates, then exits the process: 0 once terminated, 1 when the process
    /// was not started by the harness or names no app it holds, 3 when the runtime cannot start.
    /// Call it from the main thread (a `@main` type's `main()`).
    public static func main(apps: [AppEntry]) -> Never {
        let environment = ProcessInfo.processInfo.environment
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "app").lastPathComponent
        switch Launch.resolve(apps: apps, environment: environment, isOpen: { fcntl($0, F_GETFD) != -1 }) {
        case .failure(let problem):
            let line = problem == .startedByHand ? FrugalProtocol.startedByHandMessage(executable: executable)
                : "\(executable): \(problem.description)"
            FileHandle.standardError.write(Data((line + "\n").utf8))
            exit(1)
        case .success(let launch):
            // Before the delegate is made: its properties may look up resources.
            let bundleProblem = environment[SandboxLayout.environmentVariable] == nil ? nil : placeMainBundle(in: Sandbox.current.bundle)
            run(name: launch.name, delegate: launch.entry.makeDelegate(), pipes: launch.pipes, environment: environment,
                mainBundleProblem: bundleProblem)
        }
    }

    /// Which app to run, and on which pipes, from the process's environment (pure, for tests).
    struct Launch: Sendable {
        var entry: AppEntry
        /// The name the harness knows the app by.
        var name: String
        var pipes: (control: Int32, events: Int32)

        enum Problem: Error, Equatable, CustomStringConvertible, Sendable {
            /// No harness pipes: someone ran the executable directly.
            case startedByHand
            /// The executable holds no app at all.
            case noApps
            /// The harness named an app this executable does not hold.
            case unknownApp(String, known: [String])
            /// Several apps and no name.
            case noAppNamed(known: [String])

            var description: String {
                switch self {
                case .startedByHand: return "must be started by `frugal run`"
                case .noApps: return "holds no apps (FrugalApp.apps is empty)"
                case .unknownApp(let name, let known):
                    return "holds no app named '\(name)' (it holds: \(known.joined(separator: ", ")))"
                case .noAppNamed(let known):
                    return "holds several apps and \(FrugalProtocol.Environment.app) names none (it holds: \(known.joined(separator: ", ")))"
                }
            }
        }

        static func resolve(apps: [AppEntry], environment: [String: String], isOpen: (Int32) -> Bool) -> Result<Launch, Problem> {
            guard let control = environment[FrugalProtocol.Environment.controlFD].flatMap({ Int32($0) }),
                  let events = environment[FrugalProtocol.Environment.eventFD].flatMap({ Int32($0) }),
                  isOpen(control), isOpen(events) else {
                return .failure(.startedByHand)
            }
            let known = apps.map(\.name)
            guard !apps.isEmpty else { return .failure(.noApps) }
            let requested = environment[FrugalProtocol.Environment.app].flatMap { $0.isEmpty ? nil : $0 }
            if let requested {
                if let entry = apps.first(where: { $0.name == requested }) {
                    return .success(Launch(entry: entry, name: requested, pipes: (control, events)))
                }
                // One app: frugal.yml's name for it is the user's choice, not the entry's.
                if apps.count == 1 { return .success(Launch(entry: apps[0], name: requested, pipes: (control, events))) }
                return .failure(.unknownApp(requested, known: known))
            }
            guard apps.count == 1 else { return .failure(.noAppNamed(known: known)) }
            return .success(Launch(entry: apps[0], name: apps[0].name, pipes: (control, events)))
        }
    }
}
