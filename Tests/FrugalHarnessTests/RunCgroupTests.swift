import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalProbe

/// The run cgroup's own operations, on each kind the machine has.
final class RunCgroupTests: XCTestCase {
    func testEachKindFreezesAndEndsEverythingInside() throws {
        var tried = 0
        for kind in [RunCgroup.Kind.v2, .v1Freezer] {
            guard case .success(let group) = RunCgroup.create(label: "test", only: kind) else { continue }
            tried += 1
            defer { group.remove() }
            // A shell that joins the group and leaves a child behind, as a daemon would.
            let joiner = Process()
            joiner.executableURL = URL(fileURLWithPath: "/bin/sh")
            joiner.arguments = ["-c", "echo $$ > \(group.procsPath) || exit 1; sleep 60 & exec sleep 60"]
            try joiner.run()
            _ = eventually { group.pids.count == 2 }
            XCTAssertEqual(group.pids.count, 2, "\(kind): the shell joined and its child is inside too")
            XCTAssertTrue(group.freeze(), "\(kind): frozen")
            XCTAssertTrue(group.isFrozen)
            group.thaw()
            XCTAssertTrue(group.killAll(), "\(kind): emptied")
            XCTAssertEqual(group.pids, [])
            joiner.waitUntilExit()
        }
        if tried == 0 { throw XCTSkip("neither a cgroup v2 tree nor a v1 freezer hierarchy is writable here") }
    }
}
