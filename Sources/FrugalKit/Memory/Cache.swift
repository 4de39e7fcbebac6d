import Foundation
import FrugalCore
import FrugalProbe

/// A key-value cache with cost and count limits, like `NSCache`: it evicts the least recently
/// used entries past its limits, and everything it can on a memory warning — unless the app
/// opts out with `evictsOnMemoryWarning: false`, which the memory audit reports.
///
/// Values that are `DiscardableContent` (a `PurgeableBuffer`) are pinned by `object(forKey:)`
/// (call `endContentAccess()` when done) and evicted when their content was discarded. Their
/// cost is not counted as held: unpinned, the kernel may take it back at any time.
public final class Cache<Key: Hashable, Value> {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUse: UInt64
    }

    /// Names the cache in the report's evidence.
    public let name: String
    /// The most entries kept (0: no limit).
    public var countLimit: Int { didSet { trim() } }
    /// The most total cost kept (0: no limit).
    public var totalCostLimit: Int { didSet { trim() } }
    /// Whether a memory warning empties the cache.
    public let evictsOnMemoryWarning: Bool
    private let lock = Lock()
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private var observer: NSObjectProtocol?
    /// Decided once from the type: casting each value would box (copy) value types.
    private let valuesAreDiscardable = Value.self is DiscardableContent.Type

    /// A cache called `name` (in evidence), holding at most `countLimit` objects and `totalCostLimit` of cost (0: no limit); it empties itself on a memory warning unless told not to.
    public init(name: String, countLimit: Int = 0, totalCostLimit: Int = 0, evictsOnMemoryWarning: Bool = true) {
        self.name = name
        self.countLimit = countLimit
        self.totalCostLimit = totalCostLimit
        self.evictsOnMemoryWarning = evictsOnMemoryWarning
        if evictsOnMemoryWarning {
            observer = NotificationCenter.default.addObserver(forName: .frugalMemoryWarning, object: nil, queue: nil) { [weak self] note in
                if note.userInfo?[Application.memoryWarningLevelKey] as? MemoryWarningLevel != .normal { self?.removeAllObjects() }
            }
        } else {
            MemoryTools.emit(MemoryEvent(kind: .cacheOptOut, cache: name))
        }
        report()
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        MemoryTools.setCache(ObjectIdentifier(self), bytes: nil, optedOut: false)
    }

    /// The sum of the entries' costs.
    public var totalCost: Int { lock.withLock { entries.values.reduce(0) { $0 + $1.cost } } }
    /// The number of entries.
    public var count: Int { lock.withLock { entries.count } }

    /// Adds or replaces the entry for `key`, then evicts past the limits.
    public func setObject(_ value: Value, forKey key: Key, cost: Int = 0) {
        lock.withLock {
            clock += 1
            entries[key] = Entry(value: value, cost: cost, lastUse: clock)
        }
        trim()
    }

    /// The value for `key`. A discardable value comes back pinned, or not at all when its
    /// content was discarded (the entry is then evicted).
    public func object(forKey key: Key) -> Value? {
        let value: Value? = lock.withLock {
            guard var entry = entries[key] else { return nil }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.value
        }
        guard let value else { return nil }
        if valuesAreDiscardable, let content = value as? DiscardableContent, !content.beginContentAccess() {
            content.endContentAccess()
            removeObject(forKey: key)
            return nil
        }
        return value
    }

    /// Removes the object for `key`, if any.
    public func removeObject(forKey key: Key) {
        _ = lock.withLock { entries.removeValue(forKey: key) }
        report()
    }

    /// Empties the cache.
    public func removeAllObjects() {
        lock.withLock { entries.removeAll() }
        report()
    }

    private func trim() {
        lock.withLock {
            while (countLimit > 0 && entries.count > countLimit)
                    || (totalCostLimit > 0 && entries.values.reduce(0, { $0 + $1.cost }) > totalCostLimit) {
                guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
                entries.removeValue(forKey: oldest)
            }
        }
        report()
    }

    private func report() {
        let held = valuesAreDiscardable ? 0 : lock.withLock { entries.values.reduce(0) { $0 + $1.cost } }
        MemoryTools.setCache(ObjectIdentifier(self), bytes: held, optedOut: !evictsOnMemoryWarning)
    }
}
