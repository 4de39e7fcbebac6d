import FrugalProbe
import FrugalCore
import NIOCore

/// The device's one radio link in one direction: a single ``TokenBucket`` shared by
/// every proxied connection, served round-robin one piece at a time.
///
/// Sharing is the point: a phone on a 1.6 Mbit/s link has 1.6 Mbit/s in total, so a
/// workload that opens six parallel connections must not get six times the rate (which
/// per-connection buckets would give). Round-robin per piece (at most one bucket
/// quantum, ~10 ms of line rate) shares the rate fairly between busy connections, like
/// a base station's scheduler, and keeps each connection's own order.
///
/// Latency is not here: it is per connection (``DelaySchedule``), since propagation
/// delay applies to every packet independently. A stream joins the queue only when its
/// next bytes are due and its sink can take them.
///
/// Confined to the proxy's event loop.
final class LinkScheduler {
    let direction: TrafficChunk.Direction
    private let eventLoop: EventLoop
    private(set) var bucket: TokenBucket?
    private var waiting = CircularBuffer<ShapedStream>(initialCapacity: 8)
    private var timer: Scheduled<Void>?
    private var timerDeadline = UInt64.max
    private var isServing = false
    /// A stream has waited for tokens since the bucket last refilled: the link was busy all
    /// that time, so a late timer's extra time is credited in full (``TokenBucket``).
    private var isBacklogged = false

    init(direction: TrafficChunk.Direction, bitsPerSecond: Int?, eventLoop: EventLoop) {
        self.direction = direction
        self.eventLoop = eventLoop
        self.bucket = bitsPerSecond.map { TokenBucket(bitsPerSecond: $0, now: MonotonicClock.now()) }
    }

    /// True when the link has no rate limit: streams release without asking.
    var isUnlimited: Bool { bucket == nil }

    /// Largest piece the link sends at once (`Int.max` when unlimited).
    var quantum: Int { bucket?.quantum ?? .max }

    /// Changes the rate from now on; streams waiting for tokens are re-served at the new rate.
    func setRate(bitsPerSecond: Int?) {
        let now = MonotonicClock.now()
        switch (bitsPerSecond, bucket) {
        case (nil, _):
            bucket = nil
        case let (bps?, nil):
            bucket = TokenBucket(bitsPerSecond: bps, now: now)
        case let (bps?, _?):
            bucket!.refill(now: now, backlogged: isBacklogged)
            bucket!.setRate(bitsPerSecond: bps, now: now)
        }
        cancelTimer()
        serve()
    }

    /// `stream` has due bytes and a writable sink: queue it for its next piece.
    func enqueue(_ stream: ShapedStream) {
        guard !stream.isWaitingForLink else { return }
        stream.isWaitingForLink = true
        waiting.append(stream)
        serve()
    }

    /// Hands out pieces while tokens last, then sleeps until the head stream's piece is paid for.
    private func serve() {
        // A stream that releases a piece re-enqueues itself from inside `release`; the
        // flag turns that into an append instead of a nested serve.
        guard !isServing else { return }
        isServing = true
        defer { isServing = false }
        // The loop ends with an empty queue (idle link) or by arming the timer (backlogged).
        defer { if waiting.isEmpty { isBacklogged = false } }

        while let stream = waiting.first {
            let now = MonotonicClock.now()
            let piece = stream.nextPieceSize(limit: quantum, now: now)
            if piece == 0 {
                // No longer eligible (halted, stalled, sink full); it re-enqueues when it is.
                waiting.removeFirst()
                stream.isWaitingForLink = false
                continue
            }
            if bucket != nil {
                let wait = bucket!.delay(toSend: piece, now: now, backlogged: isBacklogged)
                if wait > 0 {
                    isBacklogged = true
                    armTimer(deadline: now + wait, now: now)
                    return
                }
                bucket!.consume(piece, now: now)
            }
            waiting.removeFirst()
            stream.isWaitingForLink = false
            // Releasing may enqueue the stream again, at the back: round-robin.
            stream.release(piece, now: now)
        }
    }

    private func armTimer(deadline: UInt64, now: UInt64) {
        if timer != nil && timerDeadline <= deadline { return }
        timer?.cancel()
        timerDeadline = deadline
        timer = eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(Int64(deadline > now ? deadline - now : 0))) { [self] in
            timer = nil
            timerDeadline = .max
            serve()
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
        timerDeadline = .max
    }

    /// Drops every waiting stream (the proxy is stopping).
    func shutdown() {
        cancelTimer()
        isBacklogged = false
        for stream in waiting { stream.isWaitingForLink = false }
        waiting.removeAll()
    }
}
