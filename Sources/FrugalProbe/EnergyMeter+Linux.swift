#if canImport(Glibc)
import Glibc
#endif
import FrugalCore

/// Where a run's measured energy comes from: RAPL through Linux's powercap, or a test double. A
/// seam like ``HardwareCounterSource``: the harness begins a reading before the run's first
/// process starts and ends it once the last is reaped.
public protocol EnergyMeterSource: Sendable {
    /// Takes the first reading; the reason when the machine has none to give.
    func begin() -> Result<any EnergyMeterSession, HardwareCountersUnavailable>
}

/// A begun energy reading.
public protocol EnergyMeterSession: Sendable {
    /// The energy since `begin`.
    func end() -> MeasuredEnergy
}

/// RAPL's package energy through powercap (`/sys/class/powercap/intel-rapl:N/energy_uj`, the
/// counters PAPI's `powercap` component reads; AMD's RAPL appears under the same names): every
/// top-level zone named `package-N`, summed. Sub-zones (`core`, `uncore`, `dram`) are parts of
/// a package or beside it and `psys` contains the packages, so only packages are added.
/// `energy_uj` is readable by root alone since the 2020 Platypus fix (CVE-2020-8694).
public struct PowercapEnergyMeter: EnergyMeterSource {
    public static let defaultRoot = "/sys/class/powercap"
    /// The powercap tree (a test points it at a directory of its own).
    public let root: String
    let clock: @Sendable () -> UInt64

    public init(root: String = PowercapEnergyMeter.defaultRoot, clock: @escaping @Sendable () -> UInt64 = { MonotonicClock.now() }) {
        self.root = root
        self.clock = clock
    }

    var source: String { "powercap:\(root)/intel-rapl:*/energy_uj" }

    /// A package zone: its directory name, label, and the counter's wrap point.
    struct Zone: Sendable {
        var directory: String
        var name: String
        var maxRange: UInt64?
    }

    /// The package zones, or why there are none.
    func zones() -> Result<[Zone], HardwareCountersUnavailable> {
        guard FileReader.exists(root) else {
            return .failure(HardwareCountersUnavailable("no \(root): this machine exposes no RAPL energy counters (no intel_rapl powercap driver; most VMs)"))
        }
        let entries: [String]
        do { entries = try FileReader.directoryEntries(root) } catch {
            return .failure(HardwareCountersUnavailable("listing \(root) failed: \(error)"))
        }
        // Top-level zones have one colon (`intel-rapl:0`); `intel-rapl:0:1` is a sub-zone.
        let zones = entries.filter { $0.hasPrefix("intel-rapl:") && $0.split(separator: ":").count == 2 }.sorted().compactMap { entry -> Zone? in
            let directory = root + "/" + entry
            let name = ((try? FileReader.readText(directory + "/name")) ?? "").trimmingWhitespace
            guard name.hasPrefix("package") else { return nil }
            let range = (try? FileReader.readText(directory + "/max_energy_range_uj")).flatMap { UInt64($0.trimmingWhitespace) }
            return Zone(directory: directory, name: name, maxRange: range)
        }
        guard !zones.isEmpty else {
            return .failure(HardwareCountersUnavailable("\(root) has no RAPL package zone (intel-rapl:N named package-N)"))
        }
        return .success(zones)
    }

    /// Each zone's counter, µJ, or why it cannot be read.
    static func read(_ zones: [Zone]) -> Result<[UInt64], HardwareCountersUnavailable> {
        var values: [UInt64] = []
        for zone in zones {
            let path = zone.directory + "/energy_uj"
            do {
                let text = try FileReader.readText(path).trimmingWhitespace
                guard let value = UInt64(text) else { return .failure(HardwareCountersUnavailable("\(path) held '\(text)', not a count")) }
                values.append(value)
            } catch let error as SystemCallError where error.errno == EACCES || error.errno == EPERM {
                return .failure(HardwareCountersUnavailable("reading \(path) needs root (readable by root alone since CVE-2020-8694): \(error)"))
            } catch {
                return .failure(HardwareCountersUnavailable("reading \(path) failed: \(error)"))
            }
        }
        return .success(values)
    }

    public func begin() -> Result<any EnergyMeterSession, HardwareCountersUnavailable> {
        switch zones() {
        case .failure(let reason): return .failure(reason)
        case .success(let zones):
            let start = clock()
            switch Self.read(zones) {
            case .failure(let reason): return .failure(reason)
            case .success(let values): return .success(PowercapSession(meter: self, zones: zones, start: start, values: values))
            }
        }
    }

    struct PowercapSession: EnergyMeterSession {
        let meter: PowercapEnergyMeter
        let zones: [Zone]
        let start: UInt64
        let values: [UInt64]

        func end() -> MeasuredEnergy {
            let end = meter.clock()
            switch PowercapEnergyMeter.read(zones) {
            case .failure(let reason): return MeasuredEnergy(unavailable: reason.description, source: meter.source)
            case .success(let now):
                var microjoules: UInt64 = 0
                for (index, zone) in zones.enumerated() {
                    let before = values[index], after = now[index]
                    if after >= before {
                        microjoules += after - before
                    } else if let range = zone.maxRange, range >= before {
                        // The counter wrapped at max_energy_range_uj (a minute or so at full power on some parts).
                        microjoules += range - before + after
                    } else {
                        return MeasuredEnergy(unavailable: "\(zone.directory)/energy_uj went backwards with no max_energy_range_uj to unwrap it",
                                              source: meter.source)
                    }
                }
                return MeasuredEnergy(joules: Double(microjoules) / 1e6, seconds: Double(end &- start) / 1e9,
                                      zones: zones.map { "\($0.directory.split(separator: "/").last.map(String.init) ?? $0.directory) \($0.name)" }, source: meter.source)
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces and newlines (a sysfs value ends in a newline).
    fileprivate var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
