// The wire protocol and the records both sides of it share (events, control messages, the
// sandbox's layout) live in FrugalProtocol, so an app's runtime links them without the model.
// Re-exported here, once, for the whole module: FrugalCore's files and everything that imports
// FrugalCore see them as before, with no import of their own.
@_exported import FrugalProtocol
