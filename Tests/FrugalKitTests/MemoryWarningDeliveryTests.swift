import Foundation
import Synchronization
import XCTest
@testable import FrugalKit
import FrugalCore
import FrugalProbe

/// A warning reaches the delegate with its level and any observer of the notification; the
/// runtime reports the handler and what the app held before and after.
final class MemoryWarningDeliveryTests: XCTestCase {
    final class Recorder: AppDelegate {
        var levels: [MemoryWarningLevel] = []
        var cachesEmptyWhenTold = false
        let cache = Cache<Int, [UInt8]>(name: "recorder")
        func didReceiveMemoryWarning(_ app: Application, level: MemoryWarningLevel) {
            levels.append(level)
            cachesEmptyWhenTold = cache.count == 0
        }
    }

    func testWarningGoesToTheDelegateAndObserversAndIsReportedWithTheLedger() throws { try MainActor.assumeIsolated { try Self.mainWarningGoesToTheDelegateAndObserversAndIsReportedWithTheLedger() } }

    @MainActor
    private static func mainWarningGoesToTheDelegateAndObserversAndIsReportedWithTheLedger() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        let delegate = Recorder()
        delegate.cache.setObject([1, 2, 3], forKey: 1, cost: 3000)
        let app = try Application(name: "t", delegate: delegate, emitter: EventEmitter(fd: fds[1]), preferPAPI: false)
        let observed = Mutex<[MemoryWarningLevel]>([])
        let token = NotificationCenter.default.addObserver(forName: .frugalMemoryWarning, object: nil, queue: nil) { note in
            if let level = note.userInfo?[Application.memoryWarningLevelKey] as? MemoryWarningLevel { observed.withLock { $0.append(level) } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        app.handleMemoryWarning("critical", sequence: 7)
        app.simulateMemoryWarning(level: .normal)
        close(fds[1])
        XCTAssertEqual(delegate.levels, [.critical, .normal])
        XCTAssertEqual(observed.withLock { $0 }, [.critical, .normal])
        XCTAssertTrue(delegate.cachesEmptyWhenTold, "caches evict before the delegate is told")
        let lines = String(decoding: FileHandle(fileDescriptor: fds[0]).readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let events = try lines.map { try JSONDecoder().decode(WorkloadEvent.self, from: Data($0.utf8)) }
        let handled = events.compactMap { event -> MemoryEvent? in
            if case .memory(let memory) = event.body, memory.kind == .warningHandled { return memory }
            return nil
        }
        XCTAssertEqual(handled.map(\.level), [.critical, .normal])
        XCTAssertEqual(handled.first?.sequence, 7)
        XCTAssertEqual(handled.first?.before?.cacheBytes, 3000)
        XCTAssertEqual(handled.first?.after?.cacheBytes, 0)
        XCTAssertTrue(events.contains { if case .handler(let h) = $0.body { return h.name == "memoryWarning:critical" }; return false })
    }
}
