import Foundation
import Synchronization
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads
import FrugalProbe

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

    /// A bundle of its own in the temporary directory holding `big.bin`, 24 MiB; the caller removes it.
    static func bundleWithABigFile() throws -> (bundle: URL, file: URL) {
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-resource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let file = bundle.appendingPathComponent("big.bin")
        do {
            try Data(repeating: 7, count: 24 << 20).write(to: file)
        } catch {
            try? FileManager.default.removeItem(at: bundle)
            throw error
        }
        return (bundle, file)
    }

    /// A child that read the resource and exited, not yet reaped: out of the cgroup, its bytes
    /// not yet its parent's. The watch reads its batch only then (held, as on a busy machine), and
    /// still counts the copy: the zombie is read as a child of the run's process. Before, the
    /// watch read only the parent's own bytes.
    func testAChildThatReadAResourceAndIsNotYetReapedIsCounted() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("/usr/bin/python3 is not installed") }
        let (bundle, file) = try Self.bundleWithABigFile()
        defer { try? FileManager.default.removeItem(at: bundle) }
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

    /// The run's main process read the resource and exited, and the harness reaped it (its bytes
    /// are now the harness's) before the watch read the batch. The watch counts the `rchar` the
    /// harness read at the exit. Before, the batch's reading found no process and left the use's
    /// bytes unknown.
    func testAMainProcessReapedBeforeItsBatchIsReadIsCountedFromItsExit() throws {
        let (bundle, file) = try Self.bundleWithABigFile()
        defer { try? FileManager.default.removeItem(at: bundle) }
        let watch = try ResourceWatch.start(bundle: bundle, members: nil).get()
        let bytesAtExit = Mutex<Int?>(nil)
        try watch.holdingEvents {
            // As the harness's reaper does: wait for the exit without reaping, read, then reap.
            let arguments = ["/bin/sh", "-c", #"exec cat "$0" > /dev/null"#, file.path]
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
            guard spawned == 0 else { throw SystemCallError(call: "posix_spawn", subject: arguments[0], errno: spawned) }
            watch.follow(pid, bytesAtExit: { bytesAtExit.withLock { $0 } })
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let fields = ProcFS.parseIO(try FileReader.readText("/proc/\(pid)/io"))
            bytesAtExit.withLock { $0 = fields["rchar"] }
            var status: Int32 = 0
            _ = try SystemCall.retrying("waitpid") { waitpid(pid, &status, 0) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: "/proc/\(pid)/io"), "reaped before the batch is read")
        }
        watch.settle()
        let trace = watch.finish()
        let use = try XCTUnwrap(trace.accesses.first { $0.path == "big.bin" }, "\(trace)")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(use.bytesReadAtMost, "\(trace)"), 24 << 20, "cat's rchar at its exit")
    }

    /// Children are read before their parents, so a child reaped between two reads is counted in
    /// its parent's; processes in no list now (reaped earlier, or orphaned zombies) come first.
    func testRcharIsReadFromTheDeepestChildUp() {
        // 10 → 20 → 30 → 40, 10 → 21; 5 was seen before and is in no list now.
        let parents: [pid_t: pid_t] = [20: 10, 21: 10, 30: 20, 40: 30]
        let order = ResourceWatch.readingOrder([10, 20, 21, 30, 40], parents: parents, seen: [5, 10, 20])
        XCTAssertEqual(order.first, 5)
        XCTAssertEqual(Set(order), [5, 10, 20, 21, 30, 40])
        for (child, parent) in parents {
            XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: child)), try XCTUnwrap(order.firstIndex(of: parent)), "\(child) before its parent \(parent): \(order)")
        }
        // pids reused while the lists were read can make a cycle: the order still ends.
        XCTAssertEqual(Set(ResourceWatch.readingOrder([1, 2], parents: [1: 2, 2: 1], seen: [])), [1, 2])
    }

    func testAProgramCopyingALargeResourceWholeFailsAndOneReadingAPortionPasses() throws {
        // cat reads the 24 MiB file whole into its buffers; tail -c seeks to the end and reads 4 KiB.
        // Each is the shell's child, reaped by the shell while the watch may be reading: a cat
        // reaped between the shell's read and its own once left only the shell's 3,980 bytes
        // (children are now read first: testRcharIsReadFromTheDeepestChildUp).
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
        // between two readings beside a busy neighbour once left the value unavailable.
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
