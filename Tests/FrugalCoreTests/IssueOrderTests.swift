import XCTest
@testable import FrugalCore

/// `network.enqueue-together` on the wire: the guide's "waiting for one to finish before starting
/// the next one" is a transfer that starts alone once every earlier one of its batch has ended.
final class IssueOrderTests: XCTestCase {
    static func span(_ start: Double, _ end: Double, _ label: String = "t") -> TransferSpan { TransferSpan(start: start, end: end, label: label) }

    func testSixUploadsEachAwaitedBeforeTheNextWaitFiveTimes() {
        // Six 0.3 s uploads, each started at the end of the one before (an `await` in a loop).
        let serial = (0..<6).map { Self.span(1 + Double($0) * 0.3, 1.3 + Double($0) * 0.3, "POST /upload/\($0)") }
        let order = IssueOrder(serial)
        XCTAssertEqual(order.waveSizes, [1, 1, 1, 1, 1, 1])
        XCTAssertEqual(order.waited.map(\.label), (1..<6).map { "POST /upload/\($0)" })
        // A few ms of the app's own work between them changes nothing.
        let withWork = (0..<6).map { Self.span(1 + Double($0) * 0.305, 1.3 + Double($0) * 0.305) }
        XCTAssertEqual(IssueOrder(withWork).waited.count, 5)
    }

    func testALinkTheAnswerBeforeNamedIsFollowedNotHeldBack() {
        // A config naming its feed, the feed naming the first story: each could be asked for
        // only once the answer before it came.
        var chain = [Self.span(1, 1.1, "GET /config"), Self.span(1.1, 1.2, "GET /feed"), Self.span(1.2, 1.3, "GET /story/0")]
        chain[1].namedBy = "GET /config"
        chain[2].namedBy = "GET /feed"
        let order = IssueOrder(chain)
        XCTAssertTrue(order.waited.isEmpty)
        XCTAssertEqual(order.followedLinks.map(\.label), ["GET /feed", "GET /story/0"])
        // A list naming three items fetched one after another: only the first item waited for
        // the answer that named it; the other two waited for an item that did not name them.
        var list = [Self.span(1, 1.1, "GET /list")] + (0..<3).map { Self.span(1.1 + Double($0) * 0.1, 1.2 + Double($0) * 0.1, "GET /item/\($0)") }
        for index in 1..<4 { list[index].namedBy = "GET /list" }
        let items = IssueOrder(list)
        XCTAssertEqual(items.followedLinks.map(\.label), ["GET /item/0"])
        XCTAssertEqual(items.waited.map(\.label), ["GET /item/1", "GET /item/2"])
    }

    func testConnectionsOpenedAsTheyGoAreIssuedTogether() {
        // `curl -Z`: six downloads whose connections open 10 ms apart, each 0.2 s: all overlap.
        let parallel = (0..<6).map { Self.span(1 + Double($0) * 0.01, 1.2 + Double($0) * 0.01) }
        let order = IssueOrder(parallel)
        XCTAssertEqual(order.waveSizes, [6])
        XCTAssertTrue(order.waited.isEmpty)
        // Two of them finish early and the third starts after them, while others are in flight: together.
        let staggered = [Self.span(1, 1.05), Self.span(1.01, 1.3), Self.span(1.06, 1.2)]
        XCTAssertTrue(IssueOrder(staggered).waited.isEmpty)
    }

    func testAClientsQueueOnItsConnectionsIsNotTheAppWaiting() {
        // Seven transfers enqueued together on a client of 6 connections: six at once, the
        // seventh when they are done. The client held it back, not the app.
        let queued = (0..<6).map { _ in Self.span(1, 1.2) } + [Self.span(1.2, 1.4)]
        XCTAssertEqual(IssueOrder(queued, connectionLimit: 6).waveSizes, [6, 1])
        XCTAssertTrue(IssueOrder(queued, connectionLimit: 6).waited.isEmpty)
        // With no connection limit known (another client) the lone seventh is counted.
        XCTAssertEqual(IssueOrder(queued).waited.count, 1)
        // Waves of several after the first are the client's connections working through the queue.
        let waves = (0..<4).map { _ in Self.span(1, 1.2) } + (0..<4).map { _ in Self.span(1.2, 1.4) }
        XCTAssertTrue(IssueOrder(waves).waited.isEmpty)
    }

    func testAnInputBetweenTwoTransfersSplitsTheBatch() {
        // A download per tap, 0.3 s apart: what the user asked for separately is not one batch.
        let spans = [Self.span(1, 1.1), Self.span(1.3, 1.4), Self.span(1.6, 1.7)]
        XCTAssertEqual(TransferBatch.group(spans, chunks: []) { _ in nil }.count, 1, "without the taps: one batch")
        XCTAssertTrue(TransferBatch.group(spans, chunks: [], prompts: [0.95, 1.25, 1.55]) { _ in nil }.isEmpty)
        // An input before the batch began does not split it.
        XCTAssertEqual(TransferBatch.group(spans, chunks: [], prompts: [0.95]) { _ in nil }.first?.transfers.count, 3)
    }

    func testTheAuditCountsTheWorstBatchsWaitsFromTheWire() throws {
        // Six 40 KiB uploads one after another, a tap before them (the user picked the photos):
        // five waited for the one before. The same six in flight together: none.
        let serial = (0..<6).map { OtherHandAuditTests.wire("/upload/\($0)", 1 + Double($0) * 0.4, 1.38 + Double($0) * 0.4, up: 40_960, down: 20) }
        let bad = try OtherHandAuditTests.audit(OtherHandAuditTests.networkRecord(serial, inputs: [0.9]), "network.enqueue-together")
        XCTAssertEqual(bad.numericValue, 5)
        XCTAssertLessThan(try XCTUnwrap(bad.score), 0.5)
        XCTAssertTrue(bad.displayValue.hasPrefix("5 transfers issued only after the one before had finished"), bad.displayValue)
        let together = (0..<6).map { OtherHandAuditTests.wire("/upload/\($0)", 1 + Double($0) * 0.002, 2.6, up: 40_960, down: 20) }
        let good = try OtherHandAuditTests.audit(OtherHandAuditTests.networkRecord(together, inputs: [0.9]), "network.enqueue-together")
        XCTAssertEqual(good.numericValue, 0)
        XCTAssertEqual(good.score, 1)
        // One dependent follow-up (a list, then the item it names) stays in the pass band.
        let followUp = [OtherHandAuditTests.wire("/list", 1, 1.1), OtherHandAuditTests.wire("/item/3", 1.1, 1.2)]
        let one = try OtherHandAuditTests.audit(OtherHandAuditTests.networkRecord(followUp), "network.enqueue-together")
        XCTAssertEqual(one.numericValue, 1)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(one.score), 0.9)
    }
}
