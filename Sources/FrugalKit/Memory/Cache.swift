import Foundation
import FrugalProtocol
import FrugalSystem

/// A key-value cache with cost and count limits, like `NSCache`: it evicts the least recently
/// used entries past its limits, and everything it can on a memory warning — unless the app
/// opts out with `evictsOnMemoryWarning: false`, which the memory audit reports.
///
/// Values that are `DiscardableContent` (a `PurgeableBuffer`) are pinned by `object(forKey:)`
/// (call `endContentAccess()` when done) and evicted when their content was discarded. Their
/// cost is not counted as held: unpinned, the kernel may take it back at any time.
///
/// Safe from any thread, as `NSCache` is.
// @unchecked: every mutable field is in `state`, read and written only holding `lock`; like
// NSCache, the cache hands a value to whichever thread asks (a value shared so must be safe).
public final class Cache<Key: Hashable, Value>: MemoryWarningEvicting, @unchecked Sendable {
    private struct Entry {
        var value: Value
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var countLimit: Int
        var totalCostLimit: Int
        var observer: NSObjectProtocol?
    }

    /// Names the cache in the report's evidence.
    public let name: String
    /// The most entries kept (0: no limit).
    public var countLimit: Int {
        get { withState { $0.countLimit } }
        set {
            withState { $0.countLimit = newValue }
            trim()
        }
    }
    /// The most total cost kept (0: no limit).
    public var totalCostLimit: Int {
        get { withState { $0.totalCostLimit } }
        set {
            withState { $0.totalCostLimit = newValue }
            trim()
        }
    }
    /// Whether a memory warning empties the cache.
    public let evictsOnMemoryWarning: Bool
    private let lock = NSLock()
    private var state: State
    /// Decided once from the type: casting each value would box (copy) value types.
    private let valuesAreDiscardable = Value.self is DiscardableContent.Type

    /// A cache called `name` (in evidence), holding at most `countLimit` objects and `totalCostLimit` of cost (0: no limit); it empties itself on a memory warning unless told not to.
    public init(name: String, countLimit: Int = 0, totalCostLimit: Int = 0, evictsOnMemoryWarning: Bool = true) {
        self.name = name
        self.state = State(countLimit: countLimit, totalCostLimit: totalCostLimit)
        self.evictsOnMemoryWarning = evictsOnMemoryWarning
        if evictsOnMemoryWarning {
            let observer = MemoryTools.observeWarnings(self)
            withState { $0.observer = observer }
        } else {
            MemoryTools.emit(MemoryEvent(kind: .cacheOptOut, cache: name))
        }
        report()
    }

    /// Runs `body` on the state, holding the lock.
    private func withState<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    deinit {
        if let observer = withState({ $0.observer }) { NotificationCenter.default.removeObserver(observer) }
        MemoryTools.setCache(ObjectIdentifier(self), bytes: nil, optedOut: false)
    }

    /// The sum of the entries' costs.
    public var totalCost: Int { withState { $0.entries.values.reduce(0) { $0 + $1.cost } } }
    /// The number of entries.
    public var count: Int { withState { $0.entries.count } }

    /// Adds or replaces the entry for `key`, then evicts past the limits.
    public func setObject(_ value: Value, forKey key: Key, cost: Int = 0) {
        withState { state in
            state.clock += 1
            state.entries[key] = Entry(value: value, cost: cost, lastUse: state.clock)
        }
        trim()
    }

    /// The value for `key`. A discardable value comes back pinned, or not at all when its
    /// content was discarded (the entry is then evicted).
    public func object(forKey key: Key) -> Value? {
        let value: Value? = withState { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[key] = entry
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
        withState { _ = $0.entries.removeValue(forKey: key) }
        report()
    }

    /// A memory warning (not the all-clear) empties the cache.
    func evict(for level: MemoryWarningLevel) {
        if level != .normal { removeAllObjects() }
    }

    /// Empties the cache.
    public func removeAllObjects() {
        withState { $0.entries.removeAll() }
        report()
    }

    private func trim() {
        withState { state in
            while (state.countLimit > 0 && state.entries.count > state.countLimit)
                    || (state.totalCostLimit > 0 && state.entries.values.reduce(0, { $0 + $1.cost }) > state.totalCostLimit) {
                guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key else { break }
                state.entries.removeValue(forKey: oldest)
            }
        }
        report()
    }

    private func report() {
        let held = valuesAreDiscardable ? 0 : withState { $0.entries.values.reduce(0) { $0 + $1.cost } }
        MemoryTools.setCache(ObjectIdentifier(self), bytes: held, optedOut: !evictsOnMemoryWarning)
    }
}
