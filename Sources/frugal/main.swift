import ArgumentParser
import Foundation
import FrugalPipeline
import FrugalProbe

// Parse and run by hand so that usage errors exit 1 (the contract) rather than
// swift-argument-parser's 64, and every failure is one line on standard error.
// A closed standard error or standard output (a reader that exits) must not end a suite.
StandardError.ignoreBrokenPipes()
do {
    var command = try Frugal.parseAsRoot()
    try command.run()
    ProcessIO.exit(.success)
} catch let failure as CLIFailure {
    ProcessIO.error(failure.message)
    ProcessIO.exit(failure.code)
} catch let failure as PipelineFailure {
    let failure = CLIFailure(failure)
    ProcessIO.error(failure.message)
    ProcessIO.exit(failure.code)
} catch let exit as ExitCode {
    ProcessIO.exit(exit == .success ? .success : (exit.rawValue == 2 ? .findings : .badInput))
} catch {
    if Frugal.exitCode(for: error) == .success {
        print(Frugal.fullMessage(for: error))
        ProcessIO.exit(.success)
    }
    let message = Frugal.message(for: error).split(separator: "\n").joined(separator: " ")
    ProcessIO.error("\(message) (see 'frugal --help')")
    ProcessIO.exit(.badInput)
}
