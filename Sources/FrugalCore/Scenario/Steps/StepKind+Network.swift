extension StepKind {
    /// `network: PROFILE`: change the shaping proxy's link to a built-in profile.
    public static let network = StepKind(
        name: "network", summary: "change the shaping proxy's link conditions to a built-in profile (lte, 3g, offline, ...)",
        form: .text, timedBy: nil, label: .argument(prefix: "network "),
        check: { argument in
            guard case .text(let profile) = argument, NetworkProfile.named(profile) == nil else { return nil }
            return "unknown network profile '\(profile)'; known: \(NetworkProfile.builtIns.map(\.name).joined(separator: ", "))"
        },
        app: { step, harness in harness.setNetwork(profile: step.text) },
        program: .same)
}

extension ScenarioStep {
    /// Change the shaping proxy's link conditions to the built-in profile `profile` (`lte`,
    /// `3g`, `offline`, ...), for new and open connections.
    public static func network(profile: String) -> ScenarioStep { ScenarioStep(.network, .text(profile)) }
}
