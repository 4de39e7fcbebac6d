// One import: the FrugalProtocol types an app delegate names come with `import FrugalKit`, so app
// code never imports the protocol module. Scoped, so nothing else of it leaks into the app's
// namespace; importing FrugalProtocol or FrugalCore (which re-exports it) as well stays
// unambiguous (it is the same declaration). FrugalKit does not depend on FrugalCore (the
// harness's model and analysis): an app links the protocol, not the analysis.

/// `didReceiveMemoryWarning(_:level:)`'s level (FrugalProtocol's `MemoryWarningLevel`).
@_exported import enum FrugalProtocol.MemoryWarningLevel
/// `Application.state` (FrugalProtocol's `AppState`).
@_exported import enum FrugalProtocol.AppState
