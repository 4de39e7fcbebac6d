import XCTest
@testable import FrugalProbe

/// The parsers behind reading a thread's stack from outside, on fixed text from a real machine.
final class ProcFSStackTests: XCTestCase {
    func testSyscallLineGivesTheStackAndInstructionPointers() throws {
        let blocked = try XCTUnwrap(ProcFS.parseSyscall("232 0x3 0x7f2a1c000b70 0x400 0xffffffff 0x0 0x8 0x7f2a21ffec28 0x7f2a2a3c0e2e\n"))
        XCTAssertEqual(blocked.call, "232")
        XCTAssertEqual(blocked.stackPointer, 0x7f2a21ffec28)
        XCTAssertEqual(blocked.instructionPointer, 0x7f2a2a3c0e2e)
        let notInCall = try XCTUnwrap(ProcFS.parseSyscall("-1 0x7ffd5b4c1e08 0x55d0c0a01234\n"))
        XCTAssertEqual(notInCall.call, "-1")
        XCTAssertEqual(notInCall.stackPointer, 0x7ffd5b4c1e08)
        let running = try XCTUnwrap(ProcFS.parseSyscall("running\n"))
        XCTAssertNil(running.stackPointer, "a running thread has no stack pointer to read")
        XCTAssertNil(ProcFS.parseSyscall(""))
    }

    func testMapsLinesGiveCodeAndStacks() {
        let maps = ProcFS.parseMaps("""
        55d0c09f0000-55d0c0a10000 r-xp 00010000 08:01 1234                       /usr/bin/app
        7f2a2a300000-7f2a2a348000 r-xp 00000000 08:01 5678                       /opt/swift/usr/lib/swift/linux/libdispatch.so
        7f2a217ff000-7f2a21fff000 rw-p 00000000 00:00 0 
        7ffd5b4a2000-7ffd5b4c3000 rw-p 00000000 00:00 0                          [stack]
        """)
        XCTAssertEqual(maps.count, 4)
        XCTAssertEqual(maps[0].offset, 0x10000)
        XCTAssertTrue(maps[1].executable)
        XCTAssertEqual(maps[1].path, "/opt/swift/usr/lib/swift/linux/libdispatch.so")
        XCTAssertFalse(maps[2].executable)
        XCTAssertEqual(maps[2].path, "")
        XCTAssertEqual(maps[3].path, "[stack]")
    }
}
