import Foundation

/// `UserDefaults` as iOS keeps it. On iOS a value is safe once `set(_:forKey:)` returns: the
/// preferences daemon (cfprefsd) holds it and writes it for the app, which is why Apple calls
/// `synchronize()` "unnecessary". swift-corelibs-foundation has no daemon: CFPreferences keeps
/// the change in the process and writes it only when `synchronize()` is called, never on its own
/// and not at exit. An app that keeps its state in `UserDefaults.standard`, as iOS apps do,
/// would lose it when the suspended app is killed, and be charged with losing it
/// (`lifecycle.save-state`). FrugalKit writes it at the moments after which iOS may end the
/// process without a word: before the app can be suspended, and as it terminates.
extension Application {
    /// Writes `UserDefaults.standard`'s unsaved changes (CFPreferences' dirty keys: nothing is
    /// written when there are none) to `$XDG_CONFIG_HOME/<process name>.plist`, which the harness
    /// puts in the sandbox's `Library/Application Support`. The app's own suites
    /// (`UserDefaults(suiteName:)`) are the app's to synchronize: the runtime cannot list them.
    nonisolated static func persistStandardDefaults() {
        UserDefaults.standard.synchronize()
    }
}
