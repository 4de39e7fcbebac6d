import Foundation
import FrugalCore

/// One side of an A/B: what to run (one plan per workload · scenario; its repetition number is
/// set here) and the harness settings it runs with (its own environment, for a switch such as
/// `NOTES_REGRESSION=poll`).
public struct ABSide: Sendable {
    /// "base" or "head".
    public var label: String
    public var plans: [RunPlan]
    public var options: HarnessOptions

    public init(label: String, plans: [RunPlan], options: HarnessOptions) {
        self.label = label
        self.plans = plans
        self.options = options
    }
}

/// Runs two builds of the same app interleaved on one host, one run at a time, in ABBA order
/// (base, head, head, base, then again): a drift of the machine during the session (a neighbour
/// starting, the page cache warming, thermal state) falls on both sides alike instead of on
/// whichever ran second, as it does when a baseline is taken first and the head later. Every run
/// has the machine to itself, as `--jobs 1`; both sides run the same scenario with the same
/// scheduling.
public final class ABRunner {
    /// What the runner is doing, for progress lines.
    public enum Progress: Sendable {
        case starting(side: String, plan: RunPlan, index: Int, of: Int)
        case finished(side: String, record: RunRecord, index: Int, of: Int)
    }

    public let base: ABSide
    public let head: ABSide
    private let baseRunner: ScenarioRunner
    private let headRunner: ScenarioRunner
    /// Repetitions already run per plan index and side, so further rounds number theirs on.
    private var done: [Int] = []

    public init(base: ABSide, head: ABSide) {
        precondition(base.plans.count == head.plans.count, "both sides run the same workloads and scenarios")
        self.base = base
        self.head = head
        baseRunner = ScenarioRunner(options: base.options)
        headRunner = ScenarioRunner(options: head.options)
        done = Array(repeating: 0, count: base.plans.count)
    }

    /// The order of one round of `repetitions` per side: ABBA blocks (an odd count ends on A B).
    public static func order(repetitions: Int) -> [Bool] {
        var sides: [Bool] = []  // false: base, true: head
        while sides.count < 2 * repetitions {
            sides += [false, true, true, false]
        }
        return Array(sides.prefix(2 * repetitions))
    }

    /// Runs `repetitions` more of each side for the plans at `indices` (all by default), ABBA per
    /// plan; returns the records of this round per side. Stops at an interruption (the records so
    /// far come back) and throws `SuiteFailure` when the harness itself fails.
    public func run(repetitions: Int, indices: [Int]? = nil, progress: @escaping (Progress) -> Void = { _ in })
        throws -> (base: [RunRecord], head: [RunRecord]) {
        var baseRecords: [RunRecord] = [], headRecords: [RunRecord] = []
        let chosen = indices ?? Array(base.plans.indices)
        let order = Self.order(repetitions: repetitions)
        let total = chosen.count * order.count
        var index = 0
        for planIndex in chosen {
            var counts = (base: done[planIndex], head: done[planIndex])
            for isHead in order {
                if base.options.interruption.signal != nil || head.options.interruption.signal != nil {
                    return (baseRecords, headRecords)
                }
                index += 1
                let side = isHead ? head : base
                var plan = side.plans[planIndex]
                plan.repetition = (isHead ? counts.head : counts.base) + 1
                if isHead { counts.head += 1 } else { counts.base += 1 }
                progress(.starting(side: side.label, plan: plan, index: index, of: total))
                let record: RunRecord
                do {
                    record = try (isHead ? headRunner : baseRunner).run(plan)
                } catch {
                    throw SuiteFailure(underlying: error, completed: baseRecords + headRecords)
                }
                progress(.finished(side: side.label, record: record, index: index, of: total))
                if isHead { headRecords.append(record) } else { baseRecords.append(record) }
            }
            done[planIndex] = max(counts.base, counts.head)
        }
        return (baseRecords, headRecords)
    }
}

extension ABRunner {
    /// The records of both sides so far, and how many rounds of more repetitions were added.
    public struct Outcome: Sendable {
        public var base: [RunRecord]
        public var head: [RunRecord]
        /// Repetitions per side of each plan at the end.
        public var repetitions: [Int]
        /// Plan indices that got more repetitions, per added round.
        public var rounds: [[Int]]
    }

    /// Adaptive A/B: `initial` repetitions per side of every plan; then, while `ambiguous` names
    /// plans whose result is still ambiguous (their index), `step` more of those plans only, up
    /// to `maximum` per side. Only what is ambiguous costs more time.
    public func runAdaptive(initial: Int, step: Int, maximum: Int,
                            ambiguous: ([RunRecord], [RunRecord]) -> [Int],
                            progress: @escaping (Progress) -> Void = { _ in }) throws -> Outcome {
        var first = try run(repetitions: initial, progress: progress)
        var repetitions = Array(repeating: initial, count: base.plans.count)
        var rounds: [[Int]] = []
        while base.options.interruption.signal == nil {
            let more = ambiguous(first.base, first.head).filter { repetitions[$0] + 1 <= maximum }
            guard !more.isEmpty else { break }
            let count = min(step, maximum - (more.map { repetitions[$0] }.max() ?? maximum))
            guard count > 0 else { break }
            let round: (base: [RunRecord], head: [RunRecord])
            do {
                round = try run(repetitions: count, indices: more, progress: progress)
            } catch let failure as SuiteFailure {
                throw SuiteFailure(underlying: failure.underlying, completed: first.base + first.head + failure.completed)
            }
            first.base += round.base
            first.head += round.head
            for index in more { repetitions[index] += count }
            rounds.append(more)
        }
        return Outcome(base: first.base, head: first.head, repetitions: repetitions, rounds: rounds)
    }
}
