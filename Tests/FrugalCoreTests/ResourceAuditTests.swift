import XCTest
@testable import FrugalCore

/// `memory.lazy-resources` and `memory.map-large-resources` on hand-made bundle traces: what
/// any process read of its resource files, from outside.
final class ResourceAuditTests: XCTestCase {
    static let zero = NetworkAuditTests.zero
    static let ns = NetworkAuditTests.ns
    static let mib = 1 << 20

    static func access(_ path: String, at seconds: Double, reads: Int, window: ClosedRange<Int>?, mapped: Bool = false) -> ResourceTrace.Access {
        ResourceTrace.Access(path: path, opened: ns(seconds), closed: ns(seconds + 0.01), reads: reads,
                             bytesReadAtMost: window.map { $0.upperBound - $0.lowerBound }, readWindow: window, mapped: mapped)
    }

    /// A 5 s run with an input at 1 s and `trace` as its bundle's watch.
    static func record(_ trace: ResourceTrace?, input: Double? = 1) -> RunRecord {
        var record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: zero, endTime: ns(5), pid: 1,
                               steps: [StepRecord(index: 0, step: .launch, start: zero, end: ns(0.1))]
                                + (input.map { [StepRecord(index: 1, step: .input(kind: "open"), start: ns($0), end: ns($0 + 0.01))] } ?? []),
                               events: [], samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: ExitStatus(code: 0), resourceUsage: nil)
        record.resources = trace
        return record
    }

    static func audit(_ record: RunRecord, _ id: String) throws -> AuditResult { try OtherHandAuditTests.audit(record, id) }

    static let tabs = (0..<8).map { ResourceTrace.File(path: "tab-\($0).bin", bytes: mib) }

    func testUsesReadInOneBatchShareItsBytes() {
        // Eight files read in one wakeup of the watcher: each window is the batch's 8 MiB, each
        // use at most its 1 MiB. Two small reads of large files in one 8 KiB window share it.
        let eight = ResourceTrace(files: Self.tabs, accesses: (0..<8).map { Self.access("tab-\($0).bin", at: 0.05, reads: 1, window: 100...(100 + 8 * Self.mib)) })
        XCTAssertEqual(ResourceReads(eight).uses.map(\.bytesRead), Array(repeating: Self.mib, count: 8))
        let small = ResourceTrace(files: [.init(path: "a", bytes: 32 * Self.mib), .init(path: "b", bytes: 32 * Self.mib)],
                                  accesses: [Self.access("a", at: 1, reads: 1, window: 0...8192), Self.access("b", at: 1, reads: 1, window: 0...8192)])
        XCTAssertEqual(ResourceReads(small).uses.compactMap(\.bytesRead).reduce(0, +), 8192, "no byte counts for two files")
        // Opened and never read: nothing copied.
        let mapped = ResourceTrace(files: [.init(path: "a", bytes: 32 * Self.mib)], accesses: [Self.access("a", at: 1, reads: 0, window: 0...40, mapped: true)])
        XCTAssertEqual(ResourceReads(mapped).uses.first?.bytesRead, 0)
    }

    func testReadingEveryTabAtLaunchFailsAndOneOnOpenPasses() throws {
        let preload = ResourceTrace(files: Self.tabs, accesses: (0..<8).map { Self.access("tab-\($0).bin", at: 0.05, reads: 2, window: 0...(8 * Self.mib + 4096)) })
        let bad = try Self.audit(Self.record(preload), "memory.lazy-resources")
        XCTAssertEqual(bad.numericValue, Double(8 * Self.mib))
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5)
        XCTAssertEqual(bad.evidence.count, 8)
        // The lazy app reads tab 0 after the input: nothing before it.
        let lazy = ResourceTrace(files: Self.tabs, accesses: [Self.access("tab-0.bin", at: 1.02, reads: 1, window: 0...Self.mib)])
        let good = try Self.audit(Self.record(lazy), "memory.lazy-resources")
        XCTAssertEqual(good.numericValue, 0)
        XCTAssertEqual(good.score, 1)
        // A bundle with no files: nothing to judge; a watch that failed: unavailable, not zero.
        XCTAssertEqual(try Self.audit(Self.record(ResourceTrace(files: [], accesses: [])), "memory.lazy-resources").scoreDisplayMode, .notApplicable)
        let failed = try Self.audit(Self.record(ResourceTrace(files: Self.tabs, accesses: [], unavailable: "inotify: EMFILE")), "memory.lazy-resources")
        XCTAssertEqual(failed.scoreDisplayMode, .unavailable)
        // Read, but rchar could not be read: unavailable.
        var unmeasured = preload
        for index in unmeasured.accesses.indices { unmeasured.accesses[index].bytesReadAtMost = nil; unmeasured.accesses[index].readWindow = nil }
        XCTAssertEqual(try Self.audit(Self.record(unmeasured), "memory.lazy-resources").scoreDisplayMode, .unavailable)
    }

    func testALargeFileReadWholeFailsAndMappedPasses() throws {
        let tiles = [ResourceTrace.File(path: "tiles.bin", bytes: 32 * Self.mib), .init(path: "small.json", bytes: 2000)]
        let whole = ResourceTrace(files: tiles, accesses: [Self.access("tiles.bin", at: 1.01, reads: 9, window: 10...(10 + 32 * Self.mib + 300))])
        let bad = try Self.audit(Self.record(whole), "memory.map-large-resources")
        XCTAssertEqual(bad.numericValue, Double(32 * Self.mib), "at most the file's size")
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5)
        XCTAssertTrue(bad.evidence.first?.description.contains("during input(open)") ?? false, "\(bad.evidence)")
        let mapped = ResourceTrace(files: tiles, accesses: [Self.access("tiles.bin", at: 1.01, reads: 0, window: 10...50, mapped: true)])
        let good = try Self.audit(Self.record(mapped), "memory.map-large-resources")
        XCTAssertEqual(good.numericValue, 0)
        XCTAssertTrue(good.displayValue.contains("(1 mapped)"), good.displayValue)
        // Only small files installed, or the large one never opened: not applicable.
        XCTAssertEqual(try Self.audit(Self.record(ResourceTrace(files: [tiles[1]], accesses: [])), "memory.map-large-resources").scoreDisplayMode, .notApplicable)
        XCTAssertEqual(try Self.audit(Self.record(ResourceTrace(files: tiles, accesses: [])), "memory.map-large-resources").scoreDisplayMode, .notApplicable)
    }

    func testARecordWithoutAWatchFallsBackToFrugalKitsEvents() throws {
        // An older record: no `resources`, no FrugalKit resource events: not applicable.
        XCTAssertEqual(try Self.audit(Self.record(nil), "memory.lazy-resources").scoreDisplayMode, .notApplicable)
        XCTAssertEqual(try Self.audit(Self.record(nil), "memory.map-large-resources").scoreDisplayMode, .notApplicable)
    }
}
