/// The disk area's metric names (`disk.physicalBytesWritten` is in `MetricName.swift`).
extension MetricName {
    /// Bytes the app wrote through FrugalKit's `FileStore` (the write journal).
    public static let diskLogicalBytesWritten = "disk.logicalBytesWritten"
    /// Content writes through FrugalKit (each replacement, in-place write or append is one).
    public static let diskWriteOps = "disk.writeOps"
    /// fsyncs through FrugalKit (a replacement syncs its new file: one each).
    public static let diskFsyncs = "disk.fsyncs"
    /// `/proc/<pid>/io` `wchar`: bytes the process passed to write calls of any kind.
    public static let diskSyscallBytesWritten = "disk.syscallBytesWritten"
    /// `/proc/<pid>/io` `syscw`: write system calls of any kind.
    public static let diskWriteSyscalls = "disk.writeSyscalls"
    /// Bytes of the workload's event stream to the harness: in `wchar`, but not file writes.
    public static let diskEventStreamBytes = "disk.eventStreamBytes"
    /// `wchar` − event stream − journal: bytes written that FrugalKit did not see (the gap).
    public static let diskUnjournaledBytesWritten = "disk.unjournaledBytesWritten"
    /// Bytes written ÷ bytes of blocks changed, over writes to files that already existed.
    public static let diskWriteAmplification = "disk.writeAmplification"
    /// Content writes in the busiest 60 s window (a shorter run counts as one window).
    public static let diskWriteOpsBusiestMinute = "disk.writeOpsBusiestMinute"
    /// Bytes written per day at the run's rate.
    public static let diskBytesWrittenPerDay = "disk.bytesWrittenPerDay"
    /// Bytes of cache data written before the app began to quit.
    public static let diskCacheBytesWritten = "disk.cacheBytesWritten"
    /// Bytes in the sandbox that backups copy at the end of the run (the backup size).
    public static let diskBackupBytes = "disk.backupBytes"
    /// Bytes of data the app declared re-creatable that backups copy at the end.
    public static let diskRecreatableBackupBytes = "disk.recreatableBackupBytes"
    /// Bytes left in `tmp` at the end of the run.
    public static let diskTmpBytesAtEnd = "disk.tmpBytesAtEnd"
}
