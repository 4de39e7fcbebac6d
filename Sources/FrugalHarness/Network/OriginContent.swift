import FrugalCore
import NIOCore

/// The deterministic response bodies of ``OriginServer``, generated on the fly so a
/// 1 GB body never exists in memory, and reproducible byte for byte from the path alone.
///
/// - `/bytes/N`: N printable bytes repeating a 251-byte block drawn from the path's seed.
///   The period is prime and far below deflate's 32 KiB window, so gzip/deflate/brotli
///   shrink it by two orders of magnitude or more: "compressible in a known way".
/// - `/random/N`: N bytes of a SplitMix64 stream seeded by the path: incompressible.
/// - `/json/N`: a valid JSON document of exactly N bytes (at least 12):
///   `{"items":[{"id":"0000000000","name":"item-0000000000","score":0.123456,"flag":1},...] }`
///   with fixed-width records and spaces before the final `}` to land exactly on N.
public enum OriginContent {
    /// Period of the `/bytes` pattern.
    public static let patternPeriod = 251
    /// Smallest `/json` body: `{"items":[]}`.
    public static let minimumJSONLength = 12

    /// The whole body for `path` (`/bytes/N`, `/random/N`, `/json/N`), for checking what a
    /// client received; `nil` for other paths. Meant for small N: it builds the body in memory.
    public static func body(forPath path: String) -> [UInt8]? {
        guard var source = BodySource(path: path) else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: source.remaining)
        while source.remaining > 0 {
            source.fill(&buffer, upTo: source.remaining)
        }
        return buffer.readBytes(length: buffer.readableBytes)
    }
}

/// Streams one body in pieces, with the content decided by the path.
struct BodySource {
    private enum Kind {
        case pattern(unrolled: [UInt8])
        case random(SplitMix64, pending: UInt64, pendingCount: Int)
        case json(JSONGenerator)
        case fixed([UInt8])
    }

    private var kind: Kind
    /// Bytes still to produce.
    private(set) var remaining: Int
    /// Bytes produced so far.
    private(set) var offset = 0

    /// The body for `/bytes/N`, `/random/N` or `/json/N`; `nil` for any other path or a bad N.
    init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let count = Int(parts[1]), count >= 0, count <= OriginServer.maximumBodyLength else {
            return nil
        }
        let seed = SplitMix64.seed(from: path)
        switch parts[0] {
        case "bytes":
            var random = SplitMix64(seed: seed)
            // 64 printable characters: each byte carries 6 bits, but the period caps the entropy.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            let block = (0..<OriginContent.patternPeriod).map { _ in alphabet[Int(random.next() % 64)] }
            // Unrolled so any piece of up to 64 KiB is one contiguous copy from offset % period.
            var unrolled = [UInt8]()
            unrolled.reserveCapacity(Self.pieceSize + block.count)
            while unrolled.count < Self.pieceSize + block.count { unrolled += block }
            kind = .pattern(unrolled: unrolled)
            remaining = count
        case "random":
            kind = .random(SplitMix64(seed: seed), pending: 0, pendingCount: 0)
            remaining = count
        case "json":
            let generator = JSONGenerator(length: count)
            remaining = generator.length
            kind = .json(generator)
        default:
            return nil
        }
    }

    /// A fixed body (small responses such as `/ping` and `/upload`'s reply).
    init(bytes: [UInt8]) {
        kind = .fixed(bytes)
        remaining = bytes.count
    }

    /// Largest piece the server writes at once.
    static let pieceSize = 64 * 1024

    /// Appends up to `limit` bytes of the body to `buffer`.
    mutating func fill(_ buffer: inout ByteBuffer, upTo limit: Int) {
        let count = min(limit, remaining)
        guard count > 0 else { return }
        switch kind {
        case let .pattern(unrolled):
            var written = 0
            while written < count {
                let start = (offset + written) % OriginContent.patternPeriod
                let n = min(count - written, unrolled.count - start)
                buffer.writeBytes(unrolled[start..<(start + n)])
                written += n
            }
        case .random(var random, var pending, var pendingCount):
            buffer.reserveCapacity(minimumWritableBytes: count)
            buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                // Byte i of the body is byte (i % 8), little-endian, of the generator's (i / 8)th word.
                for i in 0..<count {
                    if pendingCount == 0 {
                        pending = random.next()
                        pendingCount = 8
                    }
                    raw[i] = UInt8(truncatingIfNeeded: pending)
                    pending >>= 8
                    pendingCount -= 1
                }
                return count
            }
            kind = .random(random, pending: pending, pendingCount: pendingCount)
        case .json(var generator):
            kind = .fixed([])  // avoid a copy-on-write of the generator's buffers
            generator.fill(&buffer, count: count)
            kind = .json(generator)
        case let .fixed(bytes):
            buffer.writeBytes(bytes[offset..<(offset + count)])
        }
        offset += count
        remaining -= count
    }
}

/// Produces the `/json/N` document sequentially, one fixed-width record at a time.
struct JSONGenerator {
    /// Exact length of the document.
    let length: Int
    private let records: Int
    private let padding: Int
    private var pending: [UInt8] = []
    private var pendingIndex = 0
    /// Next piece: 0 = prefix, 1...records = record k-1, then "]", padding, "}".
    private var step = 0
    private var paddingLeft: Int

    static let prefix = Array(#"{"items":["#.utf8)
    static let recordLength = record(0).count

    /// Record `k`; every record has the same length.
    static func record(_ k: Int) -> [UInt8] {
        let id = String(k).leftPadded(to: 10)
        let score = String((k &* 7919 &+ 104_729) % 1_000_000).leftPadded(to: 6)
        return Array(#"{"id":"\#(id)","name":"item-\#(id)","score":0.\#(score),"flag":\#(k % 2)}"#.utf8)
    }

    init(length requested: Int) {
        let minimum = OriginContent.minimumJSONLength
        length = max(requested, minimum)
        // minimum + K records + (K - 1) commas <= length
        let perRecord = Self.recordLength + 1
        records = length >= minimum + Self.recordLength ? (length - minimum + 1) / perRecord : 0
        let used = minimum + records * Self.recordLength + max(0, records - 1)
        padding = length - used
        paddingLeft = padding
    }

    mutating func fill(_ buffer: inout ByteBuffer, count: Int) {
        var written = 0
        while written < count {
            if pendingIndex == pending.count {
                nextPiece()
            }
            let n = min(count - written, pending.count - pendingIndex)
            buffer.writeBytes(pending[pendingIndex..<(pendingIndex + n)])
            pendingIndex += n
            written += n
        }
    }

    private mutating func nextPiece() {
        pendingIndex = 0
        if step == 0 {
            pending = Self.prefix
        } else if step <= records {
            pending = (step > 1 ? [UInt8(ascii: ",")] : []) + Self.record(step - 1)
        } else if step == records + 1 {
            pending = [UInt8(ascii: "]")]
        } else if paddingLeft > 0 {
            // Insignificant whitespace between tokens is valid JSON.
            let n = min(paddingLeft, 4096)
            pending = [UInt8](repeating: UInt8(ascii: " "), count: n)
            paddingLeft -= n
            return
        } else {
            pending = [UInt8(ascii: "}")]
        }
        step += 1
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
