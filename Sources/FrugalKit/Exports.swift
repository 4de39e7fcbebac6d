// One import: the FrugalCore types an app delegate names come with `import FrugalKit`, so app
// code never imports FrugalCore (the harness's model). Scoped, so nothing else of FrugalCore
// leaks into the app's namespace; importing FrugalCore as well stays unambiguous (it is the
// same declaration).

/// `didReceiveMemoryWarning(_:level:)`'s level (FrugalCore's `MemoryWarningLevel`).
@_exported import enum FrugalCore.MemoryWarningLevel
/// `Application.state` (FrugalCore's `AppState`).
@_exported import enum FrugalCore.AppState
