import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// A run's memory machinery on the harness side: the workload's cgroup (made only when the
/// scenario applies real pressure), the kernel-pressure monitor, the balloons, and the facts
/// collected for the record. Thread-safe: the monitor and the delivery thread write facts.
final class MemoryPressure: Sendable {
    /// The workload's cgroup, when one could be made.
    let cgroup: MemoryCgroup?
    /// Whether the kernel's medium/critical events are forwarded to the app as warnings.
    let forwardKernelEvents: Bool

    /// What the monitor, the delivery thread and the session share.
    private struct State {
        var facts: MemoryRunFacts
        var monitor: PressureMonitor?
        var balloons: [ChildProcess] = []
        var lastForward: UInt64 = 0
        var lastEvent: UInt64 = 0
        /// A warning was forwarded and `normal` has not followed yet.
        var episodeOpen = false
        var finished = false
        var nextSequence = -1
    }

    private let state: Mutex<State>
    private let deliveries = DispatchQueue(label: "frugal.memory.deliveries")
    private let pending = DispatchGroup()

    /// The workload's `oom_score_adj`: the most killable, so the harness is never chosen.
    static let workloadOOMScore = 1000

    /// Set to `off` to run pressure simulated even where a cgroup could be made.
    static let disableVariable = "FRUGAL_MEMORY_CGROUP"

    /// Seconds between forwarded kernel warnings: one per burst of pressure events.
    static let forwardInterval = 1.0

    /// Seconds without a kernel event after which the pressure has passed (`normal` is sent).
    static let quietInterval = 2.0

    init(plan: RunPlan, workload: String, forwardKernelEvents: Bool = true, pressureStallGroup: String? = nil) {
        self.forwardKernelEvents = forwardKernelEvents
        let pressured = plan.scenario.steps.contains { $0.kind.needsMemoryCgroup }
        guard pressured else {
            cgroup = nil
            state = Mutex(State(facts: MemoryRunFacts(cgroupUnavailable: "the scenario applies no real pressure, so the workload ran in the harness's group")))
            return
        }
        if ProcessInfo.processInfo.environment[Self.disableVariable] == "off" {
            cgroup = nil
            state = Mutex(State(facts: MemoryRunFacts(cgroupUnavailable: "\(Self.disableVariable)=off: real pressure is switched off, so it runs simulated")))
            return
        }
        let facts: MemoryRunFacts
        switch MemoryCgroup.create(label: workload, pressureStallGroup: pressureStallGroup) {
        case .success(let group):
            cgroup = group
            facts = MemoryRunFacts(cgroupController: group.controller.rawValue, cgroupPath: group.path,
                                   placement: "the workload joins the cgroup and sets oom_score_adj \(Self.workloadOOMScore) itself between its clone and its exec (FRUGAL_SPAWN=shell: a /bin/sh stub does, then execs it)")
        case .failure(let error):
            cgroup = nil
            facts = MemoryRunFacts(cgroupUnavailable: error.description)
        }
        state = Mutex(State(facts: facts))
    }

    /// The app warning for a kernel pressure level. In a memory cgroup the kernel reclaims only
    /// when the group is at its limit, so even `low` (reclaim under way) means the app is at
    /// the edge of its budget — the moment iOS sends its warning; `critical` is critical.
    static func warningLevel(forKernelLevel level: String) -> MemoryWarningLevel {
        level == "critical" ? .critical : .warning
    }

    /// Starts listening for the kernel's pressure events; `forward` delivers one as a warning.
    func startMonitoring(forward: @escaping @Sendable (MemoryWarningLevel, String) -> Void) {
        guard let cgroup else { return }
        do {
            let monitor = try PressureMonitor(cgroup: cgroup, onFailure: { [weak self] error in
                guard let self else { return }
                self.state.withLock { $0.facts.cgroupUnavailable = "pressure events stopped during the run: \(error)" }
            }) { [weak self] event in
                guard let self else { return }
                let level = Self.warningLevel(forKernelLevel: event.level)
                let forwardNow: Bool = self.state.withLock { state in
                    state.facts.pressureEvents.append(event)
                    state.lastEvent = event.time
                    guard self.forwardKernelEvents,
                          event.time >= state.lastForward + UInt64(Self.forwardInterval * 1e9) else { return false }
                    state.lastForward = event.time
                    return true
                }
                if forwardNow {
                    forward(level, "kernel:\(event.level)")
                    self.watchForQuiet(forward: forward)
                }
            }
            monitor.start()
            state.withLock { $0.monitor = monitor }
        } catch {
            state.withLock { $0.facts.cgroupUnavailable = "pressure events unavailable: \(error)" }
        }
    }

    /// Once the kernel has been quiet for `quietInterval`, forwards `normal`, as the system's
    /// memory-pressure source does when pressure passes. Checks again until then.
    private func watchForQuiet(forward: @escaping @Sendable (MemoryWarningLevel, String) -> Void) {
        let open: Bool = state.withLock { state in
            defer { state.episodeOpen = true }
            return state.episodeOpen
        }
        guard !open else { return }
        @Sendable func check() {
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.quietInterval / 2) { [weak self] in
                guard let self else { return }
                let passed: Bool? = self.state.withLock { state in
                    if state.finished { return nil }
                    guard MonotonicClock.now() >= state.lastEvent + UInt64(Self.quietInterval * 1e9) else { return false }
                    state.episodeOpen = false
                    return true
                }
                switch passed {
                case .some(true): forward(.normal, "kernel:quiet \(DisplayFormat.number(Self.quietInterval)) s")
                case .some(false): check()
                case .none: break
                }
            }
        }
        check()
    }

    /// Runs `work` on the delivery thread, so the monitor keeps listening meanwhile.
    func deliverAsync(_ work: @escaping @Sendable () -> Void) {
        deliveries.async(group: pending, execute: work)
    }

    /// A sequence number for a forwarded warning (negative: apart from the scenario's).
    func forwardedSequence() -> Int {
        state.withLock { state in
            defer { state.nextSequence -= 1 }
            return state.nextSequence
        }
    }

    func record(_ delivery: WarningDelivery) { state.withLock { $0.facts.deliveries.append(delivery) } }
    func record(_ change: LimitChange) { state.withLock { $0.facts.limitChanges.append(change) } }
    func addBalloon(_ process: ChildProcess) { state.withLock { $0.balloons.append(process) } }

    /// The balloons started so far.
    var balloons: [ChildProcess] { state.withLock { $0.balloons } }

    /// Ends everything: waits for deliveries under way, stops the monitor, kills the balloons,
    /// reads the OOM count, removes the cgroup. Returns the facts.
    func finish(workloadKilledBySIGKILL: Bool, harnessKilled: Bool) -> MemoryRunFacts {
        state.withLock { $0.finished = true }
        _ = pending.wait(timeout: .now() + 3)
        state.withLock { state in
            defer { state.monitor = nil }
            return state.monitor
        }?.stop()
        let kills = cgroup?.oomKills
        for balloon in balloons {
            balloon.kill(SIGKILL)
            _ = balloon.waitForExit(until: MonotonicClock.now() + 5_000_000_000)
        }
        cgroup?.remove()
        return state.withLock { state in
            state.facts.oomKills = kills
            // The OOM killer sends SIGKILL; a kill the harness did not send, with the group's
            // OOM count raised, is the OOM killer's.
            state.facts.killedByOOM = workloadKilledBySIGKILL && !harnessKilled && (kills ?? 0) > 0
            state.facts.deliveries.sort { $0.time < $1.time }
            return state.facts
        }
    }
}
