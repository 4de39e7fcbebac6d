import Foundation
import Synchronization
import CFrugalSystem
import FrugalCore
import FrugalProbe

/// The harness as the child subreaper of everything its runs start (`prctl(PR_SET_CHILD_SUBREAPER)`):
/// a process of a run whose parent dies is reparented to the harness, not to init, however it
/// left the run (its cgroup, its process group, its session) and whatever it did to its
/// environment. At the end of a run the harness's adopted processes that are the run's, and
/// every descendant of theirs and of the run's main process (by the parent chain), are ended.
///
/// A process that moved itself out of the run's cgroup and cleared its environment once outlived
/// the run (issue 24, round two): the cgroup and the `FRUGAL_SANDBOX` scan
/// (``EscapedProcessScan``) both missed it. Its parent chain is the one thing it cannot change:
/// a process cannot choose its parent, and only a subreaper or init takes an orphan.
///
/// Needs no privilege (Linux 3.4). Not a PID namespace: the program would be pid 1 of its own
/// namespace, which ignores every signal it has no handler for (the run's SIGTERM), takes every
/// process of the namespace with it when it exits (so a straggler would never be seen), and sees
/// other pids than the harness; an unprivileged user would also need a user namespace for it.
///
/// Which run an adopted process is from: the kernel does not say (it was reparented). One whose
/// start is before the run's is not the run's; one that could have been started by another run
/// still going on (it started after that run began) is left to that run, whose end takes it, or
/// to the last of them. With one run at a time (`--jobs 1`) the answer is exact.
enum ChildSubreaper {
    private struct State {
        /// Nil until first asked; then the prctl's result.
        var enabled: SystemCallError??
        /// Processes the harness spawned itself (the runs' main processes) until reaped: never adopted.
        var spawned: Set<pid_t> = []
        /// The runs going on: when each began (monotonic ns).
        var runs: [Int: UInt64] = [:]
        var nextToken = 0
    }

    private static let state = Mutex(State())

    /// Makes this process the subreaper, once; nil, or why it is not (the run then relies on its
    /// cgroup, process group and sandbox environment alone).
    @discardableResult
    static func enable() -> SystemCallError? {
        state.withLock { state in
            if let done = state.enabled { return done }
            let result: SystemCallError?
            do {
                try SystemCall.retrying("prctl", subject: "PR_SET_CHILD_SUBREAPER") { frugal_set_child_subreaper(1) }
                result = nil
            } catch let error as SystemCallError {
                result = error
            } catch {
                result = SystemCallError(call: "prctl", subject: "PR_SET_CHILD_SUBREAPER", errno: EINVAL)
            }
            state.enabled = .some(result)
            return result
        }
    }

    /// A run begins (before it starts anything): returns its token for ``adopted(run:)`` and ``endRun(_:)``.
    static func beginRun() -> Int {
        enable()
        let now = MonotonicClock.now()
        return state.withLock { state in
            state.nextToken += 1
            state.runs[state.nextToken] = now
            return state.nextToken
        }
    }

    /// The run has ended and its processes with it.
    static func endRun(_ token: Int) {
        state.withLock { _ = $0.runs.removeValue(forKey: token) }
    }

    /// Held while the harness spawns a child and records it (``spawned(_:)``) and while a search
    /// picks adopted processes: a child just spawned is never taken for an adopted one.
    static let gate = NSLock()

    /// Records `pid` as the harness's own child (call holding ``gate``, right after the spawn).
    static func spawned(_ pid: pid_t) {
        state.withLock { _ = $0.spawned.insert(pid) }
    }

    /// The harness has reaped its child `pid`.
    static func reaped(_ pid: pid_t) {
        state.withLock { _ = $0.spawned.remove(pid) }
    }

    /// One process as `/proc/<pid>/stat` shows it.
    struct Entry: Equatable {
        var pid: pid_t
        var parent: pid_t
        var zombie: Bool
        /// Monotonic ns, rounded down to a clock tick.
        var start: UInt64
    }

    /// Every process now.
    static func scan() -> [Entry] {
        var entries: [Entry] = []
        for name in (try? FileReader.directoryEntries("/proc")) ?? [] {
            guard let pid = pid_t(name), let text = try? FileReader.readText("/proc/\(name)/stat"),
                  let entry = parse(pid: pid, stat: text) else { continue }
            entries.append(entry)
        }
        return entries
    }

    static func parse(pid: pid_t, stat text: String) -> Entry? {
        // The command in parentheses may hold spaces and parentheses: fields start after the last ')'.
        guard let close = text.lastIndex(of: ")"), let ticks = ProcFS.parseStartTicks(stat: text) else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 1, let parent = pid_t(fields[1]) else { return nil }
        return Entry(pid: pid, parent: parent, zombie: fields[0] == "Z" || fields[0] == "X", start: ProcFS.startTime(ticks: ticks))
    }

    /// The length of a clock tick, ns: a start time read from `/proc` is rounded down by up to one.
    static let tick = 1_000_000_000 / UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// The processes of run `token` by the parent chain: every descendant of `roots` (the run's
    /// main processes) and of each process this harness adopted that is the run's (see the type's
    /// note), those adopted included. Zombies are included (to be reaped, not killed).
    static func adopted(run token: Int, roots: [pid_t]) -> [Entry] {
        adopted(run: token, roots: roots) { began, others in
            { entry in couldBe(entry, after: began) && !others.contains { couldBe(entry, after: $0) } }
        }
    }

    /// Could `entry` have been started by a run that began at `start`? Its start is rounded down.
    private static func couldBe(_ entry: Entry, after start: UInt64) -> Bool { entry.start + tick > start }

    /// The search: `roots` and the adopted processes `belongs` (given the run's start and the other
    /// runs' starts) picks, with their descendants.
    private static func adopted(run token: Int?, roots: [pid_t],
                                belongs: (UInt64, [UInt64]) -> (Entry) -> Bool) -> [Entry] {
        gate.lock()
        defer { gate.unlock() }
        // From the harness and the roots down (ChildSubreaper+Tree.swift), not every process of the machine.
        let entries = scanTree(roots: roots) ?? scan()
        let own = getpid()
        let picked: [Entry]? = state.withLock { state in
            guard state.enabled == .some(nil) else { return nil }
            let began: UInt64
            if let token {
                guard let start = state.runs[token] else { return nil }
                began = start
            } else {
                guard let first = state.runs.values.min() else { return nil }
                began = first
            }
            let test = belongs(began, state.runs.filter { $0.key != token }.map(\.value))
            return entries.filter { $0.parent == own && !state.spawned.contains($0.pid) && test($0) }
        }
        let orphans = picked ?? []
        let below = descendants(of: Set(roots).union(orphans.map(\.pid)), in: entries)
        return orphans + below.filter { entry in !orphans.contains { $0.pid == entry.pid } }
    }

    /// Every process below `roots` by the parent chain (the roots themselves not included).
    static func descendants(of roots: Set<pid_t>, in entries: [Entry]) -> [Entry] {
        let children = Dictionary(grouping: entries, by: \.parent)
        var found: [Entry] = []
        var seen = roots
        var queue = Array(roots)
        while let next = queue.popLast() {
            for child in children[next] ?? [] where seen.insert(child.pid).inserted {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }

    /// SIGKILL to every process of run `token` by the parent chain (``adopted(run:roots:entries:)``)
    /// until none is left or `seconds` pass, reaping the adopted ones. A process that forks as it is
    /// killed leaves an orphan the next pass finds. Returns the pids ended.
    @discardableResult
    static func endAdopted(run token: Int, roots: [pid_t], seconds: Double = 2) -> [pid_t] {
        end(seconds: seconds) { adopted(run: token, roots: roots) }
    }

    private static func end(seconds: Double, search: () -> [Entry]) -> [pid_t] {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        var ended: Set<pid_t> = []
        while true {
            let found = search()
            let live = found.filter { !$0.zombie }
            for entry in live {
                // ESRCH: it ended meanwhile.
                _ = try? SystemCall.retrying("kill", subject: "\(entry.pid)") { kill(entry.pid, SIGKILL) }
                ended.insert(entry.pid)
            }
            reapAdopted(found)
            if live.isEmpty || MonotonicClock.now() >= deadline { break }
            usleep(2_000)
        }
        return ended.sorted()
    }

    /// Reaps the zombies among `entries` that are this process's adopted children (never one it spawned).
    static func reapAdopted(_ entries: [Entry]) {
        let own = getpid()
        let zombies = entries.filter { $0.zombie && $0.parent == own }.map(\.pid)
        guard !zombies.isEmpty else { return }
        let spawned = state.withLock { $0.spawned }
        for pid in zombies where !spawned.contains(pid) {
            var status: Int32 = 0
            // WNOHANG: a zombie reaps at once; ECHILD: someone else reaped it.
            _ = try? SystemCall.retrying("waitpid", subject: "\(pid)") { waitpid(pid, &status, WNOHANG) }
        }
    }

    /// On the way out (a second Ctrl-C): SIGKILL to every process this harness adopted since its
    /// first run still going on began, and their descendants, so none goes on under init.
    static func endEveryAdopted() {
        _ = end(seconds: 0.5) { adopted(run: nil, roots: []) { began, _ in { couldBe($0, after: began) } } }
    }
}

/// One run's place among the runs going on, for ``ChildSubreaper``: begun when the run is made,
/// ended by its teardown or, if the run was never made whole, when it is released.
final class RunAdoption: Sendable {
    let token: Int

    init() { token = ChildSubreaper.beginRun() }

    func end() { ChildSubreaper.endRun(token) }

    deinit { ChildSubreaper.endRun(token) }
}
