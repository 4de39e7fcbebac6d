import Foundation
import FrugalCore
import FrugalProbe

/// Reads a workload's event pipe on its own thread, keeps every event, and lets the runner wait
/// for acknowledgements. Lines that do not parse are kept as notes, not dropped silently.
///
/// Between `@frugal-stack-begin <ns>` and `@frugal-stack-end` the stream carries the lines of a
/// hang stack (glibc's `backtrace_symbols_fd`, written by FrugalKit's signal handler); they are
/// symbolised and kept as one `hangStack` event.
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
        let decoder = JSONDecoder()
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var stack: (time: UInt64, lines: [String])?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            var parsed: [WorkloadEvent] = []
            var bad: [String] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(pending[..<newline])
                pending.removeSubrange(...newline)
                if let event = try? decoder.decode(WorkloadEvent.self, from: line) {
                    parsed.append(event)
                    continue
                }
                if let version = Self.unreadableHelloVersion(line, decoder: decoder) {
                    condition.lock()
                    if helloProtocolVersion == nil { helloProtocolVersion = version }
                    condition.unlock()
                }
                let text = String(decoding: line, as: UTF8.self)
                if text.hasPrefix("@frugal-stack-begin ") {
                    stack = (UInt64(text.dropFirst("@frugal-stack-begin ".count)) ?? 0, [])
                } else if text == "@frugal-stack-end", let captured = stack {
                    condition.lock()
                    let handler = openHandler?.name
                    condition.unlock()
                    let frames = symbolizer.frames(captured.lines)
                    parsed.append(WorkloadEvent(time: captured.time, body: .hangStack(HangStack(handler: handler, capturedAt: captured.time, frames: frames))))
                    stack = nil
                } else if stack != nil {
                    stack?.lines.append(text)
                } else {
                    bad.append(String(text.prefix(200)))
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
            malformedLines += bad
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
        struct Envelope: Decodable {
            struct Payload: Decodable { var protocolVersion: Int? }
            var type: String
            var hello: Payload?
        }
        guard let envelope = try? decoder.decode(Envelope.self, from: line), envelope.type == "hello" else { return nil }
        return envelope.hello?.protocolVersion ?? 0
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
