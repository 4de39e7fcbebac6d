import Foundation

/// Reads the records of a perf ring buffer (perf_event_open(2), "MMAP layout"), as the wakeup
/// tracer's events write them: `PERF_RECORD_SAMPLE` with PERF_SAMPLE_TID | TIME | CPU |
/// CALLCHAIN | RAW (in that order in each sample), then PERF_SAMPLE_STACK_USER for the
/// tracepoints opened with a stack copy, and `PERF_RECORD_LOST`. Pure: bytes in,
/// samples out, so it is tested on bytes built by hand.
public enum PerfRecordParser {
    public static let recordSample: UInt32 = 9
    public static let recordLost: UInt32 = 2
    /// Callchain context markers (`PERF_CONTEXT_*`): entries at or above this are markers, not addresses.
    static let contextMarkerFloor: UInt64 = 0xffff_ffff_ffff_f000
    /// `PERF_CONTEXT_USER`: the user-space frames follow.
    public static let contextUser: UInt64 = 0xffff_ffff_ffff_fe00

    /// One sample of a tracepoint.
    public struct Sample: Sendable, Equatable {
        /// The process and thread that were current when the tracepoint fired.
        public var pid: Int32
        public var tid: Int32
        /// ns on the clock the event was opened with (CLOCK_MONOTONIC for the tracer).
        public var time: UInt64
        public var cpu: UInt32
        /// User-space return addresses, innermost first, markers removed.
        public var userStack: [UInt64]
        /// The tracepoint's raw record (its `format` file says where each field is).
        public var raw: [UInt8]
        /// The copied user stack's bytes from its pointer up (PERF_SAMPLE_STACK_USER, as much as
        /// the kernel could copy), empty for tracepoints opened without a stack copy. Kept as
        /// bytes: most samples never need their words (`stackWords`).
        public var stackBytes: [UInt8]

        public init(pid: Int32, tid: Int32, time: UInt64, cpu: UInt32, userStack: [UInt64], raw: [UInt8], stackBytes: [UInt8] = []) {
            (self.pid, self.tid, self.time, self.cpu, self.userStack, self.raw) = (pid, tid, time, cpu, userStack, raw)
            self.stackBytes = stackBytes
        }

        /// The copied stack as little-endian words, innermost first.
        public var stackWords: [UInt64] {
            stackBytes.withUnsafeBytes { buffer in
                (0..<buffer.count / 8).map { UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
            }
        }

        /// The tracepoint id (`common_type`, the raw record's first two bytes).
        public var tracepoint: UInt16? { raw.count >= 2 ? UInt16(raw[0]) | UInt16(raw[1]) << 8 : nil }
    }

    /// What a stretch of ring-buffer bytes held.
    public struct Batch: Sendable, Equatable {
        public var samples: [Sample] = []
        /// Samples the kernel dropped because the buffer was full (`PERF_RECORD_LOST`).
        public var lost: UInt64 = 0
        /// Records that were cut short or malformed (the rest of the bytes is skipped).
        public var malformed = 0
    }

    /// The records in `bytes` (whole records, as `frugal_perf_ring_read` copies them); samples
    /// of the tracepoints in `stackCopies` carry a user-stack copy after their raw record.
    public static func parse(_ bytes: [UInt8], stackCopies: Set<UInt16> = []) -> Batch {
        var batch = Batch()
        var offset = 0
        while offset + 8 <= bytes.count {
            let type = UInt32(truncatingIfNeeded: integer(bytes, offset, 4))
            let size = Int(integer(bytes, offset + 6, 2))
            guard size >= 8, offset + size <= bytes.count else { batch.malformed += 1; break }
            let body = offset + 8, end = offset + size
            switch type {
            case recordSample:
                if let sample = sample(bytes, from: body, to: end, stackCopies: stackCopies) { batch.samples.append(sample) } else { batch.malformed += 1 }
            case recordLost where body + 16 <= end:
                batch.lost &+= integer(bytes, body + 8, 8)
            default: break
            }
            offset = end
        }
        return batch
    }

    static func sample(_ bytes: [UInt8], from start: Int, to end: Int, stackCopies: Set<UInt16>) -> Sample? {
        var at = start
        func take(_ size: Int) -> UInt64? {
            guard at + size <= end else { return nil }
            defer { at += size }
            return integer(bytes, at, size)
        }
        guard let pid = take(4), let tid = take(4), let time = take(8), let cpu = take(4), take(4) != nil,
              let count = take(8), count <= UInt64((end - at) / 8) else { return nil }
        var stack: [UInt64] = []
        var user = false
        for _ in 0..<Int(count) {
            guard let ip = take(8) else { return nil }
            if ip >= contextMarkerFloor { user = ip == contextUser; continue }
            if user { stack.append(ip) }
        }
        guard let rawSize = take(4), at + Int(rawSize) <= end else { return nil }
        let raw = Array(bytes[at..<at + Int(rawSize)])
        at += Int(rawSize)
        var sample = Sample(pid: Int32(truncatingIfNeeded: pid), tid: Int32(truncatingIfNeeded: tid), time: time,
                            cpu: UInt32(truncatingIfNeeded: cpu), userStack: stack, raw: raw)
        // PERF_SAMPLE_STACK_USER: { u64 size; char data[size]; u64 dyn_size } (no dyn_size when
        // size is 0: a kernel thread); dyn_size of the bytes are the stack's.
        if let tracepoint = sample.tracepoint, stackCopies.contains(tracepoint) {
            // The raw record is padded so that what follows it is 8-byte aligned.
            guard let size = take(8) else { return nil }
            if size > 0 {
                guard size <= UInt64(end - at), at + Int(size) + 8 <= end else { return nil }
                let copied = integer(bytes, at + Int(size), 8)
                let valid = Int(min(copied, size)) / 8 * 8
                sample.stackBytes = Array(bytes[at..<at + valid])
                at += Int(size) + 8
            }
        }
        return sample
    }

    /// A little-endian unsigned integer of `size` bytes at `offset` (0 past the end).
    static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
        guard offset >= 0, offset + size <= bytes.count else { return 0 }
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}

/// Where each field of a tracepoint's raw record is, from its tracefs `format` file
/// (`field:pid_t pid;	offset:24;	size:4;	signed:1;`): offsets differ across kernels.
public struct TracepointFormat: Sendable, Equatable {
    public var fields: [String: (offset: Int, size: Int)] {
        offsets.mapValues { ($0[0], $0[1]) }
    }
    private var offsets: [String: [Int]] = [:]

    public init(format: String) {
        for line in format.split(separator: "\n") where line.contains("field:") {
            var name: String?, offset: Int?, size: Int?
            for part in line.split(separator: ";") {
                let item = part.trimmingCharacters(in: .whitespaces)
                if item.hasPrefix("field:") {
                    // `field:char prev_comm[16]`: the name is the last word, less any array size.
                    let word = item.split(separator: " ").last.map(String.init) ?? ""
                    name = String(word.prefix { $0 != "[" })
                } else if item.hasPrefix("offset:") {
                    offset = Int(item.dropFirst(7))
                } else if item.hasPrefix("size:") {
                    size = Int(item.dropFirst(5))
                }
            }
            if let name, let offset, let size { offsets[name] = [offset, size] }
        }
    }

    /// The signed integer field `name` of `raw`, nil when the format or the record lacks it.
    public func integer(_ name: String, in raw: [UInt8]) -> Int64? {
        guard let field = offsets[name], [1, 2, 4, 8].contains(field[1]), field[0] + field[1] <= raw.count else { return nil }
        let value = PerfRecordParser.integer(raw, field[0], field[1])
        let shift = UInt64(64 - 8 * field[1])
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }
}
