import Foundation
import CFrugalMainLoop

/// `Bundle.main` as iOS has it: the app's bundle, holding its resources. On Linux,
/// swift-corelibs-foundation makes it the directory of the executable (`/proc/self/exe`), which
/// for an app run by the harness is the build directory, while frugal.yml's `resources:` are
/// installed in the sandbox's `Bundle/`. So `Bundle.main.url(forResource:withExtension:)`, the way
/// iOS apps find their resources, found nothing there (or a stale file beside the build), and the
/// resource audits judged an app that never read them.
extension Application {
    /// Makes `Bundle.main` the sandbox's bundle directory, keeping the executable's name (the
    /// process name and the standard `UserDefaults` file's name come from it). Call before
    /// anything reads `Bundle.main`: the app's delegate is made after it. Returns why
    /// `Bundle.main` is elsewhere when it is, nil when it is the bundle.
    static func placeMainBundle(in bundle: URL) -> String? {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "app"
        let name = URL(fileURLWithPath: executable).lastPathComponent
        guard frugal_cf_set_process_path(bundle.appendingPathComponent(name).path) == 0 else {
            return "could not set CoreFoundation's process path: \(String(cString: strerror(errno)))"
        }
        let main = Bundle.main.bundleURL.resolvingSymlinksInPath().path
        let wanted = bundle.resolvingSymlinksInPath().path
        return main == wanted ? nil : "Bundle.main is \(main), not the sandbox's bundle \(wanted): it was read before FrugalKit could place it"
    }
}
