import XCTest
@testable import FrugalCore

/// A file held open and written in bursts (`FileChange.heldOpenBursts`): each burst is a write to
/// `disk.avoid-frequent-writes`, but not the bursts of a download arriving while its request is
/// in flight (KernelFileActivity.countedWrites).
final class HeldOpenWriteTests: XCTestCase {
    typealias Kernel = KernelFileActivityTests
    static let s = Kernel.s, ms = Kernel.ms, start = Kernel.start

    /// A log appended and synced on each of `bursts` edits 0.4 s apart from 1 s, kept open, closed
    /// at the end: one change, 34 bytes an edit.
    static func log(bursts: Int) -> FileChange {
        var change = FileChange(path: "Library/Application Support/edits.log", kind: .inPlace, time: start + 3900 * ms,
                                sizeAfter: 34 * bursts, bytesWritten: 34 * bursts, existed: true, diff: Kernel.blocks(1))
        change.heldOpenBursts = (0..<bursts).map { start + 1 * s + UInt64($0) * 400 * ms }
        return change
    }

    func testEachBurstOfALogHeldOpenIsASmallWrite() throws {
        let bad = try Kernel.audit(Kernel.record([Self.log(bursts: 12)], seconds: 6), "disk.avoid-frequent-writes")
        XCTAssertEqual(bad.numericValue, 12)
        XCTAssertTrue(bad.displayValue.contains("12 file writes in all"), bad.displayValue)
        XCTAssertTrue(bad.evidence.first?.description.contains("held open and written in 12 bursts") ?? false)
        // The bursts' times are the writes' times.
        let kernel = KernelFileActivity(FileChangeLog(changes: [Self.log(bursts: 12)]))
        XCTAssertEqual(kernel.smallWrites.map(\.time), Self.log(bursts: 12).heldOpenBursts)
        // Without bursts recorded (a record made before they were), one write, as it was read.
        var once = Self.log(bursts: 12)
        once.heldOpenBursts = nil
        XCTAssertEqual(try Kernel.audit(Kernel.record([once], seconds: 6), "disk.avoid-frequent-writes").numericValue, 1)
    }

    func testBurstsWhileARequestIsInFlightAreADownloadArriving() {
        // A 3 MiB episode written as it trickles in over 1 s to 5.4 s: 12 bursts, all inside the
        // request's span, are one write; bursts after it are the app's own again.
        var download = Self.log(bursts: 12)
        download.path = "Library/Caches/episode.mp3"
        download.bytesWritten = 3 << 20
        let arriving = KernelFileActivity(FileChangeLog(changes: [download]), arrivals: [(Self.start + 900 * Self.ms, Self.start + 5500 * Self.ms)])
        XCTAssertEqual(arriving.countedWriteCount, 1)
        let partly = KernelFileActivity(FileChangeLog(changes: [download]), arrivals: [(Self.start + 900 * Self.ms, Self.start + 3 * Self.s)])
        // Bursts at 3.4 s .. 5.4 s (six of them) fall after the request: six writes of a sixth each.
        XCTAssertEqual(partly.countedWriteCount, 6)
        XCTAssertEqual(partly.smallWrites.count, 0, "a sixth of 3 MiB is no small write")
    }
}
