import FrugalProtocol

/// A file an app keeps through `FileStore`: the place in its sandbox, its name there, the kind
/// of data it holds and whether backups should skip it (as `NSURLIsExcludedFromBackupKey`).
public struct StoredFile: Hashable, Sendable {
    /// The sandbox directory the file is in.
    public var location: SandboxLocation
    /// The path inside the location (`notes.txt`, `downloads/map-1.bin`).
    public var name: String
    /// What the data is (critical, support, cache, temporary): where the guide says it belongs.
    public var dataClass: FileDataClass
    /// Whether the file is marked not to be backed up.
    public var excludedFromBackup: Bool

    /// The file `name` in `location`, holding `dataClass` data.
    public init(_ location: SandboxLocation, _ name: String, dataClass: FileDataClass, excludedFromBackup: Bool = false) {
        self.location = location
        self.name = name
        self.dataClass = dataClass
        self.excludedFromBackup = excludedFromBackup
    }

    /// The path relative to the sandbox root (`Documents/notes.txt`), as the journal names it.
    public var relativePath: String { location.directory.map { $0 + "/" + name } ?? name }
}
