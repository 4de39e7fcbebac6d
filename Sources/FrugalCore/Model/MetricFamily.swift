/// Metrics declared together with the extractor that gives them: a new metric (or a few of one
/// area) is one file that declares its name (`MetricName`), its ``MetricDefinition`` (unit,
/// direction, minimum effect) and its extractor, as a `MetricFamily`, and one line in ``all``.
/// ``MetricCatalogue/all`` and `MetricExtraction`'s extractors both read this list, so the
/// declaration and the value cannot be added one without the other; `MetricCatalogueTests`
/// holds every value to its declaration (unit, source). `MetricExtraction+Threads.swift`
/// (`threads.peak`) is the example. The older areas' declarations stay in `MetricCatalogue`.
public struct MetricFamily: Sendable {
    /// What the family reports, declared once.
    public let definitions: [MetricDefinition]
    /// Sets each of ``definitions``' values for a run, or `.unavailable` with the reason (black-box
    /// runs too: it must say so itself where its facts are missing).
    let extract: @Sendable (RunAnalysis, inout [String: MetricValue]) -> Void

    init(_ definitions: [MetricDefinition], extract: @escaping @Sendable (RunAnalysis, inout [String: MetricValue]) -> Void) {
        self.definitions = definitions
        self.extract = extract
    }

    /// Every family, one line each.
    public static let all: [MetricFamily] = [.threads]
}
