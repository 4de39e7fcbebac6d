import Foundation
import FrugalCore

/// Reads a workload's event pipe on its own thread, keeps every event, and lets the runner wait
/// for acknowledgements. Lines that do not parse are kept as notes, not dropped silently.
final class EventStreamReader: @unchecked Sendable {
    private let fd: Int32
    private let condition = NSCondition()
    private var events: [WorkloadEvent] = []
    private var acknowledged: Set<Int> = []
    private var finished = false
    private(set) var malformedLines: [String] = []
    private var bytes = 0

    init(fd: Int32) {
        self.fd = fd
        let thread = Thread { [self] in readLoop() }
        thread.name = "frugal-events-\(fd)"
        thread.start()
    }

    private func readLoop() {
        let decoder = JSONDecoder()
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
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
                } else {
                    bad.append(String(decoding: line.prefix(200), as: UTF8.self))
                }
            }
            condition.lock()
            bytes += count
            for event in parsed {
                events.append(event)
                if case .ack(let ack) = event.body { acknowledged.insert(ack.sequence) }
            }
            malformedLines += bad
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `sequence` is acknowledged, the stream ends, or `deadline` passes.
    func waitForAck(_ sequence: Int, until deadline: UInt64, clock: () -> UInt64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !acknowledged.contains(sequence) {
            if finished { return false }
            let now = clock()
            if now >= deadline { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(deadline - now) / 1e9))
        }
        return true
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
}
