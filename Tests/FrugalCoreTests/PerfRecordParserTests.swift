import XCTest
@testable import FrugalCore

/// The perf ring buffer's records, on bytes built here field by field as perf_event_open(2)
/// lays them out (little-endian), so a wrong offset or a misread marker fails.
final class PerfRecordParserTests: XCTestCase {
    /// Little-endian bytes of integers, appended in order.
    struct Bytes {
        var data: [UInt8] = []
        mutating func u16(_ value: UInt16) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
        mutating func u32(_ value: UInt32) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
        mutating func u64(_ value: UInt64) { data += withUnsafeBytes(of: value.littleEndian, Array.init) }
    }

    /// A sched_wakeup raw record as this kernel lays it out (common fields, comm[16], pid at 24),
    /// padded so that u32 size + data is a multiple of 8, as the kernel pads it.
    static func wakeupRaw(type: UInt16, target: Int32) -> [UInt8] {
        var raw = Bytes()
        raw.u16(type); raw.data += [0, 0]; raw.u32(77)       // common_type, flags, preempt_count, common_pid
        raw.data += Array("worker".utf8) + [UInt8](repeating: 0, count: 10)  // comm[16]
        raw.u32(UInt32(bitPattern: target)); raw.u32(120); raw.u32(1)       // pid, prio, target_cpu
        while (raw.data.count + 4) % 8 != 0 { raw.data.append(0) }
        return raw.data
    }

    /// One PERF_RECORD_SAMPLE with TID, TIME, CPU, CALLCHAIN, RAW (and STACK_USER when `stack` is given).
    static func sample(pid: UInt32, tid: UInt32, time: UInt64, cpu: UInt32, chain: [UInt64], raw: [UInt8],
                       stack: (size: UInt64, words: [UInt64])? = nil) -> [UInt8] {
        var body = Bytes()
        body.u32(pid); body.u32(tid); body.u64(time); body.u32(cpu); body.u32(0)
        body.u64(UInt64(chain.count)); chain.forEach { body.u64($0) }
        body.u32(UInt32(raw.count)); body.data += raw
        if let stack {
            body.u64(stack.size)
            var copy = Bytes()
            stack.words.forEach { copy.u64($0) }
            copy.data += [UInt8](repeating: 0xee, count: Int(stack.size) - copy.data.count)  // beyond dyn_size: junk
            body.data += copy.data
            body.u64(UInt64(stack.words.count * 8))
        }
        var record = Bytes()
        record.u32(PerfRecordParser.recordSample); record.u16(0); record.u16(UInt16(8 + body.data.count))
        return record.data + body.data
    }

    func testASampleWithItsUserCallchainAndRawRecord() {
        let kernel: UInt64 = 0xffff_ffff_ffff_ff80   // PERF_CONTEXT_KERNEL
        let chain = [kernel, 0xffff_ffff_8100_0000, PerfRecordParser.contextUser, 0x5555_0000_1000, 0x5555_0000_2000]
        let bytes = Self.sample(pid: 4242, tid: 4250, time: 123_456_789_000, cpu: 1, chain: chain, raw: Self.wakeupRaw(type: 374, target: 4243))
        let batch = PerfRecordParser.parse(bytes)
        XCTAssertEqual(batch.malformed, 0)
        XCTAssertEqual(batch.samples.count, 1)
        let sample = batch.samples[0]
        XCTAssertEqual(sample.pid, 4242)
        XCTAssertEqual(sample.tid, 4250)
        XCTAssertEqual(sample.time, 123_456_789_000)
        XCTAssertEqual(sample.cpu, 1)
        // Kernel frames and the markers are left out: the user frames only, innermost first.
        XCTAssertEqual(sample.userStack, [0x5555_0000_1000, 0x5555_0000_2000])
        XCTAssertEqual(sample.tracepoint, 374)
        XCTAssertTrue(sample.stackWords.isEmpty)
        let format = TracepointFormat(format: Self.wakeupFormat)
        XCTAssertEqual(format.integer("pid", in: sample.raw), 4243)
        XCTAssertEqual(format.integer("common_pid", in: sample.raw), 77)
        XCTAssertEqual(format.integer("target_cpu", in: sample.raw), 1)
        XCTAssertNil(format.integer("missing", in: sample.raw))
    }

    func testAStackCopyFollowsTheRawRecordOfTheTracepointsThatAskedForIt() {
        let raw = Self.wakeupRaw(type: 374, target: 9)
        let bytes = Self.sample(pid: 1, tid: 2, time: 3, cpu: 0, chain: [PerfRecordParser.contextUser, 0x1000], raw: raw,
                                stack: (size: 64, words: [0xaaaa, 0xbbbb, 0xcccc]))
            + Self.sample(pid: 1, tid: 2, time: 4, cpu: 0, chain: [], raw: Self.wakeupRaw(type: 372, target: 9))
        let batch = PerfRecordParser.parse(bytes, stackCopies: [374])
        XCTAssertEqual(batch.malformed, 0)
        XCTAssertEqual(batch.samples.count, 2)
        // Only dyn_size bytes are the stack's; the rest of the copy is not read as frames.
        XCTAssertEqual(batch.samples[0].stackWords, [0xaaaa, 0xbbbb, 0xcccc])
        XCTAssertEqual(batch.samples[1].time, 4, "the record after a stack copy is found where it starts")
        XCTAssertTrue(batch.samples[1].stackWords.isEmpty)
    }

    func testLostRecordsAreCountedAndACutRecordStopsTheParse() {
        var lost = Bytes()
        lost.u32(PerfRecordParser.recordLost); lost.u16(0); lost.u16(24); lost.u64(7); lost.u64(12)
        var other = Bytes()   // PERF_RECORD_COMM and the like: skipped by size
        other.u32(3); other.u16(0); other.u16(16); other.u64(0)
        let good = Self.sample(pid: 1, tid: 1, time: 5, cpu: 0, chain: [], raw: Self.wakeupRaw(type: 374, target: 2))
        let batch = PerfRecordParser.parse(lost.data + other.data + good + Array(good.prefix(20)))
        XCTAssertEqual(batch.lost, 12)
        XCTAssertEqual(batch.samples.map(\.time), [5])
        XCTAssertEqual(batch.malformed, 1)
    }

    func testASampleWhoseCallchainOverrunsItsRecordIsMalformed() {
        var body = Bytes()
        body.u32(1); body.u32(1); body.u64(1); body.u32(0); body.u32(0); body.u64(1_000)   // 1,000 frames promised
        var record = Bytes()
        record.u32(PerfRecordParser.recordSample); record.u16(0); record.u16(UInt16(8 + body.data.count))
        let batch = PerfRecordParser.parse(record.data + body.data)
        XCTAssertEqual(batch.samples.count, 0)
        XCTAssertEqual(batch.malformed, 1)
    }

    func testTheFormatFileGivesSignedFieldsOfEachSize() {
        let format = TracepointFormat(format: Self.exitFormat)
        var raw = Bytes()
        raw.u16(442); raw.data += [0, 0]; raw.u32(5); raw.u64(202); raw.u64(UInt64(bitPattern: -110))
        XCTAssertEqual(format.integer("id", in: raw.data), 202)
        XCTAssertEqual(format.integer("ret", in: raw.data), -110)
        XCTAssertEqual(format.integer("common_type", in: raw.data), 442)
        XCTAssertNil(format.integer("ret", in: Array(raw.data.prefix(20))), "a record too short for the field")
    }

    /// Copied from this kernel's /sys/kernel/tracing/events/sched/sched_wakeup/format.
    static let wakeupFormat = """
    name: sched_wakeup
    ID: 374
    format:
    \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
    \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
    \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
    \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

    \tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;
    \tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;
    \tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;
    \tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;

    print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, REC->prio, REC->target_cpu
    """

    /// Copied from this kernel's raw_syscalls/sys_exit/format.
    static let exitFormat = """
    name: sys_exit
    ID: 442
    format:
    \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
    \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
    \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
    \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

    \tfield:long id;\toffset:8;\tsize:8;\tsigned:1;
    \tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;
    """
}
