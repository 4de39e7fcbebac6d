import Foundation
import FrugalCore
import Yams

/// Reads `frugal.yml`:
///
/// ```yaml
/// apps:
///   - name: notes
///     product: NotesProfile          # or: executable: path/to/binary
///     arguments: [--store, sqlite]
///     environment: {NOTES_LOG: quiet}
///     resources: Resources/          # installed read-only as the app's bundle
///     documents: Fixtures/Documents/ # installed in the sandbox's Documents before launch
///     scenarios: [day, background]
///     server:                        # the app's own responses instead of the synthetic routes
///       fixtures: Fixtures/api/      # request path → file (FILE.meta.json: status, headers...)
///       har: Fixtures/session.har    # a HAR 1.2 export, replayed (tried before the fixtures)
///       timing: recorded             # or a fixed server time: 40ms
///   - name: wake
///     kind: program                  # any program, run as a black box
///     executable: /usr/local/bin/wake
///     memoryWarningSignal: USR1      # what a memoryWarning step sends it (a program only)
///     inputSignal: USR2              # what an input step sends it (a program only)
///     scenarios: [background]
/// scenarios:
///   day:
///     steps: [launch, {wait: 2}, {input: edit}, {interrupt: 1}, {wait: 3}, terminate]
///   background:
///     backgroundTimeBudget: 10       # also: network: 3g, radio: wifi, summary: "..."
///     steps: [launch, {wait: 2}, home, {wait: 5}, foreground, {wait: 1}, terminate]
/// assert:
///   preset: frugal:recommended
/// ```
///
/// Every problem is one `ConfigError` naming the file and the line; nothing runs before the
/// whole file has been checked (executables exist, folders exist, every scenario named exists).
public enum ProjectConfigLoader {
    /// The file `frugal run` looks for in the current directory.
    public static let fileName = "frugal.yml"

    /// Loads the file at `path`; relative paths in it are read from its directory.
    public static func load(path: String) throws -> ProjectConfig {
        let text = try YAMLText.read(path: path)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try parse(text, file: path, directory: directory)
    }

    /// Parses `text`; `file` names it in errors and `directory` is where relative paths start.
    public static func parse(_ text: String, file: String, directory: URL) throws -> ProjectConfig {
        guard let root = try YAMLText.compose(text, file: file) else {
            throw ConfigError(file: file, line: 1, problem: "the file is empty; expected 'apps', 'scenarios' or 'assert'")
        }
        guard let mapping = root.mapping else {
            throw ConfigError(file: file, line: YAMLText.line(root), problem: "expected a mapping with 'apps', 'scenarios' and/or 'assert'")
        }
        let reader = ProjectConfigReader(file: file, directory: directory)
        var config = ProjectConfig(file: file, directory: directory)
        var appsNode: Node?
        var assertionPairs: [(key: Node, value: Node)] = []
        var assertionSection: Node?
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "apps": appsNode = valueNode
            case "scenarios":
                config.scenarios = try reader.scenarios(valueNode)
                config.scenarioServers = try reader.scenarioServers(valueNode)
            case "ci":
                assertionSection = YAMLText.value(valueNode, "assert") ?? valueNode
            case "assert": assertionSection = valueNode
            case "preset", "assertions": assertionPairs.append((keyNode, valueNode))
            default:
                throw ConfigError(file: file, line: YAMLText.line(keyNode),
                                  problem: "unknown key '\(key)'; expected apps, scenarios, ci, assert, preset or assertions")
            }
        }
        if let section = assertionSection {
            guard let entries = section.mapping else {
                throw ConfigError(file: file, line: YAMLText.line(section), problem: "expected a mapping with 'preset' and/or 'assertions'")
            }
            assertionPairs += Array(entries)
        }
        if !assertionPairs.isEmpty { config.assertions = try AssertionConfigLoader.assertionSet(assertionPairs, file: file) }
        // Apps last: their scenarios may name scenarios defined further down.
        if let appsNode { config.apps = try reader.apps(appsNode, config: config) }
        return config
    }
}

/// The checks of each part of the file, with the file's name and directory at hand.
struct ProjectConfigReader {
    let file: String
    let directory: URL

    func error(_ node: Node?, _ problem: String) -> ConfigError {
        ConfigError(file: file, line: node.flatMap(YAMLText.line), problem: problem)
    }

    func string(_ node: Node, _ what: String) throws -> String {
        guard let text = node.scalar?.string, !text.isEmpty else { throw error(node, "\(what) must be a non-empty text") }
        return text
    }

    func strings(_ node: Node, _ what: String) throws -> [String] {
        if let single = node.scalar?.string { return [single] }
        guard let sequence = node.sequence else { throw error(node, "\(what) must be a list such as [a, b]") }
        return try sequence.map { item in
            guard let text = item.scalar?.string else { throw error(item, "\(what) must hold plain values, not a list or mapping") }
            return text
        }
    }

    // MARK: Scenarios

    func scenarios(_ node: Node) throws -> [Scenario] {
        guard let mapping = node.mapping else { throw error(node, "'scenarios' must be a mapping of name to scenario") }
        var result: [Scenario] = []
        for (keyNode, valueNode) in mapping {
            let name = try string(keyNode, "a scenario's name")
            if ScenarioCatalogue.named(name) != nil {
                throw error(keyNode, "scenario '\(name)' is already a built-in scenario (see 'frugal list'); name yours differently, or list '\(name)' in an app to use the built-in one")
            }
            if result.contains(where: { $0.name == name }) { throw error(keyNode, "scenario '\(name)' is defined twice") }
            result.append(try scenario(name, valueNode, at: keyNode))
        }
        return result
    }

    func scenario(_ name: String, _ node: Node, at keyNode: Node) throws -> Scenario {
        // A bare list is the steps alone.
        if node.sequence != nil {
            let steps = try self.steps(node, scenario: name)
            return Scenario(name: name, summary: steps.map(\.description).joined(separator: ", "), steps: steps)
        }
        guard let mapping = node.mapping else { throw error(node, "scenario '\(name)' must be a mapping with 'steps' (or a list of steps)") }
        var steps: [ScenarioStep]?
        var summary: String?
        var budget: Double?
        var profile: String?
        var radio: RadioProfile.Technology?
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "steps": steps = try self.steps(valueNode, scenario: name)
            case "summary": summary = try string(valueNode, "'summary'")
            case "backgroundTimeBudget":
                // At most a wait's maximum (an hour): a budget of 1e308 s with a background task
                // the app never ended held the run in `home` for ever, past every other bound.
                guard let seconds = valueNode.float, seconds.isFinite, seconds > 0, seconds <= ScenarioStep.maximumWaitSeconds else {
                    throw error(valueNode, "scenario '\(name)': backgroundTimeBudget must be a positive number of seconds up to \(Int(ScenarioStep.maximumWaitSeconds)), not '\(valueNode.scalar?.string ?? "a collection")'")
                }
                budget = seconds
            case "network":
                let text = try string(valueNode, "'network'")
                guard NetworkProfile.named(text) != nil else {
                    throw error(valueNode, "scenario '\(name)': unknown network profile '\(text)'; known: \(NetworkProfile.builtIns.map(\.name).joined(separator: ", "))")
                }
                profile = text
            case "radio":
                let text = try string(valueNode, "'radio'")
                guard let technology = Self.radios[text] else {
                    throw error(valueNode, "scenario '\(name)': unknown radio '\(text)'; known: lte, 3g, wifi")
                }
                radio = technology
            case "server": _ = try server(valueNode, label: "scenario '\(name)'")
            default:
                throw error(keyNode, "scenario '\(name)': unknown key '\(key)'; expected steps, summary, backgroundTimeBudget, network, radio or server")
            }
        }
        guard let steps else { throw error(keyNode, "scenario '\(name)' has no 'steps'") }
        return Scenario(name: name, summary: summary ?? steps.map(\.description).joined(separator: ", "), steps: steps,
                        backgroundTimeBudget: budget, networkProfile: profile, radio: radio)
    }

    /// `frugal run --radio`'s names.
    static let radios: [String: RadioProfile.Technology] = ["lte": .lte, "3g": .threeG, "wifi": .wifi]

    func steps(_ node: Node, scenario: String) throws -> [ScenarioStep] {
        guard let sequence = node.sequence, !sequence.isEmpty else {
            throw error(node, "scenario '\(scenario)': 'steps' must be a non-empty list such as [launch, {wait: 2}, terminate]")
        }
        let steps = try expandedSteps(Array(sequence), scenario: scenario)
        guard steps.first == .launch else {
            throw error(sequence.first, "scenario '\(scenario)' must start with launch, not \(steps[0].name)")
        }
        return steps
    }

    /// One step, read by `ScenarioStep`'s own decoding (one vocabulary for Swift, JSON and YAML).
    func step(_ node: Node, scenario: String) throws -> ScenarioStep {
        let value = Self.jsonValue(node)
        let step: ScenarioStep
        do {
            let data = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
            step = try JSONDecoder().decode(ScenarioStep.self, from: data)
        } catch let decoding as DecodingError {
            throw error(node, "scenario '\(scenario)': \(Self.describe(decoding, node: node))")
        } catch {
            throw self.error(node, "scenario '\(scenario)': unreadable step (\(error))")
        }
        if let problem = step.kind.problem(with: step.argument) {
            throw error(node, "scenario '\(scenario)': \(problem)")
        }
        return step
    }

    /// YAML scalars as JSON values: plain numbers become numbers, everything else text.
    static func jsonValue(_ node: Node) -> Any {
        if let scalar = node.scalar {
            if scalar.style == .plain {
                if let integer = Int(scalar.string) { return integer }
                if let number = Double(scalar.string), number.isFinite { return number }
            }
            return scalar.string
        }
        if let mapping = node.mapping {
            var object: [String: Any] = [:]
            for (key, value) in mapping { object[key.scalar?.string ?? ""] = jsonValue(value) }
            return object
        }
        if let sequence = node.sequence { return sequence.map(jsonValue) }
        return NSNull()
    }

    static func describe(_ error: DecodingError, node: Node) -> String {
        let stepName = node.mapping?.first?.key.scalar?.string ?? node.scalar?.string ?? "step"
        let given = node.mapping?.first?.value.scalar?.string ?? "a list or mapping"
        switch error {
        case .dataCorrupted(let context):
            return context.debugDescription.hasPrefix("unknown step") || context.debugDescription.hasPrefix("a step")
                ? context.debugDescription
                : "'\(stepName)': \(context.debugDescription), not '\(given)'"
        case .typeMismatch(let type, _):
            let wanted = type == Double.self || type == Int.self ? "a number" : "a text value"
            return "'\(stepName)' needs \(wanted), not '\(given)'"
        case .keyNotFound, .valueNotFound:
            return "a step is a name (launch) or a mapping with one key ({wait: 2})"
        @unknown default:
            return "\(error)"
        }
    }

    // MARK: Apps

    func apps(_ node: Node, config: ProjectConfig) throws -> [AppConfig] {
        guard let sequence = node.sequence else { throw error(node, "'apps' must be a list of apps (- name: ...)") }
        var apps: [AppConfig] = []
        for item in sequence {
            let app = try self.app(item, config: config)
            if apps.contains(where: { $0.name == app.name }) { throw error(item, "app '\(app.name)' is listed twice") }
            apps.append(app)
        }
        try AppVerdictReader.checkTwins(apps) { ConfigError(file: file, line: $0, problem: $1) }
        return apps
    }

    func app(_ node: Node, config: ProjectConfig) throws -> AppConfig {
        guard let mapping = node.mapping else { throw error(node, "an app must be a mapping with 'name' and 'executable' or 'product'") }
        var name: String?
        var kind = AppConfig.Kind.app
        var source: (AppConfig.Source, Node)?
        var arguments: [String] = []
        var environment: [String: String] = [:]
        var resources: [BundleResource] = []
        var documents: [BundleResource] = []
        var scenarios: [(String, Node)]?
        var server: ServerSettings?
        var signals: [String: (number: Int32, node: Node)] = [:]
        var verdict: AppVerdict?
        for (keyNode, valueNode) in mapping {
            let key = keyNode.scalar?.string ?? ""
            let label = name.map { "app '\($0)'" } ?? "app"
            switch key {
            case "memoryWarningSignal", "inputSignal":
                let text = try string(valueNode, "'\(key)'")
                guard let number = ProgramSignal.number(text) else {
                    throw error(valueNode, "\(label): \(key) '\(text)' is not a signal a program can catch; use a name such as USR1 or a number (not KILL or STOP)")
                }
                signals[key] = (number, keyNode)
            case "name": name = try string(valueNode, "an app's name")
            case "kind":
                let text = try string(valueNode, "'kind'")
                guard let known = AppConfig.Kind(rawValue: text) else {
                    throw error(valueNode, "\(label): kind '\(text)' is not app (linked with FrugalKit) or program (any program)")
                }
                kind = known
            case "executable", "product":
                if source != nil { throw error(keyNode, "\(label): give either 'executable' or 'product', not both") }
                let text = try string(valueNode, "'\(key)'")
                source = (key == "product" ? .product(text) : .executable(text), valueNode)
            case "arguments": arguments = try strings(valueNode, "'arguments'")
            case "environment":
                guard let entries = valueNode.mapping else { throw error(valueNode, "\(label): 'environment' must be a mapping such as {NAME: value}") }
                for (variable, value) in entries {
                    guard let text = value.scalar?.string else { throw error(value, "\(label): environment values must be plain values") }
                    environment[try string(variable, "an environment variable's name")] = text
                }
            case "resources": resources = try files(valueNode, label: label, what: "resources")
            case "documents": documents = try files(valueNode, label: label, what: "documents")
            case "scenarios":
                if let single = valueNode.scalar?.string { scenarios = [(single, valueNode)] } else {
                    guard let list = valueNode.sequence else { throw error(valueNode, "\(label): 'scenarios' must be a list of scenario names") }
                    scenarios = try list.map { (try string($0, "a scenario name"), $0) }
                }
            case "server": server = try self.server(valueNode, label: label)
            case "verdict": verdict = try AppVerdictReader.verdict(valueNode, label: label) { error($0, $1) }
            default:
                throw error(keyNode, "\(label): unknown key '\(key)'; expected name, kind, executable, product, arguments, environment, resources, documents, scenarios, server, memoryWarningSignal, inputSignal or verdict")
            }
        }
        guard let name else { throw error(node, "an app has no 'name'") }
        for (key, signal) in signals.sorted(by: { $0.key < $1.key }) where kind != .program {
            throw error(signal.node, "app '\(name)': \(key) applies to kind: program; a FrugalKit app gets its warnings and inputs through FrugalKit")
        }
        if let warning = signals["memoryWarningSignal"], let input = signals["inputSignal"], warning.number == input.number {
            throw error(input.node, "app '\(name)': inputSignal and memoryWarningSignal are both \(ProgramSignal.name(input.number)); the program could not tell them apart")
        }
        guard let (resolvedSource, sourceNode) = source else { throw error(node, "app '\(name)' has neither 'executable' nor 'product'") }
        var finalSource = resolvedSource
        if case .executable(let path) = resolvedSource {
            let absolute = resolve(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw error(sourceNode, "app '\(name)': executable '\(path)' does not exist (looked at \(absolute.path))")
            }
            guard FileManager.default.isExecutableFile(atPath: absolute.path) else {
                throw error(sourceNode, "app '\(name)': '\(path)' is not executable")
            }
            finalSource = .executable(absolute.path)
        }
        if kind == .program && (!resources.isEmpty || !documents.isEmpty) {
            // A black box has no FrugalKit to find a bundle; say so rather than install files nobody reads.
            throw error(node, "app '\(name)': resources and documents apply to FrugalKit apps, not to kind: program")
        }
        let named = scenarios ?? []
        for (scenario, at) in named where config.scenario(named: scenario) == nil {
            let known = config.scenarios.map(\.name) + ScenarioCatalogue.all.map(\.name)
            throw error(at, "app '\(name)': scenario '\(scenario)' names nothing; known scenarios: \(known.joined(separator: ", "))")
        }
        let defaults = kind == .program ? [] : [ScenarioCatalogue.standard.name]
        var app = AppConfig(name: name, kind: kind, source: finalSource, arguments: arguments, environment: environment,
                            resources: resources, documents: documents, scenarios: scenarios.map { $0.map(\.0) } ?? defaults,
                            line: YAMLText.line(node) ?? 1)
        app.server = server
        app.memoryWarningSignal = signals["memoryWarningSignal"]?.number
        app.inputSignal = signals["inputSignal"]?.number
        app.verdict = verdict
        return app
    }
}
