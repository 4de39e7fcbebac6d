import Foundation
import FrugalProtocol
import FrugalSystem
import Synchronization

/// The book FrugalKit's memory tools keep of what the app holds and could give back (the
/// `MemoryLedger` reported around each warning), and their way to the event stream.
enum MemoryTools {
    private struct Book {
        var caches: [ObjectIdentifier: (bytes: Int, optedOut: Bool)] = [:]
        var pinnedPurgeable = 0
        var loadedResources = 0
    }

    private static let book = Mutex(Book())

    /// What the app holds now.
    static var ledger: MemoryLedger {
        book.withLock { book in
            var ledger = MemoryLedger(pinnedPurgeableBytes: book.pinnedPurgeable, loadedResourceBytes: book.loadedResources)
            for (_, cache) in book.caches {
                if cache.optedOut { ledger.optedOutCacheBytes += cache.bytes } else { ledger.cacheBytes += cache.bytes }
            }
            return ledger
        }
    }

    static func setCache(_ id: ObjectIdentifier, bytes: Int?, optedOut: Bool) {
        book.withLock { $0.caches[id] = bytes.map { ($0, optedOut) } }
    }

    static func addPinnedPurgeable(_ bytes: Int) { book.withLock { $0.pinnedPurgeable += bytes } }
    static func addLoadedResource(_ bytes: Int) { book.withLock { $0.loadedResources += bytes } }

    /// Sends a memory event, when running under the harness.
    static func emit(_ event: MemoryEvent) {
        Application.current?.emitter.emit(.memory(event))
    }
}

/// What gives memory back when the app receives a memory warning (a `Cache`).
protocol MemoryWarningEvicting: AnyObject, Sendable {
    func evict(for level: MemoryWarningLevel)
}

extension MemoryTools {
    /// Has `object` evict on each memory warning (posted on the main thread) while it lives;
    /// returns the observer to remove when it goes.
    static func observeWarnings(_ object: any MemoryWarningEvicting) -> NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: .frugalMemoryWarning, object: nil, queue: nil) { [weak object] note in
            let level = note.userInfo?[Application.memoryWarningLevelKey] as? MemoryWarningLevel ?? .warning
            object?.evict(for: level)
        }
    }
}
