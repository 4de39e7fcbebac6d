import Foundation
import XCTest
import FrugalFuzzTargets

/// Every CI run replays what the libFuzzer targets start from (the committed seeds in
/// Fuzz/Corpus/) and a fixed, seeded set of their mutations through the targets' own bodies: a
/// trap in any of them fails the test run as it would fail the fuzzer. The open-ended search
/// (libFuzzer with the sanitizer, new inputs kept) is `scripts/fuzz.sh`, run on a schedule
/// (docs/ci/fuzz-github-actions.yml) and by hand, not on every change: its build of its own took
/// CI about 2.5 minutes.
final class FuzzReplayTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    /// Mutations per target: what keeps each target to a few seconds in a debug build (a report
    /// goes through every renderer and a comparison; an event stream is decoded and its events
    /// analysed as a run's, about half a millisecond).
    static let mutations = ["FuzzEventStream": 8_000, "FuzzConfig": 3_000, "FuzzReport": 150]

    func seeds(_ directory: String) throws -> [[UInt8]] {
        let url = Self.corpus.appendingPathComponent(directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        return try names.map { Array(try Data(contentsOf: url.appendingPathComponent($0))) }
    }

    func testEveryTargetHasSeeds() throws {
        for target in FuzzTargets.all {
            XCTAssertFalse(try seeds(target.seeds).isEmpty, "\(target.name) has no seed in Fuzz/Corpus/\(target.seeds)")
        }
    }

    func testSeedsReplay() throws {
        for target in FuzzTargets.all {
            for input in try seeds(target.seeds) { target.body(input) }
            target.body([])
        }
    }

    func testSeededMutationsReplay() throws {
        for target in FuzzTargets.all {
            let count = try XCTUnwrap(Self.mutations[target.name])
            var mutator = FuzzMutator(seed: 0x46_7275_6761_6C, seeds: try seeds(target.seeds))
            for _ in 0..<count { target.body(mutator.next()) }
        }
    }

    /// The mutations are the same every run (a failure names an input one can reproduce) and
    /// they do change the seeds (a mutator that returned its seeds would replay nothing new).
    func testMutationsAreDeterministicAndDiffer() throws {
        let seeds = try seeds("config")
        var first = FuzzMutator(seed: 7, seeds: seeds)
        var second = FuzzMutator(seed: 7, seeds: seeds)
        let a = (0..<200).map { _ in first.next() }
        let b = (0..<200).map { _ in second.next() }
        XCTAssertEqual(a, b)
        let changed = a.filter { !seeds.contains($0) }.count
        XCTAssertGreaterThan(changed, 150, "most mutations should differ from every seed")
        XCTAssertTrue(a.allSatisfy { $0.count <= first.maxLength })
    }
}
