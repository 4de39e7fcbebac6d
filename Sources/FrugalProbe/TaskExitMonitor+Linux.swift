#if canImport(Glibc)
import Glibc
#endif
import CFrugalSystem
import Foundation
import Synchronization
import FrugalCore

/// Listens to the kernel's exit statistics (taskstats) for the whole machine while at least one
/// run watches, and keeps the exits since the oldest watcher began. One socket and one thread for
/// the process: runs side by side share them. Needs CAP_NET_ADMIN; where it is missing,
/// `unavailableReason` says so and runs fall back to `wait4` and `/proc` samples.
public final class TaskExitMonitor: Sendable {
    public static let shared = TaskExitMonitor()

    /// Everything the receiving thread and the runs share, behind one lock.
    private struct State {
        var fd: Int32 = -1
        var openError: String?
        var exits: [TaskExit] = []
        /// Watchers by token: the monotonic time each began.
        var watchers: [Int: UInt64] = [:]
        var nextToken = 0
        /// Monotonic times at which the kernel reported lost exits (ENOBUFS).
        var losses: [UInt64] = []
    }

    private let state = Mutex(State())

    private init() {}

    /// Starts watching (opening the socket on first use); returns a token for `exits` and `endWatching`,
    /// or nil with `unavailableReason` set.
    public func beginWatching() -> Int? {
        state.withLock { state in
            if state.fd < 0 && state.openError == nil { open(&state) }
            guard state.fd >= 0 else { return nil }
            state.nextToken += 1
            state.watchers[state.nextToken] = MonotonicClock.now()
            return state.nextToken
        }
    }

    /// Why exit statistics cannot be had here, or nil when they can (opens the socket to find out).
    public var unavailableReason: String? {
        state.withLock { state in
            if state.fd < 0 && state.openError == nil { open(&state) }
            return state.openError
        }
    }

    /// The exits seen since the watcher began, waiting up to `timeout` seconds for `until` to hold
    /// (the kernel queues an exit before the parent can reap it; this thread may not have read it yet).
    public func exits(token: Int, timeout: Double = 0, until: ([TaskExit]) -> Bool = { _ in true }) -> (exits: [TaskExit], lost: Bool) {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1e9)
        while true {
            let (seen, lost) = state.withLock { state -> ([TaskExit], Bool) in
                let since = state.watchers[token] ?? 0
                return (state.exits.filter { $0.endTime >= since }, state.losses.contains { $0 >= since })
            }
            if until(seen) || MonotonicClock.now() >= deadline { return (seen, lost) }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }

    /// Stops watching; exits older than every remaining watcher are dropped.
    public func endWatching(token: Int) {
        state.withLock { state in
            state.watchers[token] = nil
            let oldest = state.watchers.values.min() ?? UInt64.max
            state.exits.removeAll { $0.endTime < oldest }
            state.losses.removeAll { $0 < oldest }
        }
    }

    /// Called with the lock held (`state` is the locked state).
    private func open(_ state: inout State) {
        let cpus = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_CONF))))
        let descriptor = frugal_taskstats_open("0-\(cpus - 1)")
        guard descriptor >= 0 else {
            let error = errno
            state.openError = error == EPERM
                ? "taskstats needs CAP_NET_ADMIN (uid \(geteuid()) lacks it): descendants' final counters cannot be read"
                : "taskstats unavailable: \(String(cString: strerror(error))) (errno \(error))"
            return
        }
        state.fd = descriptor
        let thread = Thread { [self] in receive(descriptor) }
        thread.name = "frugal-taskstats"
        thread.start()
    }

    private func receive(_ descriptor: Int32) {
        var records = [frugal_task_exit](repeating: frugal_task_exit(), count: 64)
        while true {
            let count = frugal_taskstats_receive(descriptor, &records, Int32(records.count))
            let now = MonotonicClock.now()
            if count < 0 {
                let error = errno
                if error == ENOBUFS { state.withLock { $0.losses.append(now) } }
                if error != ENOBUFS { return }
                continue
            }
            let relevant = state.withLock { !$0.watchers.isEmpty }
            guard relevant else { continue }
            var batch: [TaskExit] = []
            for record in records.prefix(Int(count)) where record.isProcessTotal == 0 {
                var comm = record.comm
                let command = withUnsafeBytes(of: &comm) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                let elapsed = record.elapsedMicroseconds * 1000
                var exit = TaskExit(tid: Int32(bitPattern: record.tid), tgid: Int32(bitPattern: record.tgid),
                                      ppid: Int32(bitPattern: record.ppid), command: command,
                                      voluntarySwitches: Int(record.voluntarySwitches), involuntarySwitches: Int(record.involuntarySwitches),
                                      cpuSeconds: Double(record.cpuMicroseconds) / 1e6, readBytes: Int(record.readBytes),
                                      writeBytes: Int(record.writeBytes), peakResidentBytes: Int(record.peakResidentKiB) * 1024,
                                      startTime: now > elapsed ? now - elapsed : 0, endTime: now)
                exit.writeCharacters = Int(record.writeCharacters)
                exit.writeSyscalls = Int(record.writeSyscalls)
                exit.runQueueWaitSeconds = Double(record.cpuDelayNanoseconds) / 1e9
                batch.append(exit)
            }
            state.withLock { $0.exits.append(contentsOf: batch) }
        }
    }
}
