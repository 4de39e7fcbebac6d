import Foundation
import FrugalKit

/// Thumbnails for the notes list, made from the bundle's `thumbnails.txt` (mapped, not copied,
/// and only when first shown) and kept in a `Cache` that empties itself on a memory warning.
@MainActor
public final class ThumbnailCache {
    private let cache = Cache<Int, [UInt8]>(name: "thumbnails", totalCostLimit: 512 * 1024)
    private var source: MappedResource?

    public init() {}

    /// The thumbnail of note `id`, made on first use.
    public func thumbnail(for id: Int) -> [UInt8] {
        if let cached = cache.object(forKey: id) { return cached }
        if source == nil { source = try? MappedResource(named: "thumbnails.txt") }
        var pixels = [UInt8](repeating: 0, count: 16 * 1024)
        if let source, source.count > 0 {
            source.withBytes { bytes in
                for index in pixels.indices { pixels[index] = bytes[(index &* 31 &+ id) % bytes.count] }
            }
        }
        cache.setObject(pixels, forKey: id, cost: pixels.count)
        return pixels
    }

    /// Lets go of everything that can be made again (on entering the background).
    public func purge() {
        cache.removeAllObjects()
        source = nil
    }
}
