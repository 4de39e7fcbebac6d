import Foundation
import FrugalConfig
import FrugalCore
import FrugalReport
import FrugalWorkloads

/// `frugal verdicts` as a library: which workloads a report is expected to pass or fail, and the
/// confusion matrix of the report against them. The CLI reads the report and prints the matrix.
public enum VerdictCheck {
    /// The good workloads and the pairs a report is checked against: the built-in suite's, or
    /// the apps' `verdict:` keys of the frugal.yml at `configPath`.
    public static func expectations(configPath: String?) throws -> (pairs: [WorkloadPair], alsoGood: [String]) {
        guard let configPath else { return (WorkloadCatalogue.pairs, WorkloadCatalogue.goodWithoutTwin) }
        let project: ProjectConfig
        do {
            project = try ProjectConfigLoader.load(path: configPath)
        } catch let error as ConfigError {
            throw PipelineFailure.badInput(error.description)
        }
        let pairs = project.verdictPairs, alsoGood = project.goodWithoutTwin
        guard !pairs.isEmpty || !alsoGood.isEmpty else {
            throw PipelineFailure.badInput("\(configPath) gives no app a verdict (verdict: good, or {fails: AUDIT, twin: GOOD-APP})")
        }
        return (pairs, alsoGood)
    }

    /// The matrix of `report` against the expectations of ``expectations(configPath:)``.
    public static func matrix(of report: Report, configPath: String?) throws -> VerdictMatrix {
        let (pairs, alsoGood) = try expectations(configPath: configPath)
        return VerdictMatrix(results: report.results, pairs: pairs, alsoGood: alsoGood)
    }

    /// A report read from a stream (`frugal verdicts -`), bounded like a report file: `data` is
    /// what was read with a limit of ``ReportJSON/maxBytes`` + 1, nil when nothing was.
    public static func report(streamed data: Data?, from source: String) throws -> Report {
        guard let data, !data.isEmpty, data.count <= ReportJSON.maxBytes else {
            throw PipelineFailure.badInput("\(source) is empty or larger than a report can be (\(ReportJSON.maxBytes / 1_048_576) MiB)")
        }
        do {
            return try ReportJSON.decode(data)
        } catch let error as DecodingError {
            throw PipelineFailure.badInput("\(source) is not a Frugal report: \(DecodingErrorText.describe(error))")
        }
    }
}
