import Foundation
import XCTest
@testable import FrugalConfig

/// The limits in front of the YAML parser (docs/robustness.md, "Limits on input"): a small hostile file is refused in
/// time linear in its size, with one short line naming the file and the place.
final class ConfigLimitsTests: XCTestCase {
    /// Nested anchors, each a sequence of two aliases of the one before, the last used as a key.
    static func aliasBomb(depth: Int) -> String {
        var text = "a0: &a0 [x, y]\n"
        for level in 1...depth { text += "a\(level): &a\(level) [*a\(level - 1), *a\(level - 1)]\n" }
        text += "? *a\(depth)\n: boom\n"
        return text
    }

    func testAnAliasBombIsRefusedQuickly() {
        // Depth 7 took 19.6 s before the limit; depth 30 would expand to 2^31 nodes.
        // The bound is generous for a loaded machine: the check is linear in a 1 KB file.
        let started = Date()
        XCTAssertThrowsError(try AssertionConfigLoader.parse(Self.aliasBomb(depth: 30), file: "bomb.yml")) { error in
            let description = (error as? ConfigError)?.description ?? "\(error)"
            XCTAssertTrue(description.hasPrefix("bomb.yml:"), description)
            XCTAssertTrue(description.contains("aliases"), description)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }

    func testModestAliasesStillWork() throws {
        let text = """
        assertions:
          power.avoid-polling: &level [error, {minScore: 0.5}]
          disk.clean-tmp: *level
        """
        let set = try AssertionConfigLoader.parse(text, file: "ok.yml")
        XCTAssertTrue(set.assertions.contains { "\($0.target)".contains("disk.clean-tmp") && $0.minScore == 0.5 })
    }

    func testDeepNestingIsRefused() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertThrowsError(try AssertionConfigLoader.parse(text, file: "deep.yml")) { error in
            // libyaml's own nesting bound may speak first; either way it is refused, on one line.
            XCTAssertTrue("\(error)".lowercased().contains("nest"), "\(error)")
        }
    }

    /// Round three of the probe: a FIFO named as the config (or found as ./frugal.yml) held
    /// `frugal run` and `frugal list` forever in open(2). Anything but a regular file is refused.
    func testAConfigThatIsAFIFOOrADirectoryIsRefusedAtOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-config-kind-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("frugal.yml").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        for (path, kind) in [(fifo, "a FIFO"), (directory.path, "a directory")] {
            let started = Date()
            XCTAssertThrowsError(try ProjectConfigLoader.load(path: path)) { error in
                XCTAssertTrue("\(error)".contains("it is \(kind), not a regular file"), "\(error)")
            }
            XCTAssertThrowsError(try AssertionConfigLoader.load(path: path))
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "refused, not waited on")
        }
    }

    func testALargeFileIsRefusedBeforeParsingWithAShortError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-large-\(getpid()).yml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: UInt8(ascii: "k"), count: ConfigLimits.maxBytes + 10).write(to: url)
        XCTAssertThrowsError(try AssertionConfigLoader.load(path: url.path)) { error in
            let line = "\(error)"
            XCTAssertTrue(line.contains("larger than"), line)
            XCTAssertLessThan(line.count, 300)
        }
    }

    func testErrorsQuotingHugeOrHostileTextStayOneShortLine() {
        let key = String(repeating: "k", count: 500_000) + "\n\u{1B}[31m"
        let error = ConfigError(file: "x.yml", line: 3, problem: "unknown key '\(key)'")
        XCTAssertFalse(error.description.contains("\n"))
        XCTAssertFalse(error.description.contains("\u{1B}"))
        XCTAssertLessThan(error.description.count, 700)
    }
}
