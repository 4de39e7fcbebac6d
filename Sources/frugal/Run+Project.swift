import FrugalConfig
import FrugalPipeline

/// `frugal run` with a `frugal.yml`: the project file, read by the pipeline (``SuitePlanner``).
extension Run {
    /// The project file: `--config`, else `frugal.yml` in the current directory when there is one.
    func loadProject() throws -> ProjectConfig? { try Self.loadProject(config) }

    /// The project file `config` names, else `frugal.yml` in the current directory when there is one.
    static func loadProject(_ config: String?) throws -> ProjectConfig? {
        do {
            return try SuitePlanner.loadProject(config)
        } catch let failure as PipelineFailure {
            throw CLIFailure(failure)
        }
    }
}
