import Foundation
import FrugalKit
import FrugalProbe

extension WorkloadCatalogue {
    static let launch: [WorkloadDefinition] = [
        WorkloadDefinition(name: "launch.blocking",
                           summary: "builds its index for 1.5 s inside didFinishLaunching, on the main thread (bad)",
                           defaultScenarios: ["standard"]) { BlockingLaunchApp(workSeconds: 1.5) },
        WorkloadDefinition(name: "launch.deferred",
                           summary: "builds the same index on a background thread after launch (good)",
                           defaultScenarios: ["standard"]) { DeferredLaunchApp(workSeconds: 1.5) },
    ]

    static let fixtures: [WorkloadDefinition] = [
        WorkloadDefinition(name: "fixture.launch-hang",
                           summary: "test fixture: blocks didFinishLaunching for 7 s, past the 5 s launch watchdog",
                           defaultScenarios: ["idle"], inDefaultSuite: false) { BlockingLaunchApp(workSeconds: 7) },
    ]
}

/// CPU work standing in for building an index: hashes until `seconds` of wall time have passed.
/// Deterministic in what it computes; its length is set by time so the pair compares like for like.
enum IndexBuilder {
    @discardableResult
    static func build(seconds: Double) -> UInt64 {
        let end = MonotonicClock.now() + UInt64(seconds * 1e9)
        var hash: UInt64 = 0xcbf29ce484222325
        var rounds: UInt64 = 0
        while MonotonicClock.now() < end {
            for byte in 0..<UInt64(4096) {
                hash = (hash ^ (byte &+ rounds)) &* 0x100000001b3
            }
            rounds &+= 1
        }
        return hash
    }
}

/// Does all its start-up work in didFinishLaunching.
final class BlockingLaunchApp: AppDelegate {
    let workSeconds: Double
    var index: UInt64 = 0
    init(workSeconds: Double) { self.workSeconds = workSeconds }

    func didFinishLaunching(_ app: Application) {
        index = IndexBuilder.build(seconds: workSeconds)
    }
}

/// Launches at once and builds the index on a background thread, then hands it to the main thread.
final class DeferredLaunchApp: AppDelegate {
    let workSeconds: Double
    var index: UInt64 = 0
    init(workSeconds: Double) { self.workSeconds = workSeconds }

    func didFinishLaunching(_ app: Application) {
        let seconds = workSeconds
        Thread.detachNewThread { [unowned self] in
            let built = IndexBuilder.build(seconds: seconds)
            app.runLoop.perform("index-ready") { self.index = built }
        }
    }
}
