import Foundation
import FrugalCore
import FrugalProbe
import Synchronization

/// Watches the run's processes' TCP connections from outside them, for connections that go
/// somewhere other than the run's proxy: traffic the proxy never sees (a client that ignores the
/// proxy variables, a hard-coded address), reported as unseen rather than read as zero bytes.
///
/// It reads `/proc/<pid>/fd` and `net/tcp{,6}` every ``interval`` seconds on a thread of the
/// harness (the app is never woken); while no process of the run holds a TCP connection or a
/// listening socket, every ``quietInterval`` (the harness beside a program that uses no network
/// wakes 4 times a second, not 20). A connection that opens and closes between two looks is
/// missed; connections to the processes' own listening ports (a socket talking to itself on
/// loopback) are not traffic and are left out. With the run's cgroup v2 group, a look first reads
/// the group's CPU time (``CgroupCPUUsage``): unchanged since the last look, none of the run's
/// processes ran, so none opened or connected a socket, and the look would find what the last one
/// found; `/proc` is read again only once the run has run.
final class SocketWatch: Sendable {
    /// Seconds between looks while the run holds TCP sockets.
    static let interval = 0.05
    /// Seconds between looks while it holds none.
    static let quietInterval = 0.25

    private struct State {
        var pids: @Sendable () -> [pid_t] = { [] }
        var ignored: Set<String> = []
        /// The run's group's CPU time; nil without a v2 group (every look reads `/proc`).
        var usage: CgroupCPUUsage?
        /// The group's CPU time before the last full look, and whether that look found sockets.
        var lastLook: (usage: UInt64, holding: Bool)?
        var seen: [String: (pid: pid_t, at: UInt64)] = [:]
        var stopped = false
        var started = false
    }

    /// The proxy's `host:port`: connections there are seen.
    let proxyAddress: String
    private let state = Mutex(State())

    init(proxyAddress: String) {
        self.proxyAddress = proxyAddress
    }

    /// Watches the processes `pids` returns (the run's, called at each look); starts the thread
    /// the first time. A respawned app calls it again with its new process.
    /// `ignoring`: the harness's own peers the app is given (the slow peer of blocking-call workloads).
    /// `usage`: the CPU time of the run's cgroup v2 group, which holds every process `pids` returns.
    func watch(ignoring: Set<String> = [], usage: CgroupCPUUsage? = nil, _ pids: @escaping @Sendable () -> [pid_t]) {
        let start = state.withLock { state -> Bool in
            state.pids = pids
            state.ignored = ignoring
            state.usage = usage
            state.lastLook = nil
            defer { state.started = true }
            return !state.started && !state.stopped
        }
        guard start else { return }
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                let holding = look()
                usleep(useconds_t((holding ? Self.interval : Self.quietInterval) * 1_000_000))
            }
        }
        thread.name = "frugal-socket-watch"
        thread.start()
    }

    /// One look at every process's connections; returns whether any held a TCP connection or a
    /// listening socket.
    @discardableResult
    func look() -> Bool {
        let (provider, ignored, usage, lastLook) = state.withLock { ($0.pids, $0.ignored, $0.usage, $0.lastLook) }
        // Read before the look: whatever runs during it shows in the next reading.
        let before = usage?.microseconds()
        if let before, let lastLook, before == lastLook.usage { return lastLook.holding }
        let holding = fullLook(provider: provider, ignored: ignored)
        state.withLock { $0.lastLook = before.map { ($0, holding) } }
        return holding
    }

    /// Every process's connections from `/proc`; returns whether any held a TCP connection or a listening socket.
    private func fullLook(provider: @Sendable () -> [pid_t], ignored: Set<String>) -> Bool {
        let pids = provider()
        let now = MonotonicClock.now()
        var found: [(String, pid_t)] = []
        var ownPorts: Set<Int> = []
        for pid in pids {
            guard let (connections, listening) = try? ProcFS.connectedSockets(pid: pid) else { continue }
            ownPorts.formUnion(listening)
            found += connections.map { ($0.remoteAddress, pid) }
        }
        let unseen = found.filter { remote, _ in
            guard remote != proxyAddress, !ignored.contains(remote) else { return false }
            if Self.isLoopback(remote), let port = remote.split(separator: ":").last.flatMap({ Int($0) }), ownPorts.contains(port) {
                return false
            }
            return true
        }
        let holding = !found.isEmpty || !ownPorts.isEmpty
        guard !unseen.isEmpty else { return holding }
        state.withLock { state in
            for (remote, pid) in unseen where state.seen[remote] == nil { state.seen[remote] = (pid, now) }
        }
        return holding
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address.hasPrefix("[0000000000000000FFFF00000100007F]") || address.hasPrefix("[00000000000000000000000001000000]")
    }

    /// Stops the thread (it ends after its current look) and returns what it found, times in
    /// seconds since `spawnTime`.
    func finish(spawnTime: UInt64) -> [UnseenConnection] {
        let seen = state.withLock { state in
            state.stopped = true
            state.usage = nil
            return state.seen
        }
        return seen.map { UnseenConnection(remoteAddress: $0.key, pid: $0.value.pid, firstSeen: MonotonicClock.seconds(from: spawnTime, to: $0.value.at)) }
            .sorted { ($0.firstSeen, $0.remoteAddress) < ($1.firstSeen, $1.remoteAddress) }
    }

    func stop() {
        state.withLock { $0.stopped = true }
    }
}
