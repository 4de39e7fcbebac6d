#if canImport(Glibc)
import Glibc
#endif
import CPAPI
import Synchronization
import FrugalProtocol

/// A failed PAPI call: the function, PAPI's code and `PAPI_strerror`'s text.
public struct PAPIError: Error, CustomStringConvertible, Sendable, Equatable {
    public var function: String
    public var code: Int32
    public var message: String
    /// What PAPI's code does not say, when Frugal knows it: the disabled component behind an
    /// event that "does not exist".
    public var context: String?

    init(_ function: String, _ code: Int32, context: String? = nil) {
        self.function = function
        self.code = code
        self.message = PAPI.errorText(code)
        self.context = context
    }

    public var description: String { "\(function): \(message) (PAPI error \(code))" + (context.map { "; \($0)" } ?? "") }
}

/// The PAPI library, initialised once per process for threaded use.
public enum PAPI {
    /// The first initialisation's result, nil until then.
    private static let initResult = Mutex<Result<Int32, PAPIError>?>(nil)

    /// Initialises PAPI (library, threads, counting domain) once; later calls return the first result.
    /// The domain is set to all modes because context switches happen in the kernel: counting
    /// user mode alone reads 0 (docs/ARCHITECTURE.md, "Where the counters come from").
    @discardableResult
    public static func initialize() throws -> Int32 {
        try initResult.withLock { initResult in
            if let initResult { return try initResult.get() }
            let result: Result<Int32, PAPIError>
            let version = PAPI_library_init(frugal_papi_ver_current())
            if version != frugal_papi_ver_current() {
                result = .failure(PAPIError("PAPI_library_init", version > 0 ? -1 : version))
            } else {
                let threadStatus = PAPI_thread_init { UInt(pthread_self()) }
                if threadStatus != frugal_papi_ok() {
                    result = .failure(PAPIError("PAPI_thread_init", threadStatus))
                } else {
                    // A failure here only loses kernel-mode counting; event sets report it themselves.
                    _ = PAPI_set_domain(frugal_papi_dom_all())
                    result = .success(version)
                }
            }
            initResult = result
            return try result.get()
        }
    }

    /// `major.minor.revision` of the PAPI library in use, or nil if it does not initialise.
    public static var versionString: String? {
        guard let version = try? initialize() else { return nil }
        let full = PAPI_get_opt(PAPI_LIB_VERSION, nil)
        let value = full > 0 ? full : version
        return "\(frugal_papi_version_major(value)).\(frugal_papi_version_minor(value)).\(frugal_papi_version_revision(value))"
    }

    /// PAPI's text for an error code.
    public static func errorText(_ code: Int32) -> String {
        guard let text = PAPI_strerror(code) else { return "unknown PAPI error" }
        return String(cString: text)
    }

    /// A PAPI component and whether it is usable.
    public struct Component: Codable, Sendable, Equatable {
        public var name: String
        public var description: String
        public var disabledReason: String?
    }

    /// The compiled-in components.
    public static func components() -> [Component] {
        guard (try? initialize()) != nil else { return [] }
        var components: [Component] = []
        for index in 0..<PAPI_num_components() {
            guard let info = PAPI_get_component_info(index)?.pointee else { continue }
            let name = cString(info.name)
            let description = cString(info.description)
            let reason = info.disabled != 0 ? cString(info.disabled_reason) : nil
            components.append(Component(name: name, description: description, disabledReason: reason?.isEmpty == true ? "disabled" : reason))
        }
        return components
    }

    /// Why `event`'s component cannot count, when it is disabled: a VM that exposes no core PMU
    /// at all (no `/sys/bus/event_source/devices/cpu`) disables the whole `perf_event` component
    /// ("Error libpfm4 no default PMU found"), its software events with it, while the kernel's
    /// own software counters (`perf stat -e task-clock`) still work.
    static func disabledComponent(of event: String) -> String? {
        // libpfm4's perf_events tables (`perf::`, `perf_raw::`) belong to that component.
        let prefix = event.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        guard prefix == "perf" || prefix == "perf_raw" else { return nil }
        let component = "perf_event"
        guard let reason = components().first(where: { $0.name == component })?.disabledReason else { return nil }
        return "PAPI's \(component) component is disabled here: \(reason)"
    }

    /// Whether `event` can be counted on the calling thread: creates a set, adds it, starts
    /// and stops it. Unavailable events carry PAPI's reason.
    public static func probe(_ event: String) -> CounterAvailability {
        do {
            let set = try PAPIEventSet(events: [event])
            try set.start()
            _ = try set.read()
            try set.stop()
            return CounterAvailability(name: event, source: "papi", available: true)
        } catch let error as PAPIError {
            return CounterAvailability(name: event, source: "papi", available: false, reason: error.description)
        } catch {
            return CounterAvailability(name: event, source: "papi", available: false, reason: "\(error)")
        }
    }

    static func cString<T>(_ tuple: T) -> String { CCharTuple.string(tuple) }
}

/// Fixed-size C strings (`char name[128]`) import into Swift as tuples; this reads them.
public enum CCharTuple {
    /// The NUL-terminated text in `tuple`.
    public static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[0..<end], as: UTF8.self)
        }
    }
}

/// A PAPI event set owned by the thread that created it (PAPI counts per thread).
public final class PAPIEventSet {
    public let events: [String]
    private var handle: Int32 = frugal_papi_null()
    private var running = false

    /// Creates the set on the calling thread and adds `events` by name.
    public init(events: [String]) throws {
        try PAPI.initialize()
        self.events = events
        var handle = frugal_papi_null()
        let created = PAPI_create_eventset(&handle)
        guard created == frugal_papi_ok() else { throw PAPIError("PAPI_create_eventset", created) }
        self.handle = handle
        for event in events {
            let status = event.withCString { name in PAPI_add_named_event(handle, UnsafeMutablePointer(mutating: name)) }
            guard status == frugal_papi_ok() else {
                destroy()
                // An event of a disabled component reads as "no such event" too: say which.
                throw PAPIError("PAPI_add_named_event(\(event))", status,
                                context: status == PAPI_ENOEVNT ? PAPI.disabledComponent(of: event) : nil)
            }
        }
    }

    /// Starts counting.
    public func start() throws {
        let status = PAPI_start(handle)
        guard status == frugal_papi_ok() else { throw PAPIError("PAPI_start", status) }
        running = true
    }

    /// The current counts, in the order of `events`.
    public func read() throws -> [Int64] {
        var values = [Int64](repeating: 0, count: events.count)
        let status = values.withUnsafeMutableBufferPointer { PAPI_read(handle, $0.baseAddress) }
        guard status == frugal_papi_ok() else { throw PAPIError("PAPI_read", status) }
        return values.map { Int64($0) }
    }

    /// Stops counting.
    public func stop() throws {
        guard running else { return }
        var values = [Int64](repeating: 0, count: events.count)
        let status = values.withUnsafeMutableBufferPointer { PAPI_stop(handle, $0.baseAddress) }
        running = false
        guard status == frugal_papi_ok() else { throw PAPIError("PAPI_stop", status) }
    }

    private func destroy() {
        if running { try? stop() }
        _ = PAPI_cleanup_eventset(handle)
        _ = PAPI_destroy_eventset(&handle)
    }

    deinit { destroy() }
}
