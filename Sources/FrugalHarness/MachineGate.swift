import Foundation
import FrugalSystem

/// The machine, shared by every process that names the same gate file: while one holds it, no
/// other starts a launch, a judged step or an exclusive run. ``ResourceScheduler`` serialises what
/// is judged on time within one `frugal run`; this gate carries the same rule across processes, so
/// two suites (CI's tests and its regression check, two `frugal run`s of one developer) can share a
/// machine and still measure each launch, input, terminate and resume with nothing judged beside
/// it, and each exclusive run alone. What sleeps (light runs, a gated run between its steps)
/// shares the machine as it does within one suite.
///
/// Processes opt in by naming the file in ``environmentVariable`` (`FRUGAL_MACHINE_GATE=PATH`);
/// without it nothing changes. Within a process the gate is held by count: the scheduler already
/// decides what may overlap inside one suite, so a second holder there passes at once, and the
/// file lock is taken when the count leaves 0 and given back when it returns to it.
///
/// Two advisory locks on files (`flock`, which the kernel drops however a process ends, so a
/// killed holder never leaves the machine held): the gate itself, `PATH`, and a waiting room,
/// `PATH.queue`. A process takes the waiting room, then the gate, then leaves the waiting room, so
/// a holder that gives the gate back and wants it again at once must wait behind the process
/// already waiting: two suites take turns instead of one starving the other. The gate file holds
/// the `CLOCK_MONOTONIC` time before which the next holder may not start (the settle time of the
/// last step: the handlers an app runs right after it).
// @unchecked: `holders`, `taking`, `gateFD` and `queueFD` are read and written only holding
// `condition`'s lock.
public final class MachineGate: @unchecked Sendable {
    /// The environment variable that names the gate's file.
    public static let environmentVariable = "FRUGAL_MACHINE_GATE"

    /// How often a process waiting for the gate looks again. Waiting is rare and brief; a turn
    /// handed over costs at most this much.
    static let pollInterval: Double = 0.02

    /// The gate named by ``environmentVariable`` in this process's environment, opened once; nil
    /// when the variable is unset or empty. A file that cannot be opened is an error the CLI
    /// reports before any run starts (``named(in:)``).
    public static let environment: MachineGate? = try? named(in: ProcessInfo.processInfo.environment)

    /// The gate `environment` names, nil when it names none; throws when its file cannot be made.
    public static func named(in environment: [String: String]) throws -> MachineGate? {
        guard let path = environment[environmentVariable], !path.isEmpty else { return nil }
        return try MachineGate(path: path)
    }

    /// The gate's file.
    public let path: String
    private let condition = NSCondition()
    private var holders = 0
    /// A thread of this process is waiting for the file locks; others wait for it.
    private var taking = false
    private let gateFD: Int32
    private let queueFD: Int32

    /// Opens (creating) `path` and `path.queue`; throws naming the file that cannot be.
    public init(path: String) throws {
        self.path = path
        let gate = try SystemCall.retrying("open", subject: path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
        let queuePath = path + ".queue"
        let queue: Int32
        do {
            queue = try SystemCall.retrying("open", subject: queuePath) { open(queuePath, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
        } catch {
            try? SystemCall.close(gate)
            throw error
        }
        gateFD = gate
        queueFD = queue
    }

    deinit {
        try? SystemCall.close(gateFD)
        try? SystemCall.close(queueFD)
    }

    /// Whether this process holds the gate now.
    public var isHeld: Bool {
        condition.lock()
        defer { condition.unlock() }
        return holders > 0
    }

    /// Returns once this process holds the gate (at once if it already does), past the settle time
    /// the last holder left; false, without holding it, when `shouldStop` said so while waiting.
    @discardableResult
    public func acquire(shouldStop: () -> Bool = { false }) -> Bool {
        condition.lock()
        while holders == 0 && taking {
            _ = condition.wait(until: Date().addingTimeInterval(Self.pollInterval * 5))
            if holders == 0 && taking && shouldStop() {
                condition.unlock()
                return false
            }
        }
        if holders > 0 {
            holders += 1
            condition.unlock()
            return true
        }
        taking = true
        condition.unlock()

        let took = takeFileLocks(shouldStop: shouldStop)
        condition.lock()
        taking = false
        if took { holders = 1 }
        condition.broadcast()
        condition.unlock()
        return took
    }

    /// Gives back one hold; when it was the last in this process, the gate is released, and the
    /// next holder waits until `settle` seconds from now before it starts.
    public func release(settle: Double = 0) {
        condition.lock()
        defer { condition.unlock() }
        guard holders > 0 else { return }
        holders -= 1
        guard holders == 0 else { return }
        var notBefore = MonotonicClock.now() &+ UInt64(max(0, settle) * 1e9)
        _ = withUnsafeBytes(of: &notBefore) { pwrite(gateFD, $0.baseAddress, $0.count, 0) }
        _ = flock(gateFD, LOCK_UN)
    }

    /// The waiting room, then the gate, then out of the waiting room; then the settle time.
    private func takeFileLocks(shouldStop: () -> Bool) -> Bool {
        guard lock(queueFD, shouldStop: shouldStop) else { return false }
        defer { _ = flock(queueFD, LOCK_UN) }
        guard lock(gateFD, shouldStop: shouldStop) else { return false }
        var notBefore: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &notBefore) { pread(gateFD, $0.baseAddress, $0.count, 0) }
        let now = MonotonicClock.now()
        if count == MemoryLayout<UInt64>.size, notBefore > now {
            // Bounded: a stale stamp from a clock of another boot cannot hold the machine long.
            let wait = min(Double(notBefore - now) / 1e9, 1)
            Thread.sleep(forTimeInterval: wait)
        }
        return true
    }

    /// `flock(fd, LOCK_EX)`, polled so that `shouldStop` is heard (a blocking `flock` is not woken
    /// by the suite's interruption, which is a message, not a signal to this thread).
    private func lock(_ fd: Int32, shouldStop: () -> Bool) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno != EWOULDBLOCK && errno != EINTR { return true }  // advisory only: never stall a run on an odd file system
            if shouldStop() { return false }
            Thread.sleep(forTimeInterval: Self.pollInterval)
        }
        return true
    }
}
