import FrugalCore
import FrugalProbe
import NIOCore
import Synchronization

/// One origin connection's socket bytes so far, shared by its ``WireByteCounter`` (first in the
/// pipeline, so it counts what crossed the socket: TLS records included when the connection is
/// encrypted) and its ``OriginHandler``, which notes them at each request's edges. Confined to
/// the connection's event loop.
final class ConnectionWire {
    /// The origin's number for the connection.
    let number: Int
    /// The client's port (the proxy's side of the connection), which names the proxy's connection.
    let peerPort: Int?
    var bytesRead = 0
    var bytesWritten = 0
    /// Requests begun on the connection so far.
    var requests = 0
    /// Bytes read when the previous request had been read whole: where the next one starts.
    var readAtLastRequestEnd = 0

    init(number: Int, peerPort: Int? = nil) {
        self.number = number
        self.peerPort = peerPort
    }
}

/// Counts a connection's socket bytes both ways into its ``ConnectionWire``; put it first in the
/// pipeline (nearest the socket).
final class WireByteCounter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let wire: ConnectionWire

    init(wire: ConnectionWire) {
        self.wire = wire
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        wire.bytesRead += unwrapInboundIn(data).readableBytes
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        wire.bytesWritten += unwrapOutboundIn(data).readableBytes
        context.write(data, promise: promise)
    }
}

/// Every request the origin answered, in the order they began, with times in monotonic
/// nanoseconds until ``snapshot(origin:)`` turns them into seconds since a time zero.
/// Connections run on several loops, so entries are kept under a lock.
final class WireRequestLog: Sendable {
    struct Entry: Sendable {
        var request: WireRequest
        var peerPort: Int?
        var startNs: UInt64
        var firstByteNs: UInt64?
        var endNs: UInt64?
    }

    private let entries = Mutex<[Entry]>([])
    /// The latest answers served from bytes the run held (fixture files, HAR entries, upstream
    /// answers), newest last: where a later request's path may be named (``begin``).
    private let recentAnswers = Mutex<[(label: String, body: [UInt8])]>([])

    /// How many answers are kept to look for the paths of later requests in, and the largest
    /// body kept: a config document, a feed, a page of a list (a request's target found in the
    /// one answer before it is what `network.enqueue-together` reads; older ones only widen the
    /// search). Bounds the search to 512 KiB a request.
    static let answersSearched = 8
    static let largestAnswerSearched = 64 * 1024
    private let connections = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    /// The most requests kept (about 40 MB of entries): a run that makes more is counted, not listed.
    static let capacity = 100_000

    /// Requests answered but not kept, past ``capacity``.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// A number for a newly accepted connection, from 1.
    func nextConnectionNumber() -> Int {
        connections.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Adds a request whose answer is about to be written; returns its index for ``finish``.
    /// Notes the latest earlier answer whose body held the request's path (`namedBy`: a link the
    /// app followed, config to feed to story), then keeps this one's `heldBody` (the decoded
    /// body, when the run served it from bytes it held) to look in for later requests' paths.
    func begin(_ request: WireRequest, peerPort: Int?, startNs: UInt64, firstByteNs: UInt64, heldBody: [UInt8]? = nil) -> Int {
        var request = request
        request.namedBy = recentAnswers.withLock { answers in
            let named = Self.namingAnswer(of: request.path, in: answers)
            if let heldBody, !heldBody.isEmpty, heldBody.count <= Self.largestAnswerSearched {
                answers.append((request.label, heldBody))
                if answers.count > Self.answersSearched { answers.removeFirst() }
            }
            return named
        }
        return entries.withLock { entries in
            guard entries.count < Self.capacity else {
                dropped.wrappingAdd(1, ordering: .relaxed)
                return -1
            }
            entries.append(Entry(request: request, peerPort: peerPort, startNs: startNs, firstByteNs: firstByteNs))
            return entries.count - 1
        }
    }

    /// The label of the newest of `answers` whose body holds `path`, a path of a few characters
    /// at least (`/` alone, or `/1`, is in too many bodies to say anything).
    static func namingAnswer(of path: String, in answers: [(label: String, body: [UInt8])]) -> String? {
        let needle = Array(path.utf8)
        guard needle.count >= 4, needle.contains(where: { $0 != UInt8(ascii: "/") }) else { return nil }
        for answer in answers.reversed() where answer.body.count >= needle.count {
            if answer.body.firstRange(of: needle) != nil { return answer.label }
        }
        return nil
    }

    /// The request's last response byte was written at `endNs`, the connection's `bytesWritten` then.
    func finish(_ index: Int, endNs: UInt64, downlinkEndOffset: Int) {
        entries.withLock { entries in
            guard entries.indices.contains(index) else { return }
            entries[index].endNs = endNs
            entries[index].request.downlinkEndOffset = downlinkEndOffset
        }
    }

    /// The requests with times in seconds since `origin` (monotonic ns), ordered by start;
    /// `connections` maps a client port to the proxy's connection id.
    func snapshot(origin: UInt64, connections: [Int: Int] = [:]) -> [WireRequest] {
        entries.withLock { $0 }.sorted { $0.startNs < $1.startNs }.map { entry in
            var request = entry.request
            request.connection = entry.peerPort.flatMap { connections[$0] }
            request.start = MonotonicClock.seconds(from: origin, to: entry.startNs)
            request.firstByte = entry.firstByteNs.map { MonotonicClock.seconds(from: origin, to: $0) }
            request.end = entry.endNs.map { MonotonicClock.seconds(from: origin, to: $0) }
            return request
        }
    }
}
