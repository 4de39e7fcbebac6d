import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// The sample a wait starts from is taken once the app's threads are asleep: off the CPU and off
/// the run queue. A thread preempted on its way back to sleep reads `S` in `status` with its
/// count from before the switch; sampled then, that switch fell in the wait as an idle wakeup.
final class ProcSamplerSettleTests: XCTestCase {
    func testASettledSampleWaitsForAThreadThatReadsAsleepButIsStillOnTheRunQueue() throws {
        // The main thread reads `S` all along; it is on the run queue for its first 5 looks and
        // its voluntary switch is counted when it leaves it, as the kernel counts it.
        let process = SettlingProcess(onRunQueueFor: 5)
        let sampler = ProcSampler(process: process, interval: 1, clock: SystemClock())
        let sample = try XCTUnwrap(sampler.settledSample(timeout: 5))
        XCTAssertEqual(sample.threads.first?.voluntaryContextSwitches, 1, "the switch back to sleep is before the wait")
        XCTAssertGreaterThanOrEqual(process.looks, 6)
    }

    func testAMachineWhoseWchanNeverNamesAFunctionSettlesOnStatusAloneAfterOneTimeout() throws {
        // No ptrace access, or a kernel before 5.16: `wchan` reads `0` for every thread, always.
        let process = SettlingProcess(onRunQueueFor: .max)
        let sampler = ProcSampler(process: process, interval: 1, clock: SystemClock())
        XCTAssertNotNil(sampler.settledSample(timeout: 0.05), "the timeout ends the first settle")
        let looks = process.looks
        XCTAssertNotNil(sampler.settledSample(timeout: 5))
        XCTAssertEqual(process.looks, looks, "the next settle does not ask again (the wait would be its timeout, every step)")
    }

    func testASettledSampleIsConfirmedByTheNextWithNoThreadChanged() throws {
        // Every look finds the main thread asleep and off the run queue, but between the first
        // two it woke, ran a posted handler and slept again (a worker's hand-off that came just
        // after the main thread was read): that switch is the step's, not the wait's.
        let process = SettlingProcess(onRunQueueFor: 0, switchesBySample: [0, 1])
        let sampler = ProcSampler(process: process, interval: 1, clock: SystemClock())
        let sample = try XCTUnwrap(sampler.settledSample(timeout: 5))
        XCTAssertEqual(sample.threads.first?.voluntaryContextSwitches, 1, "the hand-off's switch is before the wait")
        XCTAssertEqual(process.samples, 3, "the first sample, the one that found the change, and the one that confirmed it")
    }

    func testADoubleThatCannotTellSettlesOnStatusAsBefore() throws {
        let process = SettlingProcess(onRunQueueFor: nil)
        let sampler = ProcSampler(process: process, interval: 1, clock: SystemClock())
        XCTAssertEqual(try XCTUnwrap(sampler.settledSample(timeout: 5)).threads.first?.voluntaryContextSwitches, 0)
    }
}

/// One main thread in state `S`, on the run queue for its first `onRunQueueFor` looks (nil:
/// the double cannot tell, as `SimulatedApp`).
private final class SettlingProcess: AppProcess, Sendable {
    let pid: pid_t = 4242
    let spawnTime = MonotonicClock.now()
    private let onRunQueueFor: Int?
    /// The main thread's voluntary switches in each sample, the last from then on; nil: counted
    /// when it leaves the run queue.
    private let switchesBySample: [Int]?
    private let asked = Mutex(0)
    private let sampled = Mutex(0)

    init(onRunQueueFor: Int?, switchesBySample: [Int]? = nil) {
        self.onRunQueueFor = onRunQueueFor
        self.switchesBySample = switchesBySample
    }

    var looks: Int { asked.withLock { $0 } }
    var samples: Int { sampled.withLock { $0 } }
    var hasExited: Bool { false }
    func send(_ message: ControlMessage) throws {}
    func kill(_ signal: Int32) {}
    func signalMainThread(_ signal: Int32) {}
    func waitForExit(until deadline: UInt64) -> ProcessExit? { nil }
    func closeControl() {}
    var finalIO: ProcessIOCounters? { nil }
    var finalMainThreadStatus: ProcFS.Status? { nil }

    func sample(at time: UInt64) -> ProcessSample? {
        let asleep = onRunQueueFor.map { asked.withLock { $0 } >= $0 } ?? false
        let index = sampled.withLock { count in
            defer { count += 1 }
            return count
        }
        let switches = switchesBySample.map { $0[min(index, $0.count - 1)] } ?? (asleep ? 1 : 0)
        return ProcessSample(time: time, threads: [ThreadSample(tid: pid, name: "main", voluntaryContextSwitches: switches,
                                                                involuntaryContextSwitches: 0, onCPUNanoseconds: 0, state: "S")])
    }

    func isOffRunQueue(tid: Int32) -> Bool? {
        guard let onRunQueueFor else { return nil }
        return asked.withLock { looks in
            looks += 1
            return looks > onRunQueueFor
        }
    }
}
