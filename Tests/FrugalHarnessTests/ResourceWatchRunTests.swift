import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// The bundle watched from outside (inotify and rchar), on real runs: what any process read of
/// its resource files, and what it mapped, whatever API it used.
final class ResourceWatchRunTests: XCTestCase {
    static let big = BundleResource(path: "data/big.bin", bytes: 24 << 20, content: .pattern, seed: 3)

    func program(_ script: String) throws -> (RunRecord, RunReport) {
        let record = try ScenarioRunnerTests.runner().run(RunPlan(target: .command(["sh", "-c", script]), scenario: BlackBoxRunTests.toItsEnd,
                                                                  repetition: 1, bundleResources: [Self.big]))
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        return (record, ReportBuilder.runReport(record))
    }

    /// A child that read the resource and exited, not yet reaped: out of the cgroup, its bytes
    /// not yet its parent's. The watch reads its batch only then (held, as on a busy machine), and
    /// still counts the copy: the zombie is read as a child of the run's process. Before, the
    /// watch read only the parent's own bytes.
    func testAChildThatReadAResourceAndIsNotYetReapedIsCounted() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("/usr/bin/python3 is not installed") }
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-resource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let file = bundle.appendingPathComponent("big.bin")
        try Data(repeating: 7, count: 24 << 20).write(to: file)
        let watch = try ResourceWatch.start(bundle: bundle, members: nil).get()
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // cat reads the file and exits; python reaps it only after 3 s.
        python.arguments = ["-c", "import subprocess, sys, time\np = subprocess.Popen(['cat', sys.argv[1]], stdout=subprocess.DEVNULL)\ntime.sleep(3)\np.wait()\n", file.path]
        try watch.holdingEvents {
            try python.run()
            watch.follow(python.processIdentifier)
            // Until cat is a zombie: its state in /proc is Z.
            let deadline = Date().addingTimeInterval(2.5)
            while Date() < deadline {
                usleep(50_000)
                guard let children = try? String(contentsOfFile: "/proc/\(python.processIdentifier)/task/\(python.processIdentifier)/children", encoding: .utf8),
                      let cat = children.split(separator: " ").first,
                      let status = try? String(contentsOfFile: "/proc/\(cat)/stat", encoding: .utf8) else { continue }
                if status.contains(") Z ") { break }
            }
        }
        watch.settle()
        python.waitUntilExit()
        let trace = watch.finish()
        let use = try XCTUnwrap(trace.accesses.first { $0.path == "big.bin" }, "\(trace)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(use.bytesReadAtMost), 24 << 20, "the zombie cat's rchar")
    }

    func testAProgramCopyingALargeResourceWholeFailsAndOneReadingAPortionPasses() throws {
        // cat reads the 24 MiB file whole into its buffers; tail -c seeks to the end and reads 4 KiB.
        // The shell lives 0.5 s after the read: rchar is sampled while the process lives, and a
        // cat that read and exited between two samples once left only the loader's 3,980 bytes.
        let (whole, wholeReport) = try program(#"cat "$HOME/Bundle/data/big.bin" > /dev/null; sleep 0.5"#)
        let trace = try XCTUnwrap(whole.resources)
        XCTAssertNil(trace.unavailable)
        XCTAssertEqual(trace.files, [ResourceTrace.File(path: "data/big.bin", bytes: 24 << 20)], "the subdirectory's file, by its path under the bundle")
        let use = try XCTUnwrap(trace.accesses.first { $0.path == "data/big.bin" })
        XCTAssertGreaterThan(use.reads, 0, "read() raises IN_ACCESS")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(use.bytesReadAtMost), 24 << 20, "rchar moved by the whole file at least")
        let copied = try XCTUnwrap(wholeReport.audits["memory.map-large-resources"])
        XCTAssertEqual(copied.numericValue, Double(24 << 20), copied.displayValue)
        XCTAssertLessThan(try XCTUnwrap(copied.score), 0.5)
        XCTAssertEqual(wholeReport.audits["memory.lazy-resources"]?.scoreDisplayMode, .notApplicable)

        // The shell lives on after tail, as after cat above: a tail that opened, read and exited
        // between two samples beside a busy neighbour once left the value unavailable.
        let (_, portionReport) = try program(#"tail -c 4096 "$HOME/Bundle/data/big.bin" > /dev/null; sleep 0.5"#)
        let portion = try XCTUnwrap(portionReport.audits["memory.map-large-resources"])
        XCTAssertLessThan(try XCTUnwrap(portion.numericValue), Double(1 << 20), portion.displayValue)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(portion.score), 0.9)

        // A program that never opens its resources has nothing to judge.
        let (_, idleReport) = try program("true")
        XCTAssertEqual(idleReport.audits["memory.map-large-resources"]?.scoreDisplayMode, .notApplicable)
    }

    /// A built-in workload under its default scenario, with its bundle: the memory pair tests'
    /// run of it (``ScheduledRuns/pairs``), not one more.
    func builtIn(_ workload: String) throws -> RunRecord {
        let record = try ScheduledRuns.pairs.record(workload)
        XCTAssertEqual(record.scenario, WorkloadCatalogue.named(workload)?.defaultScenarios.first, workload)
        return record
    }

    func testAMappedResourceShowsNoReadsAndPreloadedOnesShowEveryRead() throws {
        // atlas.maps maps its 64 MiB atlas (FrugalKit's MappedResource: mmap) and touches 1 MiB.
        let mapped = try XCTUnwrap(try builtIn("atlas.maps").resources)
        let atlas = mapped.accesses.filter { $0.path == "atlas.bin" }
        XCTAssertFalse(atlas.isEmpty, "\(mapped)")
        XCTAssertTrue(atlas.allSatisfy { $0.reads == 0 }, "page faults raise no IN_ACCESS: \(atlas)")
        XCTAssertTrue(atlas.contains { $0.mapped }, "found in /proc/<pid>/maps: \(atlas)")
        // startup.preloads reads its 8 screens' 1 MiB files at launch, before the input that opens one.
        let record = try builtIn("startup.preloads")
        let trace = try XCTUnwrap(record.resources)
        let early = ResourceReads(trace).uses.filter { $0.access.opened < record.firstInputTime && $0.access.reads > 0 }
        XCTAssertEqual(Set(early.map(\.path)).count, 8, "\(trace.accesses)")
        let total = try XCTUnwrap(ResourceReads.bytesByFile(early).bytes)
        XCTAssertEqual(total, 8 << 20, "each at most its size, the eight together what rchar moved")
    }
}
