import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe

/// The end-of-run search walks the kernel's child lists from the harness and the run's main
/// process down (ChildSubreaper+Tree.swift) instead of reading every process of the machine: it
/// must find what the full scan finds, grandchildren and adopted orphans included.
final class ChildSubreaperTreeTests: XCTestCase {
    func testTheTreeWalkFindsWhatTheFullScanFinds() throws {
        guard ChildSubreaper.childListsAvailable else { throw XCTSkip("this kernel has no /proc/<pid>/task/<tid>/children (CONFIG_PROC_CHILDREN)") }
        guard ChildSubreaper.enable() == nil else { throw XCTSkip("prctl(PR_SET_CHILD_SUBREAPER) is refused here") }
        let marker = "107.\(getpid() % 1000)"
        defer {
            ChildSubreaperTests.killLeftovers("sleep \(marker)1")
            ChildSubreaperTests.killLeftovers("sleep \(marker)2")
            ChildSubreaperTests.killLeftovers("sleep \(marker)3")
        }
        // A child with a child, a grandchild below a second shell, and an orphan (the subshell
        // exits at once, so its sleep is reparented to this process, the subreaper).
        let script = "sleep \(marker)1 & sh -c 'sleep \(marker)2 & wait' & (sleep \(marker)3 &); wait"
        let arguments = ["/bin/sh", "-c", script]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var root: pid_t = 0
        let status = posix_spawn(&root, "/bin/sh", nil, nil, argv, environ)
        XCTAssertEqual(status, 0)
        let own = getpid()
        func commands(_ entries: [ChildSubreaper.Entry]) -> Set<String> {
            Set(entries.compactMap { ProcFS.commandLine(pid: $0.pid) }.filter { $0.hasPrefix("sleep \(marker)") })
        }
        // Everything started: the three sleeps, the orphan already adopted.
        XCTAssertTrue(eventually {
            let full = ChildSubreaper.scan()
            return commands(ChildSubreaper.descendants(of: [root], in: full)).count == 2
                && full.contains { $0.parent == own && ProcFS.commandLine(pid: $0.pid) == "sleep \(marker)3" }
        }, "the processes started and the orphan was adopted")
        let full = ChildSubreaper.scan()
        let tree = try XCTUnwrap(ChildSubreaper.scanTree(roots: [root]))
        // What the search picks from either: the roots' descendants and the harness's children.
        func picked(_ entries: [ChildSubreaper.Entry]) -> Set<pid_t> {
            let adopted = entries.filter { $0.parent == own }.map(\.pid)
            return Set(adopted).union(ChildSubreaper.descendants(of: Set([root] + adopted), in: entries).map(\.pid))
        }
        XCTAssertEqual(picked(tree), picked(full), "the walk picks what the scan picks")
        XCTAssertEqual(commands(tree), ["sleep \(marker)1", "sleep \(marker)2", "sleep \(marker)3"])
        // And nothing else: every entry of the walk is the harness's child or below one.
        XCTAssertEqual(Set(tree.map(\.pid)), picked(tree))
        XCTAssertLessThan(tree.count, full.count, "the walk reads the run's processes, not the machine's")
        // Ended and reaped: the root by its wait, the rest (adopted once their parents die) by pid.
        for entry in tree { kill(entry.pid, SIGKILL) }
        kill(root, SIGKILL)
        var exit: Int32 = 0
        _ = waitpid(root, &exit, 0)
        for entry in tree { _ = eventually(timeout: 2) { waitpid(entry.pid, &exit, WNOHANG) != 0 } }
    }
}
