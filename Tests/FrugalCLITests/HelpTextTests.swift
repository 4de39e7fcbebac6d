import ArgumentParser
import XCTest
@testable import frugal

/// `frugal --help` as a reader sees it. swift-argument-parser wraps every line of a discussion
/// to the terminal's width (80 columns when standard output is not a terminal) and keeps the
/// line breaks it is given, so a paragraph broken by hand at the source's width came out as one
/// long line and one short one, every other line.
final class HelpTextTests: XCTestCase {
    private var commands: [(name: String, type: ParsableCommand.Type)] {
        [("frugal", Frugal.self)] + Frugal.configuration.subcommands.map {
            ("frugal \($0.configuration.commandName ?? "?")", $0)
        }
    }

    /// A paragraph is one line of the discussion (continued with `\` in the source); only
    /// indented lines (examples, lists) may follow another line, and those must fit in 80
    /// columns, since a wrapped command line cannot be pasted.
    func testDiscussionsBreakLinesOnlyBetweenParagraphsAndExamples() {
        for (name, command) in commands {
            let lines = command.configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            for line in lines where line.first == " " {
                XCTAssertLessThanOrEqual(line.count, 80, "\(name) --help: an example or list line wraps: \(line)")
            }
            for (previous, line) in zip(lines, lines.dropFirst())
            where !previous.isEmpty && previous.first != " " && !line.isEmpty && line.first != " " {
                XCTFail("\(name) --help: a line break inside a paragraph, after \"\(previous.suffix(30))\"")
            }
        }
    }
}
