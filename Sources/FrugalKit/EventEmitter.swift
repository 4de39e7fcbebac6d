import Foundation
import Synchronization
import FrugalProtocol
import FrugalSystem

/// Writes the workload's events to the harness, one JSON line each, on the event pipe named by
/// `FRUGAL_EVENT_FD`. Without that variable (an app run by hand) events are dropped.
public final class EventEmitter: Sendable {
    private let fd: Int32?
    /// Where events go in the test's own process (FrugalTesting's `LifecycleDriver`), in place of a pipe.
    private let recorder: (@Sendable (WorkloadEvent) -> Void)?
    /// Held while a line is encoded and written, so lines from several threads never interleave.
    private let encoder = Mutex(JSONEncoder())

    /// An emitter writing to `fd`, or to nothing.
    public init(fd: Int32?) {
        self.fd = fd
        recorder = nil
    }

    /// An emitter handing each event to `record` instead of writing it, in the calling thread:
    /// what an app under a unit test says, kept in memory (FrugalTesting).
    package init(recording record: @escaping @Sendable (WorkloadEvent) -> Void) {
        fd = nil
        recorder = record
    }

    /// The emitter the environment names.
    public static func fromEnvironment() -> EventEmitter {
        EventEmitter(fd: ProcessInfo.processInfo.environment[FrugalProtocol.Environment.eventFD].flatMap { Int32($0) })
    }

    /// Sends `body`, stamped now.
    public func emit(_ body: WorkloadEvent.Body, at time: UInt64 = MonotonicClock.now()) {
        if let recorder { return recorder(WorkloadEvent(time: time, body: body)) }
        guard let fd else { return }
        encoder.withLock { encoder in
            guard var line = try? encoder.encode(WorkloadEvent(time: time, body: body)) else { return }
            line.append(UInt8(ascii: "\n"))
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    // A failed write (EPIPE): the harness is gone, and there is nobody to report to.
                    guard let written = try? SystemCall.retrying("write", subject: "event pipe", {
                        write(fd, raw.baseAddress! + offset, raw.count - offset)
                    }) else { return }
                    offset += written
                }
            }
        }
    }
}
