import Foundation
import FrugalKit

/// Finds its resources as iOS apps do, through `Bundle.main`: at launch it marks where
/// `Bundle.main` is, and on `open` it reads `data/tiles.bin` found by
/// `Bundle.main.url(forResource:withExtension:subdirectory:)` and marks how many bytes it read
/// (`missing` when `Bundle.main` has no such file).
final class BundleReaderApp: AppDelegate {
    private var tiles: Data?

    func didFinishLaunching(_ app: Application) {
        app.mark("bundle", detail: Bundle.main.bundlePath)
    }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "open" else { return }
        guard let url = Bundle.main.url(forResource: "tiles", withExtension: "bin", subdirectory: "data") else {
            app.mark("read", detail: "missing")
            return
        }
        tiles = try? Data(contentsOf: url)
        app.mark("read", detail: tiles.map { String($0.count) } ?? "unreadable")
    }
}
