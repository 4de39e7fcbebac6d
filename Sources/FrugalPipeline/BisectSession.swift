import Foundation
import FrugalCore
import FrugalHarness

/// What a bisection knows, written to its state file after every step, so that it resumes
/// where an interrupt stopped it.
public struct BisectState: Codable, Sendable {
    public var good: String
    public var bad: String
    public var target: String
    public var candidates: [String]
    /// Commit → "bad", "good" or "inconclusive", and the evidence.
    public var verdicts: [String: String]
    public var evidence: [String: String]
    /// Candidates built (GOOD, the reference, is not counted).
    public var built: [String]
}

/// `frugal bisect`'s search: the first commit of GOOD..BAD (first parents) at which one audit's
/// value or one metric regresses, each candidate checked by an ``ABSession`` against GOOD.
/// BAD is checked first; then a binary search, at most ⌈log₂ n⌉ more builds.
public struct BisectSession {
    /// What each A/B step runs (its revisions are the session's to choose).
    public var settings: ABSettings
    /// The two sides' other settings (products, executable, environment).
    public var base: ABSideSpec
    public var head: ABSideSpec
    public var good: String
    public var bad: String
    /// Which value is followed.
    public var kind: ComparisonEntry.Kind
    public var name: String
    /// The state file.
    public var statePath: String
    /// Interrupted by the caller's signal handlers, for every step.
    public var interruption = SuiteInterruption()
    public var toolVersion: String
    /// Hears each step (always) and the A/B runs (when `runLog` is set).
    public var log: (String) -> Void
    public var runLog: ((String) -> Void)?

    public init(settings: ABSettings, base: ABSideSpec, head: ABSideSpec, good: String, bad: String, kind: ComparisonEntry.Kind,
                name: String, statePath: String, toolVersion: String, log: @escaping (String) -> Void, runLog: ((String) -> Void)?) {
        self.settings = settings
        self.base = base
        self.head = head
        self.good = good
        self.bad = bad
        self.kind = kind
        self.name = name
        self.statePath = statePath
        self.toolVersion = toolVersion
        self.log = log
        self.runLog = runLog
    }

    /// The first bad commit and what was learnt on the way.
    public struct Result: Sendable {
        public var firstBad: String
        public var subject: String
        public var evidence: String
        public var state: BisectState
    }

    /// "audit:ID" or "metric:NAME".
    public var target: String { "\(kind.rawValue):\(name)" }

    /// Searches; throws ``PipelineFailure`` when BAD does not regress (bad input), when a step
    /// is inconclusive (saying where the first bad commit must lie), or when a step fails.
    public func run() throws -> Result {
        let builder = GitRevisionBuilder(repository: URL(fileURLWithPath: settings.repo).standardizedFileURL,
                                         worktrees: URL(fileURLWithPath: settings.repo).appendingPathComponent(".frugal/worktrees").standardizedFileURL,
                                         buildCommand: settings.buildCommand)
        let goodCommit: String, badCommit: String, candidates: [String]
        do {
            goodCommit = try builder.resolve(good)
            badCommit = try builder.resolve(bad)
            candidates = try builder.commits(after: goodCommit, through: badCommit)
        } catch let failure as GitRevisionBuilder.Failure {
            throw PipelineFailure.badInput(failure.description)
        }
        guard candidates.last == badCommit else {
            throw PipelineFailure.badInput("\(bad) is not a descendant of \(good) along the first-parent line")
        }
        let target = self.target
        var current = BisectState(good: goodCommit, bad: badCommit, target: target, candidates: candidates, verdicts: [:], evidence: [:], built: [])
        let stateURL = URL(fileURLWithPath: statePath)
        if let data = try? Data(contentsOf: stateURL), let saved = try? JSONDecoder().decode(BisectState.self, from: data) {
            guard saved.good == goodCommit, saved.bad == badCommit, saved.target == target else {
                throw PipelineFailure.badInput("\(statePath) holds another bisection (\(saved.good.prefix(12))..\(saved.bad.prefix(12)), \(saved.target)): remove it or pass --state")
            }
            current = saved
            if !saved.verdicts.isEmpty { log("frugal bisect: resuming from \(statePath): \(saved.verdicts.count) step\(saved.verdicts.count == 1 ? "" : "s") known") }
        }
        try FileManager.default.createDirectory(at: stateURL.deletingLastPathComponent(), withIntermediateDirectories: true)

        func save() throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            do {
                try encoder.encode(current).write(to: stateURL, options: .atomic)
            } catch {
                throw PipelineFailure.harness("cannot write the bisection's state to \(statePath): \(ErrorText.reason(error))")
            }
        }
        func verdict(_ index: Int) throws -> String {
            let commit = candidates[index]
            if let known = current.verdicts[commit] { return known }
            log("frugal bisect: step \(current.verdicts.count + 1): \(commit.prefix(12)) \(builder.subject(commit)) against GOOD")
            if !current.built.contains(commit) { current.built.append(commit) }
            var base = self.base, head = self.head
            base.revision = goodCommit
            head.revision = commit
            var session = ABSession(options: settings, base: base, head: head, toolVersion: toolVersion, log: runLog)
            let (kind, name) = (self.kind, self.name)
            session.focus = { $0.kind == kind && $0.name == name }
            session.interruption = interruption
            let result = try session.run()
            let results = result.head.comparison?.results ?? []
            let measured: [ComparisonEntry] = results.flatMap { $0.audits + $0.metrics }
            let entries = measured.filter { $0.kind == kind && $0.name == name }
            guard !entries.isEmpty else {
                throw PipelineFailure.badInput("\(target) was not measured in the runs of \(commit.prefix(12)) and GOOD (check --workload, --scenario)")
            }
            let answer: String
            if let regressed = entries.first(where: { $0.verdict == .regressed }) {
                answer = "bad"
                current.evidence[commit] = regressed.oneLine
            } else if let unsure = entries.first(where: { $0.verdict == .inconclusive || $0.verdict == .insufficientData }) {
                answer = "inconclusive"
                current.evidence[commit] = unsure.oneLine + ": " + unsure.reason
            } else {
                answer = "good"
                current.evidence[commit] = entries[0].oneLine
            }
            current.verdicts[commit] = answer
            try save()
            log("frugal bisect: \(commit.prefix(12)) is \(answer): \(current.evidence[commit] ?? "")")
            return answer
        }

        try save()
        let last = candidates.count - 1
        switch try verdict(last) {
        case "good":
            throw PipelineFailure.badInput("\(bad) does not regress \(target) against \(good) (\(current.evidence[badCommit] ?? "")): nothing to bisect")
        case "inconclusive":
            throw PipelineFailure(kind: .inconclusive, message: "inconclusive at \(bad) itself: \(current.evidence[badCommit] ?? "")")
        default:
            break
        }
        var low = -1, high = last  // low: known good (-1 is GOOD), high: known bad
        for (index, commit) in candidates.enumerated() where current.verdicts[commit] == "good" { low = max(low, index) }
        for (index, commit) in candidates.enumerated().reversed() where current.verdicts[commit] == "bad" && index > low {
            high = min(high, index)
        }
        while high - low > 1 {
            let middle = (low + high) / 2
            let answer = try verdict(middle)
            if answer == "bad" {
                high = middle
            } else if answer == "good" {
                low = middle
            } else {
                let commit = candidates[middle]
                throw PipelineFailure(kind: .inconclusive, message: "inconclusive at \(commit.prefix(12)) (\(builder.subject(commit))): \(current.evidence[commit] ?? ""); the first bad commit is after \(low < 0 ? String(goodCommit.prefix(12)) : String(candidates[low].prefix(12))) and at or before \(candidates[high].prefix(12)); state in \(statePath)")
            }
        }
        let first = candidates[high]
        return Result(firstBad: first, subject: builder.subject(first), evidence: current.evidence[first] ?? "", state: current)
    }
}
