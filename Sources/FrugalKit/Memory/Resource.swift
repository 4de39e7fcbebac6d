import Foundation
import FrugalProtocol
import FrugalSystem

/// Bundle resources read whole into memory — the path the guide warns against for large
/// files (`MappedResource` maps them instead).
public enum Resource {
    /// Reads `name` from the bundle of `sandbox` whole into anonymous memory.
    public static func load(_ name: String, in sandbox: Sandbox = .current,
                            file: String = #fileID, line: Int = #line) throws -> LoadedResource {
        let path = sandbox.bundle.appendingPathComponent(name).path
        let bytes = try BlockingCalls.measure("file.read", detail: path, file: file, line: line) { try readWhole(path) }
        return LoadedResource(name: name, bytes: bytes)
    }

    static func readWhole(_ path: String) throws -> [UInt8] {
        let fd = try SystemCall.retrying("open", subject: path) { open(path, O_RDONLY | O_CLOEXEC) }
        // Read-only: a failed close loses nothing.
        defer { try? SystemCall.close(fd, subject: path) }
        var info = stat()
        try SystemCall.retrying("fstat", subject: path) { fstat(fd, &info) }
        let size = Int(info.st_size)
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            while initialized < size {
                let count = try SystemCall.retrying("read", subject: path) {
                    read(fd, buffer.baseAddress! + initialized, size - initialized)
                }
                if count == 0 { break }
                initialized += count
            }
        }
    }
}

/// A resource's bytes, held in memory until this object goes away. Its first use is
/// recorded, so resources loaded but never used show in the report.
public final class LoadedResource {
    /// The resource's file name in the bundle.
    public let name: String
    private let storage: [UInt8]
    private var used = false

    init(name: String, bytes: [UInt8]) {
        self.name = name
        storage = bytes
        MemoryTools.addLoadedResource(bytes.count)
        MemoryTools.emit(MemoryEvent(kind: .resourceLoaded, resource: name, bytes: bytes.count))
    }

    deinit {
        MemoryTools.addLoadedResource(-storage.count)
        MemoryTools.emit(MemoryEvent(kind: .resourceReleased, resource: name, bytes: storage.count))
    }

    /// The length, bytes.
    public var count: Int { storage.count }

    /// The bytes.
    public func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        if !used {
            used = true
            MemoryTools.emit(MemoryEvent(kind: .resourceFirstUse, resource: name))
        }
        return try storage.withUnsafeBytes(body)
    }
}
