/// Storage energy: a fixed cost per write operation and a cost per byte written. Pure.
public struct DiskEnergyModel: Codable, Sendable, Equatable {
    public var name: String
    public var operationJoules: ModelConstant
    public var byteJoules: ModelConstant

    public init(name: String, operationJoules: ModelConstant, byteJoules: ModelConstant) {
        self.name = name
        self.operationJoules = operationJoules
        self.byteJoules = byteJoules
    }

    /// Joules for `operations` writes of `bytes` in total.
    public func joules(operations: Double, bytes: Double) -> Double {
        operations * operationJoules.value + bytes * byteJoules.value
    }

    /// A phone's eMMC flash. Both constants are assumptions: no published per-operation and
    /// per-byte numbers for a phone's flash were found to cite; replace them when measured.
    public static let emmcAssumed = DiskEnergyModel(
        name: "disk-emmc-assumed",
        operationJoules: .assumed(0.0002, "J",
                                  "~1 ms of ~200 mW flash-controller activity per synchronous write operation"),
        byteJoules: .assumed(7.5e-9, "J/byte",
                             "~150 mW while writing sequentially at ~20 MB/s (150 mW ÷ 20 MB/s = 7.5 nJ/byte)"))
}
