import Foundation
import XCTest
@testable import FrugalCore

/// One error line's cause in this tool's words, from Foundation's errors (issue 24, round two).
final class ErrorTextTests: XCTestCase {
    struct OwnError: Error, CustomStringConvertible { var description: String { "our own words" } }

    func testFoundationsFileErrorsGiveTheirCause() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("frugal-errortext-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        XCTAssertThrowsError(try Data(contentsOf: directory.appendingPathComponent("missing"))) {
            XCTAssertEqual(ErrorText.reason($0), String(cString: strerror(ENOENT)))
        }
        let file = directory.appendingPathComponent("file")
        try Data().write(to: file)
        // Foundation keeps no errno here (error 512): the path says what is in the way.
        XCTAssertThrowsError(try FileManager.default.createDirectory(at: file.appendingPathComponent("sub"), withIntermediateDirectories: true)) {
            XCTAssertEqual(ErrorText.reason($0), "\(file.path) is not a directory")
        }
        XCTAssertEqual(ErrorText.reason(OwnError()), "our own words", "this tool's errors keep their description")
        XCTAssertEqual(ErrorText.reason(CocoaError(.fileWriteOutOfSpace)), String(cString: strerror(ENOSPC)))
        XCTAssertEqual(ErrorText.reason(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))), String(cString: strerror(EACCES)))
    }

    func testADocumentThatIsNoJSONIsToldWhere() {
        struct Shape: Decodable { var a: Int }
        let data = Data("{\"a\": [1}".utf8)
        XCTAssertThrowsError(try JSONDecoder().decode(Shape.self, from: data)) { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(ErrorText.isWholeDocument(context))
            XCTAssertEqual(ErrorText.invalidJSON(data), "not valid JSON (invalid value around character 8)")
        }
        XCTAssertEqual(ErrorText.invalidJSON(nil), "not valid JSON")
    }
}
