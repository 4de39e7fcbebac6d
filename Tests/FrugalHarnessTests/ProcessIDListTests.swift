import Foundation
import XCTest
@testable import FrugalHarness
import FrugalProbe

/// `cgroup.procs` parsed from its bytes (issue 31, "a lighter harness"): the same pids the text
/// split gives, across reads of any size, and nothing for what is not a list of pids.
final class ProcessIDListTests: XCTestCase {
    func testTheBytesGiveWhatTheTextSplitGives() throws {
        XCTAssertEqual(ProcessIDList.parse("12\n345\n4194304\n"), [12, 345, 4_194_304])
        XCTAssertEqual(ProcessIDList.parse(""), [])
        XCTAssertEqual(ProcessIDList.parse("7"), [7], "a last line without its newline")
        XCTAssertNil(ProcessIDList.parse("12\nabc\n"))
        XCTAssertNil(ProcessIDList.parse("99999999999\n"), "past Int32")
        // A file longer than one read: a number split across two chunks is joined.
        let pids = (1...3000).map { Int32(100_000 + $0) }
        let path = NSTemporaryDirectory() + "pids-\(UUID().uuidString)"
        try pids.map(String.init).joined(separator: "\n").appending("\n").write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(try ProcessIDList.read(PosixFile(fd: fd, path: path)), pids)
    }
}
