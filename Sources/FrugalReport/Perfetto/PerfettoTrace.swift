/// A Perfetto trace in its native protobuf format: a `Trace` of `TracePacket`s holding
/// `TrackDescriptor`s and `TrackEvent`s (https://perfetto.dev/docs/reference/synthetic-track-event).
/// Perfetto calls its JSON format legacy; the native one keeps counter units, which JSON cannot.
///
/// Field numbers are Perfetto's published schema: protos/perfetto/trace/trace.proto,
/// trace_packet.proto, track_event/track_descriptor.proto, track_event/track_event.proto,
/// track_event/counter_descriptor.proto, track_event/debug_annotation.proto,
/// track_event/process_descriptor.proto and thread_descriptor.proto (github.com/google/perfetto).
/// Timestamps are nanoseconds on the run's clock: 0 is the app's exec.
struct PerfettoTrace {
    /// `Trace.packet`.
    private static let tracePacket = 1
    private enum Packet {
        static let timestamp = 8, trustedPacketSequenceID = 10, trackEvent = 11, sequenceFlags = 13, trackDescriptor = 60
        /// `SEQ_INCREMENTAL_STATE_CLEARED`.
        static let incrementalStateCleared: UInt64 = 1
    }
    private enum Descriptor {
        static let uuid = 1, name = 2, process = 3, thread = 4, parentUUID = 5, counter = 8, description = 14
    }
    private enum Event {
        static let debugAnnotations = 4, type = 9, trackUUID = 11, name = 23, counterValue = 30, doubleCounterValue = 44
        static let flowIDs = 47, terminatingFlowIDs = 48
        static let sliceBegin: UInt64 = 1, sliceEnd: UInt64 = 2, instant: UInt64 = 3, counter: UInt64 = 4
    }
    private enum Annotation {
        static let intValue = 4, doubleValue = 5, stringValue = 6, name = 10
    }

    /// `CounterDescriptor.Unit`.
    enum Unit: UInt64 {
        case unspecified = 0, timeNanoseconds = 1, count = 2, bytes = 3
    }

    /// A named value shown with an event (`DebugAnnotation`).
    enum Value {
        case string(String)
        case int(Int64)
        case double(Double)
    }

    /// The sequence every packet is on: one writer, so one sequence.
    private static let sequence: UInt64 = 1

    private var descriptors: [[UInt8]] = []
    /// Events with their sort key: time, then ends before anything else at the same time (a slice
    /// that ends where the next begins), then the order they were added.
    private var events: [(time: UInt64, rank: Int, order: Int, bytes: [UInt8])] = []
    private var nextUUID: UInt64 = 1
    private var nextFlow: UInt64 = 1
    /// Bytes of the packets so far, as they will be written.
    private(set) var byteCount = 0

    init() {}

    /// A nanosecond timestamp from seconds since exec (never below 0).
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return UInt64(min(seconds * 1e9, 9e18).rounded())
    }

    private mutating func newUUID() -> UInt64 {
        defer { nextUUID += 1 }
        return nextUUID
    }

    /// A new flow id, for `slice(flowOut:)` on one end and `slice(flowIn:)` on the other.
    mutating func newFlow() -> UInt64 {
        defer { nextFlow += 1 }
        return nextFlow
    }

    private mutating func addDescriptor(_ body: (inout ProtobufWriter) -> Void) {
        var packet = ProtobufWriter()
        packet.uint(Packet.trustedPacketSequenceID, Self.sequence)
        if descriptors.isEmpty { packet.uint(Packet.sequenceFlags, Packet.incrementalStateCleared) }
        packet.message(Packet.trackDescriptor, body)
        count(packet.bytes)
        descriptors.append(packet.bytes)
    }

    private mutating func count(_ packet: [UInt8]) {
        // The packet's key (1 byte), its length's varint, its bytes.
        byteCount += 1 + (packet.count < 128 ? 1 : packet.count < 16_384 ? 2 : packet.count < 2_097_152 ? 3 : 4) + packet.count
    }

    /// A process's track: Perfetto groups the threads with the same pid under it.
    mutating func processTrack(pid: Int32, name: String) -> UInt64 {
        let uuid = newUUID()
        addDescriptor { track in
            track.uint(Descriptor.uuid, uuid)
            track.message(Descriptor.process) { process in
                process.int(1, Int64(pid))
                process.string(6, name)
            }
        }
        return uuid
    }

    /// A thread's track.
    mutating func threadTrack(pid: Int32, tid: Int32, name: String) -> UInt64 {
        let uuid = newUUID()
        addDescriptor { track in
            track.uint(Descriptor.uuid, uuid)
            track.message(Descriptor.thread) { thread in
                thread.int(1, Int64(pid))
                thread.int(2, Int64(tid))
                thread.string(5, name)
            }
        }
        return uuid
    }

    /// A named track for slices and instants, under `parent` when given.
    mutating func track(_ name: String, parent: UInt64?, description: String? = nil) -> UInt64 {
        let uuid = newUUID()
        addDescriptor { track in
            track.uint(Descriptor.uuid, uuid)
            track.string(Descriptor.name, name)
            if let parent { track.uint(Descriptor.parentUUID, parent) }
            if let description { track.string(Descriptor.description, description) }
        }
        return uuid
    }

    /// A counter track with its unit: `unit` for the UI's formatting (bytes, counts), and
    /// `unitName` for what the value is per (`wakeups/s`).
    mutating func counterTrack(_ name: String, parent: UInt64?, unit: Unit, unitName: String? = nil, description: String? = nil) -> UInt64 {
        let uuid = newUUID()
        addDescriptor { track in
            track.uint(Descriptor.uuid, uuid)
            track.string(Descriptor.name, name)
            if let parent { track.uint(Descriptor.parentUUID, parent) }
            if let description { track.string(Descriptor.description, description) }
            track.message(Descriptor.counter) { counter in
                if unit != .unspecified { counter.uint(3, unit.rawValue) }
                if let unitName { counter.string(6, unitName) }
            }
        }
        return uuid
    }

    private mutating func addEvent(at time: UInt64, rank: Int, _ body: (inout ProtobufWriter) -> Void) {
        var packet = ProtobufWriter()
        packet.uint(Packet.timestamp, time)
        packet.uint(Packet.trustedPacketSequenceID, Self.sequence)
        packet.message(Packet.trackEvent, body)
        count(packet.bytes)
        events.append((time, rank, events.count, packet.bytes))
    }

    private static func annotate(_ event: inout ProtobufWriter, _ annotations: [(String, Value)]) {
        for (name, value) in annotations {
            event.message(Event.debugAnnotations) { annotation in
                annotation.string(Annotation.name, name)
                switch value {
                case .string(let text): annotation.string(Annotation.stringValue, text)
                case .int(let number): annotation.int(Annotation.intValue, number)
                case .double(let number): annotation.double(Annotation.doubleValue, number)
                }
            }
        }
    }

    /// A slice from `start` to `end` (ns; at least 1 ns long, so its end sorts after its begin).
    mutating func slice(on track: UInt64, _ name: String, start: UInt64, end: UInt64, annotations: [(String, Value)] = [],
                        flowOut: [UInt64] = [], flowIn: [UInt64] = []) {
        addEvent(at: start, rank: 1) { event in
            event.uint(Event.type, Event.sliceBegin)
            event.uint(Event.trackUUID, track)
            event.string(Event.name, name)
            Self.annotate(&event, annotations)
            for flow in flowOut { event.fixed64(Event.flowIDs, flow) }
            for flow in flowIn { event.fixed64(Event.terminatingFlowIDs, flow) }
        }
        addEvent(at: max(end, start + 1), rank: 0) { event in
            event.uint(Event.type, Event.sliceEnd)
            event.uint(Event.trackUUID, track)
        }
    }

    /// An instant at `time`.
    mutating func instant(on track: UInt64, _ name: String, at time: UInt64, annotations: [(String, Value)] = []) {
        addEvent(at: time, rank: 1) { event in
            event.uint(Event.type, Event.instant)
            event.uint(Event.trackUUID, track)
            event.string(Event.name, name)
            Self.annotate(&event, annotations)
        }
    }

    /// A counter's value from `time` until its next value.
    mutating func counter(on track: UInt64, at time: UInt64, _ value: Double) {
        addEvent(at: time, rank: 1) { event in
            event.uint(Event.type, Event.counter)
            event.uint(Event.trackUUID, track)
            if value == value.rounded(), abs(value) < 9e15 {
                event.int(Event.counterValue, Int64(value))
            } else {
                event.double(Event.doubleCounterValue, value)
            }
        }
    }

    /// The trace's bytes: the track descriptors first (an event's track must be known before
    /// it), then the events in time order.
    func encoded() -> [UInt8] {
        var out = ProtobufWriter()
        var sorted = events
        sorted.sort { ($0.time, $0.rank, $0.order) < ($1.time, $1.rank, $1.order) }
        for packet in descriptors + sorted.map(\.bytes) {
            out.key(Self.tracePacket, .lengthDelimited)
            out.varint(UInt64(packet.count))
            out.append(packet)
        }
        return out.bytes
    }
}
