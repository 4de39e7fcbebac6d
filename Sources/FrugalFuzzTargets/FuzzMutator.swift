import FrugalCore

/// A deterministic stand-in for libFuzzer's mutations, for replaying in tests: from a seed
/// input and a seeded generator, the same inputs every time. The kinds are libFuzzer's basic
/// ones (bit flips, interesting bytes, erasing, inserting, duplicating and swapping runs of
/// bytes, truncating, splicing with another seed) and a few for text formats (a line repeated,
/// digits made huge, a structural character dropped or doubled), which is where the crashes
/// libFuzzer found came from.
public struct FuzzMutator {
    private var random: SplitMix64
    private let seeds: [[UInt8]]
    /// The longest input produced (libFuzzer's `-max_len` in scripts/fuzz.sh).
    public let maxLength: Int

    public init(seed: UInt64, seeds: [[UInt8]], maxLength: Int = 65_536) {
        random = SplitMix64(seed: seed)
        self.seeds = seeds.isEmpty ? [[]] : seeds
        self.maxLength = maxLength
    }

    /// One to four mutations stacked on one of the seeds.
    public mutating func next() -> [UInt8] {
        var bytes = seeds[pick(seeds.count)]
        for _ in 0...pick(4) { mutate(&bytes) }
        if bytes.count > maxLength { bytes.removeLast(bytes.count - maxLength) }
        return bytes
    }

    private static let interesting: [UInt8] = [0, 1, 0x7f, 0x80, 0xff, 0x0a, 0x22, 0x5c, 0x3a, 0x2d, 0x7b, 0x7d, 0x5b, 0x5d, 0x26, 0x2a, 0x21]
    private static let hugeNumbers: [String] = ["1e308", "-1e308", "1e17", "99999999999999999999", "-9223372036854775809", "NaN", "0.0000001", "-0"]
    private static let structural: Set<UInt8> = Set("{}[]:,\"\n-&*!#'".utf8)

    private mutating func pick(_ count: Int) -> Int {
        count <= 1 ? 0 : Int(random.next() % UInt64(count))
    }

    private mutating func mutate(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else {
            bytes = Array(Self.interesting[pick(Self.interesting.count)...].prefix(1 + pick(4)))
            return
        }
        let at = pick(bytes.count)
        let run = 1 + pick(min(64, bytes.count - at))
        switch pick(11) {
        case 0: bytes[at] ^= 1 << UInt8(pick(8))
        case 1: bytes[at] = Self.interesting[pick(Self.interesting.count)]
        case 2: bytes.removeSubrange(at..<(at + run))
        case 3: bytes.insert(contentsOf: (0..<run).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
        case 4: bytes.insert(contentsOf: bytes[at..<(at + run)], at: pick(bytes.count))
        case 5:
            let other = pick(bytes.count)
            bytes.swapAt(at, other)
        case 6: bytes.removeLast(bytes.count - at)
        case 7:
            let donor = seeds[pick(seeds.count)]
            guard !donor.isEmpty else { return }
            let from = pick(donor.count)
            bytes.replaceSubrange(at..<bytes.count, with: donor[from..<min(donor.count, from + 1 + pick(512))])
        case 8:
            // A whole line repeated: long keys, deep nesting, many events.
            let start = bytes[..<at].lastIndex(of: 0x0a).map { $0 + 1 } ?? 0
            let end = bytes[at...].firstIndex(of: 0x0a).map { $0 + 1 } ?? bytes.count
            let line = Array(bytes[start..<end])
            for _ in 0..<(1 + pick(16)) { bytes.insert(contentsOf: line, at: start) }
        case 9:
            // A number made extreme: where a digit run starts, another number stands.
            guard let digit = bytes[at...].firstIndex(where: { (0x30...0x39).contains($0) }) else { return }
            let end = bytes[digit...].firstIndex(where: { !(0x30...0x39).contains($0) && $0 != 0x2e }) ?? bytes.count
            bytes.replaceSubrange(digit..<end, with: Array(Self.hugeNumbers[pick(Self.hugeNumbers.count)].utf8))
        default:
            // A structural character dropped or doubled.
            guard let mark = bytes[at...].firstIndex(where: { Self.structural.contains($0) }) else { return }
            if pick(2) == 0 { bytes.remove(at: mark) } else { bytes.insert(bytes[mark], at: mark) }
        }
    }
}
