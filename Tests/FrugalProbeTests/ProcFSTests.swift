import Foundation
import XCTest
@testable import FrugalProbe
import CFrugalSystem

final class ProcFSTests: XCTestCase {
    func testParseStatus() {
        let text = "Name:\tnews\nState:\tS (sleeping)\nVmHWM:\t   4096 kB\nVmRSS:\t   2048 kB\nvoluntary_ctxt_switches:\t42\nnonvoluntary_ctxt_switches:\t3\n"
        let status = ProcFS.parseStatus(text)
        XCTAssertEqual(status.name, "news")
        XCTAssertEqual(status.state, "S (sleeping)")
        XCTAssertEqual(status.residentBytes, 2048 * 1024)
        XCTAssertEqual(status.peakResidentBytes, 4096 * 1024)
        XCTAssertEqual(status.voluntaryContextSwitches, 42)
        XCTAssertEqual(status.involuntaryContextSwitches, 3)
    }

    /// The byte parser agrees with splitting the lines, on the kernel's own text; keys that only
    /// start like a kept one and values that are not numbers give nothing, not a wrong number.
    func testParseStatusAgreesWithTheLinesOfTheRealFile() throws {
        let text = try FileReader.readText("/proc/self/status")
        var lines: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { lines[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let status = ProcFS.parseStatus(text)
        XCTAssertEqual(status.name, lines["Name"])
        XCTAssertEqual(status.state, lines["State"])
        XCTAssertEqual(status.voluntaryContextSwitches, lines["voluntary_ctxt_switches"].flatMap { Int($0) })
        XCTAssertEqual(status.residentBytes, lines["VmRSS"]?.split(separator: " ").first.flatMap { Int($0) }.map { $0 * 1024 })
        let odd = ProcFS.parseStatus("VmRSSx:\t1 kB\nvoluntary_ctxt_switches:\tmany\nState:\tR (running)")
        XCTAssertNil(odd.residentBytes)
        XCTAssertNil(odd.voluntaryContextSwitches)
        XCTAssertEqual(odd.state, "R (running)", "the last line needs no newline")
    }

    func testParseSchedstatAndIO() {
        XCTAssertEqual(ProcFS.parseSchedstat("123456 789 10\n"), 123456)
        XCTAssertNil(ProcFS.parseSchedstat(""))
        let io = ProcFS.parseIO("rchar: 10\nwchar: 20\nsyscw: 2\nwrite_bytes: 4096\n")
        XCTAssertEqual(io["wchar"], 20)
        XCTAssertEqual(io["write_bytes"], 4096)
    }

    func testSamplesThisProcessWithItsOwnThread() throws {
        let sample = try ProcFS.sample(pid: getpid(), time: MonotonicClock.now())
        XCTAssertTrue(sample.threads.contains { $0.tid == frugal_gettid() }, "the calling thread is among the sampled")
        XCTAssertGreaterThan(sample.residentBytes ?? 0, 0)
        let me = try XCTUnwrap(sample.threads.first { $0.tid == frugal_gettid() })
        XCTAssertEqual(me.state, "R", "the sampling thread is running while it reads")
    }

    func testMissingFileThrowsTheCallAndErrno() {
        XCTAssertThrowsError(try FileReader.readText("/proc/no-such-file")) { error in
            let failure = error as? SystemCallError
            XCTAssertEqual(failure?.call, "open")
            XCTAssertEqual(failure?.errno, ENOENT)
            XCTAssertTrue("\(error)".contains("/proc/no-such-file"))
        }
    }
}

/// Listening sockets from `/proc/<pid>/net/tcp`, on fixed text.
final class ProcFSSocketTests: XCTestCase {
    func testListeningEntriesAreDecoded() {
        let text = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 314479 1 0000000000000000 100 0 0 10 0
           1: 0100007F:D2F0 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 314480 1 0000000000000000 20 4 30 10 -1
        """
        XCTAssertEqual(ProcFS.parseListeningEntries(text), [ProcFS.ListenEntry(localAddress: "127.0.0.1:8080", inode: 314479)])
        XCTAssertEqual(ProcFS.socketInode(link: "socket:[314479]"), 314479)
        XCTAssertNil(ProcFS.socketInode(link: "pipe:[12]"))
    }
}
