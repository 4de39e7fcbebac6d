import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe

final class ChildProcessTests: XCTestCase {
    /// A descriptor the harness holds without close-on-exec (as SwiftNIO's listeners are) must not
    /// reach the workload: its sockets would be counted as the app's.
    func testTheChildInheritsOnlyItsPipes() throws {
        let leaky = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)  // no SOCK_CLOEXEC on purpose
        XCTAssertGreaterThan(leaky, 4)
        defer { close(leaky) }
        // sh's builtin test looks at its own fd table: exit 7 if the socket was inherited, 3 if the
        // control pipe (fd 3) was not, 0 if all is as it should be.
        let script = "test -e /proc/self/fd/\(leaky) && exit 7; test -e /proc/self/fd/3 || exit 3; exit 0"
        let child = try ChildProcess(arguments: ["/bin/sh", "-c", script], environment: [:])
        let exit = try XCTUnwrap(child.waitForExit(until: MonotonicClock.now() + 10_000_000_000))
        XCTAssertEqual(exit.status.code, 0, "7 means the harness's socket leaked into the child; 3 means fd 3 was lost")
    }
}
