import Foundation
import FrugalProbe
import XCTest
@testable import FrugalHarness

/// The sync counters of a black-box program, on its cgroup. Counting by pid attaches after the
/// program is spawned, and a program that syncs at once could make its calls before that: under
/// load, `BlackBoxRunTests.testAProgramsSyncsAreCountedByTheKernel` read 0 of 10. Counters on the
/// run's cgroup are opened before anything enters it, so no call can come first.
final class SyncCallCountersTests: XCTestCase {
    func testTheGroupCountsEverySyncOfAProcessThatSyncsAsSoonAsItStarts() throws {
        guard geteuid() == 0 else { throw XCTSkip("cgroup perf events need root (and a v2 cgroup this process may create)") }
        let group: RunCgroup
        switch RunCgroup.create(label: "sync-counters-test", only: .v2) {
        case .success(let made): group = made
        case .failure(let error): throw XCTSkip("no v2 run cgroup here: \(error)")
        }
        defer { group.remove() }
        let session: SyncCallSession
        switch SyncCallCounters().attach(cgroupPath: group.path) {
        case .success(let opened): session = opened
        case .failure(let reason): throw XCTSkip("syscall tracepoints cannot be counted on a cgroup here: \(reason)")
        }
        defer { session.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-sync-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The shell joins the group, then dd syncs at once: two fsyncs and one fdatasync, the
        // first of them within a millisecond of the exec.
        let script = """
        echo $$ > \(group.procsPath) && \
        dd if=/dev/zero of=\(directory.path)/a bs=512 count=1 conv=fsync status=none && \
        dd if=/dev/zero of=\(directory.path)/b bs=512 count=1 conv=fsync status=none && \
        dd if=/dev/zero of=\(directory.path)/c bs=512 count=1 conv=fdatasync status=none
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let counts = try XCTUnwrap(session.read())
        XCTAssertEqual(counts, [2, 1, 0], "fsync, fdatasync, sync_file_range as the kernel counted them")
    }
}
