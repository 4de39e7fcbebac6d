// The FrugalProtocol types ``RecordedEvents`` hands out come with `import FrugalTesting`, so a test
// of an app's delegate imports FrugalKit and FrugalTesting only. Scoped, as FrugalKit's own.

/// One event of the recorded stream.
@_exported import struct FrugalProtocol.WorkloadEvent
/// A measured main-run-loop handler (`RecordedEvents.handlers`).
@_exported import struct FrugalProtocol.HandlerRecord
/// A background task's begin, end or expiration (`RecordedEvents.backgroundTasks`).
@_exported import struct FrugalProtocol.BackgroundTaskEvent
/// Begun, ended, expiration handler called.
@_exported import enum FrugalProtocol.BackgroundTaskPhase
/// A mark the app or the runtime recorded (`RecordedEvents.marks`).
@_exported import struct FrugalProtocol.Mark
/// A write through `FileStore` (`RecordedEvents.fileWrites`).
@_exported import struct FrugalProtocol.FileWrite
/// What the app preserved or restored (`RecordedEvents.preservedStates`).
@_exported import struct FrugalProtocol.PreservedStateSnapshot
/// A memory fact (`RecordedEvents.memory`).
@_exported import struct FrugalProtocol.MemoryEvent
