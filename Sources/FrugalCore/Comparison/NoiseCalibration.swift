import Foundation

/// What identifies a host for comparing measurements: a calibration or a baseline taken on
/// another fingerprint says nothing about this host's noise, and is refused for gating.
public struct HostFingerprint: Codable, Sendable, Equatable {
    public var cpuModel: String
    public var cores: Int
    public var kernel: String
    /// The Swift toolchain (`swift --version`'s first line), or "unknown".
    public var toolchain: String
    /// "v1", "v2" or "hybrid" (which cgroup hierarchy is mounted).
    public var cgroupVersion: String
    /// Percent of CPU time stolen by the hypervisor while the fingerprint was taken; nil where
    /// `/proc/stat` has no steal column.
    public var stealPercent: Double?

    public init(cpuModel: String, cores: Int, kernel: String, toolchain: String, cgroupVersion: String, stealPercent: Double?) {
        self.cpuModel = cpuModel
        self.cores = cores
        self.kernel = kernel
        self.toolchain = toolchain
        self.cgroupVersion = cgroupVersion
        self.stealPercent = stealPercent
    }

    /// The steal time, in percentage points, beyond which two fingerprints differ: a neighbour
    /// taking a tenth of the CPU changes the noise a calibration measured.
    public static let stealTolerance = 10.0

    /// What differs from `other`, one phrase each; empty when they match.
    public func differences(from other: HostFingerprint) -> [String] {
        var result: [String] = []
        if cpuModel != other.cpuModel { result.append("CPU \(other.cpuModel) vs \(cpuModel)") }
        if cores != other.cores { result.append("\(other.cores) vs \(cores) cores") }
        if kernel != other.kernel { result.append("kernel \(other.kernel) vs \(kernel)") }
        if toolchain != other.toolchain { result.append("toolchain '\(other.toolchain)' vs '\(toolchain)'") }
        if cgroupVersion != other.cgroupVersion { result.append("cgroup \(other.cgroupVersion) vs \(cgroupVersion)") }
        if let mine = stealPercent, let theirs = other.stealPercent, abs(mine - theirs) > Self.stealTolerance {
            result.append("steal \(DisplayFormat.number(theirs)) % vs \(DisplayFormat.number(mine)) %")
        }
        return result
    }
}

/// Each value's noise on one host, measured by A/A runs of one build (`frugal calibrate`).
/// The comparison widens every threshold to at least ``noiseMultiple`` times it, and says so.
public struct NoiseCalibration: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    /// Thresholds are at least this many times the measured noise.
    public static let noiseMultiple = 3.0

    /// The noise of one value of one workload · scenario.
    public struct Entry: Codable, Sendable, Equatable {
        public var workload: String
        public var scenario: String
        public var kind: ComparisonEntry.Kind
        public var name: String
        public var unit: String
        public var count: Int
        public var median: Double
        /// The raw median absolute deviation.
        public var mad: Double
        /// 1.4826 × MAD: the standard deviation's robust estimate, the noise the thresholds use.
        public var noise: Double
        /// noise ÷ |median|; nil for a zero median.
        public var cv: Double?
    }

    public var schemaVersion: Int
    public var generatedAt: String
    public var fingerprint: HostFingerprint
    /// What was run, as the user named it (the command line's sides).
    public var subject: String
    public var entries: [Entry]

    public init(generatedAt: String, fingerprint: HostFingerprint, subject: String, entries: [Entry]) {
        self.schemaVersion = Self.schemaVersion
        self.generatedAt = generatedAt
        self.fingerprint = fingerprint
        self.subject = subject
        self.entries = entries
    }

    /// The noise of every audit value and metric over all runs of `report` (one build, run
    /// again and again): values measured in fewer than 3 runs are left out (no spread to speak of).
    public static func measure(_ report: Report, fingerprint: HostFingerprint, subject: String, generatedAt: String) -> NoiseCalibration {
        var entries: [Entry] = []
        for runs in RunReport.groupedByResult(report.runs) {
            guard let first = runs.first else { continue }
            func add(_ kind: ComparisonEntry.Kind, _ name: String, _ unit: String, _ values: [Double]) {
                guard values.count >= 3, let summary = try? SampleSummary(values) else { return }
                let noise = summary.scaledMAD
                entries.append(Entry(workload: first.workload, scenario: first.scenario, kind: kind, name: name, unit: unit,
                                     count: summary.count, median: summary.median, mad: summary.mad, noise: noise,
                                     cv: summary.median == 0 ? nil : noise / abs(summary.median)))
            }
            for id in Set(runs.flatMap { $0.audits.keys }).sorted() {
                add(.audit, id, runs.lazy.compactMap { $0.audits[id]?.numericUnit }.first ?? "",
                    runs.compactMap { $0.audits[id]?.numericValue }.filter(\.isFinite))
            }
            for name in Set(runs.flatMap { $0.metrics.keys }).sorted() {
                add(.metric, name, runs.lazy.compactMap { $0.metrics[name]?.unit }.first ?? "",
                    runs.compactMap { $0.metrics[name]?.value }.filter(\.isFinite))
            }
        }
        return NoiseCalibration(generatedAt: generatedAt, fingerprint: fingerprint, subject: subject, entries: entries)
    }

    /// The noise entry of one value, if measured.
    public func entry(workload: String, scenario: String, kind: ComparisonEntry.Kind, name: String) -> Entry? {
        entries.first { $0.workload == workload && $0.scenario == scenario && $0.kind == kind && $0.name == name }
    }

    /// Why this calibration cannot gate on `host`: one line; nil when it can.
    public func refusal(on host: HostFingerprint) -> String? {
        let differences = host.differences(from: fingerprint)
        guard !differences.isEmpty else { return nil }
        return "the calibration of \(generatedAt) was measured on another host (\(differences.joined(separator: ", "))): refused for gating; run frugal calibrate here"
    }
}
