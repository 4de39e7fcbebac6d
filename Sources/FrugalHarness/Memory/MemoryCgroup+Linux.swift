import Foundation
import FrugalCore
import FrugalProbe

/// A memory cgroup made for one run, as a child of the harness's own group (the harness never
/// joins it, so the OOM killer acting on its limit can only take what runs inside). v1
/// (`memory.limit_in_bytes`, as on this machine) and v2 (`memory.max`) are detected.
final class MemoryCgroup: Sendable {
    enum Controller: String { case v1, v2 }

    let controller: Controller
    let path: String
    /// On a hybrid v1 machine, a twin group in the unified (v2) tree: it has no memory
    /// controller, but the kernel keeps its pressure-stall (PSI) accounting, so a PSI trigger
    /// on its `memory.pressure` watches the workload alone.
    let pressureStallPath: String?
    /// Whether this group made the PSI twin (else it is the run's own cgroup, which the run removes).
    let ownsPressureStallPath: Bool

    private init(controller: Controller, path: String, pressureStallPath: String? = nil, ownsPressureStallPath: Bool = true) {
        self.controller = controller
        self.path = path
        self.pressureStallPath = pressureStallPath
        self.ownsPressureStallPath = ownsPressureStallPath
    }

    /// `cgroup.procs`: writing a pid there moves that process in.
    var procsPath: String { path + "/cgroup.procs" }

    /// Every group the workload joins: the memory group, and the PSI twin when there is one.
    var procsPaths: [String] { [procsPath] + (pressureStallPath.map { [$0 + "/cgroup.procs"] } ?? []) }

    /// The groups a balloon joins: the memory group (and a twin of its own), never the run's
    /// cgroup, whose CPU and processes are the workload's alone.
    var balloonProcsPaths: [String] { ownsPressureStallPath ? procsPaths : [procsPath] }

    /// The group whose `memory.pressure` takes a PSI trigger, if any.
    var psiPath: String? { controller == .v2 ? path : pressureStallPath }

    /// The unified-tree group of this process on a hybrid machine, when it is writable.
    static func unifiedGroup(_ cgroupFile: String) -> String? {
        for line in cgroupFile.split(separator: "\n") where line.hasPrefix("0::") {
            let relative = String(line.dropFirst(3))
            let directory = "/sys/fs/cgroup/unified" + (relative == "/" ? "" : relative)
            if FileReader.exists(directory + "/memory.pressure") && access(directory, W_OK) == 0 { return directory }
        }
        return nil
    }

    /// Where this process's memory cgroup is: the v1 `memory` hierarchy, else the v2 one.
    static func ownGroup() -> Result<(Controller, String), HarnessError> {
        guard let text = try? FileReader.readText("/proc/self/cgroup") else {
            return .failure(HarnessError.cgroup(reason: "/proc/self/cgroup cannot be read"))
        }
        var unified: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            if parts[1].split(separator: ",").contains("memory") {
                let directory = "/sys/fs/cgroup/memory" + parts[2]
                if FileReader.exists(directory + "/memory.limit_in_bytes") { return .success((.v1, directory)) }
            }
            if parts[0] == "0" && parts[1].isEmpty { unified = String(parts[2]) }
        }
        if let unified {
            for mount in ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"] {
                let directory = mount + (unified == "/" ? "" : unified)
                if let controllers = try? FileReader.readText(directory + "/cgroup.controllers"),
                   controllers.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("memory") {
                    return .success((.v2, directory))
                }
            }
        }
        return .failure(HarnessError.cgroup(reason: "no cgroup memory controller (v1 or v2) for this process"))
    }

    /// Makes a child group of the harness's own, or says why it cannot.
    /// `pressureStallGroup`: the run's own cgroup in the unified tree, used as the PSI twin
    /// (a process is in one v2 group only).
    static func create(label: String, pressureStallGroup: String? = nil) -> Result<MemoryCgroup, HarnessError> {
        let own: (Controller, String)
        switch ownGroup() {
        case .failure(let error): return .failure(error)
        case .success(let found): own = found
        }
        guard access(own.1, W_OK) == 0 else {
            return .failure(HarnessError.cgroup(reason: "the memory cgroup \(own.1) is not writable by this user (uid \(geteuid())): pressure runs simulated"))
        }
        removeStaleGroups(in: own.1)
        if let unified = (try? FileReader.readText("/proc/self/cgroup")).flatMap(unifiedGroup) { removeStaleGroups(in: unified) }
        // At most 60 characters of the label: a name is one path component (NAME_MAX 255), and a
        // command line of 230 characters once made the run fail after it had run.
        let safe = label.prefix(60).map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" }
        let path = "\(own.1)/frugal-\(String(safe))-\(getpid())-\(UUID().uuidString.prefix(8))"
        do {
            try SystemCall.retrying("mkdir", subject: path) { mkdir(path, 0o755) }
        } catch let error as SystemCallError {
            return .failure(HarnessError.cgroup(reason: "\(error)", underlying: error))
        } catch {
            return .failure(HarnessError.cgroup(reason: "\(error)"))
        }
        if own.0 == .v2 && !FileReader.exists(path + "/memory.max") {
            // The parent must delegate the memory controller to its children.
            _ = try? write("+memory", to: own.1 + "/cgroup.subtree_control")
            if !FileReader.exists(path + "/memory.max") {
                rmdir(path)
                return .failure(HarnessError.cgroup(reason: "cgroup v2: the memory controller is not enabled for children of \(own.1)"))
            }
        }
        if own.0 == .v1, let pressureStallGroup {
            return .success(MemoryCgroup(controller: own.0, path: path, pressureStallPath: pressureStallGroup, ownsPressureStallPath: false))
        }
        var stall: String?
        if own.0 == .v1, let unified = (try? FileReader.readText("/proc/self/cgroup")).flatMap(unifiedGroup) {
            let twin = unified + "/" + (path as NSString).lastPathComponent
            if mkdir(twin, 0o755) == 0 { stall = twin }
        }
        return .success(MemoryCgroup(controller: own.0, path: path, pressureStallPath: stall))
    }

    /// Removes empty groups left by a harness that died before cleaning up (their name
    /// carries the harness's pid; that process is gone).
    /// With `killing`, what is still inside a stale group (a dead harness's workload or balloon) is
    /// killed first, so the group can go. Returns the groups removed.
    @discardableResult
    static func removeStaleGroups(in parent: String, killing: Bool = false) -> [String] {
        var removed: [String] = []
        // Run groups (`frugal-run-<owner>-...`) have their own sweep, which reads their owner right.
        for name in (try? FileReader.directoryEntries(parent)) ?? [] where name.hasPrefix("frugal-") && !name.hasPrefix(RunCgroup.namePrefix) {
            let parts = name.split(separator: "-")
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid != getpid(),
                  kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = parent + "/" + name
            if killing {
                for _ in 0..<100 {
                    let inside = ((try? FileReader.readText(path + "/cgroup.procs")) ?? "").split(separator: "\n").compactMap { Int32($0) }
                    if inside.isEmpty { break }
                    for member in inside { kill(member, SIGKILL) }
                    Thread.sleep(forTimeInterval: 0.01)
                }
            }
            if rmdir(path) == 0 { removed.append(path) }  // fails, harmlessly, while anything is still inside
        }
        return removed
    }

    /// Removes the groups `pid` made (empty ones: rmdir fails while a process is inside); returns
    /// how many are left.
    static func removeGroups(ownedBy pid: pid_t) -> Int {
        guard case .success(let own) = ownGroup() else { return 0 }
        var parents = [own.1]
        if let unified = (try? FileReader.readText("/proc/self/cgroup")).flatMap(unifiedGroup) { parents.append(unified) }
        var left = 0
        for parent in parents {
            for name in (try? FileReader.directoryEntries(parent)) ?? [] where name.hasPrefix("frugal-") && name.contains("-\(pid)-") {
                if rmdir(parent + "/" + name) != 0 { left += 1 }
            }
        }
        return left
    }


    static func write(_ text: String, to path: String) throws {
        let fd = try SystemCall.retrying("open", subject: path) { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        try SystemCall.retrying("write", subject: path) { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
    }

    private func read(_ file: String) -> String? { try? FileReader.readText(path + "/" + file) }

    /// Bytes charged to the group now.
    var usage: Int? {
        read(controller == .v1 ? "memory.usage_in_bytes" : "memory.current").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The limit in force.
    var limit: Int? {
        read(controller == .v1 ? "memory.limit_in_bytes" : "memory.max").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// The OOM killer's kills in the group (`oom_kill` of `memory.oom_control` or `memory.events`).
    var oomKills: Int? {
        guard let text = read(controller == .v1 ? "memory.oom_control" : "memory.events") else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 && parts[0] == "oom_kill" { return Int(parts[1]) }
        }
        return nil
    }

    /// Sets the limit. On v1 the kernel first reclaims down to it and refuses (EBUSY) when what
    /// is left cannot be reclaimed (anonymous memory without swap); then the limit is set just
    /// above what is charged, so the next allocation meets the OOM killer — v2's `memory.max`
    /// behaviour, which the kernel gives directly.
    func setLimit(_ bytes: Int) -> LimitChange {
        let time = MonotonicClock.now()
        let before = usage
        let file = path + (controller == .v1 ? "/memory.limit_in_bytes" : "/memory.max")
        do {
            try Self.write(String(bytes), to: file)
            return LimitChange(time: time, requestedBytes: bytes, appliedBytes: limit, usageBefore: before, usageAfter: usage, note: nil)
        } catch let error as SystemCallError where error.errno == EBUSY && controller == .v1 {
            var note = "EBUSY: the kernel could not reclaim below \(ByteCount.display(Double(usage ?? 0))) (anonymous memory, no swap)"
            for _ in 0..<8 {
                let floor = Self.fallbackLimit(requested: bytes, usage: usage)
                if (try? Self.write(String(floor), to: file)) != nil {
                    note += floor == bytes ? "; the limit asked for was set on a retry, the app having freed memory meanwhile"
                        : "; limit set to usage + 1 MiB instead"
                    break
                }
            }
            return LimitChange(time: time, requestedBytes: bytes, appliedBytes: limit, usageBefore: before, usageAfter: usage, note: note)
        } catch {
            return LimitChange(time: time, requestedBytes: bytes, appliedBytes: limit, usageBefore: before, usageAfter: usage, note: "\(error)")
        }
    }

    /// The limit to write after an EBUSY: just above what is charged now, never below what was
    /// asked for. An app answering the pressure frees memory between the tries: `gallery.purges`,
    /// refused at 64 MiB, then read at about 4 MiB, was given a 4.9 MiB limit and OOM-killed
    /// holding 4.7 MiB (in one CI run).
    static func fallbackLimit(requested: Int, usage: Int?) -> Int {
        max(requested, (usage ?? requested) + (1 << 20))
    }

    /// Pids in the group.
    var pids: [Int32] {
        (read("cgroup.procs") ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// Kills what is left inside and removes the group; retries while the kernel finishes
    /// tearing the processes down.
    func remove() {
        for pid in pids { kill(pid, SIGKILL) }
        for directory in [path] + (ownsPressureStallPath ? pressureStallPath.map { [$0] } ?? [] : []) {
            var removed = false
            for _ in 0..<200 {
                if rmdir(directory) == 0 || errno == ENOENT {
                    removed = true
                    break
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            if !removed {
                StandardError.write("frugal: could not remove cgroup \(directory): \(String(cString: strerror(errno)))\n")
            }
        }
    }
}
