import Foundation
import FrugalCore
import FrugalProbe

/// Without a cgroup: the processes in a process group, found by scanning `/proc/*/stat`.
enum ProcessGroupScan {
    static func members(ofGroup group: pid_t) -> [pid_t] {
        var members: [pid_t] = []
        for name in (try? FileReader.directoryEntries("/proc")) ?? [] {
            guard let pid = pid_t(name), let text = try? FileReader.readText("/proc/\(name)/stat"),
                  let close = text.lastIndex(of: ")") else { continue }
            // After the command: state, ppid, pgrp.
            let fields = text[text.index(after: close)...].split(separator: " ")
            if fields.count > 2, pid_t(fields[2]) == group { members.append(pid) }
        }
        return members
    }
}

/// Processes outside the run's cgroup and process group that still carry its sandbox
/// (`FRUGAL_SANDBOX=<the run's own path>`) in their environment, found by scanning
/// `/proc/*/environ`. A program can clear its environment; one that moved itself out of the
/// cgroup without doing so is found here.
enum EscapedProcessScan {
    /// The pids whose environment holds one of `environment`'s entries exactly, other than this process.
    static func carrying(_ environment: [String: String]) -> [pid_t] {
        guard let (name, value) = environment.first else { return [] }
        let needle = Array("\(name)=\(value)".utf8) + [0]
        var found: [pid_t] = []
        // The first 256 KiB: the harness puts FRUGAL_SANDBOX in with the run's few variables.
        // One buffer for the whole scan, not zeroed: a zeroed array per process (a fresh mapping
        // at this size) cost ~85 × 64 page faults a scan, three scans a run (issue 31).
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256 << 10)
        defer { buffer.deallocate() }
        for entry in (try? FileReader.directoryEntries("/proc")) ?? [] {
            guard let pid = pid_t(entry), pid != getpid() else { continue }
            let fd = open("/proc/\(entry)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            let count = read(fd, buffer.baseAddress, buffer.count)
            guard count > 0 else { continue }
            if contains(needle, in: UnsafeBufferPointer(rebasing: buffer[..<count])) { found.append(pid) }
        }
        return found
    }

    /// Whether `needle` (an entry with its NUL) starts an entry of `environ` (NUL-separated).
    static func contains<Bytes: Collection<UInt8>>(_ needle: [UInt8], in environ: Bytes) -> Bool where Bytes.Index == Int {
        var start = environ.startIndex
        while start < environ.endIndex {
            let end = environ[start...].firstIndex(of: 0).map { $0 + 1 } ?? environ.endIndex
            if environ[start..<end].elementsEqual(needle) { return true }
            start = end
        }
        return false
    }
}
