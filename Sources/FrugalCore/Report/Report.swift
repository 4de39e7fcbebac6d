/// The report (`report.json`, schema version 1; `schema/report.schema.json` documents it).
public struct Report: Codable, Sendable {
    /// Bumped on any incompatible change of this structure.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var tool: ToolInfo
    /// ISO 8601 time the report was made.
    public var generatedAt: String
    public var environment: EnvironmentInfo
    /// Every run, each repetition on its own.
    public var runs: [RunReport]
    /// Per workload and scenario: audits and categories aggregated over the repetitions.
    public var results: [WorkloadResult]
    /// This report against a baseline, when one was given.
    public var comparison: ReportComparison?
    /// Lighthouse-CI-style assertions, when a config was given.
    public var assertions: AssertionOutcome?
    /// The slice of the suite this report holds, when it was run with `--shard I/N`.
    public var shard: ShardInfo?
    /// The other machines whose runs are in this report (a merge of shards run on several);
    /// each run names its machine in `RunReport.machine` then. Absent for one machine.
    public var otherEnvironments: [EnvironmentInfo]?
    /// How the suite's schedule used the machine (``ScheduleSummary``): absent in merged reports
    /// and in reports made before it was recorded.
    public var schedule: ScheduleSummary?

    public init(tool: ToolInfo, generatedAt: String, environment: EnvironmentInfo, runs: [RunReport], results: [WorkloadResult]) {
        self.schemaVersion = Report.currentSchemaVersion
        self.tool = tool
        self.generatedAt = generatedAt
        self.environment = environment
        self.runs = runs
        self.results = results
    }
}

/// Which slice of a suite split `count` ways a report holds (1-based `index`).
public struct ShardInfo: Codable, Sendable, Equatable {
    public var index: Int
    public var count: Int
    /// The whole suite the shard was cut from (``ShardPlan/fingerprint(of:)``): shards of
    /// different suites are not merged. Nil in reports made before it was recorded.
    public var suite: String?
    public init(index: Int, count: Int, suite: String? = nil) {
        self.index = index
        self.count = count
        self.suite = suite
    }
}

/// The tool that made the report.
public struct ToolInfo: Codable, Sendable {
    public var name: String
    public var version: String
    public init(name: String = "frugal", version: String) {
        self.name = name
        self.version = version
    }
}

/// The machine and what could be measured on it.
public struct EnvironmentInfo: Codable, Sendable {
    public var hostname: String
    /// `uname -r`.
    public var kernel: String
    public var cores: Int
    public var memoryBytes: Int
    /// Whether the machine is a VM (no hardware PMU is likely).
    public var virtualMachine: Bool?
    public var papiVersion: String?
    public var counters: [CounterAvailability]
    /// Facts a reader needs to trust the numbers (privileges, paranoia level, cgroups...).
    public var notes: [String]

    public init(hostname: String, kernel: String, cores: Int, memoryBytes: Int, virtualMachine: Bool?,
                papiVersion: String?, counters: [CounterAvailability], notes: [String]) {
        self.hostname = hostname
        self.kernel = kernel
        self.cores = cores
        self.memoryBytes = memoryBytes
        self.virtualMachine = virtualMachine
        self.papiVersion = papiVersion
        self.counters = counters
        self.notes = notes
    }
}

/// One run of one workload under one scenario.
public struct RunReport: Codable, Sendable {
    public var workload: String
    public var scenario: String
    public var repetition: Int
    public var outcome: RunOutcome
    public var outcomeDetail: String?
    public var exitStatus: ExitStatus?
    public var durationSeconds: Double
    public var metrics: [String: MetricValue]
    public var timeline: Timeline
    public var audits: [String: AuditResult]
    public var categories: [String: CategoryScore]
    /// The overall score: the weighted mean of the categories that have a score.
    public var score: Double?
    /// The files the app wrote or left in its sandbox, by location: bytes written and changed,
    /// size at the end, backed up or not. Absent when the run wrote no file.
    public var files: [FileSummary]?
    /// The run's modelled energy (absent in reports made before 0.2).
    public var energy: RunEnergy?
    /// The hostname of the machine it ran on, when the report holds runs of several machines.
    public var machine: String?
    /// The run's containment, wrapper chain, stragglers and lanes; nil in reports made before runs had cgroups.
    public var processes: RunProcessesSummary?
    /// What the run's origin served, its unmatched requests and unseen connections; nil in
    /// reports made before the origin logged requests.
    public var server: RunServerSummary?
    /// The run's HTTPS through the proxy: its CA, how it was offered, handshakes per host, and a
    /// finding for each client that refused the run's certificate. Absent without a TLS tunnel.
    public var tls: RunTLSSummary?
    /// Wakeups by thread, each thread's role and its evidence, and what was not charged to the
    /// app (the platform's); nil in reports made before threads were told apart, or for a run
    /// with no `/proc` sample.
    public var threads: RunThreadsSummary?
    /// The run's Perfetto trace beside the report, or why none was written; nil in reports made
    /// before traces existed (`RunTraceFile`).
    public var trace: RunTraceFile?
    /// Apple's enforced limits judged on the run, when `--rules apple-limits` asked for them
    /// (`AppleLimits`); reported apart from the guide's audits and never scored.
    public var appleLimits: [AppleLimitResult]?
    /// The top causes of the run's idle wakeups, each with its Swift function and share, from
    /// the kernel's scheduler tracepoints, or why they could not be traced; nil when the
    /// harness did not trace them (`RunWakeupCauses`).
    public var wakeupCauses: RunWakeupCauses?
    /// True for a program run as a black box (nil for an app): what a fix looks like is then
    /// said in the kernel's terms, not FrugalKit's or Foundation's.
    public var blackBox: Bool?

    public init(workload: String, scenario: String, repetition: Int, outcome: RunOutcome, outcomeDetail: String?,
                exitStatus: ExitStatus?, durationSeconds: Double, metrics: [String: MetricValue], timeline: Timeline,
                audits: [String: AuditResult], categories: [String: CategoryScore], score: Double?, energy: RunEnergy? = nil) {
        self.energy = energy
        self.workload = workload
        self.scenario = scenario
        self.repetition = repetition
        self.outcome = outcome
        self.outcomeDetail = outcomeDetail
        self.exitStatus = exitStatus
        self.durationSeconds = durationSeconds
        self.metrics = metrics
        self.timeline = timeline
        self.audits = audits
        self.categories = categories
        self.score = score
    }
}

/// A category's score: the weighted mean of its scored audits.
public struct CategoryScore: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    /// nil when none of its audits has a score.
    public var score: Double?
    /// The audits that went into it.
    public var auditIDs: [String]
    public init(id: String, title: String, score: Double?, auditIDs: [String]) {
        self.id = id
        self.title = title
        self.score = score
        self.auditIDs = auditIDs
    }
}

/// A workload under a scenario, over its repetitions.
public struct WorkloadResult: Codable, Sendable {
    public var workload: String
    public var scenario: String
    public var repetitions: Int
    /// How many runs ended each way.
    public var outcomes: [String: Int]
    /// Audits aggregated by median over the repetitions that scored.
    public var audits: [String: AggregatedAudit]
    public var categories: [String: CategoryScore]
    public var score: Double?
    /// Metrics aggregated by median with their spread (absent in reports made before 0.2).
    public var metrics: [String: AggregatedMetric]?
    /// Energy aggregated by median over the repetitions (absent in reports made before 0.2).
    public var energy: AggregatedEnergy?
    public init(workload: String, scenario: String, repetitions: Int, outcomes: [String: Int],
                audits: [String: AggregatedAudit], categories: [String: CategoryScore], score: Double?,
                metrics: [String: AggregatedMetric]? = nil, energy: AggregatedEnergy? = nil) {
        self.metrics = metrics
        self.energy = energy
        self.workload = workload
        self.scenario = scenario
        self.repetitions = repetitions
        self.outcomes = outcomes
        self.audits = audits
        self.categories = categories
        self.score = score
    }
}

/// An audit over repetitions: the median verdict (an `AuditResult` whose score and value are the
/// medians, without evidence: each run keeps its own) and the values' spread. Its fields read
/// as the median's (`aggregated.score`); in JSON it is one flat object, `aggregatedAudit` in the schema.
@dynamicMemberLookup
public struct AggregatedAudit: Codable, Sendable, Equatable {
    /// The median verdict; its `evidence` is empty.
    public var median: AuditResult
    /// Every repetition's value, in run order (nil where it had none).
    public var values: [Double?]
    public var minValue: Double?
    public var maxValue: Double?
    /// The raw median absolute deviation of `values`; nil when none had a value.
    public var madValue: Double?

    public init(median: AuditResult, values: [Double?], minValue: Double?, maxValue: Double?, madValue: Double? = nil) {
        self.median = median
        self.values = values
        self.minValue = minValue
        self.maxValue = maxValue
        self.madValue = madValue
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<AuditResult, Value>) -> Value {
        get { median[keyPath: field] }
        set { median[keyPath: field] = newValue }
    }

    private enum SpreadKeys: String, CodingKey { case values, minValue, maxValue, madValue }

    public init(from decoder: Decoder) throws {
        median = try AuditResult(from: decoder)
        let spread = try decoder.container(keyedBy: SpreadKeys.self)
        values = try spread.decode([Double?].self, forKey: .values)
        minValue = try spread.decodeIfPresent(Double.self, forKey: .minValue)
        maxValue = try spread.decodeIfPresent(Double.self, forKey: .maxValue)
        madValue = try spread.decodeIfPresent(Double.self, forKey: .madValue)
    }

    public func encode(to encoder: Encoder) throws {
        try median.encode(to: encoder, evidence: false)
        var spread = encoder.container(keyedBy: SpreadKeys.self)
        try spread.encode(values, forKey: .values)
        try spread.encodeIfPresent(minValue, forKey: .minValue)
        try spread.encodeIfPresent(maxValue, forKey: .maxValue)
        try spread.encodeIfPresent(madValue, forKey: .madValue)
    }
}
