/// Process totals from `wait4`/`getrusage`: the kernel's own accounting, dead threads included.
public struct ResourceUsage: Codable, Sendable, Equatable {
    public var userSeconds: Double
    public var systemSeconds: Double
    public var voluntaryContextSwitches: Int
    public var involuntaryContextSwitches: Int
    /// Peak resident set in bytes (`ru_maxrss` is in KiB on Linux).
    public var maxResidentBytes: Int
    public var majorFaults: Int
    public var minorFaults: Int
    public init(userSeconds: Double, systemSeconds: Double, voluntaryContextSwitches: Int,
                involuntaryContextSwitches: Int, maxResidentBytes: Int, majorFaults: Int, minorFaults: Int) {
        self.userSeconds = userSeconds
        self.systemSeconds = systemSeconds
        self.voluntaryContextSwitches = voluntaryContextSwitches
        self.involuntaryContextSwitches = involuntaryContextSwitches
        self.maxResidentBytes = maxResidentBytes
        self.majorFaults = majorFaults
        self.minorFaults = minorFaults
    }
}
