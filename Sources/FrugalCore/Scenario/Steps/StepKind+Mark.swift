extension StepKind {
    /// `mark: NAME`: a named point in the scenario's timeline (`- mark: after-sync`), drawn on the
    /// steps lane of the report's timeline and as an instant in the Perfetto trace, so a reader of
    /// a long scenario finds its phases. It does nothing to the workload, takes no time, and is
    /// judged by nothing; a black-box program can take it (the harness alone records it).
    /// The scenario-side twin of `app.mark(...)`, which an app puts on the timeline itself.
    public static let mark = StepKind(
        name: "mark", summary: "put a named marker in the run's timeline (does nothing to the workload)",
        form: .text, timedBy: nil, label: .argument(prefix: "mark "),
        check: { argument in
            guard let name = argument.text else { return nil }
            if name.isEmpty || name.count > maximumMarkLength || name.contains(where: \.isNewline) {
                return "a mark's name is 1 to \(maximumMarkLength) characters on one line, not '\(name)'"
            }
            return nil
        },
        app: { step, harness in harness.record(step) },
        program: .same)

    /// The longest a mark's name may be: a label on a narrow lane, not a note.
    public static let maximumMarkLength = 64
}

extension ScenarioStep {
    /// A named point in the timeline, `name` (1 to 64 characters on one line).
    public static func mark(_ name: String) -> ScenarioStep { ScenarioStep(.mark, .text(name)) }
}
