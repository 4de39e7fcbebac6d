import Foundation
import Synchronization
import FrugalKit

extension WorkloadCatalogue {
    /// The pairs for `lifecycle.resume-fast` and `lifecycle.minimal-background-work`, both under
    /// `suspend-resume` (home, suspended with a notification queued, foreground).
    static let resume: [WorkloadDefinition] = [
        WorkloadDefinition(name: "resume.heavy",
                           summary: "rebuilds its agenda (0.8 s of work) on the main thread when the queued time-change notification arrives on return (bad: lifecycle.resume-fast)",
                           defaultScenarios: ["suspend-resume"]) { AgendaApp(rebuildsOnMainThread: true) },
        WorkloadDefinition(name: "resume.light",
                           summary: "marks its agenda stale on the notification and rebuilds it on a background queue (good)",
                           defaultScenarios: ["suspend-resume"]) { AgendaApp(rebuildsOnMainThread: false) },
        WorkloadDefinition(name: "background.keeps-working",
                           summary: "keeps indexing its library on a worker thread after entering the background, with no background task (bad: lifecycle.minimal-background-work)",
                           defaultScenarios: ["suspend-resume"]) { IndexingApp(pausesInBackground: false) },
        WorkloadDefinition(name: "background.rests",
                           summary: "pauses the same indexing in didEnterBackground and resumes it in willEnterForeground (good)",
                           defaultScenarios: ["suspend-resume"]) { IndexingApp(pausesInBackground: true) },
    ]
}

/// CPU work of a fixed wall-clock length: it takes as long on a busy machine as on a quiet one,
/// so the pairs' timings do not depend on the load.
enum FixedWork {
    static func run(seconds: Double, until stop: () -> Bool = { false }) -> UInt64 {
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while DispatchTime.now().uptimeNanoseconds < end, !stop() {
            for _ in 0..<10_000 { state = state &* 6364136223846793005 &+ 1442695040888963407 }
        }
        return state
    }
}

/// A calendar whose agenda depends on the date: the significant-time-change notification
/// (queued while suspended, delivered on return) makes it rebuild the agenda.
final class AgendaApp: AppDelegate {
    nonisolated static let rebuildSeconds = 0.8
    let rebuildsOnMainThread: Bool
    let queue = DispatchQueue(label: "agenda")
    var agendaVersion = 0
    init(rebuildsOnMainThread: Bool) { self.rebuildsOnMainThread = rebuildsOnMainThread }

    func didReceiveNotification(_ app: Application, name: String) {
        guard name == "significant-time-change" else { return }
        if rebuildsOnMainThread {
            agendaVersion = Int(truncatingIfNeeded: FixedWork.run(seconds: Self.rebuildSeconds) % 1000)
        } else {
            queue.async { [unowned self] in
                let version = Int(truncatingIfNeeded: FixedWork.run(seconds: Self.rebuildSeconds) % 1000)
                app.runLoop.perform("agenda-rebuilt") { self.agendaVersion = version }
            }
        }
    }
}

/// Indexes its library on a worker thread from launch, 3 s of CPU work in all.
final class IndexingApp: AppDelegate {
    nonisolated static let indexingSeconds = 3.0
    let pausesInBackground: Bool
    private let condition = NSCondition()
    // Read and written only holding `condition`, which makes nonisolated(unsafe) safe.
    nonisolated(unsafe) private var paused = false
    nonisolated(unsafe) private var stopped = false
    /// `paused`, read by the worker inside its work without the lock: the pause stops the work
    /// where it is, not at the end of a chunk. A chunk of fixed wall time ran on after
    /// `didEnterBackground` had returned for as long as a loaded machine kept the worker waiting
    /// for a CPU, and its last milliseconds fell in the background (2.66 ms of CPU in 0.52 s,
    /// 0.16 CPU s/min, beside three CPU hogs and a disk writer).
    private let pauseRequested = Atomic<Bool>(false)
    init(pausesInBackground: Bool) { self.pausesInBackground = pausesInBackground }

    func didFinishLaunching(_ app: Application) {
        Thread.detachNewThread { [self] in
            var left = Self.indexingSeconds
            while left > 0 {
                condition.lock()
                while paused && !stopped { condition.wait() }
                let stop = stopped
                condition.unlock()
                if stop { return }
                // Chunks of at most 50 ms, each stopped at once by a pause; what was done counts.
                let chunkStart = DispatchTime.now().uptimeNanoseconds
                _ = FixedWork.run(seconds: min(0.05, left)) { pauseRequested.load(ordering: .relaxed) }
                left -= Double(DispatchTime.now().uptimeNanoseconds - chunkStart) / 1e9
            }
            app.runLoop.perform("indexing-finished") {}
        }
    }

    func didEnterBackground(_ app: Application) {
        if pausesInBackground { setPaused(true) }
    }

    func willEnterForeground(_ app: Application) { setPaused(false) }

    func willTerminate(_ app: Application) {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func setPaused(_ value: Bool) {
        pauseRequested.store(value, ordering: .relaxed)
        condition.lock()
        paused = value
        condition.broadcast()
        condition.unlock()
    }
}
