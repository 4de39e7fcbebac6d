import XCTest
@testable import FrugalKit

/// Which app an executable runs, from the environment the harness gives it.
final class FrugalAppLaunchTests: XCTestCase {
    final class Delegate: AppDelegate {}
    let pipes = ["FRUGAL_CONTROL_FD": "3", "FRUGAL_EVENT_FD": "4"]
    let apps = [AppEntry("notes") { Delegate() }, AppEntry("notes.polling") { Delegate() }]

    func resolve(_ apps: [AppEntry], _ environment: [String: String], open: Bool = true) -> Result<Application.Launch, Application.Launch.Problem> {
        Application.Launch.resolve(apps: apps, environment: environment, isOpen: { _ in open })
    }

    func testStartedByHandWithoutTheHarnessPipes() {
        XCTAssertEqual(resolve(apps, [:]).failure, .startedByHand)
        // The variables alone are not enough: the descriptors must be open.
        XCTAssertEqual(resolve(apps, pipes, open: false).failure, .startedByHand)
    }

    func testTheHarnessSelectsAnAppByName() throws {
        let launch = try resolve(apps, pipes.merging(["FRUGAL_APP": "notes.polling"]) { $1 }).get()
        XCTAssertEqual(launch.entry.name, "notes.polling")
        XCTAssertEqual(launch.pipes.control, 3)
        XCTAssertEqual(launch.pipes.events, 4)
        XCTAssertEqual(resolve(apps, pipes.merging(["FRUGAL_APP": "todo"]) { $1 }).failure, .unknownApp("todo", known: ["notes", "notes.polling"]))
        XCTAssertEqual(resolve(apps, pipes).failure, .noAppNamed(known: ["notes", "notes.polling"]))
    }

    /// One app runs under whatever name frugal.yml gives it.
    func testASingleAppRunsUnderFrugalYmlsName() throws {
        let launch = try resolve([apps[0]], pipes.merging(["FRUGAL_APP": "my-notes"]) { $1 }).get()
        XCTAssertEqual(launch.entry.name, "notes")
        XCTAssertEqual(launch.name, "my-notes")
        XCTAssertEqual(try resolve([apps[0]], pipes).get().name, "notes")
        XCTAssertEqual(resolve([], pipes).failure, .noApps)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
