import Foundation
import FrugalCore

extension RunNetwork {
    /// The origin and shaping proxy of a run of `plan`: a scenario's own link and radio
    /// (frugal.yml's options) win over the run's defaults. A built-in workload speaks plain HTTP
    /// to FRUGAL_PROXY: only apps and programs get a CA (HTTPS). Throws naming the server that failed.
    static func forRun(of plan: RunPlan, options: HarnessOptions) throws -> RunNetwork {
        var builtIn = false
        if case .builtIn = plan.target { builtIn = true }
        return try RunNetwork(profile: plan.scenario.networkProfile.flatMap(NetworkProfile.named) ?? options.networkProfile,
                              radio: plan.scenario.radio ?? options.radio,
                              server: options.server.overridden(by: plan.server),
                              trustDirectory: builtIn ? nil : options.sandboxParent)
    }
}
