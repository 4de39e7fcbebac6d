import FrugalCore
import FrugalProbe

extension RunSession {
    /// The machine's energy counter before the run's first process starts; nil for an in-memory
    /// app, which is no process of this machine.
    static func beginEnergy(options: HarnessOptions, launcher: any ProcessLauncher)
        -> Result<any EnergyMeterSession, HardwareCountersUnavailable>? {
        launcher.startsSystemProcesses ? options.energyMeter.begin() : nil
    }

    /// The energy from the first spawn to now (after the last process is reaped), or why not.
    func endEnergy() -> MeasuredEnergy? { watches.endEnergy() }
}
