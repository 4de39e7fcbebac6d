import XCTest
@testable import FrugalHarness

/// What a run's process is told about its surroundings (`RunSpawn`): the display it could draw
/// on, and the sandbox's directories.
final class RunSpawnEnvironmentTests: XCTestCase {
    /// Wayland first, as toolkits try it first; an empty value names nothing (how a frugal.yml
    /// takes a session's display away from a program).
    func testTheDisplayServerIsWhatTheEnvironmentNames() {
        XCTAssertNil(RunSpawn.displayServer(in: [:]))
        XCTAssertNil(RunSpawn.displayServer(in: ["DISPLAY": "", "WAYLAND_DISPLAY": ""]))
        XCTAssertEqual(RunSpawn.displayServer(in: ["DISPLAY": ":0"]), "DISPLAY=:0")
        XCTAssertEqual(RunSpawn.displayServer(in: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"]), "WAYLAND_DISPLAY=wayland-0")
        XCTAssertEqual(RunSpawn.displayServer(in: ["DISPLAY": ":1", "WAYLAND_DISPLAY": ""]), "DISPLAY=:1")
    }

    /// HOME and the XDG directories Foundation reads on Linux are all inside the sandbox.
    func testTheSandboxDirectoriesAreInsideTheSandbox() {
        let root = URL(fileURLWithPath: "/tmp/frugal-sandbox-example")
        let directories = RunSpawn.sandboxDirectories(root)
        for name in ["HOME", "CFFIXED_USER_HOME", "TMPDIR", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] {
            XCTAssertTrue(directories[name]?.hasPrefix(root.path) == true, "\(name): \(directories[name] ?? "unset")")
        }
    }
}
