#if canImport(Glibc)
import Glibc
#endif
import Foundation
import CFrugalSystem

/// A blocked thread's stack, read from outside: `/proc/<pid>/task/<tid>/syscall` gives its stack
/// pointer while it sleeps in a system call, `/proc/<pid>/maps` where that stack and each code
/// file lie, and `process_vm_readv` the stack's words. Nothing is signalled or stopped; the
/// harness may do this to a process it started (ptrace read access: same user, its ancestor).
extension ProcFS {
    /// A thread's system call line: its number and, while blocked, its stack and instruction pointers.
    public struct SyscallLine: Equatable, Sendable {
        /// The call's number, `running`, or `-1` (blocked, not in a call).
        public var call: String
        public var stackPointer: UInt64?
        public var instructionPointer: UInt64?
    }

    /// Parses `syscall`: `NR arg1..arg6 SP PC`, `-1 SP PC`, or `running`.
    public static func parseSyscall(_ text: String) -> SyscallLine? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let call = fields.first else { return nil }
        func hex(_ field: Substring) -> UInt64? { UInt64(field.hasPrefix("0x") ? field.dropFirst(2) : field, radix: 16) }
        guard fields.count >= 3 else { return SyscallLine(call: String(call)) }
        return SyscallLine(call: String(call), stackPointer: hex(fields[fields.count - 2]), instructionPointer: hex(fields[fields.count - 1]))
    }

    /// One line of `/proc/<pid>/maps`.
    public struct Mapping: Equatable, Sendable {
        public var start: UInt64
        public var end: UInt64
        public var permissions: String
        /// Offset in the file of `start`.
        public var offset: UInt64
        /// The file (or `[stack]`, or empty for anonymous memory).
        public var path: String
        public var executable: Bool { permissions.dropFirst(2).first == "x" }
    }

    /// Parses `maps`: `start-end perms offset dev inode path`.
    public static func parseMaps(_ text: String) -> [Mapping] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16),
                  let offset = UInt64(fields[2], radix: 16) else { return nil }
            let path = fields.count == 6 ? String(fields[5].trimmingSpaces()) : ""
            return Mapping(start: start, end: end, permissions: String(fields[1]), offset: offset, path: path)
        }
    }

    /// The instruction pointer, then the words of a blocked thread's stack from its stack pointer
    /// up (towards older frames), at most `limit` bytes, with the process's mappings. Throws when the thread runs (no stack
    /// pointer to read from), is gone, or its memory may not be read.
    public static func stackWords(pid: Int32, tid: Int32, limit: Int = 32 * 1024) throws -> (call: String, words: [UInt64], maps: [Mapping]) {
        let maps = try maps(pid: pid)
        let read = try stackWords(pid: pid, tid: tid, maps: maps, limit: limit)
        return (read.call, read.words, maps)
    }

    /// The process's mappings (`/proc/<pid>/maps`).
    public static func maps(pid: Int32) throws -> [Mapping] {
        parseMaps(try FileReader.readText("/proc/\(pid)/maps"))
    }

    /// `stackWords` with the process's mappings already read (one read for all its threads).
    public static func stackWords(pid: Int32, tid: Int32, maps: [Mapping], limit: Int = 32 * 1024) throws -> (call: String, words: [UInt64]) {
        let base = "/proc/\(pid)/task/\(tid)"
        guard let line = parseSyscall(try FileReader.readText("\(base)/syscall")) else {
            throw SystemCallError(call: "read", subject: "\(base)/syscall: empty", errno: EIO)
        }
        guard let stackPointer = line.stackPointer else {
            throw SystemCallError(call: "read", subject: "\(base)/syscall: \(line.call), no stack pointer", errno: EAGAIN)
        }
        guard let stack = maps.first(where: { $0.start <= stackPointer && stackPointer < $0.end }) else {
            throw SystemCallError(call: "read", subject: "\(base): stack pointer in no mapping", errno: EFAULT)
        }
        let length = Int(min(UInt64(limit), stack.end - stackPointer)) & ~7
        var buffer = [UInt64](repeating: 0, count: length / 8)
        let read = try buffer.withUnsafeMutableBytes { bytes -> Int in
            try SystemCall.retrying("process_vm_readv", subject: "\(pid)/\(tid)") {
                frugal_process_vm_read(pid, bytes.baseAddress, length, stackPointer)
            }
        }
        // The instruction pointer first: the innermost frame.
        return (line.call, (line.instructionPointer.map { [$0] } ?? []) + Array(buffer.prefix(read / 8)))
    }

    /// The file name of a process's executable, or nil when it cannot be read.
    public static func executableName(pid: Int32) -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))
            .map { URL(fileURLWithPath: $0).lastPathComponent }
    }
}
