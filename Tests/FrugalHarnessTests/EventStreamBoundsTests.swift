import Foundation
import FrugalCore
@testable import FrugalHarness
import XCTest

/// A workload's event stream is untrusted input, bounded in bytes as in events (round three of
/// the hostile probe: 1,000 marks of 1 MB each held 991 MB of the harness's memory).
final class EventStreamBoundsTests: XCTestCase {
    func testEventsPastTheByteBoundAreDroppedAndSaidSo() {
        let reader = EventStreamReader(fedOn: ManualClock(), maximumBytes: 10_000)
        let detail = String(repeating: "x", count: 1_000)
        let line = #"{"t":1,"type":"mark","mark":{"name":"m","detail":""# + detail + "\"}}\n"
        for _ in 0..<50 { reader.ingest(Array(line.utf8)[...]) }
        reader.endOfStream()
        let kept = reader.snapshot.count
        XCTAssertGreaterThan(kept, 5, "the events within the bound are kept")
        XCTAssertLessThanOrEqual(kept * line.utf8.count, 10_000 + line.utf8.count, "no more than the bound (and the read that crossed it)")
        XCTAssertTrue(reader.malformedLines.contains { $0.contains("bytes of events: the rest of the stream was dropped") }, "\(reader.malformedLines)")
    }

    /// A line of 900 KiB arriving 1 KiB at a time decodes once, whole (the decoder now searches
    /// only the new bytes of each read for its newline).
    func testALongLineFedInSmallReadsDecodesOnce() {
        var decoder = EventStreamDecoder()
        let detail = String(repeating: "y", count: 900 * 1024)
        let line = Array((#"{"t":1,"type":"mark","mark":{"name":"m","detail":""# + detail + "\"}}\n").utf8)
        var items: [EventStreamDecoder.Item] = []
        var offset = 0
        while offset < line.count {
            items += decoder.feed(line[offset..<min(offset + 1024, line.count)])
            offset += 1024
        }
        XCTAssertEqual(items.count, 1)
        guard case .event(let event)? = items.first, case .mark(let mark) = event.body else { return XCTFail("\(items)") }
        XCTAssertEqual(mark.detail?.count, detail.count)
    }
}
