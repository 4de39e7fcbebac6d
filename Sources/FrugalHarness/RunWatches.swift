import Foundation
import FrugalCore
import FrugalProbe

/// The watches a run keeps from before its first exec to after its last process ends: the
/// sandbox's file writes (inotify), the bundle's resource reads, the wakeup tracer on the run's
/// cgroup and the machine's energy counter. One owner for the four, so each is started once and
/// ended once: its `finish…` at the end of the run gives its facts and lets it go; ``stopAll()``
/// (teardown, or a start that failed) ends whatever is still held and gives nothing.
/// A `RunSession` holds one (`watches`).
struct RunWatches {
    /// The sandbox's file writes as the kernel shows them (`SandboxFileWatcher`), or why not.
    private(set) var files: Result<SandboxFileWatcher, SystemCallError>?
    /// The bundle's resource files (`ResourceWatch+Linux.swift`), or why not; nil for an in-memory app.
    private(set) var resources: Result<ResourceWatch, SystemCallError>?
    /// The run's wakeup tracer on its cgroup, or why there is none; nil when not asked for.
    private(set) var wakeups: Result<WakeupTracer, WakeupTraceUnavailable>?
    /// The machine's energy reading from before the first spawn, or why there is none.
    private(set) var energy: Result<any EnergyMeterSession, HardwareCountersUnavailable>?

    init(files: Result<SandboxFileWatcher, SystemCallError>?, resources: Result<ResourceWatch, SystemCallError>?,
         wakeups: Result<WakeupTracer, WakeupTraceUnavailable>?, energy: Result<any EnergyMeterSession, HardwareCountersUnavailable>?) {
        self.files = files
        self.resources = resources
        self.wakeups = wakeups
        self.energy = energy
    }

    /// Follows a newly spawned process's reads of the bundle, to its exit.
    func follow(_ process: any AppProcess) {
        if case .success(let watch)? = resources { watch.follow(process.pid, bytesAtExit: { process.finalCharactersRead }) }
    }

    /// Lets the resource watch catch up before a step, so a step's reads are its own.
    func settle() {
        if case .success(let watch)? = resources { watch.settle() }
    }

    /// The sandbox's file changes, or why they were not watched; nil when there was no watch.
    mutating func finishFiles() -> FileChangeLog? {
        defer { files = nil }
        switch files {
        case .success(let watcher)?: return watcher.finish()
        case .failure(let error)?: return FileChangeLog(changes: [], unavailable: error.description)
        case nil: return nil
        }
    }

    /// What the bundle's watch saw (the run's processes gone), or why there was none.
    mutating func finishResources(bundle: URL) -> ResourceTrace? {
        defer { resources = nil }
        switch resources {
        case .success(let watch)?: return watch.finish()
        case .failure(let error)?:
            return ResourceTrace(files: ResourceWatch.installed(bundle.resolvingSymlinksInPath()).files, accesses: [],
                                 unavailable: "inotify: \(error)")
        case nil: return nil
        }
    }

    /// Stops the tracer and attributes the wakeups it saw; nil when the run was not traced or
    /// the trace was already finished.
    mutating func finishWakeups() -> WakeupAttribution? {
        defer { wakeups = nil }
        switch wakeups {
        case .success(let tracer)?: return tracer.finish()
        case .failure(let reason)?: return .unavailable(reason.description)
        case nil: return nil
        }
    }

    /// The energy from the first spawn to now (after the last process is reaped), or why not.
    mutating func endEnergy() -> MeasuredEnergy? {
        defer { energy = nil }
        switch energy {
        case .success(let meter)?: return meter.end()
        case .failure(let reason)?: return MeasuredEnergy(unavailable: reason.description, source: "powercap:intel-rapl")
        case nil: return nil
        }
    }

    /// Ends what is still held, keeping nothing (the energy counter holds nothing to end).
    mutating func stopAll() {
        _ = finishWakeups()
        if case .success(let watcher)? = files { _ = watcher.finish() }
        if case .success(let watch)? = resources { watch.stop() }
        (files, resources, energy) = (nil, nil, nil)
    }
}
