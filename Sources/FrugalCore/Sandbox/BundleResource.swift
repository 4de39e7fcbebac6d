
/// A file installed in the app bundle before launch, like a resource shipped with an app: the
/// harness writes it (so its bytes are not the app's disk writes) and makes the bundle read-only.
public struct BundleResource: Codable, Sendable, Equatable {
    /// What the bytes look like.
    public enum Content: String, Codable, Sendable {
        /// A repeating 251-byte printable pattern: compresses very well.
        case pattern
        /// SplitMix64 output: does not compress.
        case random
        /// A copy of a file on disk (`sourcePath`): a user's app's resources and documents. The
        /// harness copies it; `contents(offset:count:)` has no bytes for it (this module does no I/O).
        case file
    }

    /// The path inside the bundle (`atlas.bin`, `images/hero.jpg`).
    public var path: String
    public var bytes: Int
    public var content: Content
    /// Seeds the content, so every run installs the same bytes.
    public var seed: UInt64
    /// The file copied, for `.file` content.
    public var sourcePath: String?

    public init(path: String, bytes: Int, content: Content = .random, seed: UInt64 = 1) {
        self.path = path
        self.bytes = bytes
        self.content = content
        self.seed = seed
    }

    /// A copy of the file at `sourcePath`, `bytes` long, installed as `path`.
    public static func file(_ sourcePath: String, as path: String, bytes: Int) -> BundleResource {
        var resource = BundleResource(path: path, bytes: bytes, content: .file)
        resource.sourcePath = sourcePath
        return resource
    }

    /// The resource's bytes from `offset`, `count` of them (deterministic in `seed`).
    public func contents(offset: Int, count: Int) -> [UInt8] {
        let end = min(bytes, offset + count)
        guard offset < end else { return [] }
        switch content {
        case .file:
            return []
        case .pattern:
            // One 251-byte period, then doubling copies: a 64 MiB atlas is written in
            // milliseconds even in a debug build, where a per-byte loop took seconds.
            let count = end - offset
            // The arithmetic is typed step by step: as one expression it took the type checker
            // 1.4 s of every clean build.
            let shift = Int(seed % 251)
            let period: [UInt8] = (offset..<(offset + min(251, count))).map { (index: Int) -> UInt8 in
                let inPeriod: Int = (index + shift) % 251
                return UInt8(33 + inPeriod % 94)
            }
            return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<period.count]).initialize(from: period)
                var filled = period.count
                while filled < count {
                    let chunk = min(filled, count - filled)
                    (buffer.baseAddress! + filled).update(from: buffer.baseAddress!, count: chunk)
                    filled += chunk
                }
                initialized = count
            }
        case .random:
            // Each 8-byte word is the SplitMix64 output of (seed, word index): any range can be
            // produced without generating what comes before it.
            var result: [UInt8] = []
            result.reserveCapacity(end - offset)
            var index = offset
            while index < end {
                var generator = SplitMix64(seed: seed &+ UInt64(index / 8) &* 0x9E37_79B9_7F4A_7C15)
                let word = generator.next()
                let byteInWord = index % 8
                let take = min(8 - byteInWord, end - index)
                for shift in byteInWord..<(byteInWord + take) { result.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(shift)))) }
                index += take
            }
            return result
        }
    }
}
