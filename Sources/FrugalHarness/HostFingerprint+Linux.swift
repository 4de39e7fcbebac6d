import Foundation
import FrugalCore
import FrugalProbe

extension HostFingerprint {
    /// This host's fingerprint: `/proc/cpuinfo`'s model name, online cores, the kernel release,
    /// the Swift toolchain (`swift --version`, or `FRUGAL_TOOLCHAIN` when set: a CI image names
    /// its own), which cgroup hierarchy is mounted, and the steal time over `stealWindow` seconds
    /// of `/proc/stat`.
    public static func current(stealWindow: Double = 1) -> HostFingerprint {
        let machine = EnvironmentSurvey.machine()
        let cpuinfo = (try? FileReader.readText("/proc/cpuinfo")) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return HostFingerprint(cpuModel: model, cores: machine.cores, kernel: machine.kernel, toolchain: toolchain(),
                               cgroupVersion: cgroupVersion(), stealPercent: stealPercent(over: stealWindow))
    }

    /// The first line of `swift --version`.
    static func toolchain() -> String {
        if let named = ProcessInfo.processInfo.environment["FRUGAL_TOOLCHAIN"], !named.isEmpty { return named }
        guard let result = try? GitRevisionBuilder.execute("/usr/bin/env", ["swift", "--version"], in: nil, capture: true),
              result.status == 0 else { return "unknown" }
        return result.output.split(separator: "\n").first { $0.contains("Swift version") }.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? "unknown"
    }

    /// "v2" when `/sys/fs/cgroup` is the unified hierarchy, "v1" when it holds v1 controllers,
    /// "hybrid" when both are mounted.
    static func cgroupVersion() -> String {
        let unified = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cgroup.controllers")
        let v1 = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory") || FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cpu")
        let hybrid = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/unified/cgroup.controllers")
        if unified && !v1 { return "v2" }
        if v1 && (hybrid || unified) { return "hybrid" }
        return v1 ? "v1" : "none"
    }

    /// Percent of all CPU time that was steal over `seconds` (the first line of `/proc/stat`).
    static func stealPercent(over seconds: Double) -> Double? {
        func sample() -> (steal: Double, total: Double)? {
            guard let text = try? FileReader.readText("/proc/stat"),
                  let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
            let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
            guard fields.count >= 8 else { return nil }
            // user nice system idle iowait irq softirq steal [guest guest_nice, already in user]
            return (fields[7], fields.prefix(8).reduce(0, +))
        }
        guard let first = sample() else { return nil }
        Thread.sleep(forTimeInterval: seconds)
        guard let second = sample(), second.total > first.total else { return nil }
        return ((second.steal - first.steal) / (second.total - first.total) * 1000).rounded() / 10
    }
}
