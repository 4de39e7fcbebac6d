import Foundation
import Synchronization
import FrugalCore
import FrugalProbe
import CFrugalSystem

/// Which thread of a program drains libdispatch's main queue, read from libdispatch's own state in
/// the program's memory, from outside: the thread that holds the queue's drain lock.
///
/// libdispatch keeps the main queue in one global, `_dispatch_main_q` (exported: Dispatch's
/// `DispatchQueue.main` is that object). Its `dq_state`'s low 32 bits are the drain lock, which
/// holds the thread id of the thread draining it (`_dispatch_lock_value_for_self`: the tid on Linux,
/// masked with `FUTEX_TID_MASK`), and its `dq_atomic_flags` have `DQF_THREAD_BOUND` while the queue
/// belongs to one thread (swift-corelibs-libdispatch 6.3.1, src/queue_internal.h, src/shims/lock.h):
/// - bound: `libdispatch_init` tags the queue with the main thread (`_dispatch_queue_set_bound_thread`),
///   and that thread drains it through `_dispatch_main_queue_callback_4CF` (CFRunLoop, `RunLoop.main.run()`,
///   FrugalKit's loop): the drain lock names it all along.
/// - not bound: `dispatchMain()` parked the first thread in `rt_sigsuspend` (`_dispatch_sig_thread`) and
///   turned the main queue into an ordinary serial queue (`_dispatch_queue_cleanup2`) that a pool thread of
///   the default-QoS overcommit root queue drains: the lock names that thread while it drains, and no
///   thread while the queue is empty. Swift's `async` main drains its main actor the same way.
///
/// Nothing is signalled or stopped: `process_vm_readv` reads 32 bytes per look (the harness may read a
/// process it started). The layout is checked once against the queue's known label and serial number;
/// where it differs, the probe is not used (the first thread stays the main one, and the report says why).
struct MainQueueProbe: Sendable {
    let pid: Int32
    /// Where `_dispatch_main_q` lies in the program's memory.
    let address: UInt64
    /// The file it was found in (libdispatch.so, or the executable when libdispatch is linked in).
    let file: String

    /// The global's name in libdispatch (and the symbol `DispatchQueue.main` resolves to).
    static let symbol = "_dispatch_main_q"
    /// The main queue's label (src/init.c) and serial number: the layout check.
    static let label = "com.apple.main-thread"
    /// Offsets in `struct dispatch_queue_static_s` on LP64 Linux (no Objective-C header): the object
    /// header (vtable, two reference counts, next, target queue, context, finalizer) is 48 bytes,
    /// `dq_items_tail` 8, then `dq_state`, `dq_serialnum`, `dq_label`, `dq_atomic_flags`.
    static let stateOffset: UInt64 = 56
    static let serialOffset: UInt64 = 64
    static let labelOffset: UInt64 = 72
    static let flagsOffset: UInt64 = 80
    /// `DQF_THREAD_BOUND` (src/queue_internal.h).
    static let threadBoundFlag: UInt32 = 0x0004_0000
    /// `FUTEX_TID_MASK`: the drain lock's owner bits on Linux (`DLOCK_OWNER_MASK`).
    static let ownerMask: UInt64 = 0x3fff_ffff

    /// What one look saw.
    struct Reading: Equatable, Sendable {
        /// The thread holding the drain lock; nil when none does (an idle main queue under `dispatchMain()`).
        var owner: Int32?
        /// Whether the queue is bound to one thread (`DQF_THREAD_BOUND`).
        var threadBound: Bool
    }

    /// Finds and checks the main queue in process `pid`; the reason when it cannot be used.
    static func locate(pid: Int32) -> Result<MainQueueProbe, Unusable> {
        let text: String
        do { text = try FileReader.readText("/proc/\(pid)/maps") } catch { return .failure(.unreadable("\(error)")) }
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        // Most looks at a program without libdispatch (30 in its first 10 s) find nothing new: no
        // libdispatch mapped, and an executable already known not to define the global. They
        // end here, without parsing the maps (the harness's own CPU beside an idle program).
        if !Self.mentionsDispatch(text), let executable, ELFObjectSymbol.knownAbsent(symbol, in: executable) {
            return .failure(.noDispatch)
        }
        let maps = ProcFS.parseMaps(text)
        // The executable first: it defines the global when libdispatch is linked in statically, or
        // when it holds a copy relocation of it (then its copy is the live one); else libdispatch.so.
        // An executable that only refers to it has it undefined (value 0), and is passed over.
        let files = Set(maps.map(\.path).filter { $0.hasPrefix("/") })
        var candidates = executable.map { files.contains($0) ? [$0] : [] } ?? []
        // The file name by hand: URL(fileURLWithPath:) stats every path to see if it is a directory.
        candidates += files.filter { ($0.split(separator: "/").last ?? "").hasPrefix("libdispatch.so") }.sorted()
        guard !candidates.isEmpty else { return .failure(.noDispatch) }
        for file in candidates {
            guard let found = ELFObjectSymbol.cached(symbol, in: file) else { continue }
            var address = found.value
            if found.relocatable {
                // The loader's writable mapping of the page that holds the global (the main queue
                // is mutable data). Not the lowest mapping at file offset 0: a process that maps
                // the file itself to read it has one more (the harness's symbolizer keeps
                // libraries mapped, and probing itself read another page: "serial number 368048").
                if let fileOffset = found.fileOffset,
                   let mapping = maps.first(where: { $0.path == file && $0.permissions.hasPrefix("rw")
                                                     && $0.offset <= fileOffset && fileOffset - $0.offset < $0.end &- $0.start }) {
                    address = mapping.start &+ (fileOffset - mapping.offset)
                } else {
                    // The lowest mapping of the file (offset 0) is where its first segment was loaded.
                    guard let first = maps.filter({ $0.path == file && $0.offset == 0 }).map(\.start).min() else { continue }
                    address = first &- found.firstSegmentAddress &+ found.value
                }
            }
            let probe = MainQueueProbe(pid: pid, address: address, file: URL(fileURLWithPath: file).lastPathComponent)
            if let problem = probe.layoutProblem() { return .failure(.unknownLayout(problem)) }
            return .success(probe)
        }
        return .failure(.noDispatch)
    }

    /// Whether the maps' text names a `libdispatch.so` anywhere: a byte search (Foundation's
    /// `contains` on a String goes through `range(of:)` and its options).
    static func mentionsDispatch(_ text: String) -> Bool {
        let needle = Array("libdispatch.so".utf8)
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == needle[0] {
                    var matched = 1
                    while matched < needle.count && bytes[index + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    /// Why the probe cannot be used.
    enum Unusable: Error, Equatable, Sendable {
        /// The program has no libdispatch (a C program, a Swift program without Dispatch or Foundation).
        case noDispatch
        /// The process's maps or memory could not be read.
        case unreadable(String)
        /// The global is there but not as this libdispatch lays it out.
        case unknownLayout(String)

        var description: String {
            switch self {
            case .noDispatch: return "the program has no libdispatch main queue (no \(MainQueueProbe.symbol) in libdispatch.so or the executable)"
            case .unreadable(let why): return "its memory could not be read (\(why))"
            case .unknownLayout(let why): return "its libdispatch main queue is not laid out as Frugal knows it (\(why))"
            }
        }
    }

    /// What is wrong with the global as read, nil when its serial number and label are the main queue's.
    func layoutProblem() -> String? {
        guard let header = read(at: address + Self.serialOffset, count: 16) else { return "\(Self.symbol) at 0x\(String(address, radix: 16)) unreadable" }
        let serial = Self.integer(header, 0, 8), labelPointer = Self.integer(header, 8, 8)
        guard serial == 1 else { return "serial number \(serial), not 1" }
        guard let text = read(at: labelPointer, count: Self.label.utf8.count + 1) else { return "label unreadable" }
        guard text == Array(Self.label.utf8) + [0] else { return "label is not \(Self.label)" }
        return nil
    }

    /// The drain lock's owner and the thread-bound flag now; nil when the memory could not be read (the process is gone).
    func read() -> Reading? {
        guard let bytes = read(at: address + Self.stateOffset, count: Int(Self.flagsOffset - Self.stateOffset) + 4) else { return nil }
        let state = Self.integer(bytes, 0, 8)
        let flags = UInt32(truncatingIfNeeded: Self.integer(bytes, Int(Self.flagsOffset - Self.stateOffset), 4))
        let owner = Int32(truncatingIfNeeded: state & Self.ownerMask)
        return Reading(owner: owner == 0 ? nil : owner, threadBound: flags & Self.threadBoundFlag != 0)
    }

    private func read(at remote: UInt64, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = buffer.withUnsafeMutableBytes { bytes in
            try? SystemCall.retrying("process_vm_readv", subject: "\(pid)") { frugal_process_vm_read(pid, bytes.baseAddress, count, remote) }
        }
        return got == count ? buffer : nil
    }

    private static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }
}

/// One named symbol of an ELF64 little-endian file, of any type (`ELFSymbolTable` keeps functions only).
struct ELFObjectSymbol: Sendable {
    /// The symbol's value (a file virtual address).
    var value: UInt64
    /// Whether the file is position-independent (`ET_DYN`): its addresses are relative to where it was loaded.
    var relocatable: Bool
    /// The virtual address of its first loadable segment (page-aligned), which the mapping at file offset 0 holds.
    var firstSegmentAddress: UInt64
    /// Where its value lies in the file (its loadable segment's file offset plus its place in
    /// it); nil when it is not in the file's bytes (`.bss`).
    var fileOffset: UInt64? = nil

    /// Each file's answer for `MainQueueProbe.symbol`, found once (an executable without libdispatch
    /// is looked at again for each look for the main queue otherwise).
    private static let cache = Mutex<[String: ELFObjectSymbol?]>([:])

    /// Whether `path` was already looked at and does not define `name`.
    static func knownAbsent(_ name: String, in path: String) -> Bool {
        let key = name + "\u{0}" + path
        return cache.withLock { cache in
            guard let known = cache[key] else { return false }
            return known == nil
        }
    }

    /// `find(name, in: path)`, remembered per file.
    static func cached(_ name: String, in path: String) -> ELFObjectSymbol? {
        let key = name + "\u{0}" + path
        if let known = cache.withLock({ $0[key] }) { return known }
        let found = find(name, in: path)
        cache.withLock { cache in
            if cache.count > 256 { cache.removeAll() }
            cache[key] = found
        }
        return found
    }

    /// Looks `name` up in `.dynsym` (small, and exported globals are there), then `.symtab`.
    static func find(_ name: String, in path: String) -> ELFObjectSymbol? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { raw -> ELFObjectSymbol? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count > 64, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46, bytes[4] == 2, bytes[5] == 1 else { return nil }
            func integer(_ offset: Int, _ size: Int) -> UInt64 {
                guard offset >= 0, offset + size <= bytes.count else { return 0 }
                var value: UInt64 = 0
                for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
                return value
            }
            let type = integer(0x10, 2)
            let programOffset = Int(integer(0x20, 8)), programSize = Int(integer(0x36, 2)), programCount = Int(integer(0x38, 2))
            var first: UInt64?
            // PT_LOAD segments: (file offset, virtual address, bytes in the file).
            var loads: [(offset: UInt64, address: UInt64, size: UInt64)] = []
            for index in 0..<programCount {
                let base = programOffset + index * programSize
                guard integer(base, 4) == 1 else { continue }
                loads.append((integer(base + 8, 8), integer(base + 0x10, 8), integer(base + 0x20, 8)))
                // PT_LOAD with file offset 0: the segment the lowest mapping holds.
                if first == nil && integer(base + 8, 8) == 0 { first = integer(base + 0x10, 8) & ~0xfff }
            }
            func fileOffset(of value: UInt64) -> UInt64? {
                loads.first { value >= $0.address && value - $0.address < $0.size }.map { $0.offset + (value - $0.address) }
            }
            let sectionOffset = Int(integer(0x28, 8)), sectionSize = Int(integer(0x3a, 2)), sectionCount = Int(integer(0x3c, 2))
            let sections = (0..<sectionCount).map { index -> (type: UInt64, offset: Int, size: Int, link: Int) in
                let base = sectionOffset + index * sectionSize
                return (integer(base + 4, 4), Int(integer(base + 0x18, 8)), Int(integer(base + 0x20, 8)), Int(integer(base + 0x28, 4)))
            }
            let wanted = Array(name.utf8)
            // SHT_DYNSYM (11), then SHT_SYMTAB (2).
            for table in sections.filter({ $0.type == 11 }) + sections.filter({ $0.type == 2 }) where table.link < sections.count {
                let strings = sections[table.link]
                var offset = table.offset
                while offset + 24 <= table.offset + table.size {
                    let start = strings.offset + Int(integer(offset, 4))
                    let value = integer(offset + 8, 8)
                    // Defined here (a section index, not SHN_UNDEF): a reference to another file's is not it.
                    if value != 0, integer(offset + 6, 2) != 0, start + wanted.count < min(bytes.count, strings.offset + strings.size),
                       bytes[start + wanted.count] == 0, wanted.indices.allSatisfy({ bytes[start + $0] == wanted[$0] }) {
                        return ELFObjectSymbol(value: value, relocatable: type == 3, firstSegmentAddress: first ?? 0,
                                               fileOffset: fileOffset(of: value))
                    }
                    offset += 24
                }
            }
            return nil
        }
    }
}
