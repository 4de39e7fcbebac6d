import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// A resource of the app's bundle (frugal.yml's `resources:`), found as iOS apps find theirs.
func bundled(_ name: String) -> URL {
    guard let url = Bundle.main.url(forResource: name, withExtension: nil) else { fatalError("\(name) is not in \(Bundle.main.bundlePath)") }
    return url
}

/// memory.respond-to-warnings. A photo grid keeping decoded thumbnails in a plain dictionary
/// (6 × 4 MiB per scroll, decoded on a global queue). Good: empties the dictionary on
/// `didReceiveMemoryWarningNotification`. Bad: never listens for it.
final class ThumbnailApp: AppDelegate {
    let dropsOnWarning: Bool
    var thumbnails: [Int: [UInt8]] = [:]
    var scrolls = 0
    var observer: NSObjectProtocol?
    init(dropsOnWarning: Bool) { self.dropsOnWarning = dropsOnWarning }

    func didFinishLaunching(_ app: Application) {
        guard dropsOnWarning else { return }
        observer = NotificationCenter.default.addObserver(forName: Application.didReceiveMemoryWarningNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated {
                // Let go at once; the 24 buffers' munmaps (tens of ms) happen on a global queue.
                let dropped = self.thumbnails
                self.thumbnails = [:]
                DispatchQueue.global(qos: .utility).async { withExtendedLifetime(dropped) {} }
            }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        let first = thumbnails.count + 1000 * scrolls
        scrolls += 1
        DispatchQueue.global(qos: .userInitiated).async {
            var decoded: [Int: [UInt8]] = [:]
            for id in first..<(first + 6) {
                // A decoded 1024 × 1024 RGBA image: every page written, as a decoder would.
                decoded[id] = [UInt8](unsafeUninitializedCapacity: 4 << 20) { buffer, count in
                    for offset in stride(from: 0, to: buffer.count, by: 4096) { buffer[offset] = UInt8(truncatingIfNeeded: id &+ offset) }
                    count = buffer.count
                }
            }
            DispatchQueue.main.async { MainActor.assumeIsolated { self.thumbnails.merge(decoded) { $1 } } }
        }
    }
}

/// memory.map-large-resources. A map showing a 1 MiB region of a 32 MiB tile file in its
/// bundle. Good: `Data(contentsOf:options: .alwaysMapped)` and reads the region. Bad: reads the
/// whole file into memory to show the region.
final class MapApp: AppDelegate {
    let mapped: Bool
    var tiles: Data?
    var shown = 0
    init(mapped: Bool) { self.mapped = mapped }

    func handleInput(_ app: Application, kind: String) {
        let url = bundled("tiles.bin")
        if tiles == nil { tiles = try? Data(contentsOf: url, options: mapped ? .alwaysMapped : []) }
        guard let tiles, tiles.count > 2 << 20 else { return }
        let region = tiles[(tiles.count / 2)..<(tiles.count / 2 + (1 << 20))]
        shown = stride(from: region.startIndex, to: region.endIndex, by: 4096).reduce(0) { $0 &+ Int(region[$1]) }
    }
}

/// memory.lazy-resources. A tabbed app with eight tabs, each showing one 1 MiB resource.
/// Good: reads a tab's resource when the tab opens. Bad: reads all eight at launch.
final class TabsApp: AppDelegate {
    let preloads: Bool
    var loaded: [Int: Data] = [:]
    init(preloads: Bool) { self.preloads = preloads }

    func didFinishLaunching(_ app: Application) {
        guard preloads else { return }
        for tab in 0..<8 { loaded[tab] = try? Data(contentsOf: bundled("tab-\(tab).bin")) }
    }

    func handleInput(_ app: Application, kind: String) {
        if loaded[0] == nil { loaded[0] = try? Data(contentsOf: bundled("tab-0.bin")) }
        _ = loaded[0]?.first
    }
}

/// memory.no-leaks. A chat app opening and closing a room per cycle; a room holds 2 MiB of
/// messages. Good: observes with `[weak self]` and removes its observer when the room closes.
/// Bad: the room's observer closure captures the room strongly and is never removed, so every
/// closed room stays alive.
final class ChatApp: AppDelegate {
    @MainActor final class Room {
        var messages: [UInt8]
        var token: NSObjectProtocol?
        init(leaks: Bool) {
            messages = [UInt8](repeating: 7, count: 2 << 20)
            let name = Notification.Name("chat.new-message")
            if leaks {
                token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                    MainActor.assumeIsolated { self.messages.append(1) }
                }
            } else {
                token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { [weak self] _ in
                    MainActor.assumeIsolated { self?.messages.append(1) }
                }
            }
        }
        func close(leaks: Bool) { if !leaks, let token { NotificationCenter.default.removeObserver(token) } }
    }
    let leaks: Bool
    var open: Room?
    init(leaks: Bool) { self.leaks = leaks }

    func handleInput(_ app: Application, kind: String) {
        open?.close(leaks: leaks)
        open = Room(leaks: leaks)
    }
}

/// memory.respond-to-warnings, good only. A dashboard that loads its six panels over HTTPS at
/// launch, all at once as the guide asks ("enqueue those items together"), keeps only their
/// sizes, and empties that small cache on a warning. URLSession on Linux keeps each connection
/// alive with its TLS state, about 0.9 MiB each, which nothing the app can call releases: the
/// platform's, not the app's to free (once judged 100% held, a false alarm).
@MainActor
final class DashboardApp: AppDelegate {
    var panels: [String: Int] = [:]
    var observer: NSObjectProtocol?

    func didFinishLaunching(_ app: Application) {
        observer = NotificationCenter.default.addObserver(forName: Application.didReceiveMemoryWarningNotification, object: nil, queue: .main) { _ in
            MainActor.assumeIsolated { self.panels.removeAll() }
        }
        Task {
            let sizes = await withTaskGroup(of: (String, Int).self) { group in
                for panel in ["weather", "calendar", "mail", "news", "stocks", "tasks"] {
                    group.addTask {
                        let url = URL(string: "https://api.corpus.test/json/\(2000 + panel.count)?panel=\(panel)")!
                        return (panel, (try? await URLSession.shared.data(from: url))?.0.count ?? 0)
                    }
                }
                var sizes: [String: Int] = [:]
                for await (panel, size) in group { sizes[panel] = size }
                return sizes
            }
            panels = sizes
        }
    }
}
