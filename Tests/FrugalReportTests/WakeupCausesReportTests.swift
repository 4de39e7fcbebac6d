import Foundation
import XCTest
@testable import FrugalReport
import FrugalCore
import FrugalTestSupport

/// A run's wakeup causes in report.json (against the schema) and report.html.
final class WakeupCausesReportTests: XCTestCase {
    static func report(_ causes: RunWakeupCauses) -> Report {
        var report = SyntheticReports.report(wakeups: [10], idleRates: [1])
        report.runs[0].wakeupCauses = causes
        return report
    }

    static let polling = WakeupCause(kind: .timer, symbol: "closure #1 (FrugalKit.RunLoopTimer) -> () in App.Poller.start() -> ()",
                                     module: "App", via: "epoll_wait", from: "handler", handler: "timer:poll")
    static let monitor = WakeupCause(kind: .io, symbol: "_dispatch_workq_monitor_pools", module: "libdispatch.so", via: "epoll_wait",
                                     from: "inferred", note: "the pool monitor")

    func testCausesValidateAgainstTheSchemaAndRender() throws {
        let attribution = WakeupAttribution(source: WakeupAttributor.source, causes: [Self.polling, Self.monitor],
                                            wakeups: [AttributedWakeup(time: 1, pid: 1, tid: 1, cause: 0),
                                                      AttributedWakeup(time: 2, pid: 1, tid: 1, cause: 0),
                                                      AttributedWakeup(time: 3, pid: 1, tid: 3, cause: 1)])
        var causes = RunWakeupCauses(attribution, idleSlices: [(start: 0, end: 10)], threadNames: [1: "main <&>"])
        causes.tracerCPUSeconds = 0.004
        let data = try ReportJSON.encode(Self.report(causes))
        let errors = try ReportTests.validator().validate(data)
        XCTAssertEqual(errors, [], errors.joined(separator: "\n"))
        let decoded = try ReportJSON.decode(data)
        XCTAssertEqual(decoded.runs[0].wakeupCauses, causes)
        let html = HTMLReportRenderer.render(decoded)
        XCTAssertTrue(html.contains("Top causes of 3 idle wakeups"), "the section's summary")
        XCTAssertTrue(html.contains("in App.Poller.start() -&gt; ()"), "the symbol, escaped")
        XCTAssertTrue(html.contains("67% (2)"), "the share and count")
        XCTAssertTrue(html.contains("then ran handler timer:poll"))
        XCTAssertTrue(html.contains("main &lt;&amp;&gt; (1)"), "thread names are escaped")
        XCTAssertTrue(html.contains("the pool monitor"), "an inferred cause says why")
    }

    func testAnUntracedRunSaysWhy() throws {
        let causes = RunWakeupCauses(.unavailable("not root: tracefs is root's"), idleSlices: [])
        let data = try ReportJSON.encode(Self.report(causes))
        XCTAssertEqual(try ReportTests.validator().validate(data), [])
        XCTAssertTrue(HTMLReportRenderer.render(try ReportJSON.decode(data)).contains("Wakeup causes: unavailable — not root: tracefs is root&#39;s"))
    }
}
