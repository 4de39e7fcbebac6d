import ArgumentParser
import Foundation
import FrugalCore
import FrugalHarness
import FrugalPipeline

/// `frugal record`: a `frugal run` whose origin forwards every request to a real server and
/// writes the exchanges as a HAR file, for later runs to replay with `--har` or `server: har:`.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run a scenario against a real server through the proxy and write what it answered as a HAR file.",
        discussion: """
        Every request the app makes through the run's proxy is forwarded to --upstream (an \
        http:// URL; its path, if any, is put before each request's path) and answered with what \
        it returns; the exchanges are written to --to as HAR 1.2, bodies decoded. Replay them with
          frugal run --har FILE ...        or frugal.yml's  server: {har: FILE}
        Every other option is frugal run's, e.g.:
          frugal record --upstream http://127.0.0.1:8080 --to api.har \\
            -- curl -s http://api.example.test/v1/items
        """)

    @Option(help: ArgumentHelp("The server to record from: http://host[:port][/prefix].", valueName: "url"))
    var upstream: String

    @Option(help: ArgumentHelp("Where to write the HAR file.", valueName: "file"))
    var to = "recording.har"

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("frugal run's options, and a command after --.", valueName: "run options"))
    var runArguments: [String] = []

    func validate() throws {
        guard let url = URL(string: upstream), url.scheme?.lowercased() == "http", url.host?.isEmpty == false else {
            throw ValidationError("--upstream must be an http://host[:port][/path] URL, not '\(upstream)' (an https upstream is not recorded yet)")
        }
    }

    func run() throws {
        let path = URL(fileURLWithPath: to).standardizedFileURL.path
        // Like every output: a device, FIFO, symlink or directory is refused before the run, not
        // replaced by a file (or, for a directory, silently not written) after it.
        try ReportInput.checkOutputs([("--to", path)])
        let started = Date()
        let run: Run
        do {
            run = try Run.parse(HARRecording.runArguments(runArguments, upstream: upstream, path: path))
        } catch {
            throw CLIFailure.badInput(Run.message(for: error))
        }
        try run.run()
        // The run ended well, so the recording must be there, written by this run.
        try HARRecording.confirmWritten(path, since: started)
        if !run.quiet {
            ProcessIO.progress("frugal: recorded \(upstream) into \(path)")
        }
    }
}
