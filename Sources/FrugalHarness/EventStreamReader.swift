import Foundation
import FrugalCore
import FrugalProbe

/// Reads a workload's event pipe on its own thread, keeps every event, and lets the runner wait
/// for acknowledgements. Lines that do not parse are kept as notes, not dropped silently.
///
/// Between `@frugal-stack-begin <ns>` and `@frugal-stack-end` the stream carries the lines of a
/// hang stack (glibc's `backtrace_symbols_fd`, written by FrugalKit's signal handler); they are
/// symbolised and kept as one `hangStack` event.
// @unchecked: every mutable field is read and written only holding `condition` (an NSCondition,
// because the session and the hang watcher wait on it for events).
final class EventStreamReader: @unchecked Sendable {
    private let fd: Int32
    let condition = NSCondition()
    private var events: [WorkloadEvent] = []
    private var acknowledged: Set<Int> = []
    /// Control messages the app answered with an error instead of an acknowledgement, by sequence.
    private var controlErrors: [Int: ControlError] = [:]
    /// The protocol version of the app's hello, once it came (0: a hello without one, or one
    /// this harness could not read).
    private var helloProtocolVersion: Int?
    private(set) var finished = false
    private(set) var malformedLines: [String] = []
    /// Set when reading the pipe failed (not its end): the run records it as a harness error.
    private var readFailure: String?
    private var bytes = 0
    /// The handler running on the main thread now (its start event came, its record did not).
    private(set) var openHandler: HandlerBegin?
    private let symbolizer: StackSymbolizer

    init(fd: Int32, symbolizer: StackSymbolizer = StackSymbolizer()) {
        self.fd = fd
        self.symbolizer = symbolizer
        let thread = Thread { [self] in readLoop() }
        thread.name = "frugal-events-\(fd)"
        thread.start()
    }

    private func readLoop() {
        var decoder = EventStreamDecoder()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 {
                // Not the end of the stream: what the workload writes after this is lost, and the
                // run must say so rather than look as if the app went quiet.
                let code = errno
                condition.lock()
                readFailure = "reading the event stream failed: \(String(cString: strerror(code))) (errno \(code))"
                condition.unlock()
                break
            }
            if count == 0 { break }
            var parsed: [WorkloadEvent] = []
            var bad: [String] = []
            for item in decoder.feed(buffer[0..<count]) {
                switch item {
                case .event(let event): parsed.append(event)
                case .malformed(let line): bad.append(line)
                case .unreadableHello(let version):
                    condition.lock()
                    if helloProtocolVersion == nil { helloProtocolVersion = version }
                    condition.unlock()
                case .stack(let time, let lines):
                    condition.lock()
                    let handler = openHandler?.name
                    condition.unlock()
                    parsed.append(WorkloadEvent(time: time, body: .hangStack(HangStack(handler: handler, capturedAt: time, frames: symbolizer.frames(lines)))))
                }
            }
            condition.lock()
            bytes += count
            for event in parsed {
                events.append(event)
                switch event.body {
                case .ack(let ack): acknowledged.insert(ack.sequence)
                case .hello(let hello): if helloProtocolVersion == nil { helloProtocolVersion = hello.effectiveProtocolVersion }
                case .controlError(let error): if let sequence = error.sequence { controlErrors[sequence] = error }
                case .handlerBegan(let begin): openHandler = begin
                case .handler(let handler): if openHandler?.start == handler.start { openHandler = nil }
                default: break
                }
            }
            // A workload printing garbage in a loop must not grow the harness without bound.
            malformedLines += bad.prefix(max(0, Self.maxMalformedLines - malformedLines.count))
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        finished = true
        openHandler = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `sequence` is acknowledged, the stream ends, or `deadline` passes.
    func waitForAck(_ sequence: Int, until deadline: UInt64, clock: () -> UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !acknowledged.contains(sequence) {
            if finished || controlErrors[sequence] != nil { return false }
            let now = clock()
            if now >= deadline { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return true
    }

    /// Waits until `predicate` holds over the events so far, the stream ends, or `deadline` passes;
    /// returns whether it held.
    func wait(until deadline: UInt64, for predicate: ([WorkloadEvent]) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !predicate(events) {
            if finished { return false }
            let now = MonotonicClock.now()
            if now >= deadline { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return true
    }

    /// The error the app answered control message `sequence` with, if it did.
    func controlError(for sequence: Int) -> ControlError? {
        condition.lock()
        defer { condition.unlock() }
        return controlErrors[sequence]
    }

    /// Waits until the app's hello comes, the stream ends, or `deadline` passes; returns whether it came.
    func waitForHello(until deadline: UInt64) -> Bool {
        // The predicate runs under the lock, where `helloProtocolVersion` is written.
        wait(until: deadline) { [unowned self] _ in helloProtocolVersion != nil }
    }

    /// The protocol version the app's hello named, once it came.
    var helloVersion: Int? {
        condition.lock()
        defer { condition.unlock() }
        return helloProtocolVersion
    }

    /// A hello this harness cannot decode (another version's shape): the version it names, or 0.
    static func unreadableHelloVersion(_ line: Data, decoder: JSONDecoder) -> Int? {
        EventStreamDecoder.unreadableHelloVersion(line, decoder: decoder)
    }

    /// Waits until the workload closes its end (it exited) or `deadline` passes.
    func waitForEnd(until deadline: UInt64, clock: () -> UInt64) {
        condition.lock()
        defer { condition.unlock() }
        while !finished {
            let now = clock()
            if now >= deadline { return }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
    }

    /// Bytes read from the stream so far (the workload's writes to its event pipe).
    var bytesRead: Int {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }

    /// Malformed lines kept per process; the rest are counted in the stream's bytes only.
    static let maxMalformedLines = 1000

    /// Why reading the stream failed, if it did (not its end).
    var failure: String? {
        condition.lock()
        defer { condition.unlock() }
        return readFailure
    }

    /// Every event so far.
    var snapshot: [WorkloadEvent] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    /// The handler running now, as `still in <name>` for a watchdog's reason, or nil.
    var openHandlerDescription: String? {
        condition.lock()
        defer { condition.unlock() }
        return openHandler.map { "still in \($0.name)" }
    }
}
