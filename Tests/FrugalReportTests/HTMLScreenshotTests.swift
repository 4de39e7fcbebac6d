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

        try screenshots(of: html, name: "real")
    }

    /// The hand-built report (fix first, a killed and relaunched app, a radio lane, a black box)
    /// at a desktop's width and a phone's.
    func testTheLayoutReportRendersAtDesktopAndPhoneWidths() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-chromium-layout-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let html = directory.appendingPathComponent("report.html")
        try Data(HTMLReportRenderer.render(HTMLReportLayoutTests.report()).utf8).write(to: html)
        let dom = try chromium(["--dump-dom", html.absoluteString])
        XCTAssertEqual(dom.status, 0)
        XCTAssertTrue(dom.stdout.contains("<section id=\"fix-first\">"), "the page opens with what to fix")
        XCTAssertTrue(dom.stdout.contains("<details class=\"fix\" open=\"\">"), "the worst problem is open")
        try screenshots(of: html, name: "layout")

        // At a phone's width the page itself does not scroll sideways: wide tables and the
        // timelines scroll inside their own boxes. A probe script, added to a copy of the page
        // only (the report has none), writes the laid-out width into the DOM Chromium dumps.
        let probe = directory.appendingPathComponent("probe.html")
        let page = try String(contentsOf: html, encoding: .utf8)
        try page.replacingOccurrences(of: "</body>", with: "<script>parent.document.body.setAttribute('data-width', document.documentElement.scrollWidth + ' ' + innerWidth)</script></body>")
            .write(to: probe, atomically: true, encoding: .utf8)
        for width in [400, 1400] {
            let laidOut = try chromium(viewport(probe, width: width, height: 900) + ["--dump-dom"])
            let match = laidOut.stdout.range(of: "data-width=\"[0-9]+ [0-9]+\"", options: .regularExpression)
                .map { laidOut.stdout[$0].dropFirst(12).dropLast().split(separator: " ").compactMap { Int($0) } }
            let widths = try XCTUnwrap(match, "the probe ran")
            XCTAssertEqual(widths.last, width, "the page was laid out \(width) px wide")
            XCTAssertLessThanOrEqual(widths.first ?? .max, width, "at \(width) px the page is \(widths.first ?? 0) px wide")
        }
    }

    /// Chromium's arguments to show `page` in a viewport `width` px wide. Headless Chromium's
    /// window is at least 500 px wide, so a narrower viewport is an iframe of that width in a
    /// page of its own (file pages may reach into it with --allow-file-access-from-files).
    func viewport(_ page: URL, width: Int, height: Int) throws -> [String] {
        guard width < 500 else { return ["--window-size=\(width),\(height)", page.absoluteString] }
        let frame = page.deletingLastPathComponent().appendingPathComponent("frame-\(width)-\(page.lastPathComponent)")
        try "<!DOCTYPE html><html><body style=\"margin:0\"><iframe src=\"\(page.lastPathComponent)\" width=\"\(width)\" height=\"\(height)\" style=\"border:0\"></iframe></body></html>"
            .write(to: frame, atomically: true, encoding: .utf8)
        return ["--allow-file-access-from-files", "--window-size=500,\(height)", frame.absoluteString]
    }

    /// Screenshots at 1400 px and 400 px wide; kept in FRUGAL_SCREENSHOT_DIR when it is set, to
    /// be looked at.
    func screenshots(of html: URL, name: String) throws {
        for (width, height) in [(1400, 1800), (400, 2400)] {
            let screenshot = html.deletingLastPathComponent().appendingPathComponent("\(name)-\(width).png")
            let shot = try chromium(["--screenshot=\(screenshot.path)"] + viewport(html, width: width, height: height))
            XCTAssertEqual(shot.status, 0)
            let png = try Data(contentsOf: screenshot)
            XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "a PNG")
            // The PNG is the window: the page's width, or 500 px holding the narrower frame.
            let pngWidth = png.count > 24 ? png[16..<20].reduce(0) { $0 << 8 | Int($1) } : 0
            XCTAssertEqual(pngWidth, max(width, 500))
            // A blank page compresses to a few KB; text, badges and timelines make it larger.
            XCTAssertGreaterThan(png.count, 30_000, "the \(width) px screenshot shows content")
            if let keep = ProcessInfo.processInfo.environment["FRUGAL_SCREENSHOT_DIR"] {
                try? png.write(to: URL(fileURLWithPath: keep).appendingPathComponent("\(name)-\(width).png"))
            }
        }
    }
}
