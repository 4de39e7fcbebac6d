/// Where a file sits in the app's home, as the guide's "App Backup Best Practices" names the
/// places, and whether backups copy it.
public enum SandboxLocation: String, Codable, Sendable, CaseIterable {
    /// `Documents`: critical, user-made data; backed up.
    case documents
    /// `Library/Application Support`: support files; backed up unless excluded.
    case applicationSupport = "support"
    /// `Library/Caches`: re-creatable caches; not backed up.
    case caches
    /// `tmp`: temporary files; not backed up.
    case tmp
    /// Elsewhere in `Library`; backed up.
    case library
    /// The read-only app bundle (not backed up on every sync).
    case bundle
    /// Outside the guide's layout (the sandbox root itself).
    case other

    /// The location of `relativePath` (a path relative to the sandbox root, `Documents/a.txt`).
    public init(relativePath: String) {
        func under(_ directory: String) -> Bool { relativePath == directory || relativePath.hasPrefix(directory + "/") }
        if under(SandboxLayout.documents) { self = .documents }
        else if under(SandboxLayout.applicationSupport) { self = .applicationSupport }
        else if under(SandboxLayout.caches) { self = .caches }
        else if under(SandboxLayout.tmp) { self = .tmp }
        else if under("Library") { self = .library }
        else if under(SandboxLayout.bundle) { self = .bundle }
        else { self = .other }
    }

    /// The directory relative to the sandbox root, for the places an app writes to.
    public var directory: String? {
        switch self {
        case .documents: return SandboxLayout.documents
        case .applicationSupport: return SandboxLayout.applicationSupport
        case .caches: return SandboxLayout.caches
        case .tmp: return SandboxLayout.tmp
        case .library: return "Library"
        case .bundle: return SandboxLayout.bundle
        case .other: return nil
        }
    }

    /// Whether iCloud and iTunes back up files here (unless a file is excluded from backup).
    /// The guide: they "do not back up the contents of" the bundle, `Library/Caches` and `tmp`.
    /// Files outside the layout are counted as not backed up: the guide says nothing of them.
    public var isBackedUp: Bool {
        switch self {
        case .documents, .applicationSupport, .library: return true
        case .caches, .tmp, .bundle, .other: return false
        }
    }

    /// A short name for tables (`Documents`, `Support`, `Caches`, `tmp`).
    public var title: String {
        switch self {
        case .documents: return "Documents"
        case .applicationSupport: return "Support"
        case .caches: return "Caches"
        case .tmp: return "tmp"
        case .library: return "Library"
        case .bundle: return "Bundle"
        case .other: return "other"
        }
    }
}

/// What kind of data a file holds, as the app declares it to FrugalKit's `FileStore` (the guide's
/// four kinds: critical, support, cached, temporary).
public enum FileDataClass: String, Codable, Sendable, CaseIterable {
    /// Data the app cannot re-create (user documents): belongs in `Documents`.
    case critical
    /// Files the app can re-create but needs: `Library/Application Support`, excluded from backup.
    case support
    /// Cached data: `Library/Caches`.
    case cache
    /// Data not needed for long: `tmp`, deleted when done.
    case temporary

    /// Whether the app could re-create the data, so backing it up wastes the user's time and space.
    public var isRecreatable: Bool { self != .critical }
}

/// How FrugalKit marks a file as excluded from backup (as `NSURLIsExcludedFromBackupKey` does).
public enum BackupExclusion {
    /// The extended attribute set on an excluded file where the file system supports them.
    public static let attributeName = "user.frugal.exclude-from-backup"
    /// Where the file system has no extended attributes: a record at the sandbox root listing
    /// excluded paths (relative to the root), one a line.
    public static let sidecarPath = ".frugal-exclude-from-backup"

    /// The paths a sidecar record lists.
    public static func parseSidecar(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").map(String.init).filter { !$0.isEmpty })
    }
}

/// How a file's exclusion from backup is recorded.
public enum BackupExclusionMechanism: String, Codable, Sendable {
    /// The extended attribute `user.frugal.exclude-from-backup`.
    case extendedAttribute = "xattr"
    /// The sidecar record at the sandbox root (the file system has no extended attributes).
    case sidecar
}
