import Foundation
import Synchronization
import FrugalCore
import FrugalProbe

/// Takes each thread's evidence (`ThreadEvidence`) while the sampler looks at it: its name,
/// where it waits, and the functions on its stack, read from outside while it is blocked.
///
/// A stack is read from the stack pointer up: every word that is an address in a mapped file's
/// code is named from that file's symbol table. That finds the return addresses of the live
/// frames (and may find a stale one among them; the roles only look for functions that no
/// other thread runs, such as libdispatch's `_dispatch_mgr_thread`). A thread is looked at
/// again at most once every `relookInterval` while asleep until a look is final (`isFinal`): on
/// Linux the manager is a pool thread of the user-interactive overcommit queue that took the
/// manager queue and stays in it, so an overcommit pool thread seen as a worker may become the
/// manager later. Each look reads at most 32 KiB of stack (and `maps`, once for all the threads
/// looked at in a sample), nothing of the app's.
final class ThreadEvidenceCollector: Sendable {
    private struct State {
        var evidence: [Int32: ThreadEvidence] = [:]
        /// When each thread was last looked at (monotonic ns).
        var lastLook: [Int32: UInt64] = [:]
        var programs: [Int32: String] = [:]
    }
    private let state = Mutex(State())
    /// The shortest time between two looks at one thread, ns.
    static let relookInterval: UInt64 = 1_000_000_000
    /// Frames kept per thread.
    static let frameLimit = 48

    /// Looks at the threads in `sample` of process `pid` that still need a look.
    func observe(pid: Int32, threads: [ThreadSample]) {
        let time = MonotonicClock.now()
        // The mappings, read once for every thread looked at now (a Swift process's run long).
        var maps: Result<[ProcFS.Mapping], any Error>?
        for thread in threads {
            let pending = state.withLock { state -> Bool in
                if let done = state.evidence[thread.tid], done.tid == done.pid || Self.isFinal(done) { return false }
                return state.lastLook[thread.tid].map { time &- $0 >= Self.relookInterval } ?? true
            }
            guard pending else { continue }
            if thread.tid == pid {
                state.withLock { $0.evidence[thread.tid] = ThreadEvidence(pid: pid, tid: thread.tid, name: thread.name) }
                continue
            }
            // A running thread has no stack pointer to read; the next sample will try again.
            guard thread.state == "S" || thread.state == "D" else { continue }
            let program = state.withLock { $0.programs[pid] } ?? ProcFS.executableName(pid: pid)
            let wait = ProcFS.waitState(pid: pid, tid: thread.tid)
            var evidence = ThreadEvidence(pid: pid, tid: thread.tid, name: thread.name, syscall: wait?.syscall, wchan: wait?.wchan,
                                          program: program)
            do {
                if maps == nil { maps = Result { try ProcFS.maps(pid: pid) } }
                let mappings = try maps!.get()
                let read = try ProcFS.stackWords(pid: pid, tid: thread.tid, maps: mappings)
                evidence.syscall = read.call
                evidence.stack = Self.frames(read.words, maps: mappings)
            } catch {
                evidence.stackUnavailable = "\(error)"
            }
            state.withLock { state in
                if let program { state.programs[pid] = program }
                state.lastLook[thread.tid] = time
                // Keep the look that shows the most: a manager's over anything, a read stack over
                // none; otherwise the latest (the thread's name may have changed).
                if let previous = state.evidence[thread.tid], Self.better(previous, than: evidence) { return }
                state.evidence[thread.tid] = evidence
            }
        }
    }

    /// Everything seen, by process and thread.
    var all: [ThreadEvidence] {
        state.withLock { Array($0.evidence.values) }.sorted { ($0.pid, $0.tid) < ($1.pid, $1.tid) }
    }

    /// Whether no later look can show more: the manager; or a read stack of anything that cannot
    /// become the manager. Only a pool thread of an overcommit pool can (the manager queue
    /// targets the user-interactive overcommit root queue on Linux), and one whose name does not
    /// show its pool (`DispatchWorker`) might be one; those are looked at again.
    private static func isFinal(_ evidence: ThreadEvidence) -> Bool {
        let role = ThreadRole.classify(evidence).role
        if role == .dispatchManager { return true }
        if evidence.stack.isEmpty { return false }
        return role != .dispatchWorker || evidence.name.hasSuffix("-qos")
    }

    /// Whether `one` shows strictly more than `other`.
    private static func better(_ one: ThreadEvidence, than other: ThreadEvidence) -> Bool {
        if isFinal(one) != isFinal(other) { return isFinal(one) }
        return !one.stack.isEmpty && other.stack.isEmpty
    }

    /// The named functions among `words`, innermost first, each address looked up in the file
    /// whose executable mapping holds it (return addresses point past their call: one byte back).
    static func frames(_ words: [UInt64], maps: [ProcFS.Mapping]) -> [StackFrame] {
        let code = maps.filter { $0.executable && $0.path.hasPrefix("/") }.sorted { $0.start < $1.start }
        guard let lowest = code.first?.start, let highest = code.map(\.end).max() else { return [] }
        /// The mapping holding `word` (binary search: most words are data, not code).
        func mapping(of word: UInt64) -> ProcFS.Mapping? {
            guard word >= lowest, word < highest else { return nil }
            var low = 0, high = code.count
            while low < high {
                let middle = (low + high) / 2
                if code[middle].start <= word { low = middle + 1 } else { high = middle }
            }
            return low > 0 && word < code[low - 1].end ? code[low - 1] : nil
        }
        var frames: [StackFrame] = []
        for (index, word) in words.enumerated() {
            guard let mapping = mapping(of: word) else { continue }
            let offset = word - mapping.start + mapping.offset
            guard let symbol = StackSymbolizer.function(path: mapping.path, offset: index == 0 ? offset : offset &- 1) else { continue }
            let module = URL(fileURLWithPath: mapping.path).lastPathComponent
            if frames.last?.symbol == symbol && frames.last?.module == module { continue }
            frames.append(StackFrame(module: module, symbol: symbol, address: "0x" + String(word, radix: 16)))
            if frames.count == frameLimit { break }
        }
        return frames
    }
}
