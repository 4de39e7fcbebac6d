import Foundation
import Synchronization
import FrugalCore

@_silgen_name("swift_demangle")
private func _swiftDemangle(_ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
                            _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?,
                            _ flags: UInt32) -> UnsafeMutablePointer<CChar>?

/// Turns `backtrace_symbols_fd` lines into named frames: glibc names only exported symbols, so
/// the rest are looked up in the binary's ELF symbol table (by file offset, as glibc prints them
/// for position-independent binaries), and Swift names are demangled by the Swift runtime's own
/// `swift_demangle`.
final class StackSymbolizer: Sendable {
    /// Each binary's table, read once (nil: unreadable); shared by every run's reader.
    private static let tables = Mutex<[String: ELFSymbolTable?]>([:])

    init() {}

    /// The frames of a captured stack, innermost first, without the signal handler's own frames.
    func frames(_ lines: [String]) -> [StackFrame] {
        var frames = lines.compactMap { line -> StackFrame? in
            guard let parsed = BacktraceLine.parse(Substring(line)) else {
                return line.isEmpty ? nil : StackFrame(module: "?", symbol: nil, address: line)
            }
            let name = parsed.symbol ?? Self.table(parsed.path)?.function(containing: parsed.offset &- 1)
            return StackFrame(module: URL(fileURLWithPath: parsed.path).lastPathComponent, symbol: name.map(Self.demangle),
                              address: "0x" + String(parsed.address, radix: 16))
        }
        // Drop the signal handler and the kernel's signal trampoline that called it.
        if let handler = frames.firstIndex(where: { $0.symbol == "frugal_stack_handler" }) {
            frames.removeFirst(min(frames.count, handler + 2))
        }
        return frames
    }

    /// A Swift symbol demangled; any other name as it is.
    static func demangle(_ name: String) -> String {
        guard name.hasPrefix("$s") || name.hasPrefix("$S") || name.hasPrefix("_T") else { return name }
        return name.withCString { pointer in
            guard let result = _swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return name }
            defer { free(result) }
            return String(cString: result)
        }
    }

    /// The function at `offset` in the file at `path` (a file virtual address: for the code
    /// segment of the binaries Swift builds, its file offset), if its symbol table names one.
    static func function(path: String, offset: UInt64) -> String? {
        table(path)?.function(containing: offset).map(demangle)
    }

    private static func table(_ path: String) -> ELFSymbolTable? {
        tables.withLock { tables in
            if let cached = tables[path] { return cached }
            let table = try? ELFSymbolTable(path: path)
            tables[path] = table
            return table
        }
    }
}

/// The function symbols of an ELF64 little-endian file (`.symtab`, else `.dynsym`), by address.
/// The file stays mapped and names are decoded only when looked up: a library's table has tens
/// of thousands of symbols, of which a run names a handful.
struct ELFSymbolTable: Sendable {
    private var starts: [UInt64] = []
    private var ends: [UInt64] = []
    /// Where each name starts in `data`.
    private var nameOffsets: [Int] = []
    private var stringsEnd = 0
    private let data: Data

    init(path: String) throws {
        try self.init(data: try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped))
    }

    init(data: Data) throws {
        struct NotELF: Error {}
        self.data = data
        var entries: [(UInt64, UInt64, Int)] = []
        var stringsEnd = 0
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard bytes.count > 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46, bytes[4] == 2, bytes[5] == 1 else { throw NotELF() }
            func integer(_ offset: Int, _ size: Int) -> UInt64 {
                guard offset >= 0, offset + size <= bytes.count else { return 0 }
                switch size {
                case 8: return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                case 4: return UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                default: return UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
                }
            }
            let sectionOffset = Int(integer(0x28, 8)), sectionSize = Int(integer(0x3a, 2)), sectionCount = Int(integer(0x3c, 2))
            func section(_ index: Int) -> (type: UInt64, offset: Int, size: Int, link: Int) {
                let base = sectionOffset + index * sectionSize
                return (integer(base + 4, 4), Int(integer(base + 0x18, 8)), Int(integer(base + 0x20, 8)), Int(integer(base + 0x28, 4)))
            }
            let sections = (0..<sectionCount).map(section)
            guard let symbols = sections.first(where: { $0.type == 2 }) ?? sections.first(where: { $0.type == 11 }),
                  symbols.link < sections.count else { throw NotELF() }
            let strings = sections[symbols.link]
            stringsEnd = min(bytes.count, strings.offset + strings.size)
            var offset = symbols.offset
            while offset + 24 <= min(bytes.count, symbols.offset + symbols.size) {
                let info = bytes[offset + 4]
                let value = integer(offset + 8, 8), size = integer(offset + 16, 8)
                if info & 0xf == 2, value != 0 {
                    entries.append((value, value + max(size, 1), strings.offset + Int(integer(offset, 4))))
                }
                offset += 24
            }
        }
        entries.sort { $0.0 < $1.0 }
        starts = entries.map(\.0)
        ends = entries.map(\.1)
        nameOffsets = entries.map(\.2)
        self.stringsEnd = stringsEnd
    }

    /// The function whose code holds `address` (a file virtual address), if any.
    func function(containing address: UInt64) -> String? {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= address { low = middle + 1 } else { high = middle }
        }
        let index = low - 1
        guard index >= 0, address < ends[index] else { return nil }
        let start = nameOffsets[index]
        return data.withUnsafeBytes { bytes in
            guard start >= 0, start < stringsEnd else { return nil }
            var end = start
            while end < stringsEnd, bytes[end] != 0 { end += 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }
}
