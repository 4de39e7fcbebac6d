import Foundation
import Synchronization
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// Listens for the kernel's memory-pressure notifications about one cgroup on its own thread:
/// v1 `memory.pressure_level` (low, medium, critical) through `cgroup.event_control` and an
/// eventfd per level; and, where the unified tree is there (v2, or a hybrid v1 machine's
/// twin group), a PSI trigger on `memory.pressure` (windows of 2 s, the shortest allowed
/// without CAP_SYS_RESOURCE). Each notification is passed to `handler` with its time.
final class PressureMonitor: Sendable {
    private let levelFDs: [(level: String, fd: Int32)]
    private let otherFDs: [Int32]
    private let stopFD: Int32
    private let handler: @Sendable (PressureEvent) -> Void
    /// Told when the thread cannot wait any more (`poll` failed): no event comes after that.
    private let onFailure: @Sendable (SystemCallError) -> Void
    /// Whether the listening thread was started, and whether it has returned.
    private let listening = Mutex((started: false, finished: false))

    static let v1Levels = ["low", "medium", "critical"]
    static let v1Source = "cgroup.event_control:memory.pressure_level"
    /// 1 ms of stall in a 2 s window: reclaiming a small group stalls only briefly, and
    /// windows must be multiples of 2 s without CAP_SYS_RESOURCE.
    static let psiTrigger = "some 1000 2000000"
    static let psiSource = "psi:memory.pressure(\(psiTrigger))"

    init(cgroup: MemoryCgroup, onFailure: @escaping @Sendable (SystemCallError) -> Void = { _ in },
         handler: @escaping @Sendable (PressureEvent) -> Void) throws {
        self.handler = handler
        self.onFailure = onFailure
        stopFD = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        var levelFDs: [(level: String, fd: Int32)] = []
        var otherFDs: [Int32] = []
        if cgroup.controller == .v1 {
            let levelPath = cgroup.path + "/memory.pressure_level"
            for level in Self.v1Levels {
                let efd = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
                levelFDs.append((level, efd))
                let pfd = try SystemCall.retrying("open", subject: levelPath) { open(levelPath, O_RDONLY | O_CLOEXEC) }
                otherFDs.append(pfd)
                try MemoryCgroup.write("\(efd) \(pfd) \(level)", to: cgroup.path + "/cgroup.event_control")
            }
        }
        if let psi = cgroup.psiPath {
            let path = psi + "/memory.pressure"
            let fd = try SystemCall.retrying("open", subject: path) { open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
            levelFDs.append(("psi", fd))
            let trigger = Array(Self.psiTrigger.utf8) + [0]
            try SystemCall.retrying("write", subject: path) { trigger.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
        }
        self.levelFDs = levelFDs
        self.otherFDs = otherFDs
    }

    func start() {
        let thread = Thread { [self] in
            loop()
            listening.withLock { $0.finished = true }
        }
        thread.name = "frugal-pressure"
        listening.withLock { $0.started = true }
        thread.start()
    }

    private func loop() {
        var polls = levelFDs.map { pollfd(fd: $0.fd, events: Int16($0.level == "psi" ? POLLPRI : POLLIN), revents: 0) }
        polls.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0))
        while true {
            do {
                try SystemCall.retrying("poll", subject: "pressure events") { poll(&polls, nfds_t(polls.count), -1) }
            } catch {
                if let error = error as? SystemCallError { onFailure(error) }
                return
            }
            if polls.last!.revents != 0 { return }
            let time = MonotonicClock.now()
            var highest: String?
            for (index, entry) in levelFDs.enumerated() where polls[index].revents != 0 {
                if entry.level == "psi" {
                    if polls[index].revents & Int16(POLLERR) != 0 { return }  // the group is gone
                    handler(PressureEvent(time: time, level: "psi", source: Self.psiSource))
                } else {
                    var count: UInt64 = 0
                    // Only to reset the eventfd; EAGAIN (read already) changes nothing.
                    _ = try? SystemCall.retrying("read", subject: "pressure eventfd") { read(entry.fd, &count, 8) }
                    // Listeners at lower levels are signalled too: the highest signalled is the level.
                    highest = entry.level
                }
            }
            if let highest { handler(PressureEvent(time: time, level: highest, source: Self.v1Source)) }
            for index in polls.indices { polls[index].revents = 0 }
        }
    }

    /// Stops the thread and closes the descriptors (the cgroup forgets the registrations).
    func stop() {
        var one: UInt64 = 1
        // Fails only if the thread has stopped already (a failed poll), which is what is asked.
        _ = try? SystemCall.retrying("write", subject: "pressure stop eventfd") { write(stopFD, &one, 8) }
        while listening.withLock({ $0.started && !$0.finished }) { Thread.sleep(forTimeInterval: 0.001) }
        // The registrations end with the descriptors; a failed close leaves nothing to undo.
        for fd in levelFDs.map(\.fd) + otherFDs + [stopFD] { try? SystemCall.close(fd, subject: "pressure monitor") }
    }
}
