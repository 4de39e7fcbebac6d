import Foundation
import FrugalProbe

/// What a harness that died (SIGKILL, power loss) left behind, swept when the next one starts:
/// sandboxes (`frugal-sandbox-<workload>-<pid>-<id>`) and memory cgroups (`frugal-<label>-<pid>-<id>`)
/// whose owner pid is gone. A leftover of a harness still running (another `frugal run`) is kept.
public enum HarnessLeftovers {
    /// Removes dead harnesses' sandboxes under `sandboxParent`, and their run and memory cgroups
    /// (`RunContainment.sweepLeftovers`, which ends what is still inside); one line per leftover.
    @discardableResult
    public static func sweep(sandboxParent: URL = FileManager.default.temporaryDirectory) -> [String] {
        var removed: [String] = []
        for name in (try? FileReader.directoryEntries(sandboxParent.path)) ?? [] where name.hasPrefix("frugal-sandbox-") && ownerIsGone(name) {
            let path = sandboxParent.appendingPathComponent(name).path
            // Kept on purpose (`--keep-sandboxes`): the user's to look at and remove.
            var marker = stat()
            if lstat(path + "/" + keptMarker, &marker) == 0, marker.st_mode & S_IFMT == S_IFREG { continue }
            // The bundle is made read-only; removal needs write permission on each directory.
            makeWritable(path)
            if FileTreeRemoval.remove(path).isEmpty { removed.append(path) }
        }
        return removed + RunContainment.sweepLeftovers()
    }

    /// The file a sandbox kept with `--keep-sandboxes` gets at the end of its run, so the next
    /// harness's sweep leaves it: a kept sandbox was once removed by the next `frugal run`, as if
    /// its harness had died (issue 24, fresh probe).
    public static let keptMarker = ".frugal-kept"

    /// Marks the sandbox at `path` as kept on purpose. Written once the workload has ended, not
    /// through a link (`O_NOFOLLOW`): the sandbox is the workload's to fill.
    static func markKept(_ path: String) {
        let fd = open(path + "/" + keptMarker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd >= 0 { close(fd) }
    }

    /// Whether the pid in a leftover's name (`...-<pid>-<id>`) is no longer a process.
    static func ownerIsGone(_ name: String) -> Bool {
        let parts = name.split(separator: "-")
        guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), pid > 0, pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    private static func makeWritable(_ path: String) {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return }
        chmod(path, 0o755)
        for case let relative as String in walker {
            var info = stat()
            let child = path + "/" + relative
            if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { chmod(child, 0o755) }
        }
    }
}

extension HarnessLeftovers {
    /// On the way out after a second Ctrl-C: removes this process's own sandboxes, its memory
    /// cgroups once their processes are gone (the caller killed them), and the staging directory of
    /// a report set being written to `reportDirectory`. Waits at most about a second.
    public static func removeOwn(sandboxParent: URL, reportDirectory: URL?) {
        let marker = "-\(getpid())-"
        for name in (try? FileReader.directoryEntries(sandboxParent.path)) ?? [] where name.hasPrefix("frugal-sandbox-") && name.contains(marker) {
            let path = sandboxParent.appendingPathComponent(name).path
            makeWritable(path)
            FileTreeRemoval.remove(path)
        }
        if let reportDirectory {
            let parent = reportDirectory.standardizedFileURL.deletingLastPathComponent()
            let prefix = ".\(reportDirectory.lastPathComponent).frugal-staging-\(getpid())-"
            for name in (try? FileReader.directoryEntries(parent.path)) ?? [] where name.hasPrefix(prefix) {
                FileTreeRemoval.remove(parent.appendingPathComponent(name).path)
            }
            // A mount point's set is staged inside it (ReportDirectory).
            for name in (try? FileReader.directoryEntries(reportDirectory.path)) ?? [] where name.hasPrefix(".frugal-staging-\(getpid())-") {
                FileTreeRemoval.remove(reportDirectory.appendingPathComponent(name).path)
            }
            // This run's lock on the directory (the kernel releases it; the file is ours to remove).
            unlink(parent.appendingPathComponent(".\(reportDirectory.lastPathComponent).frugal-lock").path)
        }
        // The runs' own groups (killing what is inside), then the pressure runs' memory groups:
        // a killed process leaves its cgroup a moment later, so retry for up to a second.
        RunContainment.endLiveRuns()
        // And what left the groups: the adopted orphans would go on under init once this process exits.
        ChildSubreaper.endEveryAdopted()
        for _ in 0..<10 {
            if MemoryCgroup.removeGroups(ownedBy: getpid()) == 0 { return }
            usleep(100_000)
        }
    }
}
