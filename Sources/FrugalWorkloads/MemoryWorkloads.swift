import Foundation
import FrugalCore
import FrugalKit

extension WorkloadCatalogue {
    /// The atlas and the start-up resources, installed in the bundle before launch.
    static let atlasResource = BundleResource(path: "atlas.bin", bytes: 64 << 20, content: .pattern, seed: 7)
    static let startupResources = (0..<8).map { BundleResource(path: "screens/screen-\($0).bin", bytes: 1 << 20, content: .pattern, seed: UInt64($0)) }

    static let memory: [WorkloadDefinition] = [
        WorkloadDefinition(name: "gallery.hoards",
                           summary: "keeps 96 MiB of decoded images in a cache that opted out of eviction on warnings (bad)",
                           defaultScenarios: ["gallery-pressure"]) { GalleryApp(purges: false) },
        WorkloadDefinition(name: "gallery.purges",
                           summary: "keeps decoded images in purgeable buffers in a cache that empties on warnings (good)",
                           defaultScenarios: ["gallery-pressure"]) { GalleryApp(purges: true) },
        WorkloadDefinition(name: "atlas.loads-whole",
                           summary: "reads its 64 MiB texture atlas whole to show a 1 MiB region of it (bad)",
                           defaultScenarios: ["atlas"], bundleResources: [atlasResource]) { AtlasApp(maps: false) },
        WorkloadDefinition(name: "atlas.maps",
                           summary: "maps its 64 MiB atlas (MADV_RANDOM) and touches only the 1 MiB it shows; gives the pages back on a warning (good)",
                           defaultScenarios: ["atlas"], bundleResources: [atlasResource]) { AtlasApp(maps: true) },
        WorkloadDefinition(name: "startup.preloads",
                           summary: "loads all 8 screens' resources (8 MiB) at launch and opens one screen (bad)",
                           defaultScenarios: ["startup"], bundleResources: startupResources) { StartupApp(preloads: true) },
        WorkloadDefinition(name: "startup.lazy",
                           summary: "loads a screen's resource when the screen opens (good)",
                           defaultScenarios: ["startup"], bundleResources: startupResources) { StartupApp(preloads: false) },
        WorkloadDefinition(name: "session.leaks",
                           summary: "keeps every closed session's 2 MiB of state: grows each cycle (bad)",
                           defaultScenarios: ["cycles"]) { SessionApp(leaks: true) },
        WorkloadDefinition(name: "session.steady",
                           summary: "releases each session when it closes: steady across cycles (good)",
                           defaultScenarios: ["cycles"]) { SessionApp(leaks: false) },
    ]
}

/// A photo gallery: each scroll decodes 6 images of 4 MiB into its cache and shows the last 2.
/// The hoarding one caches plain arrays and opts out of eviction; the purging one caches
/// purgeable buffers, empties its cache on a warning and unpins what is on screen.
final class GalleryApp: AppDelegate {
    static let imageBytes = 4 << 20
    static let imagesPerScroll = 6
    let purges: Bool
    private let hoard = Cache<Int, [UInt8]>(name: "images", evictsOnMemoryWarning: false)
    private let purgeable = Cache<Int, PurgeableBuffer>(name: "images", totalCostLimit: 128 << 20)
    private var onScreen: [PurgeableBuffer] = []
    private var next = 0

    init(purges: Bool) { self.purges = purges }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "scroll" else { return }
        var shown: [PurgeableBuffer] = []
        for _ in 0..<Self.imagesPerScroll {
            next += 1
            let shade = UInt8(truncatingIfNeeded: next | 1)
            if purges {
                guard let image = try? PurgeableBuffer(count: Self.imageBytes) else { continue }
                memset(image.bytes.baseAddress!, Int32(shade), image.count)  // "decoding"
                purgeable.setObject(image, forKey: next, cost: Self.imageBytes)
                shown.append(image)
            } else {
                hoard.setObject([UInt8](repeating: shade, count: Self.imageBytes), forKey: next, cost: Self.imageBytes)
            }
        }
        guard purges else { return }
        // The last two stay on screen (pinned); the rest, and what was on screen, are unpinned.
        for image in onScreen { image.endAccess() }
        onScreen = Array(shown.suffix(2))
        for image in shown.dropLast(2) { image.endAccess() }
    }

    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {
        guard purges, level != .normal else { return }
        // The cache has emptied itself; what is on screen can be decoded again when needed.
        for image in onScreen { image.endAccess() }
        onScreen = []
    }
}

/// Shows a 1 MiB region of a 64 MiB texture atlas. The bad one reads the file whole; the good
/// one maps it with MADV_RANDOM (so every page it faults is counted) and gives the pages back
/// on a warning, paying major faults to show the region again. It reads the region on a queue
/// of its own and hands the result to the main thread: those faults are 256 reads from storage,
/// about 10 ms on an idle disk, but touched on the main thread beside a busy one they kept an
/// input waiting 60–250 ms (the guide: "Move Work off the Main Thread").
final class AtlasApp: AppDelegate {
    nonisolated static let region = (8 << 20)..<(9 << 20)
    let maps: Bool
    private var whole: LoadedResource?
    private var mapped: MappedResource?
    /// Where the good one reads the region, one touch after another.
    private let pages = DispatchQueue(label: "atlas.pages")
    var checksum: UInt64 = 0

    init(maps: Bool) { self.maps = maps }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "show" else { return }
        do {
            if maps {
                // Mapping reads nothing (MADV_RANDOM: no readahead); the touch does.
                let atlas = try mapped ?? MappedResource(named: WorkloadCatalogue.atlasResource.path, randomAccess: true)
                mapped = atlas
                pages.async {
                    let shown = atlas.touch(Self.region).checksum
                    app.runLoop.perform("atlas-shown") { [weak self] in self?.checksum &+= shown }
                }
            } else {
                if whole == nil { whole = try Resource.load(WorkloadCatalogue.atlasResource.path) }
                checksum &+= whole!.withBytes { bytes in
                    stride(from: Self.region.lowerBound, to: Self.region.upperBound, by: 4096).reduce(UInt64(0)) { $0 &+ UInt64(bytes[$1]) }
                }
            }
        } catch {
            app.mark("atlas-error", detail: "\(error)")
        }
    }

    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {
        guard maps, level != .normal else { return }
        mapped?.dropPages()
        app.mark("atlas-dropped", detail: "\(mapped?.residentPages ?? -1) pages resident after")
    }
}

/// An app with 8 screens, each with a 1 MiB resource. The bad one loads all at launch.
final class StartupApp: AppDelegate {
    let preloads: Bool
    private var loaded: [Int: LoadedResource] = [:]
    var checksum = 0

    init(preloads: Bool) { self.preloads = preloads }

    func didFinishLaunching(_ app: Application) {
        guard preloads else { return }
        for screen in 0..<WorkloadCatalogue.startupResources.count { load(screen, app: app) }
    }

    private func load(_ screen: Int, app: Application) {
        guard loaded[screen] == nil else { return }
        do {
            loaded[screen] = try Resource.load(WorkloadCatalogue.startupResources[screen].path)
        } catch {
            app.mark("resource-error", detail: "\(error)")
        }
    }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "open" else { return }
        load(0, app: app)
        checksum &+= loaded[0]?.withBytes { Int($0.first ?? 0) } ?? 0
    }
}

/// Each `cycle` input opens a session (2 MiB of state), uses it and closes it. The leaking one
/// keeps every closed session in its history.
final class SessionApp: AppDelegate {
    static let sessionBytes = 2 << 20
    let leaks: Bool
    private var history: [[UInt8]] = []
    private var current: [UInt8] = []
    var checksum = 0

    init(leaks: Bool) { self.leaks = leaks }

    func handleInput(_ app: Application, kind: String) {
        guard kind == MemoryAnalysis.cycleInput else { return }
        current = [UInt8](repeating: UInt8(truncatingIfNeeded: history.count | 1), count: Self.sessionBytes)
        checksum &+= Int(current[Self.sessionBytes / 2])
        if leaks { history.append(current) }
        current = []
    }
}

extension WorkloadCatalogue {
    static let memoryFixtures: [WorkloadDefinition] = [
        WorkloadDefinition(name: "fixture.purgeable",
                           summary: "test fixture: fills 32 MiB of purgeable buffers on input(fill), unpins them, checks them on input(check)",
                           defaultScenarios: ["standard"], inDefaultSuite: false) { PurgeableFixtureApp() },
    ]
}

/// Holds purgeable buffers unpinned and reports, on `check`, whether the kernel discarded them.
final class PurgeableFixtureApp: AppDelegate {
    private var buffers: [PurgeableBuffer] = []

    func handleInput(_ app: Application, kind: String) {
        switch kind {
        case "fill":
            for index in 0..<8 {
                guard let buffer = try? PurgeableBuffer(count: 4 << 20) else { continue }
                memset(buffer.bytes.baseAddress!, Int32(index + 1), buffer.count)
                buffer.endAccess()
                buffers.append(buffer)
            }
        case "check":
            let intact = buffers.filter { buffer in
                defer { buffer.endAccess() }
                return buffer.beginAccess() && buffer.bytes[buffer.count - 1] != 0
            }
            app.mark("purgeable-check", detail: "\(intact.count) of \(buffers.count) intact, \(buffers.reduce(0) { $0 + $1.discardedPages }) pages discarded")
        default: break
        }
    }
}
