import FrugalCore

/// Readers for `/proc/<pid>/...`, so the harness can look at a workload from outside.
/// Parsing is separate from reading so it can be tested on fixed text.
public enum ProcFS {
    /// The thread ids of a process.
    public static func threadIDs(pid: Int32) throws -> [Int32] {
        try FileReader.directoryEntries("/proc/\(pid)/task").compactMap { Int32($0) }.sorted()
    }

    /// One thread's counters from `status` and `schedstat`.
    public static func threadSample(pid: Int32, tid: Int32) throws -> ThreadSample {
        let base = "/proc/\(pid)/task/\(tid)"
        let status = parseStatus(try FileReader.readText("\(base)/status"))
        let onCPU = parseSchedstat(try FileReader.readText("\(base)/schedstat")) ?? 0
        return ThreadSample(tid: tid, name: status.name ?? "", voluntaryContextSwitches: status.voluntaryContextSwitches ?? 0,
                            involuntaryContextSwitches: status.involuntaryContextSwitches ?? 0, onCPUNanoseconds: onCPU,
                            state: status.state.flatMap { $0.first.map(String.init) })
    }

    /// The resident split of `pid` (`smaps_rollup`), or nil when it cannot be read.
    public static func memory(pid: Int32) -> MemoryBreakdown? {
        (try? FileReader.readText("/proc/\(pid)/smaps_rollup")).flatMap(MemoryBreakdown.parseSmapsRollup)
    }

    /// How long after a program's start the harness reads nothing of it that takes its address
    /// space's lock (`smaps_rollup`, `maps`), ns. Such a read holds `mmap_lock` for reading while
    /// it walks the mappings; the dynamic loader's `mmap` calls need it for writing and sleep until
    /// it is free, and beside CPU hogs a preempted reader holds it for milliseconds: a C model of
    /// the held spawn (`sleep 0.003`, 60 executions, two `yes` hogs) read 2 voluntary switches
    /// every time alone, and 2–10 with a thread reading the child's `maps` and `smaps_rollup` in a
    /// loop (`BlackBoxRunTests` saw 9–10 main-thread wakeups for `sleep 0.003`). Counters that
    /// need no lock (`status`, `statm`, `io`, `schedstat`) are read from the start.
    public static let addressSpaceQuietAfterStart: UInt64 = 100_000_000

    /// A sample of every thread of `pid`, its resident size, its memory by kind and its block writes. Threads that
    /// exit while being read are skipped; a process that is gone throws. Without `memoryBreakdown`
    /// the split comes from `status`'s counters instead (``addressSpaceQuietAfterStart``:
    /// `smaps_rollup` is not read): anonymous `RssAnon`, file `RssFile` + `RssShmem`, and no
    /// `LazyFree` (status has none; a program in its first 100 ms has rarely given pages back).
    public static func sample(pid: Int32, time: UInt64, memoryBreakdown: Bool = true) throws -> ProcessSample {
        let status = parseStatus(try FileReader.readText("/proc/\(pid)/status"))
        var threads: [ThreadSample] = []
        for tid in try threadIDs(pid: pid) {
            if let thread = try? threadSample(pid: pid, tid: tid) { threads.append(thread) }
        }
        let io = try? parseIO(FileReader.readText("/proc/\(pid)/io"))
        let memory = memoryBreakdown ? (try? FileReader.readText("/proc/\(pid)/smaps_rollup")).flatMap(MemoryBreakdown.parseSmapsRollup)
            : status.residentAnonymousBytes.map { MemoryBreakdown(anonymousBytes: $0, fileBytes: (status.residentFileBytes ?? 0) + (status.residentSharedBytes ?? 0),
                                                                  lazyFreeBytes: 0) }
        var sample = ProcessSample(time: time, threads: threads, residentBytes: status.residentBytes,
                             physicalBytesWritten: io?["write_bytes"], charactersWritten: io?["wchar"], writeSyscalls: io?["syscw"],
                             memory: memory)
        sample.peakResidentBytes = status.peakResidentBytes
        return sample
    }

    /// The fields Frugal uses from a `status` file.
    public struct Status: Equatable, Sendable {
        public var name: String?
        public var state: String?
        public var voluntaryContextSwitches: Int?
        public var involuntaryContextSwitches: Int?
        public var residentBytes: Int?
        /// `VmHWM`: the peak resident size of this address space (it only rises).
        public var peakResidentBytes: Int?
        /// `RssAnon`, `RssFile`, `RssShmem`: the resident split from the address space's counters,
        /// which are read without its lock (``addressSpaceQuietAfterStart``).
        public var residentAnonymousBytes: Int?
        public var residentFileBytes: Int?
        public var residentSharedBytes: Int?
    }

    /// Parses `/proc/.../status` (`Key:\tvalue` lines; sizes in kB). Over the UTF-8 bytes, and
    /// only the keys it keeps are made into strings: it runs for every sample of every thread
    /// (the outside watcher reads one 10–40 times a second), where splitting each of the file's
    /// ~60 lines was most of the harness's own CPU beside an idle program.
    public static func parseStatus(_ text: String) -> Status {
        var status = Status()
        var text = text
        text.withUTF8 { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var colon = lineStart
                while colon < lineEnd && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
                if colon < lineEnd, let key = StatusKey(bytes, lineStart, colon) {
                    var valueStart = colon + 1, valueEnd = lineEnd
                    while valueStart < valueEnd && (bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09) { valueStart += 1 }
                    while valueEnd > valueStart && (bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09) { valueEnd -= 1 }
                    let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                    switch key {
                    case .name: status.name = String(decoding: value, as: UTF8.self)
                    case .state: status.state = String(decoding: value, as: UTF8.self)
                    case .voluntary: status.voluntaryContextSwitches = decimal(value)
                    case .involuntary: status.involuntaryContextSwitches = decimal(value)
                    case .resident: status.residentBytes = decimal(value, upToSpace: true).map { $0 * 1024 }
                    case .peakResident: status.peakResidentBytes = decimal(value, upToSpace: true).map { $0 * 1024 }
                    case .anonymous: status.residentAnonymousBytes = decimal(value, upToSpace: true).map { $0 * 1024 }
                    case .file: status.residentFileBytes = decimal(value, upToSpace: true).map { $0 * 1024 }
                    case .shared: status.residentSharedBytes = decimal(value, upToSpace: true).map { $0 * 1024 }
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        return status
    }

    /// The status keys `parseStatus` keeps.
    private enum StatusKey {
        case name, state, voluntary, involuntary, resident, peakResident, anonymous, file, shared

        init?(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
            let key = UnsafeBufferPointer(rebasing: bytes[start..<end])
            func equals(_ name: StaticString) -> Bool {
                name.utf8CodeUnitCount == key.count && name.withUTF8Buffer { $0.elementsEqual(key) }
            }
            if equals("Name") { self = .name }
            else if equals("State") { self = .state }
            else if equals("voluntary_ctxt_switches") { self = .voluntary }
            else if equals("nonvoluntary_ctxt_switches") { self = .involuntary }
            else if equals("VmRSS") { self = .resident }
            else if equals("VmHWM") { self = .peakResident }
            else if equals("RssAnon") { self = .anonymous }
            else if equals("RssFile") { self = .file }
            else if equals("RssShmem") { self = .shared }
            else { return nil }
        }
    }

    /// A non-negative decimal (`Int(value)`'s answer for one), or, with `upToSpace`, the number
    /// before the first space (`1234 kB`); nil when there are no digits or a byte is not one.
    private static func decimal(_ value: UnsafeBufferPointer<UInt8>, upToSpace: Bool = false) -> Int? {
        var result = 0
        var digits = 0
        for byte in value {
            if upToSpace && byte == 0x20 { break }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - 0x30))
            guard !overflow1 && !overflow2 else { return nil }
            result = sum
            digits += 1
        }
        return digits > 0 ? result : nil
    }

    /// The first field of `schedstat`: nanoseconds on the CPU.
    public static func parseSchedstat(_ text: String) -> UInt64? {
        text.split(separator: " ").first.flatMap { UInt64($0.trimmingSpaces()) }
    }

    /// Parses `/proc/<pid>/io` (`key: value` lines).
    public static func parseIO(_ text: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1].trimmingSpaces()) { fields[String(parts[0])] = value }
        }
        return fields
    }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" || last == "\n" { slice = slice.dropLast() }
        return slice
    }
}
