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

    /// A sample of every thread of `pid`, its resident size, its memory by kind and its block writes. Threads that
    /// exit while being read are skipped; a process that is gone throws.
    public static func sample(pid: Int32, time: UInt64) throws -> ProcessSample {
        let status = parseStatus(try FileReader.readText("/proc/\(pid)/status"))
        var threads: [ThreadSample] = []
        for tid in try threadIDs(pid: pid) {
            if let thread = try? threadSample(pid: pid, tid: tid) { threads.append(thread) }
        }
        let io = try? parseIO(FileReader.readText("/proc/\(pid)/io"))
        let memory = (try? FileReader.readText("/proc/\(pid)/smaps_rollup")).flatMap(MemoryBreakdown.parseSmapsRollup)
        var sample = ProcessSample(time: time, threads: threads, residentBytes: status.residentBytes,
                             physicalBytesWritten: io?["write_bytes"], charactersWritten: io?["wchar"], writeSyscalls: io?["syscw"],
                             memory: memory)
        sample.peakResidentBytes = status.peakResidentBytes
        return sample
    }

    /// The I/O totals of `pid` (`/proc/<pid>/io`); readable for a zombie until it is reaped.
    public static func ioCounters(pid: Int32, time: UInt64) throws -> ProcessIOCounters {
        ProcessIOCounters(time: time, fields: parseIO(try FileReader.readText("/proc/\(pid)/io")))
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
    }

    /// Parses `/proc/.../status` (`Key:\tvalue` lines; sizes in kB).
    public static func parseStatus(_ text: String) -> Status {
        var status = Status()
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            let value = line[line.index(after: colon)...].trimmingSpaces()
            switch key {
            case "Name": status.name = String(value)
            case "State": status.state = String(value)
            case "voluntary_ctxt_switches": status.voluntaryContextSwitches = Int(value)
            case "nonvoluntary_ctxt_switches": status.involuntaryContextSwitches = Int(value)
            case "VmRSS": status.residentBytes = value.split(separator: " ").first.flatMap { Int($0) }.map { $0 * 1024 }
            case "VmHWM": status.peakResidentBytes = value.split(separator: " ").first.flatMap { Int($0) }.map { $0 * 1024 }
            default: break
            }
        }
        return status
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
