/// A CPU's energy: power while running and a fixed cost per wakeup. Pure.
///
/// Energy = CPU-seconds × `runningWatts` + wakeups × `wakeupJoules`. Running power is charged
/// per CPU-second (so two busy threads for 1 s cost 2 s of it); a wakeup is charged for leaving
/// and re-entering the idle state, which costs energy however little work the wakeup does.
public struct CPUEnergyModel: Codable, Sendable, Equatable {
    public var name: String
    /// Power of one core at full utilisation.
    public var runningWatts: ModelConstant
    /// Energy of one wakeup (a voluntary context switch that ends a sleep).
    public var wakeupJoules: ModelConstant

    public init(name: String, runningWatts: ModelConstant, wakeupJoules: ModelConstant) {
        self.name = name
        self.runningWatts = runningWatts
        self.wakeupJoules = wakeupJoules
    }

    /// Joules for `cpuSeconds` of running and `wakeups` wakeups.
    public func joules(cpuSeconds: Double, wakeups: Double) -> Double {
        cpuSeconds * runningWatts.value + wakeups * wakeupJoules.value
    }

    /// PowerTutor's HTC Dream (G1) CPU model (Zhang et al., "Accurate Online Power Estimation and
    /// Automatic Battery Behavior Based Power Model Generation for Smartphones", CODES+ISSS 2010,
    /// Table 2): β_uh = 4.34 mW per % utilisation at 384 MHz, and β_CPU = 121.46 mW while the CPU
    /// is on. At 100 % that is 434 + 121.46 = 555.46 mW.
    public static let htcDreamPowerTutor = CPUEnergyModel(
        name: "cpu-powertutor-htc-dream",
        runningWatts: .cited(0.55546, "W",
                             "Zhang et al., CODES+ISSS 2010 (PowerTutor), Table 2, HTC Dream: 4.34 mW/% × 100 % + 121.46 mW CPU-on"),
        wakeupJoules: .assumed(0.00024292, "J",
                               "121.46 mW CPU-on power (Zhang et al. 2010) × 2 ms awake per wakeup (idle exit, scheduling, idle entry); the 2 ms is assumed, not measured"))
}
