extension EnvironmentInfo {
    /// How the machine of `other` differs from this one, as a reader would say it: hostname,
    /// cores, memory (by more than 1 %: a VM re-provisioned with the same size reports a few
    /// hundred KiB either way), VM or not. Empty for the same machine; the kernel and PAPI are
    /// named only beside such a difference, since an upgrade in place is still the same box.
    /// Timing, counters and contention all depend on these, so a comparison across machines is
    /// weaker than one within a machine.
    public func machineDifferences(from other: EnvironmentInfo) -> [String] {
        var differences: [String] = []
        if hostname != other.hostname { differences.append("hostname \(other.hostname) → \(hostname)") }
        if cores != other.cores { differences.append("\(other.cores) → \(cores) cores") }
        // In Double: a report's memoryBytes may be anything an Int holds (−2⁶³ once trapped here).
        if abs(Double(memoryBytes) - Double(other.memoryBytes)) > 0.01 * Double(max(memoryBytes, other.memoryBytes)) {
            differences.append("memory \(ByteCount.format(other.memoryBytes)) → \(ByteCount.format(memoryBytes))")
        }
        if virtualMachine != other.virtualMachine {
            differences.append("virtual machine \(other.virtualMachine.map(String.init) ?? "?") → \(virtualMachine.map(String.init) ?? "?")")
        }
        guard !differences.isEmpty else { return [] }
        if kernel != other.kernel { differences.append("kernel \(other.kernel) → \(kernel)") }
        if papiVersion != other.papiVersion { differences.append("PAPI \(other.papiVersion ?? "none") → \(papiVersion ?? "none")") }
        return differences
    }
}

extension Report {
    /// Every machine whose runs are in the report: `environment` first.
    public var environments: [EnvironmentInfo] { [environment] + (otherEnvironments ?? []) }

    /// A warning when `baseline` was measured on another machine than this report (or when
    /// either holds several); nil when both come from the same one.
    public func crossMachineWarning(against baseline: Report) -> String? {
        let mine = environments, theirs = baseline.environments
        if mine.count == 1 && theirs.count == 1 {
            let differences = environment.machineDifferences(from: baseline.environment)
            guard !differences.isEmpty else { return nil }
            return "the baseline was measured on another machine (\(differences.joined(separator: ", "))): timing and counter values may differ for that reason alone"
        }
        let names = { (list: [EnvironmentInfo]) in list.map(\.hostname).joined(separator: ", ") }
        if Set(mine.map(\.hostname)) == Set(theirs.map(\.hostname)) { return nil }
        return "the baseline ran on \(names(theirs)) and this report on \(names(mine)): timing and counter values may differ for that reason alone"
    }
}
