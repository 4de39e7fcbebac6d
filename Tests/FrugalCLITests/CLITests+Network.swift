import Foundation
import XCTest

extension CLITests {
    func testNetworkAndRadioOptionsAreChecked() throws {
        let radio = try frugal(["run", "--workload", "idle", "--radio", "5g"])
        XCTAssertEqual(radio.status, 1)
        XCTAssertTrue(radio.stderr.contains("'5g'"), radio.stderr)
        let network = try frugal(["run", "--workload", "idle", "--network", "dialup"])
        XCTAssertEqual(network.status, 1)
        XCTAssertTrue(network.stderr.contains("very-bad-network"), "names the known profiles: \(network.stderr)")
    }
}
