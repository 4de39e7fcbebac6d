import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe
import FrugalCore

/// The socket watch's gate (issue 31, "a lighter harness"): it reads `/proc` again only once the
/// run's group has used CPU time since its last look. The reading must stand still while the
/// group's processes sleep and move when one runs, and the watch must find with the gate what it
/// finds without it.
final class SocketWatchGateTests: XCTestCase {
    /// Timed without a run (the lanes that share the machine: XCTestCase+Machine.swift).
    override func setUp() {
        super.setUp()
        holdTheMachine()
    }

    /// A listening socket of the test's own on loopback (outside the group); its port.
    private func listener() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        XCTAssertTrue(bound, String(cString: strerror(errno)))
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A process that joins `group` and then runs `command` (bash), started now.
    private func start(in group: RunCgroup, _ command: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "echo $$ > \(group.procsPath) || exit 1; \(command)"]
        try process.run()
        return process
    }

    func testTheReadingStandsStillWhileTheGroupSleepsAndMovesWhenItRuns() throws {
        guard case .success(let group) = RunCgroup.create(label: "usage-test", only: .v2) else { throw XCTSkip("no cgroup v2 run group can be made here") }
        defer { group.remove() }
        let usage = try XCTUnwrap(CgroupCPUUsage(groupPath: group.path), "cpu.stat is a core file of every v2 group")
        let sleeper = try start(in: group, "exec sleep 30")
        defer { sleeper.terminate(); sleeper.waitUntilExit() }
        XCTAssertTrue(eventually { group.pids.count == 1 })
        // Once it sleeps (its exec and start done), nothing of the group runs.
        var before = try XCTUnwrap(usage.microseconds())
        let settled = Date().addingTimeInterval(10)
        while Date() < settled {
            usleep(100_000)
            let now = try XCTUnwrap(usage.microseconds())
            if now == before { break }
            before = now
        }
        usleep(200_000)
        XCTAssertEqual(try XCTUnwrap(usage.microseconds()), before, "a sleeping group uses no CPU time")
        XCTAssertGreaterThan(before, 0, "its start (bash, the exec) was counted")
        // SIGSTOP then SIGCONT: the process runs to stop and to continue.
        kill(sleeper.processIdentifier, SIGSTOP)
        kill(sleeper.processIdentifier, SIGCONT)
        XCTAssertTrue(eventually { (usage.microseconds() ?? 0) > before }, "any run moves the reading")
    }

    func testTheGatedWatchFindsTheConnectionTheUngatedOneFinds() throws {
        guard case .success(let group) = RunCgroup.create(label: "gate-test", only: .v2) else { throw XCTSkip("no cgroup v2 run group can be made here") }
        defer { group.remove() }
        let usage = try XCTUnwrap(CgroupCPUUsage(groupPath: group.path))
        let (server, port) = try listener()
        defer { close(server) }
        // Idle first (several quiet looks), then a connection past the proxy, held.
        let holder = try start(in: group, "sleep 0.6; exec 3<>/dev/tcp/127.0.0.1/\(port); exec sleep 30")
        defer { holder.terminate(); holder.waitUntilExit() }
        XCTAssertTrue(eventually { group.pids.count >= 1 })
        var found: [Bool: [UnseenConnection]] = [:]
        let gated = SocketWatch(proxyAddress: "127.0.0.1:1"), plain = SocketWatch(proxyAddress: "127.0.0.1:1")
        gated.watch(usage: usage) { group.pids }
        plain.watch { group.pids }
        usleep(1_500_000)  // the connection is made 0.6 s in; both watch 1.5 s
        found[true] = gated.finish(spawnTime: 0)
        found[false] = plain.finish(spawnTime: 0)
        XCTAssertEqual(found[true]?.map(\.remoteAddress), ["127.0.0.1:\(port)"], "with the gate")
        XCTAssertEqual(found[false]?.map(\.remoteAddress), ["127.0.0.1:\(port)"], "without it")
        XCTAssertEqual(found[true]?.first?.pid, found[false]?.first?.pid)
        // The gated watch saw it no later than a quiet interval after the plain one: the gate
        // delays nothing. One-sided: a plain watch that was late itself (its thread waited for a
        // CPU on a loaded CI machine: 0.45 s after the gated one, once) says nothing of the gate.
        let gatedTime = try XCTUnwrap(found[true]?.first?.firstSeen), plainTime = try XCTUnwrap(found[false]?.first?.firstSeen)
        XCTAssertLessThan(gatedTime - plainTime, SocketWatch.quietInterval + 0.1, "gated \(gatedTime) s, plain \(plainTime) s")
    }

    func testUsageIsParsedFromCPUStat() {
        XCTAssertEqual(CgroupCPUUsage.usage("usage_usec 1234\nuser_usec 1000\nsystem_usec 234\n"), 1234)
        XCTAssertNil(CgroupCPUUsage.usage("user_usec 1000\n"))
        XCTAssertEqual(CgroupCPUUsage.usage("usage_usec 0"), 0, "a last line without its newline")
        XCTAssertNil(CgroupCPUUsage.usage("usage_usec 12x\n"))
    }
}
