import Foundation

// Frugal's statistics must give the same verdict for the same reports on
// every machine and every run, so nothing here touches the system RNG.
// The generators below are specified bit-for-bit by their published
// reference implementations (Vigna, https://prng.di.unimi.it/), and the
// helpers that map their output to indices and doubles are implemented here
// rather than borrowed from the standard library, whose `random(in:using:)`
// algorithms are not promised to stay the same across Swift releases.

/// SplitMix64 (Steele, Lea & Flood 2014): a tiny 64-bit generator, used to
/// expand one seed into the state of ``Xoshiro256StarStar``.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    /// Starts the sequence from `seed`; any value, including 0, is fine.
    public init(seed: UInt64) {
        state = seed
    }

    /// Next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed `Double` in `[0, 1)` (53 random bits).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// FNV-1a 64-bit hash of `string`'s UTF-8 bytes: a stable seed derived from a name or path
    /// (Swift's `Hasher` is randomly seeded per process, so it cannot be used for this).
    public static func seed(from string: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in string.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}

/// xoshiro256** (Blackman & Vigna 2018): fast, statistically strong 64-bit
/// generator for resampling and simulation. Seeded through ``SplitMix64`` as
/// its authors recommend, so similar seeds still give unrelated streams.
public struct Xoshiro256StarStar: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Derives the 256-bit state from `seed` with four SplitMix64 outputs.
    /// SplitMix64 never yields four zero words in a row, so the forbidden
    /// all-zero state cannot occur.
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next()
        s1 = seeder.next()
        s2 = seeder.next()
        s3 = seeder.next()
    }

    /// Next 64 random bits.
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, by: 45)
        return result
    }

    /// Uniform integer in `0..<bound` (Lemire's multiply-and-reject method,
    /// unbiased). `bound` must be positive.
    public mutating func nextIndex(below bound: Int) -> Int {
        precondition(bound > 0, "nextIndex(below:) needs a positive bound")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            // Reject the few low words that would over-represent some results.
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// Uniform double in [0, 1) with 53 random bits.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    private static func rotateLeft(_ x: UInt64, by k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 - k))
    }
}
