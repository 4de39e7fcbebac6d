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
    /// Every wait runs on it (the hang watcher's too): a test's manual clock moves them all.
    let clock: any HarnessClock
    let condition = NSCondition()
    private var events: [WorkloadEvent] = []
    /// Whether events past `EventNumberBounds.maximumEventsPerRun` were dropped.
    private var droppedEvents = false
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
    /// Past this many bytes read, events are no longer kept (the pipe is still drained).
    private var maximumBytes = EventNumberBounds.maximumEventBytesPerRun
    /// The handler running on the main thread now (its start event came, its record did not).
    private(set) var openHandler: HandlerBegin?
    private let symbolizer: StackSymbolizer
    /// Touched only by whoever feeds the stream: the read thread, or a test's in-memory app.
    private var decoder = EventStreamDecoder()

    /// Reads `fd` (the event pipe) on a thread of its own until its end.
    init(fd: Int32, clock: any HarnessClock = SystemClock(), symbolizer: StackSymbolizer = StackSymbolizer()) {
        self.clock = clock
        self.symbolizer = symbolizer
        let thread = Thread { [self] in readLoop(fd) }
        thread.name = "frugal-events-\(fd)"
        thread.start()
    }

    /// A stream fed with `ingest` and ended with `endOfStream` by its owner (an in-memory app).
    /// `maximumBytes`: the stream's byte bound (a test sets a small one).
    init(fedOn clock: any HarnessClock, symbolizer: StackSymbolizer = StackSymbolizer(),
         maximumBytes: Int = EventNumberBounds.maximumEventBytesPerRun) {
        self.clock = clock
        self.symbolizer = symbolizer
        self.maximumBytes = maximumBytes
    }

    private func readLoop(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw in
                    try SystemCall.retrying("read", subject: "event stream") { read(fd, raw.baseAddress, raw.count) }
                }
            } catch {
                // Not the end of the stream: what the workload writes after this is lost, and the
                // run must say so rather than look as if the app went quiet.
                endOfStream(failure: "reading the event stream failed: \(error)")
                return
            }
            if count == 0 { break }
            ingest(buffer[0..<count])
        }
        endOfStream()
    }

    /// Takes `chunk` of the stream (whole lines or not): decodes them and wakes every waiter.
    func ingest(_ chunk: ArraySlice<UInt8>) {
        let count = chunk.count
        var parsed: [WorkloadEvent] = []
        var bad: [String] = []
        for item in decoder.feed(chunk) {
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
            // Bounded like every number in an event: sums over a run's events stay in range, and
            // the bytes kept stay within the harness's means (the pipe is still drained).
            guard events.count < EventNumberBounds.maximumEventsPerRun, bytes <= maximumBytes else {
                if !droppedEvents {
                    bad.append(events.count >= EventNumberBounds.maximumEventsPerRun
                        ? "more than \(EventNumberBounds.maximumEventsPerRun) events: the rest of the stream was dropped"
                        : "more than \(maximumBytes) bytes of events: the rest of the stream was dropped")
                }
                droppedEvents = true
                break
            }
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

    /// The stream ended (the app closed its end), or could not be read any more (`failure`).
    func endOfStream(failure: String? = nil) {
        condition.lock()
        if let failure { readFailure = failure }
        finished = true
        openHandler = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `sequence` is acknowledged, the stream ends, or `deadline` passes.
    func waitForAck(_ sequence: Int, until deadline: UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !acknowledged.contains(sequence) {
            if finished || controlErrors[sequence] != nil { return false }
            if clock.now() >= deadline { return false }
            clock.wait(condition, until: deadline)
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
            if clock.now() >= deadline { return false }
            clock.wait(condition, until: deadline)
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
    func waitForEnd(until deadline: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        while !finished {
            if clock.now() >= deadline { return }
            clock.wait(condition, until: deadline)
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
