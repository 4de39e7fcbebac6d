/// The protocol between the harness and an app built against FrugalKit, defined once: the
/// descriptor numbers, the environment variables, and the version both sides must share.
///
/// The harness starts the app with the control pipe's read end on fd 3 and the event pipe's
/// write end on fd 4. It writes one `ControlMessage` per line on the control pipe; the app writes
/// one `WorkloadEvent` per line on the event pipe, starting with `hello`, which carries
/// `FrugalProtocol.version`. A harness that reads another version ends the run at once and asks
/// for the app to be rebuilt against its FrugalKit.
public enum FrugalProtocol {
    /// The protocol's version. Raise it whenever a control message, an event, a descriptor or an
    /// environment variable changes in a way the other side cannot read: an app built against
    /// another version is refused at its hello, never blamed for what it could not understand.
    /// Version 0 is an app whose hello carries no version (built before versioning).
    public static let version = 1

    /// The descriptor on which the app reads control messages.
    public static let controlFD: Int32 = 3
    /// The descriptor on which the app writes events.
    public static let eventFD: Int32 = 4

    /// The environment variables the harness sets for the app, and those the app reads.
    public enum Environment {
        /// The control pipe's descriptor (`3`).
        public static let controlFD = "FRUGAL_CONTROL_FD"
        /// The event pipe's descriptor (`4`).
        public static let eventFD = "FRUGAL_EVENT_FD"
        /// The protocol version the harness speaks.
        public static let protocolVersion = "FRUGAL_PROTOCOL_VERSION"
        /// The app to run, by name, when an executable holds several.
        public static let app = "FRUGAL_APP"
        /// The shaping proxy, `HOST:PORT`.
        public static let proxy = "FRUGAL_PROXY"
        /// The app's sandbox root (Documents, Library, tmp, Bundle).
        public static let sandbox = "FRUGAL_SANDBOX"
        /// `rusage` makes the runtime count with `getrusage` instead of PAPI.
        public static let counters = "FRUGAL_COUNTERS"
        /// `sidecar` forces FileStore's backup-exclusion mechanism (for tests).
        public static let backupExclusion = "FRUGAL_BACKUP_EXCLUSION"
    }

    /// The line an app prints when it is started by hand rather than by the harness.
    public static func startedByHandMessage(executable: String) -> String {
        "\(executable): this is a Frugal app; it must be started by `frugal run` (name it in frugal.yml), not by hand"
    }

    /// The line the harness prints when an app's hello names another version.
    public static func mismatchMessage(app: String, appVersion: Int) -> String {
        "\(app) speaks Frugal protocol \(appVersion), this frugal speaks \(version): rebuild the app against this Frugal's FrugalKit"
    }
}
