import Foundation
import FrugalProbe

/// The processes a run's end looks at, found from the top down: the harness's children and
/// their descendants, and the run's main processes' descendants, from the kernel's per-thread
/// child lists (`/proc/<pid>/task/<tid>/children`, Linux 4.2 with `CONFIG_PROC_CHILDREN`, on in
/// Debian, Ubuntu, Fedora and RHEL kernels) instead of every `/proc/<pid>/stat` of the machine.
///
/// Why: a run's end searched three to four times, and each search read and parsed the `stat` of
/// every process on the machine (95 to several hundred), ~8 ms of the harness's CPU per run
/// (`perf record -e cpu-clock -g` of `frugal run -- /bin/true`, release build), more on a busy
/// machine. The processes the search can pick are the harness's children (adopted orphans) and
/// the descendants of those and of the roots (``ChildSubreaper/descendants(of:in:)``); the walk
/// reads exactly those, so it picks the same ones.
///
/// The kernel says its lists are a snapshot, not a guarantee: a child that exits or is
/// reparented while the list is read may be left out. A full scan races the same way (a
/// `stat` read before a reparenting shows the old parent), and ``ChildSubreaper/endAdopted(run:roots:seconds:)``
/// searches again after each kill until a search finds nothing alive.
extension ChildSubreaper {
    /// Whether this kernel has the per-thread child lists; found once, on this process's own.
    static let childListsAvailable: Bool = access("/proc/self/task/\(getpid())/children", R_OK) == 0

    /// The harness's children, the descendants of them and of `roots`, and nothing else; nil
    /// without the child lists (then ``scan()`` reads every process).
    static func scanTree(roots: [pid_t]) -> [Entry]? {
        guard childListsAvailable else { return nil }
        var entries: [Entry] = []
        var seen: Set<pid_t> = []
        var queue = children(of: getpid())
        for root in roots { queue += children(of: root) }
        while let pid = queue.popLast() {
            guard seen.insert(pid).inserted else { continue }
            // Gone since its parent's list was read: nothing to end or reap.
            guard let text = try? FileReader.readText("/proc/\(pid)/stat"), let entry = parse(pid: pid, stat: text) else { continue }
            entries.append(entry)
            if !entry.zombie { queue += children(of: pid) }
        }
        return entries
    }

    /// The children of every thread of `pid` (a process's children hang off the thread that
    /// forked them; an orphan off the thread of the subreaper the kernel picked); none when it is gone.
    static func children(of pid: pid_t) -> [pid_t] {
        let tasks = "/proc/\(pid)/task"
        var found: [pid_t] = []
        for tid in (try? FileReader.directoryEntries(tasks)) ?? [] {
            guard let text = try? FileReader.readText("\(tasks)/\(tid)/children") else { continue }
            for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
                if let child = pid_t(field) { found.append(child) }
            }
        }
        return found
    }
}
