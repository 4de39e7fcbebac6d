/// The app's home directory, laid out as the guide's "App Backup Best Practices" describes.
/// Paths are relative to the sandbox root; the harness creates them for each run.
public enum SandboxLayout {
    /// User documents: critical data, backed up.
    public static let documents = "Documents"
    /// Files the app needs but the user does not see; backed up.
    public static let applicationSupport = "Library/Application Support"
    /// Re-creatable caches; not backed up.
    public static let caches = "Library/Caches"
    /// Temporary files the app must delete when done; not backed up.
    public static let tmp = "tmp"
    /// The read-only app bundle with the workload's resources.
    public static let bundle = "Bundle"

    /// Every directory, in creation order.
    public static let all = [documents, applicationSupport, caches, tmp, bundle]

    /// The environment variable that gives a workload its sandbox root.
    public static let environmentVariable = FrugalProtocol.Environment.sandbox
}
