import Foundation
import XCTest
@testable import FrugalKit
@testable import FrugalWorkloads

/// `background.rests` (the good twin of `lifecycle.minimal-background-work`) pauses its indexing
/// in `didEnterBackground`. Its worker used to finish the 50 ms chunk it was in; on a loaded
/// machine the end of that chunk fell after the harness's first background sample, and the good
/// app was charged with it (2.66 ms and 4.2 ms of CPU in about 0.5 s of background: 0.16 and
/// 0.26 CPU s/min, in 2 of 18 runs beside three CPU hogs and a disk writer). Now the pause stops
/// the work where it is.
final class IndexingAppPauseTests: XCTestCase {
    /// CPU time of one thread of this process, from the kernel (`/proc/self/task/TID/schedstat`).
    static func cpuNanoseconds(ofThread tid: Int32) throws -> UInt64 {
        let text = try String(contentsOfFile: "/proc/self/task/\(tid)/schedstat", encoding: .utf8)
        return try XCTUnwrap(text.split(separator: " ").first.flatMap { UInt64($0) }, text)
    }

    static func threadIDs() throws -> Set<Int32> {
        Set(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { Int32($0) })
    }

    func testAPauseInDidEnterBackgroundStopsTheWorkerWithinItsChunk() throws { try MainActor.assumeIsolated { try Self.pauseStopsTheWorker() } }

    @MainActor
    private static func pauseStopsTheWorker() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let indexing = IndexingApp(pausesInBackground: true)
        let app = try Application(name: "t", delegate: indexing, emitter: EventEmitter(fd: fds[1]), preferPAPI: false)
        let before = try threadIDs()
        indexing.didFinishLaunching(app)
        defer { indexing.willTerminate(app) }
        // The worker is the new thread that computes: any other one started meanwhile (a
        // libdispatch thread) sleeps, and measuring it would pass whatever the worker did. Polled
        // up to 5 s, since this lane runs at nice 10 beside CPU-bound tests.
        var worker: Int32?
        let deadline = Date().addingTimeInterval(5)
        while worker == nil && Date() < deadline {
            worker = try threadIDs().subtracting(before).first { ((try? cpuNanoseconds(ofThread: $0)) ?? 0) > 5_000_000 }
            if worker == nil { Thread.sleep(forTimeInterval: 0.005) }
        }
        let tid = try XCTUnwrap(worker, "no new thread computed for 5 ms: the indexing did not start")
        // Five pauses at points the test does not choose: before the fix, each let the worker
        // finish its chunk, and the five came to 35-41 ms of the worker's CPU (three runs). The
        // indexing is 3 s of work and this takes less than 1 s of it, so the worker is indexing
        // at every pause.
        var afterPauses: UInt64 = 0
        for _ in 0..<5 {
            Thread.sleep(forTimeInterval: 0.03)
            indexing.didEnterBackground(app)
            let paused = try cpuNanoseconds(ofThread: tid)
            // Longer than a chunk: without the fix the chunk's end falls inside this window.
            Thread.sleep(forTimeInterval: 0.1)
            afterPauses += try cpuNanoseconds(ofThread: tid) - paused
            indexing.willEnterForeground(app)
        }
        // A stopped worker takes a few microseconds to see the pause and park; 10 ms over five
        // pauses is room for a busy machine's scheduling, and a fifth of a single chunk.
        XCTAssertLessThan(Double(afterPauses) / 1e6, 10, "the worker ran on after being paused")
    }
}
