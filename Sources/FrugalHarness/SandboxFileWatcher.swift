import Foundation
import FrugalCore
import FrugalProbe
import Synchronization
import CFrugalSystem

/// Watches the run's sandbox with inotify and records each write to a file in it as the kernel
/// shows it — a file closed after writing (`IN_CLOSE_WRITE`), a file renamed into place
/// (`IN_MOVED_TO`), a deletion — with the block diff of the new content against what the file
/// held before (``BlockDiff``, on copies the watcher keeps). It needs nothing from the process:
/// a FrugalKit app, an app writing with Foundation or POSIX, and a black-box program are seen
/// alike. inotify needs no privilege; the copies stay in the harness.
///
/// What inotify cannot say, and how the record reads then: which bytes a `write` covered (an
/// in-place write is counted by the blocks that changed, a lower bound: storage writes whole
/// blocks, and a rewrite of identical bytes in place is not seen); a truncation is seen only if
/// the file is still short when the watcher looks after the `IN_MODIFY`; content that changed
/// again before the watcher read it is diffed once, at its later state.
final class SandboxFileWatcher: Sendable {
    /// The quiet, in ns, after which a file held open and modified again is written again: one
    /// save's system calls follow each other within milliseconds (a small file's fsync here is
    /// under 1 ms, a 16 MB one's 16 ms: docs/PORTING.md), while `disk.avoid-frequent-writes`
    /// grows poor at a write every 2 s, eight times this. Measured between the watcher's reads,
    /// so writes it read together (a busy machine) are one burst: a lower bound, as the rest.
    static let burstGap: UInt64 = 250_000_000

    /// Largest file whose content is kept for diffing, and the most kept in all.
    static let largestKeptFile = 64 * 1_048_576
    static let keptBudget = 512 * 1_048_576

    private let fd: Int32
    /// An eventfd that wakes the watcher's thread to stop: it sleeps in `poll` with no timeout,
    /// so an idle sandbox costs no wakeups.
    private let wake: Int32
    private let root: String
    private let state: Mutex<WatchState>
    private let stopping = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)
    private let finished = Mutex<FileChangeLog?>(nil)

    /// Starts watching `root` (the sandbox), skipping the read-only bundle; every file already
    /// there is copied as the content later writes are compared with. Returns the reason when
    /// inotify is not available.
    static func start(root: URL) -> Result<SandboxFileWatcher, SystemCallError> {
        let fd: Int32
        do {
            fd = try SystemCall.retrying("inotify_init1") { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
        } catch let error as SystemCallError {
            return .failure(error)
        } catch {
            return .failure(SystemCallError(call: "inotify_init1", errno: EINVAL))
        }
        let wake: Int32
        do {
            wake = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) }
        } catch {
            try? SystemCall.close(fd, subject: "inotify")
            return .failure(error as? SystemCallError ?? SystemCallError(call: "eventfd", errno: EINVAL))
        }
        let watcher = SandboxFileWatcher(fd: fd, wake: wake, root: root.standardizedFileURL.path)
        watcher.state.withLock { state in
            watcher.addTree("", into: &state, time: MonotonicClock.now(), recordFiles: false)
        }
        let thread = Thread { [watcher] in watcher.loop() }
        thread.name = "frugal-sandbox-watcher"
        thread.start()
        return .success(watcher)
    }

    private init(fd: Int32, wake: Int32, root: String) {
        self.fd = fd
        self.wake = wake
        self.root = root
        state = Mutex(WatchState())
    }

    /// Stops watching, reads what the kernel still holds, and returns the log; later calls
    /// return the same log.
    func finish() -> FileChangeLog {
        if let log = finished.withLock({ $0 }) { return log }
        stopping.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
        exited.wait()
        let log = state.withLock { state -> FileChangeLog in
            drain(&state)
            for episode in state.episodes.values { if let fd = episode.fd { _ = Glibc.close(fd) } }
            state.episodes = [:]
            return FileChangeLog(changes: state.changes, overflows: state.overflows, unavailable: state.rootUnwatched)
        }
        try? SystemCall.close(fd, subject: "inotify")
        try? SystemCall.close(wake, subject: "eventfd")
        finished.withLock { $0 = log }
        return log
    }

    /// Runs `body` while the watcher cannot read events: what the kernel queues meanwhile is
    /// read in one batch afterwards, as on a machine too busy to run the watcher. For tests.
    func holdingEvents<T>(_ body: () throws -> T) rethrows -> T {
        try state.withLock { _ in try body() }
    }

    private func loop() {
        // Below the app's priority (nice 10, this thread only): the copies and diffs are the
        // harness's work, and should not take the app's CPU on a busy machine. Best effort.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(frugal_gettid()), 10)
        var pollers = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while !stopping.load(ordering: .acquiring) {
            let ready = poll(&pollers, 2, -1)
            if ready > 0 && pollers[0].revents != 0 { state.withLock { drain(&$0) } }
        }
        exited.signal()
    }

    /// Reads and handles every event queued now.
    private func drain(_ state: inout WatchState) {
        let capacity = 65_536
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, capacity)
            if count <= 0 { break }  // EAGAIN: the queue is empty
            let time = MonotonicClock.now()
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            var batch: [(event: inotify_event, name: String)] = []
            while offset + header <= count {
                let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                var name = ""
                if event.len > 0 {
                    let start = buffer.baseAddress! + offset + header
                    let bytes = UnsafeRawBufferPointer(start: start, count: Int(event.len))
                    name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                batch.append((event, name))
                offset += header + Int(event.len)
            }
            for (index, entry) in batch.enumerated() {
                // A close whose file was modified again before the watcher got to it: the content
                // it reads now is the later write's (a bad app's 60 saves beside two CPU hogs once
                // read as 29 writes, each second save finding no block changed).
                let overtaken = entry.event.mask & UInt32(IN_CLOSE_WRITE) != 0 && batch[(index + 1)...].contains {
                    $0.event.wd == entry.event.wd && $0.name == entry.name && $0.event.mask & UInt32(IN_MODIFY) != 0
                }
                handle(entry.event, name: entry.name, time: time, overtaken: overtaken, &state)
            }
        }
    }

    private func handle(_ event: inotify_event, name: String, time: UInt64, overtaken: Bool = false, _ state: inout WatchState) {
        let mask = event.mask
        func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
        if has(IN_Q_OVERFLOW) { state.overflows += 1; return }
        if has(IN_IGNORED) { state.directories[event.wd] = nil; return }
        guard let directory = state.directories[event.wd], !name.isEmpty else { return }
        let path = directory.isEmpty ? name : directory + "/" + name
        if has(IN_ISDIR) {
            if has(IN_CREATE) || has(IN_MOVED_TO) { addTree(path, into: &state, time: time, recordFiles: true) }
            return
        }
        if has(IN_MODIFY) {
            var episode = state.episodes[path] ?? Episode()
            if episode.fd == nil {
                // Held until the write is settled: the content can then be read even if the
                // file was deleted or renamed before the watcher got to its close.
                let fd = open(absolute(path), O_RDONLY | O_CLOEXEC)
                if fd >= 0 { episode.fd = fd }
            }
            var info = stat()
            if let fd = episode.fd, fstat(fd, &info) == 0 {
                episode.leastSize = min(episode.leastSize ?? Int.max, Int(info.st_size))
                episode.lastSize = Int(info.st_size)
            }
            if episode.lastModified.map({ time &- $0 > Self.burstGap }) ?? true { episode.bursts.append(time) }
            episode.lastModified = time
            state.episodes[path] = episode
        }
        if has(IN_CLOSE_WRITE), let episode = state.episodes.removeValue(forKey: path) {
            settle(path, episode, movedIn: false, time: time, &state)
            if overtaken { state.readAhead.insert(path) }
        }
        if has(IN_MOVED_FROM) { state.moves[event.cookie] = path }
        if has(IN_MOVED_TO) {
            if let from = state.moves.removeValue(forKey: event.cookie) {
                renamed(from, to: path, time: time, &state)
            } else {
                settle(path, Episode(), movedIn: true, time: time, &state)
            }
        }
        if has(IN_DELETE) {
            if let episode = state.episodes.removeValue(forKey: path) {
                // Deleted while still open for writing (no close event follows an unlink).
                if episode.fd != nil { settle(path, episode, movedIn: false, time: time, &state) }
            }
            state.provisional[path] = nil
            let old = state.shadows.removeValue(forKey: path)
            state.release(old)
            let existed = old != nil
            state.lastChange[path] = nil
            if existed { state.record(FileChange(path: path, kind: .deleted, time: time, sizeAfter: nil, bytesWritten: 0, existed: true)) }
        }
    }

    /// A file closed after writing, or renamed into place from outside the sandbox: compared
    /// with what was there.
    private func settle(_ path: String, _ episode: Episode, movedIn: Bool, time: UInt64, _ state: inout WatchState) {
        guard let file = episode.fd.map({ PosixFile(fd: $0, path: absolute(path)) }) ?? (try? PosixFile.open(absolute(path), O_RDONLY)) else {
            // Gone before the watcher looked: renamed (the rename's event follows and completes
            // this change) or deleted. Its size is the last one seen while it was written.
            guard let size = episode.lastSize else { return }
            if episode.renamedOver == nil, let index = state.provisional.removeValue(forKey: path), state.changes[index].kind == .created {
                state.changes[index].sizeAfter = size
                state.changes[index].bytesWritten = size
                return  // its shadow is stale: a rename that follows reads the file where it went
            }
            let prior = state.shadows.removeValue(forKey: path)
            state.release(prior)
            state.record(FileChange(path: path, kind: prior == nil ? .created : .replaced, time: time, sizeAfter: size,
                                    bytesWritten: size, existed: prior != nil))
            return
        }
        defer { file.close() }
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { return }
        let size = Int(info.st_size), inode = UInt64(info.st_ino)
        let bytes = state.keep(size) ? try? file.read(count: size, at: 0) : nil
        let prior = episode.renamedOver ?? state.shadows[path]
        // The same inode already at this path: not a file that came from elsewhere, whatever
        // the event (a rename or creation queued before the directory's scan saw its result).
        let sameFile = episode.renamedOver == nil && prior?.inode == inode
        if sameFile, let index = state.provisional[path], state.changes[index].kind == .created {
            // Found when its new directory was watched, while it may still have been written:
            // the rest of its first writing, not an update, up to its first close seen.
            if !movedIn { state.provisional[path] = nil }
            state.changes[index].sizeAfter = size
            state.changes[index].bytesWritten = size
            state.changes[index].time = time
            state.release(state.shadows[path])
            state.shadows[path] = Shadow(inode: inode, size: size, bytes: bytes, info: info)
            return
        }
        if sameFile, movedIn, let prior, prior.size == size, prior.modified == Shadow.time(info) {
            return  // an event for content already seen (queued before a scan that read it)
        }
        state.provisional[path] = nil
        var change: FileChange
        if sameFile, let prior {
            let diff = prior.bytes.flatMap { old in bytes.map { BlockDiff.compare(old: old, new: $0) } }
            let least = episode.leastSize ?? size
            let truncated = least < prior.size
            let written = diff.map { truncated ? max($0.changedBlockBytes, size - least) : $0.changedBlockBytes } ?? size
            var inPlace = FileChange(path: path, kind: .inPlace, time: time, sizeAfter: size, bytesWritten: written, existed: true,
                                     diff: diff, truncated: truncated)
            if state.readAhead.remove(path) != nil, written == 0 { inPlace.readWithEarlierClose = true }
            change = inPlace
        } else {
            let diff = prior?.bytes.flatMap { old in bytes.map { BlockDiff.compare(old: old, new: $0) } }
            change = FileChange(path: path, kind: prior == nil ? .created : .replaced, time: time, sizeAfter: size, bytesWritten: size,
                                existed: prior != nil, diff: diff, via: episode.via)
        }
        if episode.bursts.count > 1 { change.heldOpenBursts = episode.bursts }
        state.release(state.shadows[path])
        state.shadows[path] = Shadow(inode: inode, size: size, bytes: bytes, info: info)
        state.record(change)
    }

    /// `from` renamed to `to` inside the sandbox: a file written here and renamed into place is
    /// one write of `to` (an atomic save), not two.
    private func renamed(_ from: String, to: String, time: UInt64, _ state: inout WatchState) {
        if var episode = state.episodes.removeValue(forKey: from) {
            // Renamed while still open for writing: settled when it is closed, as a replacement.
            episode.renamedOver = state.shadows[to]
            episode.via = from
            state.shadows[from] = nil
            if let replaced = state.episodes[to]?.fd { _ = Glibc.close(replaced) }
            state.episodes[to] = episode
            return
        }
        var moved = state.shadows.removeValue(forKey: from)
        let prior = state.shadows[to]
        state.provisional[from] = nil
        if let index = state.lastChange.removeValue(forKey: from), state.changes[index].kind == .created {
            if moved == nil || !(moved.map { isCurrent($0, at: to) } ?? false) {
                // Written (again) and renamed before the watcher could read it: read it where it now is.
                state.release(moved)
                moved = shadow(of: to, &state)
            }
            var change = state.changes[index]
            if let moved {
                change.sizeAfter = moved.size
                change.bytesWritten = moved.size
            }
            change.path = to
            change.via = from
            change.time = time
            change.existed = prior != nil
            change.kind = prior == nil ? .created : .replaced
            change.diff = prior?.bytes.flatMap { old in moved?.bytes.map { BlockDiff.compare(old: old, new: $0) } }
            state.changes[index] = change
            state.lastChange[to] = index
            state.release(prior)
            state.shadows[to] = moved
        } else if let moved {
            // A file not written in this run moved: its content is unchanged, only its name.
            state.release(prior)
            state.shadows[to] = moved
        } else {
            settle(to, Episode(), movedIn: true, time: time, &state)
        }
    }

    /// Watches `relative` and every directory under it; with `recordFiles`, files already in a
    /// new directory (written before its watch was added) are recorded as created.
    private func addTree(_ relative: String, into state: inout WatchState, time: UInt64, recordFiles: Bool) {
        if relative == SandboxLayout.bundle { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_EXCL_UNLINK | IN_ONLYDIR)
        let wd = inotify_add_watch(fd, absolute(relative), mask)
        guard wd >= 0 else {
            if relative.isEmpty { state.rootUnwatched = SystemCallError(call: "inotify_add_watch", subject: root, errno: errno).description }
            return
        }
        state.directories[wd] = relative
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: absolute(relative)) else { return }
        for name in entries.sorted() {
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(absolute(path), &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                addTree(path, into: &state, time: time, recordFiles: recordFiles)
            } else if (info.st_mode & S_IFMT) == S_IFREG, state.shadows[path] == nil {
                if recordFiles {
                    settle(path, Episode(), movedIn: true, time: time, &state)
                    if let index = state.lastChange[path], state.changes[index].path == path { state.provisional[path] = index }
                } else {
                    let size = Int(info.st_size)
                    let bytes = state.keep(size) ? (try? PosixFile.open(absolute(path), O_RDONLY)).flatMap { file in
                        defer { file.close() }
                        return try? file.read(count: size, at: 0)
                    } : nil
                    state.shadows[path] = Shadow(inode: UInt64(info.st_ino), size: size, bytes: bytes, info: info)
                }
            }
        }
    }

    /// Whether `shadow` is still the content of the file at `relative`: same inode, size and
    /// modification time.
    private func isCurrent(_ shadow: Shadow, at relative: String) -> Bool {
        var info = stat()
        guard stat(absolute(relative), &info) == 0 else { return false }
        return UInt64(info.st_ino) == shadow.inode && Int(info.st_size) == shadow.size && Shadow.time(info) == shadow.modified
    }

    /// The file at `relative` as it is now, kept if it fits.
    private func shadow(of relative: String, _ state: inout WatchState) -> Shadow? {
        guard let file = try? PosixFile.open(absolute(relative), O_RDONLY) else { return nil }
        defer { file.close() }
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        return Shadow(inode: UInt64(info.st_ino), size: size, bytes: state.keep(size) ? try? file.read(count: size, at: 0) : nil, info: info)
    }

    private func absolute(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }
}
