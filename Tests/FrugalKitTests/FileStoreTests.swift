import Foundation
import Synchronization
import XCTest
@testable import FrugalKit
import FrugalCore
import FrugalProbe

/// `FileStore` on real files in a real sandbox directory, its journal collected directly.
final class FileStoreTests: XCTestCase {
    final class Journal: Sendable {
        private let entries = Mutex<[FileWrite]>([])
        func add(_ entry: FileWrite) { entries.withLock { $0.append(entry) } }
        var all: [FileWrite] { entries.withLock { $0 } }
    }

    var root: URL!
    let journal = Journal()

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-filestore-\(getpid())-\(UUID().uuidString.prefix(6))")
        for directory in SandboxLayout.all {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(directory), withIntermediateDirectories: true)
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    func store(_ mechanism: BackupExclusionMechanism? = nil) -> FileStore {
        FileStore(sandbox: Sandbox(root: root), exclusionMechanism: mechanism, journal: journal.add)
    }

    func testReplaceJournalsTheBlocksThatChanged() throws {
        let store = store()
        let file = StoredFile(.documents, "notes/a.txt", dataClass: .critical)
        var content = [UInt8](repeating: 65, count: 3 * 4096 + 10)
        try store.replace(file, with: content)
        content[5000] = 66
        try store.replace(file, with: content)
        XCTAssertEqual(try store.read(file), content)
        let entries = journal.all
        XCTAssertEqual(entries.map(\.operation), [.replace, .replace])
        XCTAssertEqual(entries.map(\.path), ["Documents/notes/a.txt", "Documents/notes/a.txt"])
        XCTAssertEqual(entries.map(\.existed), [false, true])
        XCTAssertEqual(entries.map(\.length), [12_298, 12_298])
        // The first is all new; the second changed one byte, so one 4 KiB block.
        XCTAssertEqual(entries.map(\.changedBytes), [12_298, 4096])
        XCTAssertEqual(entries[1].diff?.differingBytes, 1)
        XCTAssertTrue(entries.allSatisfy { $0.synced && $0.location == .documents && $0.onMainThread == BlockingCalls.isMainThread })
        XCTAssertTrue(entries[0].callSite.hasPrefix("FrugalKitTests/FileStoreTests.swift:"), entries[0].callSite)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Documents/notes").path)
        XCTAssertEqual(leftovers, ["a.txt"], "no temporary file is left beside the replaced one")
    }

    func testInPlaceWritesAppendsFsyncAndDelete() throws {
        let store = store()
        let file = StoredFile(.tmp, "log.bin", dataClass: .temporary)
        try store.append(file, [UInt8](repeating: 1, count: 10_000))
        try store.write(file, [1, 1, 2, 1], at: 4094)   // byte 4096 changes: block 1 only, 2 of the 4 bytes are in it
        try store.write(file, extents: [FileExtent(offset: 0, bytes: [9]), FileExtent(offset: 9_999, bytes: [9, 9])], sync: true)
        try store.synchronize(file)
        var expected = [UInt8](repeating: 1, count: 10_001)
        expected[4096] = 2
        expected[0] = 9
        expected[9_999] = 9
        expected[10_000] = 9
        XCTAssertEqual(try store.read(file), expected)
        try store.delete(file)
        XCTAssertFalse(store.exists(file))
        let entries = journal.all
        XCTAssertEqual(entries.map(\.operation), [.append, .write, .write, .fsync, .delete])
        XCTAssertEqual(entries.map(\.length), [10_000, 4, 3, 0, 0])
        XCTAssertEqual(entries.map(\.offset), [0, 4094, 0, 0, 0])
        // The 4-byte write spans blocks 0 and 1; only block 1's part (2 bytes) changed.
        XCTAssertEqual(entries[1].diff?.changedBlockBytes, 2)
        // Block 0 (1 byte written at 0) and the last block (byte 9999 changed, 10000 new): 1 + 2.
        XCTAssertEqual(entries[2].diff?.changedBlocks, 2)
        XCTAssertEqual(entries[2].diff?.changedBlockBytes, 3)
        XCTAssertEqual(entries.map(\.synced), [false, false, true, true, false])
        XCTAssertEqual(entries[2].sizeAfter, 10_001)
        XCTAssertNil(entries[4].sizeAfter)
    }

    func testDiffsOfFilesLargerThanAChunkMatchTheWholeComparison() throws {
        // Larger than the 64 KiB the journal reads of the old content at a time, with changes on
        // both sides of a chunk boundary; the second replacement also grows the file.
        let store = store()
        let file = StoredFile(.documents, "big.bin", dataClass: .critical)
        let first = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try store.replace(file, with: first)
        var second = first + [UInt8](repeating: 1, count: 5_000)
        for position in [65_535, 65_536, 250_000] { second[position] ^= 1 }
        try store.replace(file, with: second)
        var third = second
        for position in [70_000, 140_000] { third[position] ^= 1 }
        try store.write(file, Array(third[4094..<200_000]), at: 4094)
        XCTAssertEqual(try store.read(file), third)
        let entries = journal.all
        XCTAssertEqual(entries[1].diff, BlockDiff.compare(old: first, new: second))
        // Blocks 15, 16 and 61 by their changes; 73 (299,008..<303,104) and 74 grew past the old end.
        XCTAssertEqual(entries[1].diff?.changedBlocks, 5)
        XCTAssertEqual(entries[2].diff, BlockDiff.compare(old: Array(second[4094..<200_000]), new: Array(third[4094..<200_000]), offset: 4094))
        XCTAssertEqual(entries[2].diff?.changedBlocks, 2)
    }

    func testFailuresCarryTheCallAndErrno() {
        let store = store()
        XCTAssertThrowsError(try store.synchronize(StoredFile(.caches, "missing", dataClass: .cache))) { error in
            XCTAssertEqual((error as? SystemCallError)?.call, "open")
            XCTAssertEqual((error as? SystemCallError)?.errno, ENOENT)
        }
        XCTAssertTrue(journal.all.isEmpty, "a failed call is not journaled")
    }

    func testExclusionByExtendedAttributeSurvivesReplacement() throws {
        guard ExtendedAttributes.supported(at: root.path) else {
            throw XCTSkip("the file system under \(root.path) takes no user extended attributes")
        }
        let store = store()
        XCTAssertEqual(store.exclusionMechanism, .extendedAttribute)
        let file = StoredFile(.applicationSupport, "index.db", dataClass: .support, excludedFromBackup: true)
        try store.replace(file, with: [1, 2, 3])
        try store.replace(file, with: [1, 2, 4])
        XCTAssertEqual(try ExtendedAttributes.get(BackupExclusion.attributeName, path: store.url(of: file).path), Array("1".utf8))
        try store.replace(StoredFile(.applicationSupport, "index.db", dataClass: .support), with: [5])
        XCTAssertNil(try ExtendedAttributes.get(BackupExclusion.attributeName, path: store.url(of: file).path), "cleared when no longer declared")
    }

    func testExclusionBySidecarWhereThereAreNoExtendedAttributes() throws {
        let store = store(.sidecar)
        let file = StoredFile(.applicationSupport, "index.db", dataClass: .support, excludedFromBackup: true)
        try store.replace(file, with: [1, 2, 3])
        let sidecar = try String(contentsOf: root.appendingPathComponent(BackupExclusion.sidecarPath), encoding: .utf8)
        XCTAssertEqual(BackupExclusion.parseSidecar(sidecar), ["Library/Application Support/index.db"])
        // The sidecar's own bytes are journaled too, so /proc's wchar has nothing unexplained.
        XCTAssertEqual(journal.all.map(\.path), [BackupExclusion.sidecarPath, "Library/Application Support/index.db"])
        try store.delete(file)
        let after = try String(contentsOf: root.appendingPathComponent(BackupExclusion.sidecarPath), encoding: .utf8)
        XCTAssertEqual(BackupExclusion.parseSidecar(after), [])
        XCTAssertEqual(FileStore(sandbox: Sandbox(root: root), exclusionMechanism: .sidecar, journal: { _ in }).exclusionMechanism, .sidecar)
    }

    func testJournalEventRoundTrips() throws {
        try store().replace(StoredFile(.documents, "x", dataClass: .critical), with: [1])
        let event = WorkloadEvent(time: 5, body: .fileWrite(try XCTUnwrap(journal.all.first)))
        XCTAssertEqual(try JSONDecoder().decode(WorkloadEvent.self, from: JSONEncoder().encode(event)), event)
    }
}
