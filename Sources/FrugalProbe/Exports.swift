// The system-call layer (each call wrapped once with its errno, the clock, the per-thread
// counters) lives in FrugalSystem, so FrugalKit links it without FrugalCore. Re-exported here,
// once, for the whole module: FrugalProbe's files and everything that imports FrugalProbe see it
// as before.
@_exported import FrugalSystem
