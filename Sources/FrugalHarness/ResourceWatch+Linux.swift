import Foundation
import Synchronization
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// Watches the run's bundle from outside, on its own thread: an inotify watch on the bundle's
/// directories for `IN_OPEN`, `IN_ACCESS` (a `read()`; a mapping's page faults raise none) and
/// `IN_CLOSE_NOWRITE`, and the run's processes' `rchar` (`/proc/<pid>/io`) read around each batch
/// of events, which bounds how much of a file each use read. Whatever opened the file — any app,
/// any program — is seen alike; the memory audits decide from it (``ResourceTrace``).
///
/// The bundle is installed before the watch begins and read-only, so every event is the run's.
final class ResourceWatch: Sendable {
    private let inotifyFD: Int32
    private let stopFD: Int32
    /// Watch descriptor → the directory's path under the bundle ("" for the bundle itself).
    private let directories: [Int32: String]
    private let files: [ResourceTrace.File]
    /// The bundle's path as `/proc/<pid>/maps` prints it (symbolic links resolved).
    private let bundlePath: String
    private let members: (@Sendable () -> [pid_t])?

    private struct Open {
        var index: Int
        var count: Int
    }
    private struct State {
        var accesses: [ResourceTrace.Access] = []
        var open: [String: Open] = [:]
        /// The main process of the run now (a relaunch follows the new one).
        var main: pid_t?
        /// Its `rchar` at its exit, once it has exited: the harness reaps it, and its bytes then
        /// join the harness's own, before the watch may have read its last batch.
        var mainBytesAtExit: (@Sendable () -> Int?)?
        /// `rchar` read before the previous batch was read: every event of later batches came after it.
        var previousBefore: Int?
        var bytesUnavailable: String?
        /// Processes of the run seen in earlier readings: one that has exited leaves its cgroup
        /// at once but keeps its `io` until its parent reaps it, and only then do its bytes join
        /// the parent's.
        var seen: Set<pid_t> = []
        var lost: String?
        var finished = false
    }
    private let state = Mutex(State())
    /// Held while a batch is read and applied: by the watching thread, or by the session at a
    /// step's start (``settle()``).
    private let draining = Mutex(())
    private let done = NSCondition()
    private let threadEnded = Mutex(false)

    /// Starts watching `bundle` (every directory under it), or returns why it cannot: the trace
    /// then says so, and the audits judge from FrugalKit's events or not at all.
    static func start(bundle: URL, members: (@Sendable () -> [pid_t])?) -> Result<ResourceWatch, SystemCallError> {
        Result { try ResourceWatch(bundle: bundle, members: members) }.mapError { $0 as? SystemCallError ?? SystemCallError(call: "inotify", errno: EINVAL) }
    }

    private init(bundle: URL, members: (@Sendable () -> [pid_t])?) throws {
        let root = bundle.resolvingSymlinksInPath()
        bundlePath = root.path
        self.members = members
        let (found, folders) = Self.installed(root)
        files = found
        let inotify = try SystemCall.retrying("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        inotifyFD = inotify
        do {
            stopFD = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        } catch {
            try? SystemCall.close(inotify)
            throw error
        }
        var directories: [Int32: String] = [:]
        do {
            for folder in folders {
                let path = folder.isEmpty ? root.path : root.path + "/" + folder
                let mask = UInt32(IN_OPEN) | UInt32(IN_ACCESS) | UInt32(IN_CLOSE_NOWRITE)
                let wd = try SystemCall.retrying("inotify_add_watch", subject: path) { inotify_add_watch(inotify, path, mask) }
                directories[wd] = folder
            }
        } catch {
            try? SystemCall.close(inotify)
            try? SystemCall.close(stopFD)
            throw error
        }
        self.directories = directories
        let thread = Thread { [self] in
            loop()
            threadEnded.withLock { $0 = true }
            done.lock()
            done.broadcast()
            done.unlock()
        }
        thread.name = "frugal-resources"
        thread.start()
    }

    /// The files under `root` with their sizes, and its directories ("" for itself), by path under it.
    static func installed(_ root: URL) -> (files: [ResourceTrace.File], folders: [String]) {
        var found: [ResourceTrace.File] = []
        var folders = [""]
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey, .fileSizeKey]) {
            for case let url as URL in walker {
                let relative = String(url.resolvingSymlinksInPath().path.dropFirst(root.path.count + 1))
                let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .fileSizeKey])
                if values?.isDirectory == true { folders.append(relative) } else { found.append(.init(path: relative, bytes: values?.fileSize ?? 0)) }
            }
        }
        return (found.sorted { $0.path < $1.path }, folders)
    }

    /// Reads what is queued now, on the caller's thread: called as each scenario step begins, so
    /// a use that happened before the step (a file read at launch) is stamped before it, however
    /// late the watching thread would have woken under load. A use's time is when the harness
    /// read its event, which is after it happened and, from here, before the next step's start.
    func settle() {
        draining.withLock { _ in
            drain()
            checkMappings()
        }
    }

    /// Runs `body` while no batch can be read: what the kernel queues meanwhile is read in one
    /// batch afterwards, as on a machine too busy to run the watch. For tests.
    func holdingEvents<T>(_ body: () throws -> T) rethrows -> T {
        try draining.withLock { _ in try body() }
    }

    /// The run's main process is now `pid` (its launch, or a relaunch); `bytesAtExit` gives its
    /// `rchar` as it stood at its exit, once it has exited.
    func follow(_ pid: pid_t, bytesAtExit: (@Sendable () -> Int?)? = nil) {
        state.withLock { state in
            state.main = pid
            state.mainBytesAtExit = bytesAtExit
        }
    }

    /// The bytes every process of the run has read through `read()` so far (`rchar`; a reaped
    /// child's are its parent's), or nil when none could be read. A process that has exited but
    /// is not yet reaped (a zombie) is out of the cgroup and its bytes are not yet its parent's:
    /// it is read as a child of a member (`/proc/<pid>/task/*/children` lists zombies) or from
    /// the earlier readings' list. An upper bound: a reap between a child's read and its parent's
    /// counts the child twice.
    ///
    /// Children are read before their parents. Read the other way, a child reaped between the
    /// two reads is in neither: under load, a `cat` of a 24 MiB resource reaped between the
    /// shell's read and its own left only the shell's 3,980 bytes. Read this way, a child whose
    /// read fails was reaped, and its parent, read after, holds its bytes.
    private func readBytes() -> Int? {
        var members = Set(members?() ?? [])
        let (main, mainBytesAtExit, seen) = state.withLock { ($0.main, $0.mainBytesAtExit, $0.seen) }
        if let main { members.insert(main) }
        // Children not yet reaped, zombies included (out of the cgroup already), with their parents.
        var parents: [pid_t: pid_t] = [:]
        for pid in members {
            for child in ChildSubreaper.children(of: pid) where child != pid { parents[child] = pid }
        }
        let current = members.union(parents.keys)
        var total: Int?
        var failure: String?
        var gone: Set<pid_t> = []
        for pid in Self.readingOrder(current, parents: parents, seen: seen) {
            do {
                let fields = ProcFS.parseIO(try FileReader.readText("/proc/\(pid)/io"))
                if let rchar = fields["rchar"] { total = (total ?? 0) + rchar }
            } catch {
                let vanished = [ENOENT, ESRCH].contains((error as? SystemCallError)?.errno ?? 0)
                if pid == main, let bytes = mainBytesAtExit?() {
                    total = (total ?? 0) + bytes  // reaped by the harness, after it read the exit
                } else if vanished || !current.contains(pid) || parents[pid] != nil {
                    gone.insert(pid)  // reaped: its parent, read after it, holds its bytes
                } else {
                    failure = "/proc/\(pid)/io: \(error)"
                }
            }
        }
        state.withLock { state in
            state.seen.formUnion(current)
            state.seen.subtract(gone)
            if total == nil, let failure, state.bytesUnavailable == nil { state.bytesUnavailable = failure }
        }
        return total
    }

    /// The order ``readBytes()`` reads `rchar` in: processes seen before and now in no list
    /// (reaped, or zombies of no member) first, then the deepest children before their parents.
    static func readingOrder(_ current: Set<pid_t>, parents: [pid_t: pid_t], seen: Set<pid_t>) -> [pid_t] {
        func depth(_ pid: pid_t) -> Int {
            var depth = 0, at = pid
            // Bounded: pids reused while the lists were read could make a cycle.
            while let parent = parents[at], depth <= parents.count { (depth, at) = (depth + 1, parent) }
            return depth
        }
        return seen.subtracting(current).sorted() + current.sorted { (depth($0), $0) > (depth($1), $1) }
    }

    /// Whether `path` (under the bundle) is mapped by a process of the run.
    private func isMapped(_ path: String) -> Bool {
        var pids = Set(members?() ?? [])
        if let main = state.withLock({ $0.main }) { pids.insert(main) }
        let full = bundlePath + "/" + path
        return pids.contains { pid in
            guard let maps = try? FileReader.readText("/proc/\(pid)/maps") else { return false }
            return maps.split(separator: "\n").contains { $0.hasSuffix(" " + full) }
        }
    }

    private func loop() {
        var polls = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        state.withLock { $0.previousBefore = nil }
        while true {
            guard (try? SystemCall.retrying("poll", subject: "bundle events") { poll(&polls, 2, -1) }) != nil else {
                state.withLock { $0.lost = "poll on the inotify descriptor failed" }
                return
            }
            let stopping = polls[1].revents != 0
            draining.withLock { _ in drain() }
            if stopping { return }
        }
    }

    /// Reads every queued event and applies it, between two `rchar` readings.
    private func drain() {
        let before = readBytes()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var events: [(mask: UInt32, path: String)] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(inotifyFD, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            while offset + 16 <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self), raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    state.withLock { $0.lost = "the kernel's inotify queue overflowed: some uses of the bundle's files were lost" }
                    continue
                }
                guard mask & UInt32(IN_ISDIR) == 0, let folder = directories[wd], !nameBytes.isEmpty else { continue }
                let name = String(decoding: nameBytes, as: UTF8.self)
                events.append((mask, folder.isEmpty ? name : folder + "/" + name))
            }
        }
        guard !events.isEmpty else { return }
        let now = MonotonicClock.now()
        let after = readBytes()
        state.withLock { state in
            for event in events {
                if event.mask & UInt32(IN_OPEN) != 0 {
                    if var open = state.open[event.path] {
                        open.count += 1
                        state.open[event.path] = open
                    } else {
                        state.accesses.append(ResourceTrace.Access(path: event.path, opened: now, closed: nil, reads: 0, bytesReadAtMost: nil,
                                                                   readWindow: (state.previousBefore ?? 0)...(state.previousBefore ?? 0), mapped: false))
                        state.open[event.path] = Open(index: state.accesses.count - 1, count: 1)
                    }
                }
                if event.mask & UInt32(IN_ACCESS) != 0 {
                    if state.open[event.path] == nil {
                        // Its open was merged away or came before the watch: a use all the same.
                        state.accesses.append(ResourceTrace.Access(path: event.path, opened: now, closed: nil, reads: 0, bytesReadAtMost: nil,
                                                                   readWindow: (state.previousBefore ?? 0)...(state.previousBefore ?? 0), mapped: false))
                        state.open[event.path] = Open(index: state.accesses.count - 1, count: 1)
                    }
                    state.accesses[state.open[event.path]!.index].reads += 1
                }
                if event.mask & UInt32(IN_CLOSE_NOWRITE) != 0, var open = state.open[event.path] {
                    open.count -= 1
                    if open.count > 0 {
                        state.open[event.path] = open
                    } else {
                        state.open[event.path] = nil
                        state.accesses[open.index].closed = now
                        Self.extend(&state.accesses[open.index], to: after)
                    }
                }
            }
            // Uses still open have read at most what the processes read until now.
            for open in state.open.values { Self.extend(&state.accesses[open.index], to: after) }
            state.previousBefore = before ?? state.previousBefore
        }
        checkMappings()
    }

    /// A use with no read so far is either mapped (its pages fault in unseen) or only opened. A
    /// mapping outlives its descriptor, and a descriptor may stay open beside it (no close event
    /// to look again on), so this runs after every batch and at every step's start.
    private func checkMappings() {
        let unread = state.withLock { state in
            state.accesses.indices.filter { !state.accesses[$0].mapped && state.accesses[$0].reads == 0 }.map { ($0, state.accesses[$0].path) }
        }
        for (index, path) in unread where isMapped(path) {
            state.withLock { $0.accesses[index].mapped = true }
        }
    }

    /// Moves `access`'s window's end to the reading `after`; a lower reading (a relaunched
    /// process counts from 0 again) leaves the bound at what the window's start could not exceed.
    private static func extend(_ access: inout ResourceTrace.Access, to after: Int?) {
        guard let after, let window = access.readWindow else { return }
        let low = after < window.lowerBound ? 0 : window.lowerBound
        access.readWindow = low...max(after, low)
        access.bytesReadAtMost = max(after, low) - low
    }

    /// Stops watching once the run's processes are gone (the last closes read) and returns what
    /// was seen.
    func finish() -> ResourceTrace {
        stop()
        return state.withLock { state in
            var accesses = state.accesses
            for index in accesses.indices where accesses[index].reads > 0 && accesses[index].bytesReadAtMost == nil {
                accesses[index].readWindow = nil
            }
            return ResourceTrace(files: files, accesses: accesses, unavailable: state.lost,
                                 bytesUnavailable: accesses.contains { $0.reads > 0 && $0.bytesReadAtMost == nil } ? state.bytesUnavailable ?? "no process's /proc/<pid>/io could be read" : nil)
        }
    }

    /// Ends the watching thread and closes its descriptors; safe to call more than once.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        guard first else { return }
        var one: UInt64 = 1
        _ = Glibc.write(stopFD, &one, 8)
        done.lock()
        while !threadEnded.withLock({ $0 }) { _ = done.wait(until: Date().addingTimeInterval(1)) }
        done.unlock()
        try? SystemCall.close(inotifyFD)
        try? SystemCall.close(stopFD)
    }
}
