import Foundation
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// How a run's process was started into its cgroups: recorded in the run's facts
/// (`RunContainmentFacts.spawn`), so a reader knows whether a stub's time and wakeups could be in
/// the program's numbers.
enum SpawnPath {
    /// The environment variable that picks the old path (`shell`), e.g. to compare the two.
    static let variable = "FRUGAL_SPAWN"
    static let shellValue = "shell"

    /// clone3 `CLONE_INTO_CGROUP` (Linux 5.7+): the process is born in the run's v2 group; nothing
    /// runs in it before the program but the few calls between clone and exec.
    static let bornInCgroup = "clone3-into-cgroup"
    /// clone3 (or clone) without a birth group: the child itself wrote its pid to each
    /// `cgroup.procs` before its exec (a v1 hierarchy, or a kernel that refused CLONE_INTO_CGROUP).
    static let childJoined = "clone3-child-joined"
    /// `posix_spawn`: there was no cgroup to join (the process-group fallback).
    static let posixSpawn = "posix_spawn"
    /// `/bin/sh` joined the groups and exec'd the program (`FRUGAL_SPAWN=shell`): the shell's
    /// start (~10 ms) and wakeups are in the program's wall time and main thread.
    static let shellStub = "shell-stub"
}

extension ChildProcess {
    /// ``frugal_spawn_direct`` with the run's descriptors, groups and `oom_score_adj`. Sets `path`
    /// to the path taken and `writtenGroups` to the number of groups the child joined by writing
    /// (each a write in its I/O counters). Returns 0 or the errno, with `failedCall` set.
    static func spawnDirect(path program: String, argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?],
                            dups: [(from: Int32, to: Int32)], cgroupProcs: [String], birthCgroup: String?, oomScoreAdjustment: Int?,
                            privateFile: PrivateFile?, hold: Bool, pid: inout pid_t, handle: inout UnsafeMutableRawPointer?,
                            failedCall: inout UnsafePointer<CChar>?,
                            path: inout String, writtenGroups: inout Int) -> Int32 {
        let birthProcs = birthCgroup.map { $0 + "/cgroup.procs" }
        // The birth group is opened as a directory; where it cannot be, the child writes its procs file.
        var groupFD: Int32 = -1
        if let birthCgroup, let birthProcs, cgroupProcs.contains(birthProcs) {
            groupFD = (try? SystemCall.retrying("open", subject: birthCgroup) { open(birthCgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) ?? -1
        }
        defer { if groupFD >= 0 { try? SystemCall.close(groupFD, subject: birthCgroup) } }
        let others = cgroupProcs.filter { groupFD < 0 || $0 != birthProcs }
        // Every C string the child reads lives until the spawn has returned (the child has exec'd).
        let joinCopies: [UnsafeMutablePointer<CChar>?] = others.map { strdup($0) }
        let joinPointers: [UnsafePointer<CChar>?] = joinCopies.map { UnsafePointer($0) }
        let birthCopy: UnsafeMutablePointer<CChar>? = groupFD >= 0 ? birthProcs.flatMap { strdup($0) } : nil
        let adjustmentCopy: UnsafeMutablePointer<CChar>? = oomScoreAdjustment.flatMap { strdup(String($0)) }
        let programCopy: UnsafeMutablePointer<CChar>? = strdup(program)
        let sourceCopy: UnsafeMutablePointer<CChar>? = privateFile.flatMap { strdup($0.source) }
        let targetCopy: UnsafeMutablePointer<CChar>? = privateFile.flatMap { strdup($0.target) }
        defer {
            joinCopies.forEach { free($0) }
            for copy in [birthCopy, adjustmentCopy, programCopy, sourceCopy, targetCopy] { free(copy) }
        }
        let from = dups.map(\.from)
        let to = dups.map(\.to)
        var bornInGroup: Int32 = 0
        let status = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                from.withUnsafeBufferPointer { fromBuffer in
                    to.withUnsafeBufferPointer { toBuffer in
                        joinPointers.withUnsafeBufferPointer { joinBuffer in
                            var spawn = frugal_direct_spawn(
                                path: UnsafePointer(programCopy), argv: argvBuffer.baseAddress, envp: envpBuffer.baseAddress,
                                dup_from: fromBuffer.baseAddress, dup_to: toBuffer.baseAddress, dup_count: Int32(dups.count),
                                close_from: 5, born_group_fd: groupFD, born_group_procs: UnsafePointer(birthCopy),
                                join_procs: joinBuffer.baseAddress, join_count: Int32(others.count),
                                oom_score_adj: UnsafePointer(adjustmentCopy),
                                private_source: UnsafePointer(sourceCopy), private_target: UnsafePointer(targetCopy),
                                hold: hold ? 1 : 0)
                            return frugal_spawn_direct(&spawn, &pid, &bornInGroup, &handle, &failedCall)
                        }
                    }
                }
            }
        }
        path = bornInGroup != 0 ? SpawnPath.bornInCgroup : SpawnPath.childJoined
        writtenGroups = cgroupProcs.count - (bornInGroup != 0 ? 1 : 0)
        return status
    }
}
