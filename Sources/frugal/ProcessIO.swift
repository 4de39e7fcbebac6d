import ArgumentParser
import Foundation

/// The only place the CLI touches process I/O: standard error, exit codes.
enum ProcessIO {
    /// The exit codes of the user's contract (DESIGN.md).
    enum Code: Int32 {
        case success = 0
        /// Usage, config, unreadable file.
        case badInput = 1
        /// An error-level assertion failed or a significant regression was found.
        case findings = 2
        /// The harness itself failed.
        case harnessFailure = 3
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data(("frugal: " + line + "\n").utf8))
    }

    static func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func exit(_ code: Code) -> Never { Foundation.exit(code.rawValue) }
}

/// An error that ends the command with a contract exit code and one line on standard error.
struct CLIFailure: Error {
    var code: ProcessIO.Code
    var message: String
    static func badInput(_ message: String) -> CLIFailure { CLIFailure(code: .badInput, message: message) }
    static func harness(_ message: String) -> CLIFailure { CLIFailure(code: .harnessFailure, message: message) }
}
