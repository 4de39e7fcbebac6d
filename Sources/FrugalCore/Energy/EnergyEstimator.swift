/// Turns a run's metrics into its energy under a device profile. Pure.
public enum EnergyEstimator {
    /// Metric names this estimator reads.
    public enum Input {
        public static let diskWriteOps = "disk.writeOps"
        /// The radio model's energy for the run's network trace (the network area provides it).
        public static let radioJoules = MetricName.networkRadioJoules
    }

    /// The energy of a run with `metrics` lasting `seconds`.
    public static func estimate(metrics: [String: MetricValue], seconds: Double, profile: DeviceProfile = .reference) -> RunEnergy {
        var unavailable: [String: String] = [:]
        var notes: [String] = []
        var parts: [String: Double] = [:]

        let cpuSeconds = metrics[MetricName.cpuTimeSeconds]
        let wakeups = metrics[MetricName.cpuWakeups]
        if let time = cpuSeconds?.value, let count = wakeups?.value {
            parts["cpu"] = profile.cpu.joules(cpuSeconds: time, wakeups: count)
        } else {
            let missing = [(MetricName.cpuTimeSeconds, cpuSeconds), (MetricName.cpuWakeups, wakeups)]
                .filter { $0.1?.value == nil }
                .map { "\($0.0) (\($0.1?.unavailable ?? "not measured"))" }
            unavailable["cpu"] = "needs " + missing.joined(separator: " and ")
        }

        let bytes = metrics[MetricName.diskPhysicalBytesWritten]?.value
        let operations = metrics[Input.diskWriteOps]?.value
        if bytes != nil || operations != nil {
            parts["disk"] = profile.disk.joules(operations: operations ?? 0, bytes: bytes ?? 0)
            if operations == nil { notes.append("disk: \(Input.diskWriteOps) was not measured, so the per-operation energy is left out") }
            if bytes == nil { notes.append("disk: \(MetricName.diskPhysicalBytesWritten) was not measured, so the per-byte energy is left out") }
        } else {
            unavailable["disk"] = "needs \(MetricName.diskPhysicalBytesWritten) or \(Input.diskWriteOps); neither was measured"
        }

        if let radio = metrics[Input.radioJoules]?.value {
            parts["radio"] = radio
        } else {
            unavailable["radio"] = metrics[Input.radioJoules]?.unavailable ?? "the run has no network trace"
        }

        // Measured, not modelled: beside the parts, never in the total.
        let measured = metrics[MetricName.energyMeasuredJoules]
        if measured?.value == nil {
            unavailable["measured"] = measured?.unavailable ?? "the machine's energy was not read"
        }

        let total: Double? = parts.isEmpty ? nil : parts.values.reduce(0, +)
        for part in ["cpu", "disk", "radio"] where unavailable[part] != nil && total != nil {
            notes.append("totalJoules leaves out \(part): unavailable")
        }
        return RunEnergy(cpuJoules: parts["cpu"], diskJoules: parts["disk"], radioJoules: parts["radio"], totalJoules: total,
                         unavailable: unavailable,
                         models: ["cpu": profile.cpu.name, "disk": profile.disk.name, "radio": profile.radio],
                         deviceProfile: profile.name, notes: notes,
                         impact: total == nil ? nil : EnergyImpact.of(parts: parts, seconds: seconds),
                         measuredJoules: measured?.value, measuredSource: measured?.source)
    }

    /// Medians of each part over `runs`, and the impact of the medians over the median duration.
    public static func aggregate(_ runs: [(energy: RunEnergy, seconds: Double)]) -> AggregatedEnergy? {
        guard !runs.isEmpty else { return nil }
        func median(_ values: [Double?]) -> Double? { SampleSummary.median(values.compactMap { $0 }) }
        let cpu = median(runs.map(\.energy.cpuJoules))
        let disk = median(runs.map(\.energy.diskJoules))
        let radio = median(runs.map(\.energy.radioJoules))
        var parts: [String: Double] = [:]
        parts["cpu"] = cpu
        parts["disk"] = disk
        parts["radio"] = radio
        let seconds = median(runs.map(\.seconds)) ?? 0
        return AggregatedEnergy(cpuJoules: cpu, diskJoules: disk, radioJoules: radio,
                                totalJoules: median(runs.map(\.energy.totalJoules)),
                                impact: parts.isEmpty ? nil : EnergyImpact.of(parts: parts, seconds: seconds),
                                measuredJoules: median(runs.map(\.energy.measuredJoules)))
    }
}
