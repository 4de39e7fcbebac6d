import Foundation

/// Finds the `frugal-workload-host` executable: `FRUGAL_WORKLOAD_HOST`, else beside the running
/// executable (they are built into the same directory), else on `PATH`.
public enum WorkloadHostLocator {
    public static let executableName = "frugal-workload-host"

    public static func locate() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["FRUGAL_WORKLOAD_HOST"], FileManager.default.isExecutableFile(atPath: path) { return path }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let sibling = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(executableName).path
            if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        }
        return ScenarioRunner.which(executableName)
    }
}
