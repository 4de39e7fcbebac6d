import Foundation
import FrugalCore
import FrugalProbe

/// What can be measured on this machine and why not: the facts behind `frugal doctor` and the
/// report's `environment`.
public struct EnvironmentSurvey: Codable, Sendable {
    public var machine: Machine
    public var papi: PAPIStatus
    public var privileges: Privileges
    public var cgroups: CgroupStatus
    public var pressureStall: Check
    public var loopback: Check
    public var rusageThread: Check
    /// Whether each run gets its own cgroup (all descendants counted, frozen and ended with it).
    public var runContainment: Check?
    /// Whether the kernel's exit records (taskstats) give every descendant's final counters.
    public var exitRecords: Check?
    /// Whether RAPL's package energy can be read (powercap), for `energy.measuredJoules`.
    public var measuredEnergy: Check?

    public struct Machine: Codable, Sendable {
        public var hostname: String
        public var kernel: String
        public var cores: Int
        public var memoryBytes: Int
        public var virtualMachine: Bool
    }

    public struct PAPIStatus: Codable, Sendable {
        public var version: String?
        /// Why PAPI did not initialise, if it did not.
        public var initError: String?
        public var components: [PAPI.Component]
        /// Each event tried on this thread.
        public var events: [CounterAvailability]
    }

    public struct Privileges: Codable, Sendable {
        public var effectiveUserID: UInt32
        public var perfEventParanoid: Int?
        /// Whether kernel-mode counting (context switches) is expected to work.
        public var kernelCounting: Bool
        public var note: String
    }

    public struct CgroupStatus: Codable, Sendable {
        /// `v1`, `v2`, or nil when no memory controller was found.
        public var memoryController: String?
        public var path: String?
        public var writable: Bool
        public var note: String
    }

    /// A yes/no fact with what it rests on.
    public struct Check: Codable, Sendable {
        public var available: Bool
        public var detail: String
    }

    /// The events `doctor` tries: the software events that work on a PMU-less VM, and the
    /// hardware ones that need a PMU (the main thread's, as FrugalKit names them: with a PMU
    /// they are the `mainThread.*` counters).
    public static let probedEvents = [
        "perf::CONTEXT-SWITCHES", "perf::TASK-CLOCK", "perf::CPU-CLOCK", "perf::PAGE-FAULTS", "perf::MAJOR-FAULTS",
        "perf::MINOR-FAULTS", "perf::CPU-MIGRATIONS", "perf::INSTRUCTIONS", "PAPI_TOT_INS", "PAPI_TOT_CYC",
    ] + HardwareCounterReading.papiThreadEvents

    /// Surveys this machine now.
    public static func survey() -> EnvironmentSurvey {
        var papiError: String?
        do { try PAPI.initialize() } catch { papiError = "\(error)" }
        let events = papiError == nil ? probedEvents.map(PAPI.probe)
            : probedEvents.map { CounterAvailability(name: $0, source: "papi", available: false, reason: papiError) }
        let papi = PAPIStatus(version: PAPI.versionString, initError: papiError, components: PAPI.components(), events: events)
        var survey = EnvironmentSurvey(machine: machine(), papi: papi, privileges: privileges(), cgroups: cgroups(),
                                       pressureStall: pressureStall(), loopback: loopback(), rusageThread: rusageThread())
        survey.runContainment = RunContainment.probe()
        let exitRecords = TaskExitMonitor.shared.unavailableReason
        survey.exitRecords = Check(available: exitRecords == nil, detail: exitRecords
            ?? "taskstats over netlink: each exiting thread's final context switches, CPU and writes, descendants and orphans included")
        survey.measuredEnergy = measuredEnergyCheck()
        return survey
    }

    static func machine() -> Machine {
        var name = utsname()
        uname(&name)
        let release = CCharTuple.string(name.release)
        let host = CCharTuple.string(name.nodename)
        let cpuinfo = (try? FileReader.readText("/proc/cpuinfo")) ?? ""
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        return Machine(hostname: host, kernel: release, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                       memoryBytes: pages * pageSize, virtualMachine: cpuinfo.contains(" hypervisor"))
    }

    static func privileges() -> Privileges {
        let uid = geteuid()
        let paranoid = (try? FileReader.readText("/proc/sys/kernel/perf_event_paranoid")).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let kernel = uid == 0 || (paranoid ?? 2) <= 1
        let note = kernel
            ? (uid == 0 ? "root: kernel-mode counting is allowed" : "perf_event_paranoid \(paranoid ?? -1) allows kernel-mode counting")
            : "not root and perf_event_paranoid \(paranoid.map(String.init) ?? "?") > 1: kernel-mode counting is refused; context switches come from /proc and getrusage"
        return Privileges(effectiveUserID: uid, perfEventParanoid: paranoid, kernelCounting: kernel, note: note)
    }

    /// The harness's own memory cgroup, under which each pressured run gets a child group.
    static func cgroups() -> CgroupStatus {
        switch MemoryCgroup.ownGroup() {
        case .failure(let error):
            return CgroupStatus(memoryController: nil, path: nil, writable: false, note: error.description)
        case .success(let (controller, path)):
            let writable = access(path, W_OK) == 0
            let files = controller == .v1 ? "memory.limit_in_bytes, memory.pressure_level" : "memory.max, memory.pressure (PSI)"
            return CgroupStatus(memoryController: controller.rawValue, path: path, writable: writable,
                                note: writable ? "child groups of \(path) get \(files): real pressure works"
                                    : "present but not writable by this user: pressure runs simulated (memoryWarning only)")
        }
    }

    static func pressureStall() -> Check {
        do {
            let text = try FileReader.readText("/proc/pressure/memory")
            return Check(available: true, detail: "/proc/pressure/memory: " + (text.split(separator: "\n").first.map(String.init) ?? ""))
        } catch {
            return Check(available: false, detail: "\(error)")
        }
    }

    static func loopback() -> Check {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return Check(available: false, detail: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
            ? Check(available: true, detail: "can listen on 127.0.0.1: a userspace shaping proxy needs no privileges")
            : Check(available: false, detail: "bind 127.0.0.1: \(String(cString: strerror(errno)))")
    }

    static func rusageThread() -> Check {
        do {
            _ = try ResourceUsage.currentThread()
            return Check(available: true, detail: "getrusage(RUSAGE_THREAD) works: the fallback for per-handler counters")
        } catch {
            return Check(available: false, detail: "\(error)")
        }
    }

    /// The report's environment section.
    public var environmentInfo: EnvironmentInfo {
        var notes = [privileges.note, "cgroups: " + (cgroups.memoryController.map { "\($0) memory controller; " } ?? "") + cgroups.note]
        if let error = papi.initError {
            notes.append("PAPI unavailable: \(error)")
        } else {
            notes.append("PAPI's event setup in each workload costs 1–2 voluntary context switches at launch (closing a perf event waits for an RCU grace period); they count in cpu.wakeups, never in idle phases")
        }
        if let runContainment { notes.append("run containment: " + runContainment.detail) }
        if let exitRecords, !exitRecords.available { notes.append("exit records: " + exitRecords.detail + "; black-box counts fall back to wait4 and /proc samples") }
        if let measuredEnergy, measuredEnergy.available {
            notes.append("energy is modelled; the package energy RAPL measures (powercap) is reported beside it as energy.measuredJoules: the whole package, every process on it")
        } else {
            notes.append("energy is modelled; it is not measured here (\(measuredEnergy?.detail ?? "RAPL not checked"))")
        }
        notes.append("network: each run has its own origin server and shaping proxy on loopback (FRUGAL_PROXY, http_proxy, https_proxy; an app's or program's HTTPS goes through CONNECT, with a CA made for the run: docs/NETWORK.md); by default runs start on the LTE link (9 Mbit/s down, 1.5 Mbit/s up, 60 ms RTT) and radio energy is modelled for an LTE device (Huang et al. 2012); frugal run's --network and --radio change them, and each radio metric names its model in its source")
        return EnvironmentInfo(hostname: machine.hostname, kernel: machine.kernel, cores: machine.cores,
                               memoryBytes: machine.memoryBytes, virtualMachine: machine.virtualMachine,
                               papiVersion: papi.version, counters: papi.events, notes: notes)
    }
}

extension EnvironmentSurvey {
    /// Whether RAPL's package energy can be read here: the zones and a first reading.
    static func measuredEnergyCheck() -> Check {
        switch PowercapEnergyMeter().begin() {
        case .success: return Check(available: true, detail: "RAPL package energy through powercap (\(PowercapEnergyMeter.defaultRoot)/intel-rapl:N/energy_uj)")
        case .failure(let reason): return Check(available: false, detail: reason.description)
        }
    }
}
