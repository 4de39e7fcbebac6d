import Foundation
import XCTest
@testable import FrugalHarness
import FrugalCore
import FrugalWorkloads

/// The disk audits' evidence from the kernel (issue 30): an app that writes only with
/// Foundation — `.atomic` saves, `FileHandle` patches, `JSONEncoder` output — run for real, is
/// seen write by write by the sandbox watcher (inotify, block diffs) and judged by the disk
/// audits, where FrugalKit's journal alone saw nothing ("not applicable").
final class KernelFileEvidenceTests: XCTestCase {
    static let runs = ScheduledRuns(["fixture.foundation-writes"])

    static func record() throws -> RunRecord {
        let record = try runs.record("fixture.foundation-writes")
        XCTAssertEqual(record.outcome, .completed, record.outcomeDetail ?? "")
        return record
    }

    /// The scenario's input steps: one edit each.
    static var edits: Int { ScenarioCatalogue.diskSession.steps.filter { $0.kind == .input }.count }

    func testFoundationWritesAreSeenWriteByWrite() throws {
        let record = try Self.record()
        XCTAssertFalse(record.events.contains { if case .fileWrite = $0.body { return true } else { return false } },
                       "the fixture writes nothing through FrugalKit: the journal is empty")
        let log = try XCTUnwrap(record.fileChanges)
        XCTAssertNil(log.unavailable)
        XCTAssertEqual(log.overflows, 0)
        func changes(_ path: String) -> [FileChange] { log.changes.filter { $0.path == path && $0.kind.writesContent } }

        // `.atomic`: a temporary file renamed over the document, one change each, 256 KiB written for one block.
        let rewrites = changes("Documents/rewritten.db")
        XCTAssertEqual(rewrites.count, Self.edits, "\(rewrites)")
        for change in rewrites {
            XCTAssertEqual(change.kind, .replaced)
            XCTAssertEqual(change.bytesWritten, FoundationWritingAppFacts.documentBytes)
            XCTAssertEqual(change.diff?.changedBlocks, 1)
            XCTAssertEqual(change.diff?.differingBytes, 16)
            XCTAssertNotNil(change.via, "the temporary file renamed into place")
        }
        XCTAssertFalse(log.changes.contains { $0.path.hasPrefix("Documents/.") }, "the temporary files are folded into the replacements")

        // `FileHandle` seek + write: in place, one 4 KiB block per edit.
        let patches = changes("Documents/patched.db")
        XCTAssertEqual(patches.count, Self.edits, "\(patches)")
        for change in patches {
            XCTAssertEqual(change.kind, .inPlace)
            XCTAssertEqual(change.bytesWritten, 4096)
            XCTAssertEqual(change.diff?.changedBlocks, 1)
            XCTAssertFalse(change.truncated)
        }

        // The JSON settings: created once, then replaced.
        let saves = changes("Library/Application Support/settings.json")
        XCTAssertEqual(saves.map(\.kind), [.created] + Array(repeating: .replaced, count: Self.edits - 1))
    }

    func testTheDiskAuditsJudgeFoundationWrites() throws {
        let report = ReportBuilder.runReport(try Self.record())
        let portions = try XCTUnwrap(report.audits["disk.write-changed-portions"])
        let amplification = try XCTUnwrap(portions.numericValue, portions.explanation ?? "")
        // At least the rewrites' 256 KiB per 4 KiB block, diluted by the patches (1×) and the JSON saves:
        // (6 × 256 KiB + 6 × 4 KiB + J) / (6 × 4 KiB + 6 × 4 KiB + J), J the JSON bytes (under 1 KiB).
        XCTAssertGreaterThan(amplification, 30, portions.displayValue)
        XCTAssertLessThan(try XCTUnwrap(portions.score), 0.5, portions.displayValue)
        XCTAssertEqual(report.metrics[MetricName.diskWriteAmplification]?.source, FileChangeLog.source)

        // Small writes: the six patches and the six JSON saves; the 256 KiB rewrites are judged by volume.
        let frequent = try XCTUnwrap(report.audits["disk.avoid-frequent-writes"])
        XCTAssertEqual(frequent.numericValue, Double(2 * Self.edits), frequent.displayValue)
    }

    /// Files holding a response's body byte for byte are marked as downloaded; others are not.
    func testDownloadsAreMatchedToTheResponsesServed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-download-match-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let documents = root.appendingPathComponent("Documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        let body = try XCTUnwrap(OriginContent.body(forPath: "/random/5000"))
        try Data(body).write(to: documents.appendingPathComponent("episode.mp3"))
        var own = body
        own[4999] ^= 1
        try Data(own).write(to: documents.appendingPathComponent("notes.txt"))
        try Data(body).write(to: root.appendingPathComponent("Library-less.bin"))
        func served(_ path: String, bytes: Int, status: Int = 200) -> WireRequest {
            WireRequest(originConnection: 1, reusedConnection: false, method: "GET", host: "api.test", path: path, query: nil, status: status,
                        source: .synthetic, requestBodyBytes: 0, responseBodyBytes: bytes, responseDecodedBodyBytes: bytes,
                        contentEncoding: nil, acceptEncoding: nil, uplinkOffset: 0, downlinkOffset: 0, downlinkEndOffset: nil,
                        start: 0, firstByte: nil, end: nil)
        }
        let files = try XCTUnwrap(SandboxScanner.scan(root: root))
        let marked = DownloadMatcher.markServed(files, root: root, requests: [served("/random/4999", bytes: 4999), served("/random/5000", bytes: 5000)])
        let byPath = Dictionary(uniqueKeysWithValues: marked.map { ($0.path, $0.servedAs) })
        XCTAssertEqual(byPath["Documents/episode.mp3"], "GET api.test/random/5000")
        XCTAssertEqual(byPath["Documents/notes.txt"], .some(nil), "one byte differs: not the response")
        XCTAssertEqual(byPath["Library-less.bin"], .some(nil), "not backed up: not compared")
        // A failed response is no download.
        let failed = DownloadMatcher.markServed(files, root: root, requests: [served("/random/5000", bytes: 5000, status: 404)])
        XCTAssertNil(failed.first { $0.path == "Documents/episode.mp3" }?.servedAs)
    }
}

/// The fixture's sizes, as the test knows them (the app's type is internal to FrugalWorkloads).
enum FoundationWritingAppFacts {
    static let documentBytes = 262_144
}
