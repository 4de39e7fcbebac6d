// The FrugalCore types ``RecordedEvents`` hands out come with `import FrugalTesting`, so a test
// of an app's delegate imports FrugalKit and FrugalTesting only. Scoped, as FrugalKit's own.

/// One event of the recorded stream.
@_exported import struct FrugalCore.WorkloadEvent
/// A measured main-run-loop handler (`RecordedEvents.handlers`).
@_exported import struct FrugalCore.HandlerRecord
/// A background task's begin, end or expiration (`RecordedEvents.backgroundTasks`).
@_exported import struct FrugalCore.BackgroundTaskEvent
/// Begun, ended, expiration handler called.
@_exported import enum FrugalCore.BackgroundTaskPhase
/// A mark the app or the runtime recorded (`RecordedEvents.marks`).
@_exported import struct FrugalCore.Mark
/// A write through `FileStore` (`RecordedEvents.fileWrites`).
@_exported import struct FrugalCore.FileWrite
/// What the app preserved or restored (`RecordedEvents.preservedStates`).
@_exported import struct FrugalCore.PreservedStateSnapshot
/// A memory fact (`RecordedEvents.memory`).
@_exported import struct FrugalCore.MemoryEvent
