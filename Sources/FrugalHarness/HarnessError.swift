import Foundation
import FrugalCore
import FrugalProbe

/// A failure of the harness itself (exit code 3), as opposed to a finding about the workload.
///
/// Each case keeps what went wrong underneath (the system call and its errno, the server's
/// error), so a caller can tell a spawn failure from a sandbox or cgroup failure; `description`
/// is the one line the command-line tool prints.
public enum HarnessError: Error, CustomStringConvertible, Sendable {
    /// The app or program could not be started (`posix_spawn`, a pipe).
    case spawn(program: String, underlying: any Error)
    /// The app's sandbox could not be made under `parent`.
    case sandbox(parent: String, underlying: any Error)
    /// A bundle resource or document names a path outside the directory it belongs in.
    case resourceOutside(path: String, directory: String)
    /// A run cgroup or memory cgroup could not be made: why (the whole line, naming the failed
    /// call), and the failed call with its errno if one failed.
    case cgroup(reason: String, underlying: SystemCallError? = nil)
    /// The run's loopback servers could not start (`component`: the origin server, the shaping proxy).
    case network(component: String, underlying: any Error)
    /// A control message could not be written because the control pipe is closed.
    case controlPipeClosed
    /// A file the harness reads or writes failed (`open`, `read`, `write`, with its errno).
    case io(SystemCallError)
    /// A file the harness needs could not be read or made, where no errno is known (Foundation's file APIs).
    case file(path: String, operation: String)
    /// The process did not exit after SIGKILL within the reaping budget.
    case unreapable(workload: String, pid: Int32)
    /// The scenario cannot be run as written.
    case scenario(name: String, problem: String)
    /// A black-box run with no command, or a command that is not on `PATH`.
    case commandNotFound(String?)
    /// A run ended without having started any process (a bug of the harness).
    case noProcessRun

    public var description: String {
        switch self {
        case .spawn(let program, let underlying): return "cannot start \(program): \(ErrorText.reason(underlying))"
        case .sandbox(let parent, let underlying): return "cannot create the app sandbox under \(parent): \(ErrorText.reason(underlying))"
        case .resourceOutside(let path, let directory): return "'\(path)' is outside \(directory)"
        case .cgroup(let reason, _): return reason
        case .network(let component, let underlying): return "cannot start the \(component) on loopback: \(ErrorText.reason(underlying))"
        case .controlPipeClosed: return "the control pipe is already closed"
        case .io(let error): return "\(error)"
        case .file(let path, let operation): return "cannot \(operation) \(path)"
        case .unreapable(let workload, let pid): return "workload \(workload) (pid \(pid)) could not be reaped after SIGKILL"
        case .scenario(let name, let problem): return "scenario '\(name)' \(problem)"
        case .commandNotFound(let name): return name.map { "command not found: \($0)" } ?? "no command given"
        case .noProcessRun: return "no process was run"
        }
    }

    /// The errno underneath, when a system call failed.
    public var systemCallError: SystemCallError? {
        switch self {
        case .io(let error): return error
        case .cgroup(_, let underlying): return underlying
        case .spawn(_, let underlying), .sandbox(_, let underlying), .network(_, let underlying):
            return underlying as? SystemCallError ?? (underlying as? HarnessError)?.systemCallError
        default: return nil
        }
    }
}
