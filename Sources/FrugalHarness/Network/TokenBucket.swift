/// A token bucket that meters bytes onto a link of fixed rate.
///
/// Tokens are bytes; they accrue at the link rate up to ``depth``. The proxy asks
/// ``delay(toSend:now:)`` before releasing a piece of at most ``quantum`` bytes and
/// ``consume(_:now:)`` when it does. Time is passed in (monotonic nanoseconds) so the
/// bucket is a pure value that tests can drive with a synthetic clock.
///
/// Sizing (why two quanta): a quantum is 10 ms of line rate, but never less than
/// 1,500 bytes (one Ethernet MTU) so slow links are not chopped into tiny writes.
/// The depth is two quanta. Pieces are at most one quantum and a piece waits only
/// until one quantum of tokens exists, so a timer that fires up to one quantum late
/// still finds its tokens, plus the late ones, instead of losing them to the cap;
/// timer lateness therefore costs no throughput. The price is that a link idle for
/// 20 ms may burst 20 ms of line rate at once, which a real radio scheduler does too.
///
/// A timer more than one quantum late (a loaded machine delays the proxy's event loop by
/// tens of milliseconds) would still lose tokens to the cap. The cap models an *idle* link,
/// so it does not apply while bytes wait for the link (`backlogged`): a real link with a
/// queue sends all the time, whatever the scheduler's lateness, so the time since the last
/// refill is credited in full and the late pieces go out at once, back on the line's schedule.
public struct TokenBucket: Sendable, Equatable {
    /// Line rate in bytes per second.
    public private(set) var bytesPerSecond: Double
    /// Largest piece released at once, in bytes.
    public private(set) var quantum: Int
    /// Most tokens (bytes) the bucket holds.
    public private(set) var depth: Double
    /// Tokens available at ``lastRefill``.
    public private(set) var tokens: Double
    /// Monotonic nanoseconds of the last refill.
    public private(set) var lastRefill: UInt64

    /// Length of line rate in one quantum.
    public static let quantumDuration = 0.010
    /// Smallest quantum in bytes (one Ethernet MTU).
    public static let minimumQuantum = 1_500

    /// A bucket for a link of `bitsPerSecond`, full at `now` (an idle link can send at once).
    public init(bitsPerSecond: Int, now: UInt64) {
        precondition(bitsPerSecond > 0)
        self.bytesPerSecond = Double(bitsPerSecond) / 8
        self.quantum = Self.quantum(bytesPerSecond: Double(bitsPerSecond) / 8)
        self.depth = Double(2 * quantum)
        self.tokens = depth
        self.lastRefill = now
    }

    static func quantum(bytesPerSecond: Double) -> Int {
        max(minimumQuantum, Int((bytesPerSecond * quantumDuration).rounded()))
    }

    /// Adds the tokens accrued since the last refill, capped at ``depth`` unless bytes have
    /// waited for the link all that time (`backlogged`; see the type's note on late timers).
    public mutating func refill(now: UInt64, backlogged: Bool = false) {
        guard now > lastRefill else { return }
        let accrued = tokens + Double(now - lastRefill) * bytesPerSecond / 1e9
        tokens = backlogged ? accrued : min(depth, accrued)
        lastRefill = now
    }

    /// Changes the line rate from `now` on; tokens already accrued are kept (capped at the new depth).
    public mutating func setRate(bitsPerSecond: Int, now: UInt64) {
        precondition(bitsPerSecond > 0)
        refill(now: now)
        bytesPerSecond = Double(bitsPerSecond) / 8
        quantum = Self.quantum(bytesPerSecond: bytesPerSecond)
        depth = Double(2 * quantum)
        tokens = min(tokens, depth)
    }

    /// Nanoseconds to wait from `now` until `bytes` (at most ``quantum``) may be sent; 0 if now.
    /// `backlogged`: bytes have waited for the link since the last refill (see ``refill(now:backlogged:)``).
    public mutating func delay(toSend bytes: Int, now: UInt64, backlogged: Bool = false) -> UInt64 {
        refill(now: now, backlogged: backlogged)
        let missing = Double(min(bytes, quantum)) - tokens
        if missing <= 0 { return 0 }
        // Round up so the timer never fires a hair too early and has to be re-armed.
        return UInt64((missing / bytesPerSecond * 1e9).rounded(.up)) + 1
    }

    /// Takes `bytes` tokens at `now`. Call after ``delay(toSend:now:)`` returned 0.
    public mutating func consume(_ bytes: Int, now: UInt64) {
        refill(now: now)
        tokens -= Double(bytes)
    }
}
