import Foundation
import XCTest
import Synchronization
@testable import FrugalProbe
import CFrugalSystem

/// Thread names as the kernel holds them: what a per-thread report reads to tell FrugalKit's
/// runtime threads (frugal-…) from the app's own.
final class ThreadNameTests: XCTestCase {
    func testNameCurrentThreadIsWhatProcShowsAndFoundationsThreadNameIsNot() throws {
        let seen = Mutex<(named: String, foundation: String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let tid = frugal_gettid()
            let comm = { (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?" }
            let foundation = comm()
            do { try SystemCall.nameCurrentThread("frugal-test-thread-name") } catch { XCTFail("\(error)") }
            seen.withLock { $0 = (comm(), foundation) }
            done.signal()
        }
        thread.name = "set-through-foundation"
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        let names = try XCTUnwrap(seen.withLock { $0 })
        // The kernel keeps 15 bytes of a name.
        XCTAssertEqual(names.named, "frugal-test-thr")
        // Why FrugalKit names its threads itself: Foundation's name never reached the kernel.
        XCTAssertNotEqual(names.foundation, "set-through-fou", "swift-corelibs-foundation now names threads; Thread.name would do")
    }
}
