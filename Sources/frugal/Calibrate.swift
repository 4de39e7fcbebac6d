import ArgumentParser
import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline
import FrugalReport

/// `frugal calibrate`: A/A runs of one build on this host; each value's noise, with the host's
/// fingerprint, for `frugal compare --calibration` and `frugal ab --calibration`.
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Measure each value's noise on this host (A/A runs of one build) and store it with the host's fingerprint.",
        discussion: """
        Runs the same build twice over, interleaved ABBA as frugal ab does, and stores each metric's and \
        audit value's noise (1.4826 × MAD, and its ratio to the median) with this host's fingerprint: \
        CPU model, cores, kernel, toolchain, cgroup version, steal time. A comparison given the \
        file widens every threshold to at least 3 × the noise and says so; a calibration from \
        another fingerprint is refused with one line (exit 1).
        """)

    @OptionGroup var ab: ABOptions

    @Option(help: ArgumentHelp("Where the calibration is written.", valueName: "file"))
    var out = ".frugal/calibration.json"

    func run() throws {
        let directory = URL(fileURLWithPath: out).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ReportInput.checkOutputs([("--out", out)])
        var options = ab
        options.maxRepeat = options.repetitions
        var side = ab.baseSide()
        side.label = "A"
        var other = side
        other.label = "A′"
        let session = options.session(base: side, head: other)
        let result = try session.runFromCommandLine(out: directory)
        var all = result.head
        all.runs = result.base.runs + result.head.runs
        let fingerprint = HostFingerprint.current()
        let calibration = NoiseCalibration.measure(all, fingerprint: fingerprint, subject: session.describe(side),
                                                   generatedAt: ISO8601DateFormatter().string(from: Date()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try ReportInput.write(try encoder.encode(calibration), to: out)
        print("host: \(fingerprint.cpuModel), \(fingerprint.cores) cores, kernel \(fingerprint.kernel), \(fingerprint.toolchain), cgroup \(fingerprint.cgroupVersion), steal \(fingerprint.stealPercent.map { DisplayFormat.number($0) + " %" } ?? "unavailable")")
        for entry in calibration.entries where entry.noise > 0 {
            print("  \(entry.workload) · \(entry.scenario) · \(entry.name): median \(DisplayFormat.number(entry.median)) \(entry.unit), noise \(String(format: "%.3g", entry.noise))\(entry.cv.map { String(format: " (CV %.1f%%)", $0 * 100) } ?? "") over \(entry.count) runs")
        }
        let quiet = calibration.entries.filter { $0.noise == 0 }.count
        print("\(calibration.entries.count) values measured, \(quiet) without noise; wrote \(out)")
    }

    /// A calibration file for gating on this host: refused (one line, exit 1) when it was measured
    /// on another fingerprint.
    static func loadForGating(_ path: String) throws -> NoiseCalibration {
        let data: Data
        // The kind first: a FIFO would be waited on for ever.
        var info = stat()
        if stat(path, &info) == 0, let kind = FileKind.nonRegular(mode: info.st_mode) {
            throw CLIFailure.badInput("cannot read the calibration \(path): it is \(kind), not a calibration file")
        }
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIFailure.badInput("cannot read the calibration \(path): \(ErrorText.reason(error))")
        }
        let calibration: NoiseCalibration
        do {
            calibration = try JSONDecoder().decode(NoiseCalibration.self, from: data)
        } catch let error as DecodingError {
            throw CLIFailure.badInput("\(path) is not a frugal calibration: \(DecodingErrorText.describe(error, data: data))")
        } catch {
            throw CLIFailure.badInput("\(path) is not a frugal calibration: \(ErrorText.reason(error))")
        }
        if let refusal = calibration.refusal(on: HostFingerprint.current()) {
            throw CLIFailure.badInput("\(path): \(refusal)")
        }
        return calibration
    }
}
