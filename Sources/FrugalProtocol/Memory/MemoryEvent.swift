/// What FrugalKit's memory tools tell the harness (the `memory` event): warnings handled,
/// resources loaded, mapped, first used and released, purgeable discards, mapped re-touches.
/// Each is emitted at a boundary the app crosses anyway, so nothing wakes up to report.
public struct MemoryEvent: Codable, Sendable, Equatable {
    /// Which fact this is.
    public enum Kind: String, Codable, Sendable {
        /// A warning was handled on the main run loop (`level`, `handlerStart`/`handlerEnd`, ledgers).
        case warningHandled
        /// A resource was read whole into memory (`resource`, `bytes`).
        case resourceLoaded
        /// A resource file was mapped (`resource`, `bytes`).
        case resourceMapped
        /// The app first used a loaded or mapped resource (`resource`).
        case resourceFirstUse
        /// A loaded copy was freed or a mapping unmapped (`resource`, `bytes`).
        case resourceReleased
        /// A purgeable buffer found pages the kernel had discarded (`pages`, `bytes`).
        case purgeableDiscarded
        /// A mapped range was touched (`resource`, `bytes`, `pages` resident before, `majorFaults`, `nanoseconds`).
        case mappedTouch
        /// A cache opted out of eviction on warnings (`cache`).
        case cacheOptOut
        /// The app's footprint once the runtime is up, read in-process just before the delegate's
        /// `didFinishLaunching` (`bytes`): what the app holds before it does anything of its own,
        /// the floor "gained since launch" is measured from (a cache filled during launch is gained).
        case runtimeFootprint
    }

    public var kind: Kind
    public var level: MemoryWarningLevel?
    public var resource: String?
    public var cache: String?
    public var bytes: Int?
    public var pages: Int?
    public var majorFaults: Int?
    public var nanoseconds: UInt64?
    /// Monotonic ns of the warning handler's start and end.
    public var handlerStart: UInt64?
    public var handlerEnd: UInt64?
    /// The harness's sequence number of the warning, when the harness sent it.
    public var sequence: Int?
    /// What the app held that it could give back, at the handler's start and end.
    public var before: MemoryLedger?
    public var after: MemoryLedger?

    public init(kind: Kind, level: MemoryWarningLevel? = nil, resource: String? = nil, cache: String? = nil,
                bytes: Int? = nil, pages: Int? = nil, majorFaults: Int? = nil, nanoseconds: UInt64? = nil,
                handlerStart: UInt64? = nil, handlerEnd: UInt64? = nil, sequence: Int? = nil,
                before: MemoryLedger? = nil, after: MemoryLedger? = nil) {
        self.kind = kind
        self.level = level
        self.resource = resource
        self.cache = cache
        self.bytes = bytes
        self.pages = pages
        self.majorFaults = majorFaults
        self.nanoseconds = nanoseconds
        self.handlerStart = handlerStart
        self.handlerEnd = handlerEnd
        self.sequence = sequence
        self.before = before
        self.after = after
    }
}

/// What an app holds through FrugalKit's memory tools that it could give back on a warning.
public struct MemoryLedger: Codable, Sendable, Equatable {
    /// Cost of entries in caches that evict on warnings.
    public var cacheBytes: Int
    /// Cost of entries in caches that opted out of eviction on warnings.
    public var optedOutCacheBytes: Int
    /// Purgeable bytes in use (pinned by `beginAccess`); unpinned ones are the kernel's to take.
    public var pinnedPurgeableBytes: Int
    /// Bytes of resource files read whole and still held.
    public var loadedResourceBytes: Int

    public init(cacheBytes: Int = 0, optedOutCacheBytes: Int = 0, pinnedPurgeableBytes: Int = 0, loadedResourceBytes: Int = 0) {
        self.cacheBytes = cacheBytes
        self.optedOutCacheBytes = optedOutCacheBytes
        self.pinnedPurgeableBytes = pinnedPurgeableBytes
        self.loadedResourceBytes = loadedResourceBytes
    }

    /// Everything the app could give back.
    public var reclaimableBytes: Int { cacheBytes + optedOutCacheBytes + pinnedPurgeableBytes + loadedResourceBytes }
}
