import FrugalKit

extension WorkloadCatalogue {
    static let baseline: [WorkloadDefinition] = [
        WorkloadDefinition(name: "idle",
                           summary: "does nothing at all: the ground truth for zero",
                           defaultScenarios: ["idle"]) { IdleApp() },
    ]
}

/// An app with nothing to do.
final class IdleApp: AppDelegate {}
