import ArgumentParser
import Foundation
import FrugalCore
import FrugalPipeline
import FrugalProbe

/// The only place the CLI touches process I/O: standard error, exit codes.
enum ProcessIO {
    /// The exit codes of the user's contract (README.md, docs/ARCHITECTURE.md).
    enum Code: Int32 {
        case success = 0
        /// Usage, config, unreadable file.
        case badInput = 1
        /// An error-level assertion failed or a significant regression was found.
        case findings = 2
        /// The harness itself failed.
        case harnessFailure = 3
        /// A comparison (frugal compare, ab) found no regression, but a gating value was too
        /// noisy to tell at its threshold: inconclusive, never a failure of the gate.
        case inconclusive = 4
        /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), as shells report a signal's end.
        case interrupted = 130
        case terminated = 143
    }

    /// One line on standard error: whatever it quotes (a name with a newline or a terminal
    /// escape, a 50 MB key) is shown visibly and cut to a bounded length.
    static func error(_ line: String) {
        StandardError.write("frugal: " + TextSanitizer.oneLine(line, limit: 2000) + "\n")
    }

    static func progress(_ line: String) {
        StandardError.write(TextSanitizer.oneLine(line, limit: 2000) + "\n")
    }

    /// Ends the process. Standard output is flushed first: `frugal rules --json > /dev/full`
    /// once exited 0 with its output lost (stdio's flush at exit ignores its error). A failed
    /// write to a file or a device is a harness failure (exit 3, one line); to a pipe, FIFO or
    /// socket whose reader left, or a closed descriptor (issue 24, item 14), it is not.
    static func exit(_ code: Code) -> Never {
        // Every stream (`stdout` itself is a global Swift 6 will not read): standard error is
        // unbuffered, so what is left to write is standard output's.
        let failure = fflush(nil) == 0 ? 0 : errno
        if failure != 0, code.rawValue < Code.harnessFailure.rawValue, standardOutputIsAFileOrDevice {
            error("cannot write standard output: \(String(cString: strerror(failure)))")
            Foundation.exit(Code.harnessFailure.rawValue)
        }
        Foundation.exit(code.rawValue)
    }

    /// Whether descriptor 1 is open on a file or a device (not a pipe, FIFO or socket).
    private static var standardOutputIsAFileOrDevice: Bool {
        var info = stat()
        guard fstat(STDOUT_FILENO, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind != S_IFIFO && kind != S_IFSOCK
    }

    /// The last `count` arguments after the first `--`, as the bytes the kernel gave (Swift's
    /// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD); nil when the
    /// count does not match what the parser took.
    static func rawArgumentsAfterTerminator(count: Int) -> [[UInt8]]? {
        let argv = (0..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
        guard let terminator = argv.firstIndex(of: Array("--".utf8)), argv.count - terminator - 1 == count else { return nil }
        return Array(argv[(terminator + 1)...])
    }
}

/// An error that ends the command with a contract exit code and one line on standard error.
struct CLIFailure: Error {
    var code: ProcessIO.Code
    var message: String
    static func badInput(_ message: String) -> CLIFailure { CLIFailure(code: .badInput, message: message) }
    static func harness(_ message: String) -> CLIFailure { CLIFailure(code: .harnessFailure, message: message) }
}

extension CLIFailure {
    /// The pipeline's failure with its contract exit code (1, 3, 130 or 143, 4).
    init(_ failure: PipelineFailure) {
        switch failure.kind {
        case .badInput: self = .badInput(failure.message)
        case .harness: self = .harness(failure.message)
        case .interrupted(let signal): self = Run.interruptedFailure(signal, detail: failure.message)
        case .inconclusive: self = CLIFailure(code: .inconclusive, message: failure.message)
        }
    }
}
