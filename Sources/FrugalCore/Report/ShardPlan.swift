/// A deterministic, balanced split of a suite into `count` shards, by expected duration.
///
/// The unit is a workload under a scenario with all its repetitions, so every repetition of
/// it runs on the same machine and its spread is that machine's alone. Units go longest first
/// to the least loaded shard (ties: the lower shard, then plan order): the same suite gives
/// the same shards on every machine, each within the longest unit of the others.
public enum ShardPlan {
    /// For each unit (by its expected seconds), the 1-based shard it belongs to.
    public static func assign(seconds: [Double], count: Int) -> [Int] {
        precondition(count >= 1, "a suite splits into 1 or more shards")
        var loads = Array(repeating: 0.0, count: count)
        var assignment = Array(repeating: 1, count: seconds.count)
        let order = seconds.indices.sorted { (-seconds[$0], $0) < (-seconds[$1], $1) }
        for unit in order {
            let shard = loads.indices.min { (loads[$0], $0) < (loads[$1], $1) } ?? 0
            loads[shard] += seconds[unit]
            assignment[unit] = shard + 1
        }
        return assignment
    }

    /// `I/N` (1 ≤ I ≤ N) as a ``ShardInfo``, or nil with no explanation for anything else.
    /// The most shards a suite may be cut into: a CI matrix of more jobs than this is not one
    /// this tool's suites fill (`--shard 1/2000000000` once aborted sizing its plan).
    public static let maximumShards = 1000

    /// A suite's identity: FNV-1a (64 bits, hex) over its runs (workload, scenario, repetition),
    /// in order. Every shard of one `frugal run` invocation has the same one.
    public static func fingerprint(of runs: [(workload: String, scenario: String, repetition: Int)]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for run in runs {
            for byte in "\(run.workload)\u{1F}\(run.scenario)\u{1F}\(run.repetition)\u{1E}".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }

    public static func parse(_ text: String) -> ShardInfo? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...maximumShards).contains(count),
              (1...count).contains(index) else { return nil }
        return ShardInfo(index: index, count: count)
    }
}
