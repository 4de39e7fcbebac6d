/// The device whose energy a run is modelled on: its CPU, storage and radio models.
public struct DeviceProfile: Codable, Sendable, Equatable {
    public var name: String
    public var cpu: CPUEnergyModel
    public var disk: DiskEnergyModel
    /// The radio profile's name (`RadioProfile`); its energy comes from the network trace.
    public var radio: String

    public init(name: String, cpu: CPUEnergyModel, disk: DiskEnergyModel, radio: String) {
        self.name = name
        self.cpu = cpu
        self.disk = disk
        self.radio = radio
    }

    /// The default: PowerTutor's HTC Dream CPU, an assumed eMMC, and the LTE radio profile.
    public static let reference = DeviceProfile(name: "reference-phone", cpu: .htcDreamPowerTutor,
                                                disk: .emmcAssumed, radio: "lte")
}
