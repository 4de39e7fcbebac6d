import XCTest
import Foundation
import FrugalKit
import FrugalTesting

/// A delegate as users write them: it uploads in the background with a background task, ended
/// from the main queue once a global queue's work is done; it keeps a plain dictionary cache
/// and empties it on a memory warning; it records the order of its calls.
@MainActor
private final class UploaderDelegate: AppDelegate {
    var calls: [String] = []
    var cache: [Int: [UInt8]] = [:]
    let endsItsTask: Bool
    var expired = false
    var task = BackgroundTaskIdentifier.invalid
    init(endsItsTask: Bool) { self.endsItsTask = endsItsTask }

    func didFinishLaunching(_ app: Application) {
        calls.append("didFinishLaunching")
        for key in 0..<8 { cache[key] = [UInt8](repeating: 1, count: 1024) }
    }
    func didBecomeActive(_ app: Application) { calls.append("didBecomeActive") }
    func willResignActive(_ app: Application) { calls.append("willResignActive") }
    func willEnterForeground(_ app: Application) { calls.append("willEnterForeground") }
    func didReceiveNotification(_ app: Application, name: String) { calls.append("notification:\(name)") }
    func didEnterBackground(_ app: Application) {
        calls.append("didEnterBackground")
        task = app.beginBackgroundTask(name: "upload") { [weak self] in
            guard let self else { return }
            expired = true
            app.endBackgroundTask(self.task)
        }
        let started = task
        guard endsItsTask else { return }
        DispatchQueue.global().async {
            usleep(20_000)  // the upload
            DispatchQueue.main.async { app.endBackgroundTask(started) }
        }
    }
    func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {
        calls.append("memoryWarning:\(level.rawValue)")
        cache.removeAll()
    }
}

/// FrugalTesting's driver runs a delegate through the app's life in the test's own process, on
/// FrugalKit's real run loop. XCTest (not swift-testing): its test methods run on the process's
/// main thread, which the app's run loop needs (it drains the main queue there). On Linux an
/// XCTest method cannot itself be `@MainActor`, so each body is `MainActor.assumeIsolated`.
final class LifecycleDriverTests: XCTestCase {
    func testALaunchCallsTheDelegateInOrderAndRecordsTheStates() throws { try MainActor.assumeIsolated {
        let delegate = UploaderDelegate(endsItsTask: true)
        let driver = try LifecycleDriver(delegate: delegate)
        XCTAssertEqual(driver.state, .notRunning)
        driver.launch()
        XCTAssertEqual(driver.state, .active)
        XCTAssertEqual(delegate.calls, ["didFinishLaunching", "didBecomeActive"])
        XCTAssertEqual(driver.events.states, [.inactive, .active])
        XCTAssertEqual(driver.events.handlers.map(\.name), ["didFinishLaunching", "didBecomeActive"])
        let launch = try XCTUnwrap(driver.events.milliseconds(of: "didFinishLaunching"))
        XCTAssertGreaterThanOrEqual(launch, 0)
    } }

    func testABackgroundTaskEndedFromTheMainQueueIsSeenEnded() throws { try MainActor.assumeIsolated {
        let driver = try LifecycleDriver(delegate: UploaderDelegate(endsItsTask: true))
        driver.launch()
        driver.enterBackground()
        XCTAssertEqual(driver.state, .background)
        XCTAssertEqual(driver.application.openBackgroundTasks, ["upload"])
        // Generous: the global queue's 20 ms "upload", then one main-queue block; 10 s only
        // bounds a machine too loaded to schedule it.
        XCTAssertTrue(driver.runLoop(until: { driver.application.openBackgroundTasks.isEmpty }, timeout: 10))
        XCTAssertEqual(driver.events.backgroundTasks.map(\.phase), [.begun, .ended])
        XCTAssertTrue(driver.events.handlers.contains { $0.name.hasPrefix("main-queue") || $0.name.hasPrefix("dispatch") },
                      "the main-queue block is a measured handler: \(driver.events.handlers.map(\.name))")
    } }

    func testAForgottenTaskIsStillOpenAndItsExpirationHandlerRuns() throws { try MainActor.assumeIsolated {
        let delegate = UploaderDelegate(endsItsTask: false)
        let driver = try LifecycleDriver(delegate: delegate)
        driver.launch()
        driver.enterBackground()
        XCTAssertFalse(driver.runLoop(until: { driver.application.openBackgroundTasks.isEmpty }, timeout: 0.2))
        driver.expireBackgroundTasks()
        XCTAssertTrue(delegate.expired)
        XCTAssertEqual(driver.events.backgroundTasks.map(\.phase), [.begun, .expirationHandlerCalled, .ended])
    } }

    func testNotificationsInTheBackgroundWaitForTheForeground() throws { try MainActor.assumeIsolated {
        let delegate = UploaderDelegate(endsItsTask: true)
        let driver = try LifecycleDriver(delegate: delegate)
        driver.launch()
        driver.enterBackground()
        driver.receiveNotification("significant-time-change")
        driver.receiveNotification("significant-time-change")
        XCTAssertFalse(delegate.calls.contains("notification:significant-time-change"))
        driver.enterForeground()
        XCTAssertEqual(Array(delegate.calls.suffix(3)), ["willEnterForeground", "notification:significant-time-change", "didBecomeActive"])
        XCTAssertEqual(driver.events.states.suffix(3), [.background, .inactive, .active])
    } }

    func testAMemoryWarningReachesTheDelegateAndIsRecorded() throws { try MainActor.assumeIsolated {
        let delegate = UploaderDelegate(endsItsTask: true)
        let driver = try LifecycleDriver(delegate: delegate)
        driver.launch()
        XCTAssertEqual(delegate.cache.count, 8)
        driver.memoryWarning(.critical)
        XCTAssertTrue(delegate.cache.isEmpty)
        XCTAssertEqual(driver.events.handler(named: "memoryWarning:critical")?.name, "memoryWarning:critical")
        XCTAssertEqual(driver.events.memory.filter { $0.kind == .warningHandled }.count, 1, "one warningHandled fact: \(driver.events.memory)")
    } }

    func testTheRunLoopFiresTimersAndMainQueueWorkForAsLongAsAsked() throws { try MainActor.assumeIsolated {
        let driver = try LifecycleDriver(delegate: UploaderDelegate(endsItsTask: true))
        driver.launch()
        var ticks = 0
        driver.application.runLoop.scheduleTimer(name: "tick", interval: 0.02, repeats: true) { _ in ticks += 1 }
        let ran = LockedFlag()
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { ran.set() }
        try driver.runLoop(for: 0.3)
        // 0.3 s of a 20 ms timer: 15 firings on time; at least 3 however loaded the machine is,
        // and never more than the 15 (missed firings are skipped, not replayed).
        XCTAssertGreaterThanOrEqual(ticks, 3)
        XCTAssertLessThanOrEqual(ticks, 15)
        XCTAssertTrue(ran.isSet, "DispatchQueue.main work ran inside the app's run loop")
        XCTAssertEqual(driver.events.handlers.filter { $0.name == "timer:tick" }.count, ticks)
        XCTAssertTrue(driver.events.marks.contains { $0.name == "timer-scheduled" })
    } }

    func testTerminateEndsTheApp() throws { try MainActor.assumeIsolated {
        let driver = try LifecycleDriver(delegate: UploaderDelegate(endsItsTask: true))
        driver.launch()
        driver.terminate()
        XCTAssertEqual(driver.state, .notRunning)
        XCTAssertEqual(driver.events.states.last, .notRunning)
    } }
}

private final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is read and written only holding `lock`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
