import FrugalCore
import FrugalProbe

/// The book FrugalKit's memory tools keep of what the app holds and could give back (the
/// `MemoryLedger` reported around each warning), and their way to the event stream.
enum MemoryTools {
    private static let lock = Lock()
    nonisolated(unsafe) private static var caches: [ObjectIdentifier: (bytes: Int, optedOut: Bool)] = [:]
    nonisolated(unsafe) private static var pinnedPurgeable = 0
    nonisolated(unsafe) private static var loadedResources = 0

    /// What the app holds now.
    static var ledger: MemoryLedger {
        lock.withLock {
            var ledger = MemoryLedger(pinnedPurgeableBytes: pinnedPurgeable, loadedResourceBytes: loadedResources)
            for (_, cache) in caches {
                if cache.optedOut { ledger.optedOutCacheBytes += cache.bytes } else { ledger.cacheBytes += cache.bytes }
            }
            return ledger
        }
    }

    static func setCache(_ id: ObjectIdentifier, bytes: Int?, optedOut: Bool) {
        lock.withLock { caches[id] = bytes.map { ($0, optedOut) } }
    }

    static func addPinnedPurgeable(_ bytes: Int) { lock.withLock { pinnedPurgeable += bytes } }
    static func addLoadedResource(_ bytes: Int) { lock.withLock { loadedResources += bytes } }

    /// Sends a memory event, when running under the harness.
    static func emit(_ event: MemoryEvent) {
        Application.current?.emitter.emit(.memory(event))
    }
}
