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

/// CPU work standing in for building an index: hashes until its thread has had `seconds` of CPU
/// time (CLOCK_THREAD_CPUTIME_ID), or `wallCap` × `seconds` of wall time have passed, whichever
/// comes first. The same work whatever the machine's load, as a real index build is: on a loaded
/// machine it takes longer by the time the thread waited for a CPU, which main.no-long-blocks
/// does not count (the machine's load is not the app's). (It once ran until 1.5 s of wall time had
/// passed, which at load 25 was 42 ms of work: the bad twin's block vanished once the wait was
/// left out.) The cap keeps a 1.5 s build under the 5 s launch watchdog on a machine so loaded
/// that the thread gets less than 40 % of a CPU; `fixture.launch-hang` asks for 7 s to pass it.
enum IndexBuilder {
    @discardableResult
    static func build(seconds: Double, wallCap: Double = 2.5) -> UInt64 {
        let end = threadCPUNanoseconds() + UInt64(seconds * 1e9)
        let wallEnd = MonotonicClock.now() + UInt64(seconds * wallCap * 1e9)
        var hash: UInt64 = 0xcbf29ce484222325
        var rounds: UInt64 = 0
        while threadCPUNanoseconds() < end && MonotonicClock.now() < wallEnd {
            for byte in 0..<UInt64(4096) {
                hash = (hash ^ (byte &+ rounds)) &* 0x100000001b3
            }
            rounds &+= 1
        }
        return hash
    }

    /// The calling thread's CPU time, ns. clock_gettime of the calling thread's own CPU clock
    /// cannot fail on Linux (the clock always exists and the pointer is valid).
    static func threadCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
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
