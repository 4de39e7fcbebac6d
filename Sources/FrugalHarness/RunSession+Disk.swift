import Foundation
import FrugalCore
import FrugalProbe

/// The disk area's part of a run: the process's final `/proc/<pid>/io`, the size of its event
/// stream (which `wchar` counts too), and the sandbox as the app left it.
extension RunSession {
    /// Adds the disk facts to `record`; call after the process is reaped, before the sandbox is deleted.
    /// A relaunched run has several processes: their counters add up, and a total is only given
    /// when every process's final reading was taken.
    func recordDisk(into record: inout RunRecord) {
        let readings = finishedIO.compactMap(\.io)
        if readings.count == finishedIO.count, let last = readings.last {
            func sum(_ field: (ProcessIOCounters) -> Int?) -> Int? {
                let values = readings.compactMap(field)
                return values.count == readings.count ? values.reduce(0, +) : nil
            }
            record.finalIO = ProcessIOCounters(time: last.time, charactersWritten: sum(\.charactersWritten),
                                               writeSyscalls: sum(\.writeSyscalls), physicalBytesWritten: sum(\.physicalBytesWritten),
                                               cancelledBytesWritten: sum(\.cancelledBytesWritten))
        }
        record.eventStreamBytes = finishedIO.reduce(0) { $0 + $1.eventStreamBytes }
        record.sandboxFiles = SandboxScanner.scan(root: sandbox.root)
    }
}

/// Lists the regular files of a sandbox with their sizes and exclusion from backup.
enum SandboxScanner {
    /// Every regular file under `root` (the bundle included), by path relative to it; nil if
    /// the root cannot be read.
    static func scan(root: URL) -> [SandboxFileRecord]? {
        let rootPath = root.standardizedFileURL.path
        guard let enumerator = FileManager.default.enumerator(atPath: rootPath) else { return nil }
        let sidecar = (try? FileReader.readText(rootPath + "/" + BackupExclusion.sidecarPath)).map(BackupExclusion.parseSidecar) ?? []
        var files: [SandboxFileRecord] = []
        while let relative = enumerator.nextObject() as? String {
            let path = rootPath + "/" + relative
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            var exclusion: BackupExclusionMechanism?
            if (try? ExtendedAttributes.get(BackupExclusion.attributeName, path: path)) ?? nil != nil {
                exclusion = .extendedAttribute
            } else if sidecar.contains(relative) {
                exclusion = .sidecar
            }
            files.append(SandboxFileRecord(path: relative, bytes: Int(info.st_size), exclusion: exclusion))
        }
        return files.sorted { $0.path < $1.path }
    }
}

extension RunSession {
    /// A black-box program's sync counters on its v2 cgroup, opened before the program is
    /// started there, so its first calls are counted however soon it makes them; nil where the
    /// run has no v2 cgroup (the counters are then attached to the process once it exists).
    static func attachSyncCountersToGroup(blackBox: Bool, containment: RunCgroup?) -> Result<SyncCallSession, HardwareCountersUnavailable>? {
        guard blackBox, let containment, containment.kind == .v2 else { return nil }
        switch SyncCallCounters().attach(cgroupPath: containment.path) {
        case .success(let session): return .success(session)
        // Per process, below, may still work (e.g. a kernel without cgroup perf events).
        case .failure: return nil
        }
    }
}
