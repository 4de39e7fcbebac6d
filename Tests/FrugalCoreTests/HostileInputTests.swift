import Foundation
import XCTest
@testable import FrugalCore

/// Numbers and text from files anyone can write: conversions that never trap, sanitizers that
/// leave nothing raw, an event-stream decoder whose memory a workload cannot grow.
final class HostileInputTests: XCTestCase {
    func testSaturatingConversionsNeverTrap() {
        XCTAssertEqual(Int(saturating: 1e17 * 100), Int.max)
        XCTAssertEqual(Int(saturating: 1e308), Int.max)
        XCTAssertEqual(Int(saturating: -.infinity), Int.min)
        XCTAssertNil(Int(saturating: .nan))
        XCTAssertEqual(Int(saturating: 86.5), 87)
        XCTAssertEqual(Int(saturating: 9_223_372_036_854_774_784.0), 9_223_372_036_854_774_784)
        XCTAssertEqual(UInt64(saturating: .infinity), .max)
        XCTAssertEqual(UInt64(saturating: -5), 0)
        XCTAssertEqual(UInt64(saturating: .nan), 0)
    }

    func testDisplayFormatsAnyJSONNumber() {
        XCTAssertEqual(DisplayFormat.score(1e17), String(Int.max))
        XCTAssertEqual(DisplayFormat.score(0.874), "87")
        XCTAssertEqual(DisplayFormat.score(nil), "–")
        XCTAssertEqual(DisplayFormat.number(1e308), "1e+308")
        XCTAssertEqual(DisplayFormat.number(-.infinity), "-∞")
        XCTAssertEqual(DisplayFormat.number(.nan), "NaN")
        XCTAssertEqual(DisplayFormat.number(1234.4), "1234")
        XCTAssertEqual(DisplayFormat.integer(1e300), String(Int.max))
    }

    func testControlCharactersAreShownVisiblyOnOneLine() {
        let hostile = "evil\n::error::pwned\u{1B}[31m\u{7}\u{202E}"
        let shown = TextSanitizer.visible(hostile)
        XCTAssertEqual(shown, "evil\\n::error::pwned\\u{1B}[31m\\u{7}\\u{202E}")
        XCTAssertFalse(shown.unicodeScalars.contains { $0.value < 0x20 })
        XCTAssertEqual(TextSanitizer.visible("plain é ✓"), "plain é ✓")
    }

    func testOneLineIsBounded() {
        let long = String(repeating: "k", count: 52_000_000 / 1000) + "\n"
        let line = TextSanitizer.oneLine(long, limit: 100)
        XCTAssertLessThan(line.count, 140)
        XCTAssertTrue(line.hasSuffix("more characters)"), line)
        XCTAssertFalse(line.contains("\n"))
    }

    func testHTMLAndXMLAndMarkdownAreInert() {
        let name = "<script>alert('x')</script>&\u{1B}[2J"
        let html = TextSanitizer.html(name)
        XCTAssertFalse(html.contains("<") || html.contains(">") || html.contains("\u{1B}"), html)
        XCTAssertTrue(html.contains("&lt;script&gt;"))
        let xml = TextSanitizer.xml(name + "\u{FFFE}\u{0}")
        XCTAssertFalse(xml.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0 }, xml)
        let markdown = TextSanitizer.markdown("<img src=x onerror=alert(1)> [link](http://x) | `code` *em*\n# heading")
        XCTAssertFalse(markdown.contains("<img"), markdown)
        XCTAssertFalse(markdown.contains("\n"), markdown)
        for raw in ["[link](", "| `", "*em*", "\n#"] { XCTAssertFalse(markdown.contains(raw), "\(raw) in \(markdown)") }
    }

    func testAnnotationDataCannotStartACommand() {
        let data = TextSanitizer.annotationData("a\n::error::x\r%\u{1B}")
        XCTAssertEqual(data, "a%0A::error::x%0D%25\\u{1B}")
        XCTAssertEqual(TextSanitizer.annotationProperty("a:b,c"), "a%3Ab%2Cc")
    }

    func testDecoderJoinsLinesAcrossReadsAndKeepsStacks() {
        var decoder = EventStreamDecoder()
        let text = #"{"t":12,"type":"ack","ack":{"sequence":3}}"# + "\n@frugal-stack-begin 99\nframe one\n@frugal-stack-end\ngarbage\n"
        let bytes = Array(text.utf8)
        var items = decoder.feed(bytes[0..<10])
        XCTAssertTrue(items.isEmpty)
        items = decoder.feed(bytes[10...])
        XCTAssertEqual(items.count, 3)
        guard case .event(let event) = items[0], case .ack(let ack) = event.body else { return XCTFail("\(items)") }
        XCTAssertEqual(ack.sequence, 3)
        guard case .stack(let time, let lines) = items[1] else { return XCTFail("\(items)") }
        XCTAssertEqual(time, 99)
        XCTAssertEqual(lines, ["frame one"])
        guard case .malformed(let line) = items[2] else { return XCTFail("\(items)") }
        XCTAssertEqual(line, "garbage")
    }

    /// A crafted event's numbers out of range are rejected with the reason before decoding: they
    /// once overflowed a hang deadline, a sum of write lengths and a wall time (SIGILL).
    func testEventsWithNumbersOutOfRangeAreMalformedNotDecoded() throws {
        let huge = WorkloadEvent(time: 10, body: .handler(HandlerRecord(name: "x", start: UInt64.max - 5, end: UInt64.max)))
        let long = WorkloadEvent(time: 10, body: .fileWrite(FileWrite(path: "Documents/a", dataClass: .critical, excludedFromBackup: false,
                                                                      operation: .append, offset: 0, length: Int.max / 2, synced: false, existed: true,
                                                                      diff: nil, sizeAfter: nil, thread: 1, onMainThread: true, start: 10, end: 11,
                                                                      callSite: "c")))
        let fine = WorkloadEvent(time: 10, body: .handler(HandlerRecord(name: "ok", start: 1_000_000, end: 2_000_000, cpuNanoseconds: 5)))
        var lines = ""
        for event in [huge, long, fine] { lines += String(decoding: try JSONEncoder().encode(event), as: UTF8.self) + "\n" }
        // A number inside a string is text, not a number, and a nonsense key still has its bound.
        lines += #"{"t":1,"type":"mark","mark":{"name":"99999999999999999999999","detail":"-1e400"}}"# + "\n"
        var decoder = EventStreamDecoder()
        let items = decoder.feed(Array(lines.utf8))
        XCTAssertEqual(items.count, 4)
        for index in 0..<2 {
            guard case .malformed(let line) = items[index] else { return XCTFail("\(items[index]) was decoded") }
            XCTAssertTrue(line.contains("out of range"), line)
        }
        guard case .event(let event) = items[2], case .handler(let handler) = event.body else { return XCTFail("\(items[2])") }
        XCTAssertEqual(handler.name, "ok")
        guard case .event = items[3] else { return XCTFail("\(items[3])") }
        XCTAssertNotNil(EventNumberBounds.violation(in: Array(#"{"t":-5}"#.utf8)), "a negative time")
        XCTAssertNotNil(EventNumberBounds.violation(in: Array(#"{"t":1,"x":{"bytes":1e300}}"#.utf8)))
        XCTAssertNil(EventNumberBounds.violation(in: Array(#"{"t":4611686018427387904,"a":{"address":18446744073709551615}}"#.utf8)))
    }

    /// Round two (issue 24, item 8): sizes, waits and shards out of range are refused, not trapped
    /// or run forever.
    func testSizesWaitsAndShardsOutOfRangeAreRefused() {
        XCTAssertNil(ByteCount.parse("1e300GiB"))
        XCTAssertNil(ByteCount.parse("99999999999999999999"))
        XCTAssertNil(ByteCount.parse("-5"))
        XCTAssertEqual(ByteCount.parse("48MiB"), 48 << 20)
        for text in [#"{"wait": 1e300}"#, #"{"wait": 3601}"#, #"{"interrupt": 1e10}"#, #"{"balloon": 9000000000000000000}"#] {
            XCTAssertThrowsError(try JSONDecoder().decode(ScenarioStep.self, from: Data(text.utf8)), text)
        }
        XCTAssertEqual(try JSONDecoder().decode(ScenarioStep.self, from: Data(#"{"wait": 3600}"#.utf8)), .wait(seconds: 3600))
        XCTAssertNil(ShardPlan.parse("1/2000000000"))
        XCTAssertNotNil(ShardPlan.parse("3/1000"))
    }

    func testDecoderDropsAnOverlongLineWithoutKeepingIt() {
        var decoder = EventStreamDecoder()
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 256 * 1024)
        var malformed = 0
        for _ in 0..<8 {  // 2 MiB with no newline
            for item in decoder.feed(chunk) { if case .malformed = item { malformed += 1 } }
        }
        XCTAssertEqual(malformed, 1, "one note for the overlong line")
        let items = decoder.feed(Array("tail of it\n{\"t\":1,\"type\":\"ack\",\"ack\":{\"sequence\":1}}\n".utf8))
        XCTAssertEqual(items.count, 1, "the rest of the long line is skipped, the next line decodes")
        guard case .event = items.first else { return XCTFail("\(items)") }
    }

    /// Round three: each time within its bound (2⁶²) but five handlers of 2⁶² ns each: the
    /// sums of their durations (blocked time, off-CPU waits) overflowed and killed `frugal run`.
    func testHandlersAsLongAsTheTimeBoundAllowsDoNotOverflowTheirSums() {
        let longest = EventNumberBounds.maximumTime
        let events = (0..<5).map { index in
            WorkloadEvent(time: 1, body: .handler(HandlerRecord(name: "h\(index)", start: 0, end: longest, cpuNanoseconds: 0,
                                                                 voluntaryContextSwitches: 1)))
        }
        var line = ""
        for event in events { line += String(decoding: (try? JSONEncoder().encode(event)) ?? Data(), as: UTF8.self) + "\n" }
        XCTAssertNil(EventNumberBounds.violation(in: Array(line.utf8)), "each number is in range: only the sums were not")
        let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: 1_000_000_000, pid: 1,
                               steps: [], events: events, samples: [], outcome: .completed, outcomeDetail: nil, exitStatus: nil, resourceUsage: nil)
        let run = ReportBuilder.runReport(record)
        XCTAssertEqual(events.compactMap { if case .handler(let h) = $0.body { h.duration } else { nil } }, Array(repeating: EventNumberBounds.maximumQuantity, count: 5))
        XCTAssertFalse(run.metrics.isEmpty)
    }

    func testInterruptedAndHarnessErrorRunsHaveNoVerdict() {
        for outcome in [RunOutcome.interrupted, .harnessError] {
            let record = RunRecord(workload: "w", scenario: "s", repetition: 1, startTime: 0, endTime: 1_000_000_000, pid: 1,
                                   steps: [], events: [], samples: [], outcome: outcome, outcomeDetail: "why", exitStatus: nil, resourceUsage: nil)
            let run = ReportBuilder.runReport(record)
            XCTAssertFalse(run.audits.isEmpty)
            XCTAssertTrue(run.audits.values.allSatisfy { $0.score == nil && $0.scoreDisplayMode == .notApplicable }, "\(outcome)")
            XCTAssertNil(run.score)
        }
    }
}
