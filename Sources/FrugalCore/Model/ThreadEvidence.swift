/// What the harness saw of one thread from outside, to tell what it is: its name, where the
/// kernel showed it waiting, and the functions found on its stack. Raw facts; the role is
/// decided from them by `ThreadRole.classify` (FrugalCore, so it can be tested on fixed facts).
public struct ThreadEvidence: Codable, Sendable, Equatable {
    /// The process the thread belongs to.
    public var pid: Int32
    public var tid: Int32
    /// `comm` when the evidence was taken (threads inherit their creator's name until they set one).
    public var name: String
    /// The system call it was blocked in when its stack was read (`/proc/<pid>/task/<tid>/syscall`'s
    /// first field), nil where the machine hides it.
    public var syscall: String?
    /// The kernel function it slept in (`wchan`), nil while running or where hidden.
    public var wchan: String?
    /// Functions found on its stack, innermost first: return addresses between its stack pointer
    /// and the top of its stack that fall in a mapped library's or the program's code, named from
    /// that file's ELF symbol table. Empty when the stack could not be read (see `stackUnavailable`).
    public var stack: [StackFrame]
    /// Why the stack could not be read (the thread was running at every look, `process_vm_readv`
    /// was refused, ...), nil when it was read.
    public var stackUnavailable: String?
    /// The file name of the process's executable (`/proc/<pid>/exe`), so a start routine in it
    /// can be told to be the program's own.
    public var program: String?

    public init(pid: Int32, tid: Int32, name: String, syscall: String? = nil, wchan: String? = nil,
                stack: [StackFrame] = [], stackUnavailable: String? = nil, program: String? = nil) {
        self.program = program
        self.pid = pid
        self.tid = tid
        self.name = name
        self.syscall = syscall
        self.wchan = wchan
        self.stack = stack
        self.stackUnavailable = stackUnavailable
    }
}

/// What a thread is, for charging its wakeups: the app's, or the platform's.
public enum ThreadRole: String, Codable, Sendable, CaseIterable {
    /// The process's main thread (its tid is the process id).
    case main
    /// A thread the app started itself (its stack starts in the app's code or in Foundation's `Thread`).
    case app
    /// A libdispatch pool thread that runs queue work and Swift concurrency jobs.
    case dispatchWorker = "libdispatch-worker"
    /// libdispatch's manager thread: its event loop (dispatch sources, timers) and, on Linux, the
    /// 1 Hz pool monitor (`_dispatch_workq_monitor_pools`, src/event/workqueue.c).
    case dispatchManager = "libdispatch-manager"
    /// A thread Foundation or URLSession's libcurl started (curl's resolver, say).
    case foundation
    /// FrugalKit's own runtime (threads it names `frugal-…`).
    case frugalRuntime = "frugal-runtime"
    /// No evidence showed what it is: charged to the app.
    case unknown

    /// FrugalKit names its runtime threads with this prefix.
    public static let frugalThreadPrefix = "frugal-"
    /// libdispatch's manager thread's functions: only the manager root queue's single thread
    /// runs them (src/queue.c `_dispatch_mgr_thread`, `_dispatch_mgr_invoke`).
    static let managerFunctions: Set<String> = ["_dispatch_mgr_thread", "_dispatch_mgr_invoke"]
    /// A pool thread's start routine (src/queue.c).
    static let workerFunctions: Set<String> = ["_dispatch_worker_thread", "_dispatch_worker_thread2", "_dispatch_worker_thread3"]
    /// Frames that are every thread's (libc's thread start), not anyone's start routine.
    static let threadStartFunctions: Set<String> = ["start_thread", "clone", "clone3", "__clone", "__clone3", "__GI___clone3"]

    /// The role of a thread and the evidence for it, in words. Names are not evidence of a role:
    /// a thread inherits its creator's name, and libdispatch names its pool threads after the
    /// last 15 characters of their root queue's label (`oot.default-qos`, `-qos.overcommit`;
    /// `DispatchWorker` in later versions, swift-corelibs-libdispatch src/queue.c), which its
    /// manager thread shares with the user-interactive overcommit pool on Linux.
    ///
    /// - main: tid == pid.
    /// - libdispatch's manager: `_dispatch_mgr_thread`/`_dispatch_mgr_invoke` on its stack.
    /// - a libdispatch worker: `_dispatch_worker_thread` on its stack.
    /// - FrugalKit's runtime: named `frugal-…` (FrugalKit names its threads so).
    /// - Foundation: libcurl's or FoundationNetworking's code is its outermost frame.
    /// - the app's own: its outermost frame (its start routine, past libc's) is in the program or
    ///   in Foundation's `Thread` trampoline.
    /// - otherwise unknown; a thread only *named* `DispatchWorker` stays unknown (names are
    ///   inherited), and so does one whose stack could not be read.
    public static func classify(_ evidence: ThreadEvidence) -> (role: ThreadRole, because: String) {
        if evidence.tid == evidence.pid { return (.main, "its thread id is the process id") }
        let symbols = evidence.stack.compactMap(\.symbol)
        if let function = symbols.first(where: { managerFunctions.contains($0) }) {
            return (.dispatchManager, "stack: \(function) (\(module(of: function, in: evidence)))")
        }
        if let function = symbols.first(where: { workerFunctions.contains($0) }) {
            return (.dispatchWorker, "stack: \(function) (\(module(of: function, in: evidence)))")
        }
        if evidence.name.hasPrefix(frugalThreadPrefix) {
            return (.frugalRuntime, "named \(evidence.name) (FrugalKit names its threads \(frugalThreadPrefix)…)")
        }
        // The start routine: the outermost named frame that is not libc's thread start.
        guard let start = evidence.stack.last(where: { $0.symbol.map { !threadStartFunctions.contains($0) } ?? false }) else {
            let why = evidence.stackUnavailable.map { "stack unreadable: \($0)" } ?? "no named frame on its stack"
            return (.unknown, "named \(evidence.name); \(why)")
        }
        let symbol = Self.short(start.symbol ?? "?")
        let module = start.module.lowercased()
        if module.hasPrefix("libcurl") || module.hasPrefix("libfoundationnetworking") {
            return (.foundation, "start routine \(symbol) (\(start.module))")
        }
        if let program = evidence.program, start.module == program {
            return (.app, "start routine \(symbol) (\(start.module), the program)")
        }
        if module.hasPrefix("libfoundation") && symbol.contains("Thread") {
            return (.app, "start routine \(symbol) (\(start.module): a Foundation Thread the app started)")
        }
        return (.unknown, "named \(evidence.name); start routine \(symbol) (\(start.module)) is not one Frugal knows")
    }

    /// A function's name short enough for a table cell (demangled Swift names run long).
    static func short(_ symbol: String) -> String {
        symbol.count <= 80 ? symbol : String(symbol.prefix(79)) + "…"
    }

    private static func module(of function: String, in evidence: ThreadEvidence) -> String {
        evidence.stack.first { $0.symbol == function }?.module ?? "?"
    }

    /// Whether `evidence` shows a pool thread of a non-overcommit root queue: the threads that
    /// register with the pool monitor, whose first registration arms it (`_dispatch_worker_thread`
    /// registers only when `monitored`, not overcommit or manager, src/queue.c, then
    /// `_dispatch_workq_worker_register` → `_dispatch_workq_init_once`, src/event/workqueue.c).
    /// Its stack shows a pool thread; its name shows the pool, as `_dispatch_worker_thread` names
    /// the thread itself after its root queue's label (`oot.default-qos`, `.background-qos`; the
    /// overcommit pools' end in `overcommit`). A libdispatch that names every pool thread
    /// `DispatchWorker` does not show the pool: no such thread is shown, and nothing is left out.
    public static func showsMonitoredPool(_ evidence: ThreadEvidence) -> Bool {
        classify(evidence).role == .dispatchWorker && evidence.name.hasSuffix("-qos")
    }

    /// Whether the thread's wakeups are charged to the app. Only libdispatch's manager is not,
    /// and only up to its pool monitor's rate (`RunAnalysis.platformWakeupAllowance`).
    public var isPlatform: Bool { self == .dispatchManager }
}
