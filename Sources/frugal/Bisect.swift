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
        Walks the first-parent history GOOD..BAD. Each candidate is checked out in a worktree of its \
        own and built (--build-command, default swift build -c release), then run against GOOD with \
        frugal ab, only the workload and scenario named (--workload, --scenario, or a command after \
        --). BAD is checked first; then a binary search, at most ⌈log₂ n⌉ more builds. A step whose \
        value is inconclusive stops the search and says so (exit 4). Every step is kept in the \
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

    func run() throws {
        let kind: ComparisonEntry.Kind = audit != nil ? .audit : .metric
        let directory = URL(fileURLWithPath: state).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let quiet = ab.quiet
        var session = BisectSession(settings: ab.settings, base: ab.baseSide(), head: ab.headSide(), good: good, bad: bad, kind: kind,
                                    name: audit ?? metric ?? "", statePath: state, toolVersion: Frugal.version,
                                    log: { ProcessIO.progress($0) }, runLog: quiet ? nil : { ProcessIO.progress($0) })
        let interruption = SuiteInterruption()
        session.interruption = interruption
        SignalHandling.install(interruption, sandboxParent: FileManager.default.temporaryDirectory, out: directory, quiet: quiet)
        let result: BisectSession.Result
        do {
            result = try session.run()
        } catch let failure as PipelineFailure {
            throw CLIFailure(failure)
        }
        print("first bad commit: \(result.firstBad) \(result.subject)")
        print("  \(session.target): \(result.evidence)")
        print("  \(result.state.built.count) candidate\(result.state.built.count == 1 ? "" : "s") built and run of \(result.state.candidates.count) (GOOD \(result.state.good.prefix(12)) as the reference); state in \(state)")
    }
}
