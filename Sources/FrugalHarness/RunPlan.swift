import Foundation
import FrugalCore
import FrugalProbe

/// What to run: a built-in workload (a FrugalKit app in the workload host) or a user's own
/// FrugalKit app executable under a scenario, or any Linux program as a black box.
public struct RunPlan: Sendable {
    public enum Target: Sendable {
        /// A built-in FrugalKit app, run by `frugal-workload-host` with `FRUGAL_APP=name`.
        case builtIn(name: String)
        /// A user's own executable linked with FrugalKit (`FrugalApp`).
        case app(AppTarget)
        /// A black-box command: process-level metrics only.
        case command([String])
    }

    public var target: Target
    public var scenario: Scenario
    public var repetition: Int
    /// Files installed in the app bundle before launch (read-only, as a shipped app's resources).
    public var bundleResources: [BundleResource]
    /// A black-box command's arguments (after the program) byte for byte, when the text in
    /// `target` lost some (Swift decodes argv as UTF-8 and turns other bytes into U+FFFD).
    public var rawArguments: [[UInt8]]?
    /// Files installed in the sandbox's Documents before launch, so the app starts with
    /// existing data; the harness writes them, so they are not the app's writes.
    public var documents: [BundleResource]
    /// What the run asks of the machine (``ResourceScheduler``). Exclusive unless the workload
    /// is known to sleep: an unknown app gets the machine to itself.
    public var demand: RunDemand = .exclusive("not known to be light")
    /// For a black-box program: the signal it gets as its memory warning (e.g. `SIGUSR1`, from a
    /// `kind: program` entry of frugal.yml); nil falls back to `HarnessOptions.programMemoryWarningSignal`.
    public var programMemoryWarningSignal: Int32?
    /// For a black-box program: the signal an `input` step sends it (frugal.yml's `inputSignal:`);
    /// nil: `input` steps are not applicable to it.
    public var programInputSignal: Int32?
    /// For a black-box program from frugal.yml: its `name:` (the report's workload name, so two
    /// programs are two workloads even with one executable) and its `environment:` (added to its
    /// environment; the harness's own variables win). Nil and empty for `frugal run -- CMD`.
    public var programName: String?
    public var programEnvironment: [String: String] = [:]
    /// Called on the run's thread before each step with the step's index (``ResourceScheduler``
    /// learns from step 1 that the launch has ended, and lets an
    /// ``RunDemand/exclusiveUntilIdle(_:)`` run go at its closing wait).
    public var beforeStep: (@Sendable (Int) -> Void)?
    /// Asked before and after each step (``StepGate``): ``ResourceScheduler`` holds the machine
    /// for the steps an audit times. Nil: no gate.
    public var stepGate: (any StepGate)?
    /// What the run's origin answers with (frugal.yml's `server:` of the app and scenario); nil
    /// leaves ``HarnessOptions/server``.
    public var server: ServerSettings?

    public init(target: Target, scenario: Scenario, repetition: Int = 1, bundleResources: [BundleResource] = [],
                documents: [BundleResource] = []) {
        self.target = target
        self.scenario = scenario
        self.repetition = repetition
        self.bundleResources = bundleResources
        self.documents = documents
    }

    /// The name the report uses for the workload.
    public var workloadName: String {
        switch target {
        case .builtIn(let name): return name
        case .app(let app): return app.name
        case .command(let arguments): return programName ?? arguments.joined(separator: " ")
        }
    }
}

/// A user's app executable, as `frugal.yml` describes it.
public struct AppTarget: Sendable, Equatable {
    /// The app's name: in the report, and in `FRUGAL_APP` to select it in its executable.
    public var name: String
    /// The executable's path.
    public var executable: String
    public var arguments: [String]
    /// Added to the app's environment (the harness's own variables win).
    public var environment: [String: String]

    public init(name: String, executable: String, arguments: [String] = [], environment: [String: String] = [:]) {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }
}

/// An app whose `hello` names another protocol version than this harness speaks: the run ends
/// at once (it is the build that is wrong, not the app's behaviour), and `frugal` exits 1.
public struct ProtocolMismatch: Error, CustomStringConvertible, Sendable {
    public var app: String
    /// The version the app's hello named (0: none).
    public var appVersion: Int
    public var description: String { FrugalProtocol.mismatchMessage(app: app, appVersion: appVersion) }
    public init(app: String, appVersion: Int) {
        self.app = app
        self.appVersion = appVersion
    }
}

/// Settings of the harness itself.
public struct HarnessOptions: Sendable {
    /// The `frugal-workload-host` executable (built-in workloads, and the hog of `balloon` steps).
    public var workloadHost: String
    /// Seconds between `/proc` samples (timeline resolution; the harness's own cost).
    public var sampleInterval: Double
    /// The guide's launch watchdog.
    public var launchWatchdog: Double
    /// How long a `wait` step waits for the app's threads to go quiet before its idle phase starts.
    public var settleTimeout: Double
    /// How long an input may go unhandled before the step is recorded as a problem.
    public var inputTimeout: Double
    /// How long `willTerminate` may take (the guide's 5 s).
    public var terminateWatchdog: Double
    /// The longest a black-box command may run.
    public var commandTimeout: Double
    /// Extra environment for the workload.
    public var environment: [String: String]
    /// Where runs' sandboxes are made.
    public var sandboxParent: URL
    /// Keep each run's sandbox after the run (for inspection) instead of deleting it.
    public var keepSandboxes: Bool
    /// How long `didEnterBackground` may take (the guide's "approximately 5 seconds").
    public var backgroundWatchdog: Double = 5
    /// How long a background app with no task open runs before it is suspended. iOS suspends
    /// "shortly after"; 0.5 s lets the end of a transition settle without hiding background work.
    public var backgroundGrace: Double = 0.5

    /// The link conditions the run's shaping proxy starts with (a `network` step changes them).
    public var networkProfile: NetworkProfile
    /// The device radio whose model prices the run's traffic.
    public var radio: RadioProfile.Technology
    /// What every run's origin answers with unless its plan says otherwise (`frugal run --fixtures/--har`,
    /// `frugal record`); by default the synthetic routes.
    public var server = ServerSettings()
    /// Turn the kernel's memory-pressure events into the app's warnings, as the system does.
    public var forwardKernelPressure = true
    /// Trace every wakeup of the run's threads to its cause (`WakeupTracer`: scheduler
    /// tracepoints on the run's cgroup; needs root or CAP_PERFMON). On unless the environment
    /// says `FRUGAL_WAKEUP_TRACE=0`.
    public var traceWakeups = ProcessInfo.processInfo.environment["FRUGAL_WAKEUP_TRACE"] != "0"
    /// The user's request to stop (SIGINT, SIGTERM): the CLI's signal handling interrupts it; each
    /// run ends through its normal teardown as `interrupted`, and no new run starts.
    public var interruption = SuiteInterruption()
    /// The signal a black-box program gets as its memory warning (a scenario's `memoryWarning`
    /// step and, under real pressure, the kernel's events), e.g. `SIGUSR1`; nil (the default):
    /// a black-box program has no memory warning and the audits that need one are not applicable.
    public var programMemoryWarningSignal: Int32?
    /// Where each process's hardware counters (instructions, cycles, misses) come from: the
    /// kernel's perf events, or a test double.
    public var hardwareCounters: any HardwareCounterSource = PerfHardwareCounters()
    /// Where the run's measured energy comes from: RAPL through powercap, or a test double.
    public var energyMeter: any EnergyMeterSource = PowercapEnergyMeter()
    /// The gate this process shares with others on the machine (``MachineGate``): by default the
    /// one `FRUGAL_MACHINE_GATE` names, nil (no other process is waited for) without it.
    public var machineGate: MachineGate? = MachineGate.environment

    public init(workloadHost: String, sampleInterval: Double = 0.2, launchWatchdog: Double = Thresholds.launchWatchdogSeconds,
                settleTimeout: Double = 0.25, inputTimeout: Double = 10, terminateWatchdog: Double = 5, commandTimeout: Double = 60,
                environment: [String: String] = [:], sandboxParent: URL = FileManager.default.temporaryDirectory,
                keepSandboxes: Bool = false, networkProfile: NetworkProfile = .lte, radio: RadioProfile.Technology = .lte) {
        self.workloadHost = workloadHost
        self.sampleInterval = sampleInterval
        self.launchWatchdog = launchWatchdog
        self.settleTimeout = settleTimeout
        self.inputTimeout = inputTimeout
        self.terminateWatchdog = terminateWatchdog
        self.commandTimeout = commandTimeout
        self.environment = environment
        self.sandboxParent = sandboxParent
        self.keepSandboxes = keepSandboxes
        self.networkProfile = networkProfile
        self.radio = radio
    }
}
