/// Energy the machine measured over a run (RAPL through Linux's powercap, the counters PAPI's
/// `powercap` and `rapl` components read too), beside the modelled energy of ``RunEnergy``.
///
/// It is the whole package's energy, every process on it (the harness, other jobs) and not the
/// app's alone, over the run's wall time: a measurement of the machine that ran the app, not of
/// the reference device the model prices. A machine without RAPL (a VM, most ARM boards) gives
/// the reason, never 0.
public struct MeasuredEnergy: Codable, Sendable, Equatable {
    /// Joules over the run; nil when not measured.
    public var joules: Double?
    /// Seconds between the two readings.
    public var seconds: Double?
    /// The zones summed (`intel-rapl:0 package-0`).
    public var zones: [String]
    /// Where the readings come from (`powercap:/sys/class/powercap/intel-rapl:*/energy_uj`).
    public var source: String
    /// Why there is no measurement; nil when measured.
    public var unavailable: String?

    public init(joules: Double, seconds: Double, zones: [String], source: String) {
        self.joules = joules
        self.seconds = seconds
        self.zones = zones
        self.source = source
    }

    public init(unavailable reason: String, source: String) {
        self.zones = []
        self.source = source
        self.unavailable = reason
    }

    /// Two processes of one run (a relaunch) together; unavailable if either is.
    public func adding(_ other: MeasuredEnergy) -> MeasuredEnergy {
        if let reason = unavailable ?? other.unavailable { return MeasuredEnergy(unavailable: reason, source: source) }
        return MeasuredEnergy(joules: (joules ?? 0) + (other.joules ?? 0), seconds: (seconds ?? 0) + (other.seconds ?? 0),
                              zones: zones, source: source)
    }
}

extension MetricName {
    /// The package energy RAPL measured over the run (powercap), joules: the whole machine's
    /// package, not the app alone, beside the modelled `cpu`, `disk` and `radio` energy.
    public static let energyMeasuredJoules = "energy.measuredJoules"
}

extension MetricExtraction {
    /// `energy.measuredJoules` from the record, or unavailable with the reason the machine gave.
    @Sendable static func measuredEnergyMetrics(_ analysis: RunAnalysis, _ metrics: inout [String: MetricValue]) {
        let measured = analysis.record.measuredEnergy
        let source = measured.map { "\($0.source) (\($0.zones.isEmpty ? "package" : $0.zones.joined(separator: ", ")); the whole package, every process on it)" }
            ?? "powercap:intel-rapl"
        if let joules = measured?.joules, measured?.unavailable == nil {
            metrics[MetricName.energyMeasuredJoules] = MetricValue(joules, unit: "J", source: source)
        } else {
            metrics[MetricName.energyMeasuredJoules] = .unavailable(unit: "J", source: source,
                                                                    reason: measured?.unavailable ?? "the machine's energy was not read")
        }
    }
}
