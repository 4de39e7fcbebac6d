import ArgumentParser
import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline
import FrugalReport

/// `frugal bisect GOOD BAD`: the first commit at which one value regresses, by A/B runs of each
/// candidate against GOOD; resumable.
struct Bisect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first commit between GOOD and BAD at which an audit or metric regresses, by A/B runs against GOOD.",
        discussion: """
        Walks the first-parent history GOOD..BAD. Each candidate is checked out in a worktree of its
        own and built (--build-command, default swift build -c release), then run against GOOD with
        frugal ab, only the workload and scenario named (--workload, --scenario, or a command after
        --). BAD is checked first; then a binary search, at most ⌈log₂ n⌉ more builds. A step whose
        value is inconclusive stops the search and says so (exit 4). Every step is kept in the
        state file: run the same command again after an interrupt and it goes on where it stopped.
          frugal bisect v1.2 HEAD --metric cpu.wakeups --workload notes --scenario day
        """)

    @Argument(help: ArgumentHelp("A commit without the regression.", valueName: "good"))
    var good: String

    @Argument(help: ArgumentHelp("A commit with it.", valueName: "bad"))
    var bad: String

    @Option(help: ArgumentHelp("The audit whose value regressed.", valueName: "id"))
    var audit: String?

    @Option(help: ArgumentHelp("The metric that regressed.", valueName: "name"))
    var metric: String?

    @Option(help: ArgumentHelp("The state file (resumes from it when it is of this bisection).", valueName: "file"))
    var state = ".frugal/bisect.json"

    @OptionGroup var ab: ABOptions

    func validate() throws {
        guard (audit == nil) != (metric == nil) else { throw ValidationError("name exactly one of --audit ID and --metric NAME") }
        guard ab.baseRev == nil, ab.headRev == nil else { throw ValidationError("bisect chooses the revisions: no --base-rev or --head-rev") }
    }

    /// What a bisection knows, written after every step.
    struct State: Codable {
        var good: String
        var bad: String
        var target: String
        var candidates: [String]
        /// Commit → "bad", "good" or "inconclusive", and the evidence.
        var verdicts: [String: String]
        var evidence: [String: String]
        /// Candidates built (GOOD, the reference, is not counted).
        var built: [String]
    }

    func run() throws {
        let kind: ComparisonEntry.Kind = audit != nil ? .audit : .metric
        let name = audit ?? metric ?? ""
        let target = "\(kind.rawValue):\(name)"
        let builder = GitRevisionBuilder(repository: URL(fileURLWithPath: ab.repo).standardizedFileURL,
                                         worktrees: URL(fileURLWithPath: ab.repo).appendingPathComponent(".frugal/worktrees").standardizedFileURL,
                                         buildCommand: ab.buildCommand)
        let goodCommit: String, badCommit: String, candidates: [String]
        do {
            goodCommit = try builder.resolve(good)
            badCommit = try builder.resolve(bad)
            candidates = try builder.commits(after: goodCommit, through: badCommit)
        } catch let failure as GitRevisionBuilder.Failure {
            throw CLIFailure.badInput(failure.description)
        }
        guard candidates.last == badCommit else {
            throw CLIFailure.badInput("\(bad) is not a descendant of \(good) along the first-parent line")
        }
        var current = State(good: goodCommit, bad: badCommit, target: target, candidates: candidates, verdicts: [:], evidence: [:], built: [])
        let stateURL = URL(fileURLWithPath: state)
        if let data = try? Data(contentsOf: stateURL), let saved = try? JSONDecoder().decode(State.self, from: data) {
            guard saved.good == goodCommit, saved.bad == badCommit, saved.target == target else {
                throw CLIFailure.badInput("\(state) holds another bisection (\(saved.good.prefix(12))..\(saved.bad.prefix(12)), \(saved.target)): remove it or pass --state")
            }
            current = saved
            if !saved.verdicts.isEmpty { ProcessIO.progress("frugal bisect: resuming from \(state): \(saved.verdicts.count) step\(saved.verdicts.count == 1 ? "" : "s") known") }
        }
        let interruption = SuiteInterruption()
        let directory = stateURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        SignalHandling.install(interruption, sandboxParent: FileManager.default.temporaryDirectory, out: directory, quiet: ab.quiet)

        func save() throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try ReportInput.write(try encoder.encode(current), to: state)
        }
        func verdict(_ index: Int) throws -> String {
            let commit = candidates[index]
            if let known = current.verdicts[commit] { return known }
            ProcessIO.progress("frugal bisect: step \(current.verdicts.count + 1): \(commit.prefix(12)) \(builder.subject(commit)) against GOOD")
            if !current.built.contains(commit) { current.built.append(commit) }
            var session = ab.session(base: ab.baseSide(revision: goodCommit), head: ab.headSide(revision: commit))
            session.focus = { $0.kind == kind && $0.name == name }
            session.interruption = interruption
            let result = try session.runFromCommandLine(out: directory, installingSignals: false)
            let entries = (result.head.comparison?.results ?? []).flatMap { $0.audits + $0.metrics }.filter { $0.kind == kind && $0.name == name }
            guard !entries.isEmpty else {
                throw CLIFailure.badInput("\(target) was not measured in the runs of \(commit.prefix(12)) and GOOD (check --workload, --scenario)")
            }
            let answer: String
            if let regressed = entries.first(where: { $0.verdict == .regressed }) {
                answer = "bad"
                current.evidence[commit] = CIOutput.describe(regressed)
            } else if let unsure = entries.first(where: { $0.verdict == .inconclusive || $0.verdict == .insufficientData }) {
                answer = "inconclusive"
                current.evidence[commit] = CIOutput.describe(unsure) + ": " + unsure.reason
            } else {
                answer = "good"
                current.evidence[commit] = CIOutput.describe(entries[0])
            }
            current.verdicts[commit] = answer
            try save()
            ProcessIO.progress("frugal bisect: \(commit.prefix(12)) is \(answer): \(current.evidence[commit] ?? "")")
            return answer
        }

        try save()
        let last = candidates.count - 1
        switch try verdict(last) {
        case "good":
            throw CLIFailure.badInput("\(bad) does not regress \(target) against \(good) (\(current.evidence[badCommit] ?? "")): nothing to bisect")
        case "inconclusive":
            throw CLIFailure(code: .inconclusive, message: "inconclusive at \(bad) itself: \(current.evidence[badCommit] ?? "")")
        default:
            break
        }
        var low = -1, high = last  // low: known good (-1 is GOOD), high: known bad
        for (index, commit) in candidates.enumerated() {
            if current.verdicts[commit] == "good" { low = max(low, index) }
        }
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
                throw CLIFailure(code: .inconclusive, message: "inconclusive at \(commit.prefix(12)) (\(builder.subject(commit))): \(current.evidence[commit] ?? ""); the first bad commit is after \(low < 0 ? String(goodCommit.prefix(12)) : String(candidates[low].prefix(12))) and at or before \(candidates[high].prefix(12)); state in \(state)")
            }
        }
        let first = candidates[high]
        print("first bad commit: \(first) \(builder.subject(first))")
        print("  \(target): \(current.evidence[first] ?? "")")
        print("  \(current.built.count) candidate\(current.built.count == 1 ? "" : "s") built and run of \(candidates.count) (GOOD \(goodCommit.prefix(12)) as the reference); state in \(state)")
    }
}
