/// The severity of a low-memory warning, as `DISPATCH_SOURCE_TYPE_MEMORYPRESSURE` gives it:
/// `warning`, `critical`, and `normal` once the pressure has passed.
public enum MemoryWarningLevel: String, Codable, Sendable, CaseIterable {
    /// Pressure has returned to normal.
    case normal
    /// Memory is getting short: free what can be rebuilt.
    case warning
    /// Memory is critically short: free everything possible, or be terminated.
    case critical
}

/// A resident-memory split of a process from `/proc/<pid>/smaps_rollup`, in bytes.
public struct MemoryBreakdown: Codable, Sendable, Equatable {
    /// `Anonymous` minus `LazyFree`: anonymous pages the process still holds.
    public var anonymousBytes: Int
    /// `Rss` minus `Anonymous`: file-backed (and shared-memory) pages.
    public var fileBytes: Int
    /// `LazyFree`: anonymous pages given back with `MADV_FREE` that the kernel has not yet taken.
    public var lazyFreeBytes: Int

    public init(anonymousBytes: Int, fileBytes: Int, lazyFreeBytes: Int) {
        self.anonymousBytes = anonymousBytes
        self.fileBytes = fileBytes
        self.lazyFreeBytes = lazyFreeBytes
    }

    /// What the process holds that the kernel cannot take without asking: anonymous + file.
    public var heldBytes: Int { anonymousBytes + fileBytes }

    /// The footprint as iOS counts it (`phys_footprint`): dirty private memory, here the
    /// anonymous pages the process holds. iOS leaves out clean file-backed pages (the system can
    /// drop and re-read them) and purgeable memory marked volatile (here `LazyFree`, pages given
    /// back with `MADV_FREE`) — Apple, WWDC 2018 session 416 "iOS Memory Deep Dive": footprint is
    /// dirty plus compressed memory. Memory an app has freed but glibc keeps in its arenas would
    /// count too; FrugalKit trims the arenas where Darwin's allocator gives freed pages back
    /// (AllocatorRelief), so that what is measured is what the app holds.
    public var footprintBytes: Int { anonymousBytes }

    /// Parses `smaps_rollup` (`Key:   N kB` lines). Nil when `Rss` or `Anonymous` is missing.
    public static func parseSmapsRollup(_ text: String) -> MemoryBreakdown? {
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon]
            let number = line[line.index(after: colon)...].split(separator: " ").first.flatMap { Int($0) }
            if let number { fields[key] = number * 1024 }
        }
        guard let rss = fields["Rss"], let anonymous = fields["Anonymous"] else { return nil }
        let lazy = fields["LazyFree"] ?? 0
        return MemoryBreakdown(anonymousBytes: max(0, anonymous - lazy), fileBytes: max(0, rss - anonymous), lazyFreeBytes: lazy)
    }
}
