#if canImport(Glibc)
import Glibc
#endif
import FrugalProbe

/// A list of pids, one a line, as `cgroup.procs` gives it, read and parsed byte by byte.
enum ProcessIDList {
    /// Reads the whole file from offset 0 (every `pread` until one returns nothing: a seq_file
    /// hands out at most a page a read) and parses it; nil when a line is not a pid.
    static func read(_ file: PosixFile) throws -> [Int32]? {
        var pids: [Int32] = []
        var value: Int64 = 0
        var digits = 0
        var offset = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
            guard Self.parse(chunk[0..<count], into: &pids, value: &value, digits: &digits) else { return nil }
            offset += count
            if count < chunk.count { break }
        }
        if digits > 0 { pids.append(Int32(value)) }
        return pids
    }

    /// Parses `bytes` (decimal pids separated by newlines) into `pids`; the number under way is
    /// carried in `value`/`digits` across chunks. False on any other byte or an overflow.
    static func parse(_ bytes: ArraySlice<UInt8>, into pids: inout [Int32], value: inout Int64, digits: inout Int) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if digits > 0 { pids.append(Int32(value)) }
                (value, digits) = (0, 0)
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if value > Int64(Int32.max) { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// The pids of `text`, for tests: what `read` gives for a file holding it.
    static func parse(_ text: String) -> [Int32]? {
        var pids: [Int32] = []
        var value: Int64 = 0
        var digits = 0
        guard parse(ArraySlice(Array(text.utf8)), into: &pids, value: &value, digits: &digits) else { return nil }
        if digits > 0 { pids.append(Int32(value)) }
        return pids
    }
}
