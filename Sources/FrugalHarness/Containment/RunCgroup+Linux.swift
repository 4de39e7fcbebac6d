import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// The cgroup that holds every process of one run, whatever it starts: its descendants are
/// counted (CPU from `cpu.stat`), suspended together (the freezer) and all ended when the run
/// ends (`cgroup.kill`, or on v1 a frozen sweep of `cgroup.procs`), so nothing outlives the run.
///
/// v2 is preferred: the unified tree on a hybrid machine (it needs no controller: `cgroup.kill`,
/// `cgroup.freeze` and `cpu.stat` are core files), the process's own v2 group on a pure v2 one;
/// else the v1 freezer. Groups are named `frugal-run-<owner pid>-<random>-<label>`, so a group
/// whose owner died can be found and swept (`RunContainment.sweepLeftovers`).
final class RunCgroup: Sendable {
    enum Kind: String { case v2 = "cgroup-v2", v1Freezer = "cgroup-v1-freezer" }

    let kind: Kind
    let path: String

    /// Whether this object made the directory (else it adopted another's, which removes it).
    private let ownsDirectory: Bool
    /// Whether `cgroup.kill` was ever written: a process born in the group afterwards (clone3
    /// `CLONE_INTO_CGROUP`) is killed at birth by the kernel (6.18 here: its fork compares the
    /// group's kill sequence with the parent's group's), so later spawns join it by writing instead.
    private let killed = Atomic<Bool>(false)

    /// `cgroup.procs`, opened once and re-read from its start (``members``); closed for good
    /// before the directory is removed.
    private let procsFile = Mutex<(fd: Int32, closed: Bool)>((-1, false))

    /// Whether a process may be born in the group (see `killed`).
    var acceptsBirths: Bool { kind == .v2 && !killed.load(ordering: .acquiring) }

    private init(kind: Kind, path: String, ownsDirectory: Bool = true) {
        self.kind = kind
        self.path = path
        self.ownsDirectory = ownsDirectory
    }

    deinit {
        procsFile.withLock { file in
            if file.fd >= 0 { close(file.fd) }
        }
    }

    /// The run's v2 memory cgroup as its run group too (a process is in one v2 group only, so on a
    /// pure v2 machine a pressure run's memory group holds everything). Its owner removes it.
    static func adopting(v2MemoryGroup path: String) -> RunCgroup { RunCgroup(kind: .v2, path: path, ownsDirectory: false) }

    /// Prefix of every run group's directory name.
    static let namePrefix = "frugal-run-"
    /// Set to `off` to run without a run cgroup (the process-group fallback), e.g. to test it.
    static let disableVariable = "FRUGAL_RUN_CGROUP"

    var procsPath: String { path + "/cgroup.procs" }

    /// The directories under which this process may make run groups, best first.
    static func parentCandidates(cgroupFile: String) -> [(Kind, String)] {
        var candidates: [(Kind, String)] = []
        var freezer: String?
        for line in cgroupFile.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let relative = parts[2] == "/" ? "" : String(parts[2])
            if parts[0] == "0" && parts[1].isEmpty {
                for mount in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"] where FileReader.exists(mount + relative + "/cgroup.procs")
                    && FileReader.exists(mount + "/cgroup.controllers") {
                    candidates.append((.v2, mount + relative))
                    break
                }
            } else if parts[1].split(separator: ",").contains("freezer") {
                freezer = "/sys/fs/cgroup/freezer" + relative
            }
        }
        if let freezer, FileReader.exists(freezer + "/cgroup.procs") { candidates.append((.v1Freezer, freezer)) }
        return candidates
    }

    /// The groups this process has made and not yet removed, by path.
    static let live = LiveGroups()

    /// Makes the run's group, or says why none could be made.
    /// `only`: make the group of that kind or none (tests of the v1 path on a machine that has v2).
    static func create(label: String, only: Kind? = nil) -> Result<RunCgroup, HarnessError> {
        if ProcessInfo.processInfo.environment[disableVariable] == "off" {
            return .failure(HarnessError.cgroup(reason: "\(disableVariable)=off: run cgroups are switched off"))
        }
        guard let file = try? FileReader.readText("/proc/self/cgroup") else {
            return .failure(HarnessError.cgroup(reason: "/proc/self/cgroup cannot be read"))
        }
        let candidates = parentCandidates(cgroupFile: file).filter { only == nil || $0.0 == only }
        if candidates.isEmpty { return .failure(HarnessError.cgroup(reason: "no cgroup v2 tree and no v1 freezer hierarchy is mounted")) }
        let safe = String(label.prefix(40).map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" })
        var problems: [String] = []
        var lastFailure: SystemCallError?
        for (kind, parent) in candidates {
            let path = "\(parent)/\(namePrefix)\(getpid())-\(UUID().uuidString.prefix(8))-\(safe)"
            if mkdir(path, 0o755) == 0 {
                if kind == .v2 && !FileReader.exists(path + "/cgroup.kill") {
                    rmdir(path)
                    problems.append("\(parent): the kernel has no cgroup.kill (before 5.14)")
                    continue
                }
                let group = RunCgroup(kind: kind, path: path)
                live.withLock { $0[path] = group }
                return .success(group)
            }
            let failure = SystemCallError(call: "mkdir", subject: path, errno: errno)
            lastFailure = failure
            problems.append("\(failure)")
        }
        // Every candidate's problem is in the reason; the last failed call is kept with its errno.
        return .failure(HarnessError.cgroup(reason: problems.joined(separator: "; "), underlying: lastFailure))
    }

    private func read(_ file: String) -> String? { try? FileReader.readText(path + "/" + file) }

    /// The processes in the group now.
    var pids: [Int32] { members() ?? (read("cgroup.procs") ?? "").split(separator: "\n").compactMap { Int32($0) } }

    /// `cgroup.procs` through the descriptor kept open, read from offset 0 (the kernel's
    /// seq_file starts the list again there); nil once closed or when it cannot be opened.
    /// Why: the outside watch, the socket watch and the sampler ask for the members 10–20 times
    /// a second; reading them was ~14 % of the harness's steady CPU beside `sleep 10` (perf
    /// record -e cpu-clock -g, release build), and most of a read was the open, a path walk
    /// through cgroupfs (open + read + close 7.7 µs, a `pread` of the open file 1.5 µs).
    /// v2 only: a v1 hierarchy's `cgroup.procs` keeps the pid list it built for an open file and
    /// hands it out again to later reads of that file while the list lingers
    /// (`cgroup_pidlist_start`, kernel/cgroup/cgroup-v1.c), so a descriptor kept open did not
    /// see processes join: `RunCgroupTests` read an empty v1 freezer group that held two.
    ///
    /// The pids are parsed from the bytes (`ProcessIDList`), not through a `String` split into
    /// lines: at 5–10 reads a second that parse was most of the outside watch's cost beside
    /// `sleep 10` after the file was kept open (perf record, release build).
    private func members() -> [Int32]? {
        guard kind == .v2 else { return nil }
        return procsFile.withLock { file -> [Int32]? in
            if file.closed { return nil }
            if file.fd < 0 { file.fd = open(procsPath, O_RDONLY | O_CLOEXEC) }
            guard file.fd >= 0 else { return nil }
            let reader = PosixFile(fd: file.fd, path: procsPath)
            return (try? ProcessIDList.read(reader)) ?? nil
        }
    }

    /// CPU seconds of every process that ever ran in the group (v2 `cpu.stat` `usage_usec`).
    var cpuSeconds: Double? {
        guard kind == .v2, let text = read("cpu.stat") else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 && parts[0] == "usage_usec", let value = Double(parts[1]) { return value / 1e6 }
        }
        return nil
    }

    /// Freezes every process in the group and waits until the kernel says it is frozen (2 s at most).
    func freeze() -> Bool {
        let (file, value) = kind == .v2 ? ("cgroup.freeze", "1") : ("freezer.state", "FROZEN")
        guard (try? MemoryCgroup.write(value, to: path + "/" + file)) != nil else { return false }
        return waitUntil(seconds: 2) { isFrozen }
    }

    /// Whether the kernel has finished freezing the group.
    var isFrozen: Bool {
        switch kind {
        case .v2: return (read("cgroup.events") ?? "").split(separator: "\n").contains("frozen 1")
        case .v1Freezer: return read("freezer.state")?.trimmingCharacters(in: .whitespacesAndNewlines) == "FROZEN"
        }
    }

    func thaw() {
        let (file, value) = kind == .v2 ? ("cgroup.freeze", "0") : ("freezer.state", "THAWED")
        try? MemoryCgroup.write(value, to: path + "/" + file)
    }

    /// Ends every process in the group and waits (5 s at most) until it is empty. Returns whether it is.
    @discardableResult
    func killAll() -> Bool {
        switch kind {
        case .v2:
            killed.store(true, ordering: .releasing)
            try? MemoryCgroup.write("1", to: path + "/cgroup.kill")
        case .v1Freezer:
            // Frozen, nothing can fork a new member between the listing and the kill.
            _ = freeze()
            for pid in pids { kill(pid, SIGKILL) }
            thaw()
        }
        return waitUntil(seconds: 5) {
            if kind == .v1Freezer { for pid in pids { kill(pid, SIGKILL) } }
            return pids.isEmpty
        }
    }

    /// Kills what is left and removes the group; says so on standard error if it cannot.
    func remove() {
        killAll()
        thaw()
        procsFile.withLock { file in
            if file.fd >= 0 { close(file.fd) }
            file = (-1, true)
        }
        guard ownsDirectory else { return }
        if !waitUntil(seconds: 2, { rmdir(path) == 0 || errno == ENOENT }) {
            StandardError.write("frugal: could not remove cgroup \(path): \(String(cString: strerror(errno)))\n")
        }
        Self.live.withLock { $0[path] = nil }
    }

    private func waitUntil(seconds: Double, _ done: () -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while !done() {
            if MonotonicClock.now() >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// The owner's pid in a run group's directory name, if it is one.
    static func ownerPID(ofGroupNamed name: String) -> Int32? {
        guard name.hasPrefix(namePrefix) else { return nil }
        return name.dropFirst(namePrefix.count).split(separator: "-").first.flatMap { Int32($0) }
    }
}

/// Leftovers of runs whose harness died (a crash, SIGKILL): found by the owner pid in the
/// group's name and ended. And the live runs of this process, for a harness being interrupted.
public enum RunContainment {
    /// Whether runs here get a cgroup: makes one and removes it. What `frugal doctor` shows.
    public static func probe() -> EnvironmentSurvey.Check {
        switch RunCgroup.create(label: "doctor") {
        case .success(let group):
            let detail = "\(group.kind.rawValue) under \((group.path as NSString).deletingLastPathComponent): each run's processes "
                + "are counted together, frozen for the background (\(group.kind == .v2 ? "cgroup.freeze" : "freezer.state")) "
                + "and all ended with the run (\(group.kind == .v2 ? "cgroup.kill" : "a frozen sweep of cgroup.procs"))"
            group.remove()
            return EnvironmentSurvey.Check(available: true, detail: detail)
        case .failure(let error):
            return EnvironmentSurvey.Check(available: false, detail: "no run cgroup (\(error.description)): runs fall back to the "
                + "process group, which a program can leave (setsid), and suspension to SIGSTOP")
        }
    }

    /// Kills every process of every run this process has under way and removes their groups: for
    /// a harness that is interrupted (SIGINT, SIGTERM) and exits before its runs' own teardown.
    /// Safe from any thread; the runs' own teardown afterwards finds nothing left to do.
    public static func endLiveRuns() {
        for group in RunCgroup.live.withLock({ Array($0.values) }) { group.remove() }
    }

    /// Kills the processes of every run group whose owner process is gone and removes the group,
    /// in every tree this process can make run groups in, and the memory groups of dead harnesses'
    /// pressure runs. Returns one line per group swept.
    /// Safe to call at any time: groups of live harnesses (this one included) are left alone.
    @discardableResult
    public static func sweepLeftovers() -> [String] {
        guard let file = try? FileReader.readText("/proc/self/cgroup") else { return [] }
        var swept: [String] = []
        for (kind, parent) in RunCgroup.parentCandidates(cgroupFile: file) {
            for name in (try? FileReader.directoryEntries(parent)) ?? [] {
                guard let owner = RunCgroup.ownerPID(ofGroupNamed: name), owner != getpid(),
                      kill(owner, 0) != 0 && errno == ESRCH else { continue }
                let group = RunCgroup(kindForSweep: kind, path: parent + "/" + name)
                let left = group.pids.count
                group.remove()
                swept.append("\(group.path): owner pid \(owner) is gone; \(left) process(es) ended, group removed")
            }
        }
        // Pressure runs' memory groups (and their PSI twins) of dead harnesses too.
        if case .success(let own) = MemoryCgroup.ownGroup() {
            swept += MemoryCgroup.removeStaleGroups(in: own.1, killing: true).map { "\($0): owner is gone; removed" }
            if let unified = MemoryCgroup.unifiedGroup(file) {
                swept += MemoryCgroup.removeStaleGroups(in: unified, killing: true).map { "\($0): owner is gone; removed" }
            }
        }
        return swept
    }
}

extension RunCgroup {
    fileprivate convenience init(kindForSweep kind: Kind, path: String) { self.init(kind: kind, path: path) }
}

/// The run groups of this process, guarded by a lock.
final class LiveGroups: Sendable {
    private let groups = Mutex<[String: RunCgroup]>([:])

    func withLock<T: Sendable>(_ body: (inout [String: RunCgroup]) -> T) -> T {
        groups.withLock { body(&$0) }
    }
}
