import Foundation
import XCTest
@testable import FrugalReport
@testable import FrugalCore

/// Renders report.html in headless Chromium where it is installed.
final class HTMLScreenshotTests: XCTestCase {
    static let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]

    func chromium(_ arguments: [String]) throws -> (status: Int32, stdout: String) {
        guard let path = Self.candidates.first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("Chromium is not installed (looked for \(Self.candidates.joined(separator: ", "))): the HTML report was not rendered in a browser")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        // --no-sandbox: tests may run as root, where Chromium's sandbox refuses to start.
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testReportRendersWithScoresAndTimelinesVisible() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-chromium-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = try ReportTests.realReport()
        let html = directory.appendingPathComponent("report.html")
        try Data(HTMLReportRenderer.render(report).utf8).write(to: html)

        // The DOM as Chromium laid it out: scores and the open timeline are there.
        let dom = try chromium(["--dump-dom", html.absoluteString])
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.stdout.contains("class=\"badge"), "score badges rendered")
        XCTAssertTrue(dom.stdout.contains("<svg") && dom.stdout.contains("class=\"timeline\""), "timeline SVG rendered")
        XCTAssertTrue(dom.stdout.contains("<details class=\"run\" open=\"\""), "the first run's timeline is open without a click")

        let screenshot = directory.appendingPathComponent("report.png")
        let shot = try chromium(["--window-size=1200,1600", "--screenshot=\(screenshot.path)", html.absoluteString])
        XCTAssertEqual(shot.status, 0)
        let png = try Data(contentsOf: screenshot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
        // A blank 1200×1600 page compresses to a few KB; text, badges and timelines make it larger.
        XCTAssertGreaterThan(png.count, 30_000, "the screenshot shows content")
        if let keep = ProcessInfo.processInfo.environment["FRUGAL_KEEP_SCREENSHOT"] {
            try? png.write(to: URL(fileURLWithPath: keep))
        }
    }
}
