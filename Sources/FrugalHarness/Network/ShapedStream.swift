import FrugalProbe
import FrugalCore
import NIOCore

/// One direction of a proxied connection: reads from `source`, holds bytes in a delay
/// line, passes them through the shared ``LinkScheduler`` of its direction, writes them
/// to `sink`, and records every released piece as a ``TrafficChunk``.
///
/// The model, in order, for bytes the proxy read at time t:
/// 1. **Latency.** They become eligible at `due = t + latency ± jitter`, computed by a
///    ``DelaySchedule``: never earlier than the previous chunk's due time, so jitter
///    never reorders the TCP stream, and a latency change only affects bytes read after it.
/// 2. **Rate.** Eligible bytes queue for the link, which grants pieces of at most one
///    bucket quantum as its shared token bucket allows. Unlimited rate skips the link.
/// 3. **Release.** A piece is written to the sink and stamped with the release time.
///    EOF (the source's FIN) travels the same delay line and becomes a half-close
///    (`shutdown(SHUT_WR)`) on the sink.
///
/// Backpressure (why 1 GB never sits in memory): the source channel has `autoRead`
/// off and is only asked to `read()` while fewer than `highWater` bytes are queued.
/// Releases stop while the sink is not writable (its outbound buffer is above NIO's
/// high-water mark), so a slow receiver fills the queue, which stops reads, which
/// fills the sender's kernel socket buffer, which blocks the sender, as on a real link.
/// `highWater` covers twice the bandwidth-delay product of the current profile (at
/// least 256 KiB, at most 16 MiB) so that latency alone never throttles throughput
/// below the configured rate.
///
/// One exception to the read budget: when the source sends FIN, NIO drains its socket
/// synchronously whatever `autoRead` says, so up to one kernel socket buffer may be
/// queued beyond `highWater`. That is bounded by the kernel, not by the transfer size.
///
/// Confined to the proxy's event loop; never touched from another thread.
final class ShapedStream {
    private enum Item {
        case data(ByteBuffer, due: UInt64)
        /// The source's FIN, or its reset (`reset`): either follows the bytes sent before it.
        case eof(due: UInt64, reset: String?)

        var due: UInt64 {
            switch self {
            case let .data(_, due), let .eof(due, _): return due
            }
        }
    }

    let direction: TrafficChunk.Direction
    let source: Channel
    let sink: Channel
    private unowned let connection: ProxyConnection
    private let link: LinkScheduler
    /// Set and cleared by the link while this stream is in its queue.
    var isWaitingForLink = false

    private var queue = CircularBuffer<Item>(initialCapacity: 16)
    /// Bytes read from the source and not yet released.
    private(set) var queuedBytes = 0
    private var peakQueuedBytes = 0
    /// Bytes released to the sink so far.
    private(set) var releasedBytes = 0
    /// The source sent FIN (it may still be in the delay line).
    private(set) var sourceEOF = false
    /// The FIN was released: the sink's output is shut down.
    private(set) var eofDelivered = false
    /// A `stall` fault fired: nothing more is read or released.
    private(set) var isStalled = false
    /// The connection is being torn down: do nothing more.
    private var isHalted = false
    /// The sink closed before this direction's FIN was delivered.
    private var isAbandoned = false
    private var readPending = false

    private var delays: DelaySchedule
    private var highWater = 256 * 1024
    private var timer: Scheduled<Void>?
    private var timerDeadline = UInt64.max

    private let resetAfter: Int?
    private let stallAfter: Int?

    init(
        direction: TrafficChunk.Direction,
        source: Channel,
        sink: Channel,
        connection: ProxyConnection,
        link: LinkScheduler,
        profile: NetworkProfile,
        faults: [ProxyFault]
    ) {
        self.direction = direction
        self.source = source
        self.sink = sink
        self.connection = connection
        self.link = link
        var resetAfter: Int?
        var stallAfter: Int?
        for fault in faults {
            switch fault {
            case let .resetAfter(bytes, dir) where dir == direction:
                resetAfter = min(resetAfter ?? .max, bytes)
            case let .stall(bytes, dir) where dir == direction:
                stallAfter = min(stallAfter ?? .max, bytes)
            default:
                break
            }
        }
        self.resetAfter = resetAfter
        self.stallAfter = stallAfter
        self.delays = DelaySchedule(
            latency: profile.latency,
            jitter: profile.jitter,
            seed: DelaySchedule.seed(profileSeed: profile.jitterSeed, connection: connection.id, uplink: direction == .uplink)
        )
        setParameters(profile)
    }

    /// True when a `resetAfter` fault with zero bytes applies: the connection must be reset at once.
    var resetsImmediately: Bool { resetAfter == 0 }

    /// Nothing more will cross this direction: FIN delivered, or the sink is gone.
    var isFinished: Bool { eofDelivered || isAbandoned }

    /// Applies `profile`'s latency, jitter and read budget from now on (queued bytes keep
    /// their due time). The rate lives in the shared link, which the proxy updates.
    func apply(_ profile: NetworkProfile) {
        guard !isHalted else { return }
        setParameters(profile)
        pump()
        requestRead()
    }

    private func setParameters(_ profile: NetworkProfile) {
        delays.update(
            latency: profile.latency,
            jitter: profile.jitter,
            seed: DelaySchedule.seed(profileSeed: profile.jitterSeed, connection: connection.id, uplink: direction == .uplink)
        )
        highWater = Self.highWater(bitsPerSecond: profile.bitsPerSecond(direction), delay: profile.latency + profile.jitter)
    }

    /// Read budget for the delay line: twice the bandwidth-delay product plus four
    /// quanta, between 256 KiB and 16 MiB. With unlimited rate and non-zero latency the
    /// bandwidth-delay product is unbounded, so the cap applies (16 MiB per latency
    /// period, e.g. 1.3 Gbit/s at 100 ms one-way).
    static func highWater(bitsPerSecond: Int?, delay: Double) -> Int {
        let floor = 256 * 1024
        let cap = 16 * 1024 * 1024
        guard let bps = bitsPerSecond else { return delay > 0 ? cap : floor }
        let bytesPerSecond = Double(bps) / 8
        let bdp = bytesPerSecond * delay
        let wanted = 2 * bdp + Double(4 * TokenBucket.quantum(bytesPerSecond: bytesPerSecond))
        return Swift.min(cap, Swift.max(floor, Int(wanted)))
    }

    // MARK: Events from the connection

    /// Starts the stream once both channels are connected.
    func start() {
        if stallAfter == 0 {
            stall()
            return
        }
        requestRead()
        pump()
    }

    /// The first bytes read and not yet released, up to `limit`: a request a reset cut before any
    /// of it reached the server, which ``RefusedRequest`` can name (a piece already partly released
    /// starts mid-request, and names nothing).
    func unreleasedPrefix(_ limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for item in queue {
            guard case let .data(buffer, _) = item, bytes.count < limit else { break }
            bytes += buffer.readableBytesView.prefix(limit - bytes.count)
        }
        return bytes
    }

    /// Bytes arrived from the source at `readAt` (monotonic ns).
    func received(_ buffer: ByteBuffer, readAt: UInt64) {
        guard !isHalted, buffer.readableBytes > 0 else { return }
        queue.append(.data(buffer, due: delays.due(readAt: readAt)))
        queuedBytes += buffer.readableBytes
        if queuedBytes > peakQueuedBytes {
            peakQueuedBytes = queuedBytes
            connection.noteQueued(peakQueuedBytes)
        }
        pump()
    }

    /// The source's read burst ended: ask for more if the delay line has room.
    func readComplete() {
        readPending = false
        requestRead()
    }

    /// The source sent FIN, read at `readAt` (monotonic ns).
    func sourceClosed(readAt: UInt64) {
        guard !sourceEOF, !isHalted else { return }
        sourceEOF = true
        // FIN crosses the link like data.
        queue.append(.eof(due: delays.finDue(readAt: readAt), reset: nil))
        pump()
    }

    /// The source reset its connection, noticed at `readAt`: on a real link the bytes it sent
    /// before arrive ahead of the RST (a TLS client's alert, then the reset of a socket closed
    /// with unread data), so the reset crosses the delay line behind them and then resets the
    /// connection. `detail` is the reset event's.
    func sourceReset(readAt: UInt64, detail: String) {
        guard !sourceEOF, !isHalted else { return }
        sourceEOF = true
        queue.append(.eof(due: delays.finDue(readAt: readAt), reset: detail))
        pump()
    }

    /// The sink's writability changed.
    func sinkWritabilityChanged() {
        pump()
    }

    /// The sink went away: nothing more can be delivered, the stream is over.
    func abandon() {
        isAbandoned = true
        halt()
    }

    /// Stops all activity: the connection is closing.
    func halt() {
        isHalted = true
        cancelTimer()
        queue.removeAll()
        queuedBytes = 0
    }

    // MARK: Shaping

    private func requestRead() {
        guard !readPending, !sourceEOF, !isStalled, !isHalted, queuedBytes < highWater else { return }
        readPending = true
        source.read()
    }

    private func stall() {
        guard !isStalled else { return }
        isStalled = true
        cancelTimer()
        connection.streamStalled(self)
    }

    /// Moves the head of the delay line along: waits for its due time, delivers a FIN,
    /// or releases due bytes (directly when the link is unlimited, else via the link).
    private func pump() {
        guard !isHalted, !isStalled, !eofDelivered else { return }
        let now = MonotonicClock.now()
        // Unlimited-rate pieces are written without a flush each and flushed once here:
        // one writev per read burst instead of one per buffer.
        var unflushed = false
        defer {
            if unflushed { sink.flush() }
            // Whatever stopped the loop, refill the delay line if it is below budget, so the
            // link never idles waiting for a read (requestRead checks stall, halt and EOF).
            requestRead()
        }
        while let head = queue.first {
            if head.due > now {
                armTimer(deadline: head.due, now: now)
                return
            }
            guard sink.isWritable else { return }  // channelWritabilityChanged resumes us
            if case let .eof(_, reset) = head {
                // FIN: half-close the sink once its pending writes are flushed (NIO orders that).
                queue.removeFirst()
                eofDelivered = true
                if let reset {
                    // A reset: the bytes before it reach the kernel, then both sides are reset.
                    unflushed = false
                    connection.resetAfterWrite(sink.writeAndFlush(sink.allocator.buffer(capacity: 0)), detail: reset)
                    return
                }
                if unflushed {
                    sink.flush()
                    unflushed = false
                }
                sink.close(mode: .output, promise: nil)
                connection.streamFinished(self)
                return
            }
            if !link.isUnlimited {
                link.enqueue(self)  // the link calls `release` when the tokens are there
                return
            }
            let piece = nextPieceSize(limit: .max, now: now)
            guard piece > 0 else { return }
            unflushed = true
            if !write(piece, now: now, flush: false) { return }
        }
    }

    /// The size of the next piece this stream could release now, at most `limit`; 0 if none.
    func nextPieceSize(limit: Int, now: UInt64) -> Int {
        guard !isHalted, !isStalled, sink.isWritable, let head = queue.first, head.due <= now,
              case let .data(buffer, _) = head
        else { return 0 }
        var piece = Swift.min(buffer.readableBytes, limit)
        if let resetAfter { piece = Swift.min(piece, resetAfter - releasedBytes) }
        if let stallAfter { piece = Swift.min(piece, stallAfter - releasedBytes) }
        return piece
    }

    /// Called by the link: write `piece` bytes (as sized by ``nextPieceSize(limit:now:)``) now.
    func release(_ piece: Int, now: UInt64) {
        if write(piece, now: now, flush: true) {
            pump()  // queues for the link again if more is due: round-robin
        }
    }

    /// Writes the next `piece` bytes, records them, and applies fault limits.
    /// Returns false when the stream must not continue (a reset or stall fired).
    private func write(_ piece: Int, now: UInt64, flush: Bool) -> Bool {
        guard case .data(var buffer, let due) = queue.first else { return false }
        let slice = buffer.readSlice(length: piece)!
        if buffer.readableBytes == 0 {
            queue.removeFirst()
        } else {
            queue[queue.startIndex] = .data(buffer, due: due)
        }
        queuedBytes -= piece
        releasedBytes += piece
        connection.recordChunk(direction: direction, at: now, bytes: piece)

        if let resetAfter, releasedBytes == resetAfter {
            // Hand the last bytes to the kernel, then reset: the receiver gets exactly N bytes.
            let written = sink.writeAndFlush(slice)
            connection.resetAfterWrite(written, detail: "fault: \(ProxyFault.resetAfter(bytes: resetAfter, direction: direction))")
            return false
        }
        if flush {
            sink.writeAndFlush(slice, promise: nil)
        } else {
            sink.write(slice, promise: nil)
        }
        if releasedBytes == stallAfter {
            sink.flush()
            stall()
            return false
        }
        return true
    }

    private func armTimer(deadline: UInt64, now: UInt64) {
        if timer != nil && timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        timer = source.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(deadline > now ? deadline - now : 0))) { [self] in
            timer = nil
            timerDeadline = .max
            pump()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerDeadline = .max
    }
}
