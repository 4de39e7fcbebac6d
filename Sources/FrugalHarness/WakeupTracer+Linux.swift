import Foundation
import Synchronization
import CFrugalSystem
import FrugalCore
import FrugalProbe

/// Traces every wakeup of a run's threads to its cause: three tracepoints sampled on the run's
/// v2 cgroup (PERF_FLAG_PID_CGROUP, one set per CPU, opened before the program starts there),
/// each sample with the user-space callchain of the thread it fired on:
///  - `sched:sched_switch` — a thread of the run going off the CPU (asleep unless still runnable),
///    with where it waits;
///  - `sched:sched_waking` — a thread of the run waking another, with where the waker was.
///    Not `sched_wakeup`: the kernel may queue a wakeup to the target CPU (`TTWU_QUEUE`, when
///    that CPU is idle) and fire `sched_wakeup` there, in the IPI, where the running task is the
///    idle task, outside the run's cgroup, so the event was dropped: on a quiet machine the
///    worker that `news.polling`'s timer handler woke through a futex showed no waker at all.
///    `sched_waking` fires in the waker, always;
///  - `raw_syscalls:sys_exit`, filtered in the kernel to the waiting system calls
///    (`SystemCallNames`) — what ended a wait (a timeout, ready descriptors, a signal).
/// Only events fired while a task of the run is on the CPU are recorded, so the cost follows the
/// app's own scheduling, not the machine's. One reader thread drains the ring buffers when they
/// are a quarter full or every half second, reading each process's `maps` while it lives so the
/// addresses can be named (`StackSymbolizer`'s ELF tables) after it is gone.
/// `WakeupAttributor` (FrugalCore) then finds each wakeup's cause.
///
/// Needs tracefs and perf_event_open on tracepoints with raw samples on CPU-wide events: root
/// or CAP_PERFMON. An unprivileged user gets nothing here (the reason names perf_event_paranoid).
final class WakeupTracer: @unchecked Sendable {
    // The fds and mappings are made in `start` and released once in `finish`; the reader thread
    // is the only one touching `state`'s contents between, except `finish` after joining it.
    private struct Ring {
        var fds: [Int32]
        var base: UnsafeMutableRawPointer
        var length: Int
    }
    private var rings: [Ring]
    private let formats: Formats
    private let stopFD: Int32
    private let state = Mutex(State())
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// Pages of data per CPU (a power of two): 512 KiB, drained at a quarter full.
    static let dataPages = 128
    /// Frames kept per callchain: enough to pass the runtime's frames and reach the app's.
    static let maxStack: UInt16 = 48
    /// Bytes of the waker's stack copied with each `sched_waking`, searched for return addresses
    /// when its callchain stops short of the app's code (a library without frame pointers).
    static let wakerStackBytes: UInt32 = 8192
    /// Bytes of a sleeping thread's stack copied with each `sched_switch`: libc's futex wait
    /// keeps no frame pointer, so a pool thread's wait is named from these.
    static let sleeperStackBytes: UInt32 = 4096
    /// Keeps the switches of a thread going to sleep (S, D, stopped, ...), not preempted ones.
    static let sleepFilter = "prev_state & 255"
    /// The reader's longest sleep, ms: new processes' maps are read within it.
    static let drainInterval: Int32 = 500

    struct Formats {
        var switchID: UInt16, wakeupID: UInt16, exitID: UInt16
        var switchFormat: TracepointFormat, wakeupFormat: TracepointFormat, exitFormat: TracepointFormat
    }

    private struct State {
        var events: [SchedulerEvent] = []
        var lost: UInt64 = 0
        /// Each process's executable file mappings, sorted by start address.
        var maps: [Int32: [ProcFS.Mapping]] = [:]
        /// Pids whose maps could not be read (gone): not tried again.
        var gone: Set<Int32> = []
        var frames: [Int32: [UInt64: TraceFrame]] = [:]
        /// A sleep's scanned stack by its callchain: a thread waits in the same place again and
        /// again (a pool thread's futex), so its copied stack is read once per place.
        var sleepScans: [Int32: [[UInt64]: [TraceFrame]]] = [:]
        /// The files each process's callchains have shown code of.
        var chainFiles: [Int32: Set<String>] = [:]
        var programs: Set<String> = []
        var stopped = false
        /// The reader thread's CPU time when it ended, ns.
        var readerCPU: UInt64 = 0
    }

    private init(rings: [Ring], formats: Formats, stopFD: Int32) {
        self.rings = rings
        self.formats = formats
        self.stopFD = stopFD
    }

    /// Starts tracing the v2 cgroup at `cgroupPath`; the reason when this machine cannot.
    static func start(cgroupPath: String) -> Result<WakeupTracer, WakeupTraceUnavailable> {
        guard let root = SyncCallCounters.tracefs() else {
            if geteuid() != 0 { return .failure(WakeupTraceUnavailable(unprivileged(what: "tracefs (the tracepoints' ids and formats) is root's"))) }
            return .failure(WakeupTraceUnavailable("tracefs is not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing and could not be mounted: scheduler tracepoints cannot be read"))
        }
        func format(_ event: String) -> (UInt16, TracepointFormat)? {
            guard let id = try? FileReader.readText("\(root)/events/\(event)/id"),
                  let number = UInt16(id.trimmingCharacters(in: .whitespacesAndNewlines)),
                  let text = try? FileReader.readText("\(root)/events/\(event)/format") else { return nil }
            return (number, TracepointFormat(format: text))
        }
        guard let switches = format("sched/sched_switch"), let wakeups = format("sched/sched_waking"),
              let exits = format("raw_syscalls/sys_exit") else {
            return .failure(WakeupTraceUnavailable("the kernel has no sched_switch, sched_waking or raw_syscalls tracepoint under \(root)/events"))
        }
        let formats = Formats(switchID: switches.0, wakeupID: wakeups.0, exitID: exits.0,
                              switchFormat: switches.1, wakeupFormat: wakeups.1, exitFormat: exits.1)
        let group = open(cgroupPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard group >= 0 else {
            return .failure(WakeupTraceUnavailable("cannot open the run's cgroup \(cgroupPath): \(String(cString: strerror(errno)))"))
        }
        defer { _ = close(group) }
        var rings: [Ring] = []
        func fail(_ reason: String) -> Result<WakeupTracer, WakeupTraceUnavailable> {
            for ring in rings { release(ring) }
            return .failure(WakeupTraceUnavailable(reason))
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for cpu in 0..<max(1, Int(sysconf(Int32(_SC_NPROCESSORS_CONF)))) {
            var fds: [Int32] = []
            for (id, callchain, stackBytes, name) in [(switches.0, true, sleeperStackBytes, "sched:sched_switch"),
                                                      (wakeups.0, true, wakerStackBytes, "sched:sched_waking"),
                                                      (exits.0, false, 0, "raw_syscalls:sys_exit")] {
                let fd = frugal_perf_open_sampler_cgroup(UInt64(id), group, Int32(cpu), callchain ? 1 : 0, maxStack, stackBytes)
                if fd == -ENODEV { break }  // an offline CPU runs no task of the group
                guard fd >= 0 else {
                    fds.forEach { _ = close($0) }
                    return fail(openFailure(name, code: -fd))
                }
                fds.append(fd)
            }
            guard fds.count == 3 else { fds.forEach { _ = close($0) }; continue }
            guard frugal_perf_set_filter(fds[2], SystemCallNames.filter) == 0 else {
                fds.forEach { _ = close($0) }
                return fail("the kernel refused the raw_syscalls:sys_exit filter (\(SystemCallNames.filter))")
            }
            // Only switches into a sleep: a busy thread preempted a thousand times a second
            // would otherwise fill the buffer with switches no wakeup follows (and their stack
            // copies). Preempted is 0, or TASK_REPORT_MAX (0x100) with preemption, in prev_state.
            guard frugal_perf_set_filter(fds[0], Self.sleepFilter) == 0 else {
                fds.forEach { _ = close($0) }
                return fail("the kernel refused the sched:sched_switch filter (\(Self.sleepFilter))")
            }
            let length = page * (1 + dataPages)
            let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0)
            guard let base, base != MAP_FAILED else {
                let code = errno
                fds.forEach { _ = close($0) }
                return fail("mmap of the perf ring buffer failed: \(String(cString: strerror(code))) (perf_event_mlock_kb)")
            }
            rings.append(Ring(fds: fds, base: base, length: length))
            for fd in fds.dropFirst() where frugal_perf_set_output(fd, fds[0]) != 0 {
                return fail("PERF_EVENT_IOC_SET_OUTPUT failed: \(String(cString: strerror(errno)))")
            }
        }
        guard !rings.isEmpty else { return fail("no online CPU took the scheduler tracepoints") }
        let stopFD = eventfd(0, Int32(EFD_CLOEXEC))
        guard stopFD >= 0 else { return fail("eventfd failed: \(String(cString: strerror(errno)))") }
        for ring in rings { for fd in ring.fds { _ = frugal_perf_enable(fd, 1) } }
        let tracer = WakeupTracer(rings: rings, formats: formats, stopFD: stopFD)
        let thread = Thread { [tracer] in
            try? SystemCall.nameCurrentThread("frugal-wakeups")
            tracer.run()
            tracer.done.signal()
        }
        thread.start()
        tracer.thread = thread
        return .success(tracer)
    }

    private static func release(_ ring: Ring) {
        for fd in ring.fds { _ = close(fd) }
        munmap(ring.base, ring.length)
    }

    private static func openFailure(_ name: String, code: Int32) -> String {
        guard code == EACCES || code == EPERM else {
            return "perf_event_open(\(name)) on the run's cgroup failed: \(String(cString: strerror(code)))"
        }
        return unprivileged(what: "perf_event_open(\(name)) was refused")
    }

    /// What an unprivileged user is refused, and why: a tracepoint's raw record needs
    /// `perf_event_paranoid` -1, a cgroup's events are CPU-wide (0 or less), and at 2 (the usual
    /// default) even counting one's own process in kernel mode is refused.
    static func unprivileged(what: String) -> String {
        let paranoid = (try? FileReader.readText("/proc/sys/kernel/perf_event_paranoid"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        return "not root: \(what). Tracing wakeups samples scheduler tracepoints with their raw records on the run's CPUs, which needs root or CAP_PERFMON, or perf_event_paranoid -1 (it is \(paranoid) here)"
    }

    /// The reader: drains the rings when one is a quarter full, or every `drainInterval`.
    private func run() {
        var polls = rings.map { pollfd(fd: $0.fds[0], events: Int16(POLLIN), revents: 0) }
        polls.append(pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0))
        var buffer = Self.drainBuffer()
        while true {
            _ = poll(&polls, nfds_t(polls.count), Self.drainInterval)
            drain(into: &buffer)
            if polls.last!.revents != 0 { break }
        }
        let cpu = Self.threadCPU()
        state.withLock { $0.readerCPU = cpu }
    }

    /// A buffer for one ring's data, left uninitialised: the ring read writes what it returns
    /// before anything reads it, so only the pages a drain fills are ever touched (zeroing
    /// 512 KiB twice a run cost ~1 ms of page faults beside an idle program).
    static func drainBuffer() -> [UInt8] {
        let size = dataPages * Int(sysconf(Int32(_SC_PAGESIZE)))
        return [UInt8](unsafeUninitializedCapacity: size) { _, count in count = size }
    }

    /// The calling thread's CPU time, ns (CLOCK_THREAD_CPUTIME_ID).
    static func threadCPU() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    private func drain(into buffer: inout [UInt8]) {
        for ring in rings {
            let dataSize = ring.length - Int(sysconf(Int32(_SC_PAGESIZE)))
            while true {
                let copied = buffer.withUnsafeMutableBufferPointer { frugal_perf_ring_read(ring.base, dataSize, $0.baseAddress, $0.count) }
                if copied == 0 { break }
                let batch = PerfRecordParser.parse(Array(buffer[0..<copied]), stackCopies: [formats.wakeupID, formats.switchID])
                absorb(batch)
                if copied < buffer.count / 2 { break }
            }
        }
    }

    /// Decodes and symbolizes `batch`'s samples while their processes still live.
    private func absorb(_ batch: PerfRecordParser.Batch) {
        state.withLock { state in
            state.lost &+= batch.lost
            var remapped: Set<Int32> = []
            for sample in batch.samples {
                guard let kind = decode(sample) else { continue }
                var stack: [TraceFrame] = []
                if case .syscallExit = kind {} else {
                    stack = sample.userStack.enumerated().map { index, address in
                        frame(address, innermost: index == 0, pid: sample.pid, state: &state, remapped: &remapped, inChain: true)
                    }
                }
                // A callchain that ends before the app's code (libswiftDispatch and libdispatch
                // keep no frame pointers): the copied stack's words that are code addresses
                // continue it. Read only then: most words are data, and each costs a lookup.
                // A sleep is named from any frame past the C library's (where it waits); a wake
                // from the app's code (who woke it).
                let enough: (TraceFrame) -> Bool
                if case .sleep = kind {
                    enough = { $0.symbol != nil && !WakeupAttributor.isSystemLibrary($0.module) }
                } else {
                    let programs = state.programs
                    enough = { WakeupAttributor.isAppFrame($0, programs: programs) }
                }
                // A callchain that reached the C library's thread or program start is whole:
                // nothing is missing for a scan to find (and stale words would pass for callers).
                let whole = stack.count > 1 && stack.last.map { WakeupAttributor.isSystemLibrary($0.module) } == true
                if !sample.stackBytes.isEmpty, !whole, !stack.contains(where: enough) {
                    let isSleep: Bool
                    if case .sleep = kind { isSleep = true } else { isSleep = false }
                    if isSleep, let known = state.sleepScans[sample.pid]?[sample.userStack] {
                        stack += known
                    } else {
                        // A waker is scanned for the app's code, the program's file; a sleeper for
                        // where it waits, in the files the process's callchains have shown.
                        let programs = state.programs, shown = state.chainFiles[sample.pid] ?? []
                        let files: (String) -> Bool = isSleep ? { shown.contains($0) || programs.contains(Self.fileName($0)) }
                                                              : { programs.contains(Self.fileName($0)) }
                        // Only past the callchain's last frame found in the copy: the words
                        // below it are the inner frames' own, where a stale return address
                        // (a call made and returned long ago) would pass for a caller.
                        let words = sample.stackWords
                        let chain = Set(sample.userStack.dropFirst())
                        let past = words.lastIndex(where: chain.contains).map { $0 + 1 } ?? 0
                        let scanned = Array(scan(Array(words[past...]), pid: sample.pid, files: files, state: &state, remapped: &remapped)
                            .drop { stack.contains($0) })
                        if isSleep { state.sleepScans[sample.pid, default: [:]][sample.userStack] = scanned }
                        stack += scanned
                    }
                }
                state.events.append(SchedulerEvent(time: sample.time, pid: sample.pid, tid: sample.tid, kind: kind, stack: stack))
            }
        }
    }

    private func decode(_ sample: PerfRecordParser.Sample) -> SchedulerEvent.Kind? {
        switch sample.tracepoint {
        case formats.switchID:
            guard let previous = formats.switchFormat.integer("prev_pid", in: sample.raw), previous == Int64(sample.tid),
                  let state = formats.switchFormat.integer("prev_state", in: sample.raw) else { return nil }
            return .sleep(state: state)
        case formats.wakeupID:
            return formats.wakeupFormat.integer("pid", in: sample.raw).map { .wake(target: Int32(truncatingIfNeeded: $0)) }
        case formats.exitID:
            guard let number = formats.exitFormat.integer("id", in: sample.raw), let result = formats.exitFormat.integer("ret", in: sample.raw) else { return nil }
            return .syscallExit(number: number, result: result)
        default:
            return nil
        }
    }

    /// The named frames among `words` (a copied stack, innermost first) that fall in the code
    /// of a file that `files` accepts, up to `maxStack`; stale words may be among them (as in
    /// `ThreadEvidenceCollector`), which is why the callchain is preferred. Limiting the files
    /// bounds the cost: a stale word into a large library (ICU's 40 MB) would load its whole
    /// symbol table for nothing.
    private func scan(_ words: [UInt64], pid: Int32, files: (String) -> Bool, state: inout State, remapped: inout Set<Int32>) -> [TraceFrame] {
        guard let all = state.maps[pid] else { return [] }
        let code = all.filter { files($0.path) }
        guard let low = code.first?.start, let high = code.map(\.end).max() else { return [] }
        var frames: [TraceFrame] = []
        for word in words where word >= low && word < high {
            guard Self.mapping(of: word, in: code) != nil else { continue }
            let frame = frame(word, innermost: false, pid: pid, state: &state, remapped: &remapped)
            guard frame.symbol != nil, frame != frames.last else { continue }
            frames.append(frame)
            if frames.count == Int(Self.maxStack) { break }
        }
        return frames
    }

    /// The frame at `address` in process `pid`: its file and function, from the process's maps
    /// (read again once per batch when an address falls outside them: a library loaded since).
    private func frame(_ address: UInt64, innermost: Bool, pid: Int32, state: inout State, remapped: inout Set<Int32>,
                       inChain: Bool = false) -> TraceFrame {
        if let known = state.frames[pid]?[address] { return known }
        func mapping() -> ProcFS.Mapping? {
            state.maps[pid].flatMap { Self.mapping(of: address, in: $0) }
        }
        if state.maps[pid] == nil, !state.gone.contains(pid) {
            if let maps = try? ProcFS.maps(pid: pid) {
                state.maps[pid] = Self.code(maps)
                remapped.insert(pid)
                if let program = ProcFS.executableName(pid: pid) { state.programs.insert(program) }
            } else {
                state.gone.insert(pid)
            }
        }
        var found = mapping()
        if found == nil, !remapped.contains(pid), !state.gone.contains(pid), let maps = try? ProcFS.maps(pid: pid) {
            state.maps[pid] = Self.code(maps)
            remapped.insert(pid)
            // An address outside the maps read before may mean an exec since (the run's process
            // is held in the harness's image until its counters are attached): its program too.
            if let program = ProcFS.executableName(pid: pid) { state.programs.insert(program) }
            found = mapping()
        }
        guard let found, found.path.hasPrefix("/") else { return TraceFrame(module: "?", symbol: nil) }
        if inChain { state.chainFiles[pid, default: []].insert(found.path) }
        let offset = address - found.start + found.offset
        // A return address points past its call: one byte back names the caller's function.
        let symbol = StackSymbolizer.function(path: found.path, offset: innermost ? offset : offset &- 1)
        let frame = TraceFrame(module: Self.fileName(found.path), symbol: symbol)
        state.frames[pid, default: [:]][address] = frame
        return frame
    }

    /// Stops tracing, drains what is left and attributes every wakeup seen. Call once, after the
    /// run's processes have ended.
    func finish() -> WakeupAttribution {
        let finishStart = Self.threadCPU()
        var one: UInt64 = 1
        _ = write(stopFD, &one, 8)
        done.wait()
        for ring in rings { for fd in ring.fds { _ = frugal_perf_enable(fd, 0) } }
        var buffer = Self.drainBuffer()
        drain(into: &buffer)
        for ring in rings { Self.release(ring) }
        rings = []
        _ = close(stopFD)
        let (events, programs, lost, readerCPU) = state.withLock { state in
            defer { state = State() }
            return (state.events, state.programs, state.lost, state.readerCPU)
        }
        var attribution = WakeupAttributor.attribute(events, programs: programs, lostSamples: lost)
        // The harness's own cost: the reader thread's CPU, and this thread's for the last drain
        // and the attribution.
        attribution.tracerCPUSeconds = Double(readerCPU + Self.threadCPU() - finishStart) / 1e9
        return attribution
    }
}
