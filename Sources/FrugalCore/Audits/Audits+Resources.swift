extension Audits {
    /// `memory.lazy-resources`: bytes of the bundle's resource files the app read into memory
    /// before the user first asked for anything (launch, and what it prefetched on its own after),
    /// from the harness's watch of the bundle (``ResourceTrace``) — any app or program, however it
    /// reads. The guide: "You should never load a resource file until it is actually needed.
    /// Prefetching resource files may seem like a way to save time, but this practice actually
    /// slows down your app right away." A mapped file is not loaded: its pages come in as they
    /// are touched. FrugalKit's resource events (which of them the app used) are detail; they
    /// decide only where the bundle was not watched.
    static func lazyResources(_ analysis: RunAnalysis) -> AuditMeasurement {
        let record = analysis.record
        let kit = MemoryAnalysis(record)
        guard let trace = record.resources, trace.unavailable == nil else {
            if !kit.resources.isEmpty { return kitLazyResources(analysis, kit) }
            if let reason = record.resources?.unavailable, !(record.resources?.files.isEmpty ?? true) {
                return .unavailable("the bundle's resources could not be watched: \(reason)")
            }
            return .notApplicable("the run installed no resource file in the bundle (resources:) and the app loaded none through FrugalKit")
        }
        guard !trace.files.isEmpty || !kit.resources.isEmpty else {
            return .notApplicable("the run installed no resource file in the bundle (resources:)")
        }
        let firstInput = record.firstInputTime
        let early = ResourceReads(trace).uses.filter { $0.access.opened < firstInput }
        let total = ResourceReads.bytesByFile(early.filter { $0.access.reads > 0 })
        var evidence = early.prefix(20).map { use in
            Evidence(time: analysis.runTime(use.access.opened), description: describe(use, analysis) + ", before any input")
        }
        let launchEnd = record.startTime + (analysis.launchNanoseconds ?? 0)
        for resource in kit.resources where resource.loadedAt <= launchEnd {
            evidence.append(Evidence(time: analysis.runTime(resource.loadedAt),
                                     description: "FrugalKit: \(resource.name) (\(ByteCount.display(Double(resource.bytes))), \(resource.mapped ? "mapped" : "loaded")) at launch, "
                                        + (resource.firstUse.map { "first used at \(DisplayFormat.number(analysis.runTime($0))) s" } ?? "never used")))
        }
        guard let bytes = total.bytes else {
            return .unavailable("resource files were read before any input, but how much could not be measured: \(trace.bytesUnavailable ?? "/proc/<pid>/io unreadable")")
        }
        let read = total.files.filter { ($0.bytes ?? 0) > 0 }
        let when = firstInput < record.endTime ? "before the first input" : "in a run with no input"
        return .value(Double(bytes), display: "\(ByteCount.display(Double(bytes))) of resource files read into memory \(when)"
                        + (read.isEmpty ? "" : " (\(read.count) file\(read.count == 1 ? "" : "s"))"), evidence: evidence)
    }

    /// `memory.map-large-resources`: bytes of resource files over 1 MiB the app copied into its
    /// memory with `read()` rather than mapping them (the most one use of each file read),
    /// from the harness's watch of the bundle; a mapped file (opened, no `read()`, in
    /// `/proc/<pid>/maps`) costs no copy. The guide: "rather than load the entire file into
    /// memory, use the mmap and munmap functions to map portions of the file into and out of
    /// memory." FrugalKit's resource events and the peak anonymous memory are detail.
    static func mapLargeResources(_ analysis: RunAnalysis) -> AuditMeasurement {
        let record = analysis.record
        let kit = MemoryAnalysis(record)
        guard let trace = record.resources, trace.unavailable == nil else {
            if kit.resources.contains(where: { $0.bytes > MemoryAnalysis.largeResourceBytes }) { return kitMapLargeResources(analysis, kit) }
            if let reason = record.resources?.unavailable,
               record.resources?.files.contains(where: { $0.bytes > MemoryAnalysis.largeResourceBytes }) == true {
                return .unavailable("the bundle's resources could not be watched: \(reason)")
            }
            return .notApplicable("the run installed no resource file over 1 MiB and the app used none through FrugalKit")
        }
        let large = Set(trace.files.filter { $0.bytes > MemoryAnalysis.largeResourceBytes }.map(\.path))
        guard !large.isEmpty else { return .notApplicable("the run installed no resource file over 1 MiB in the bundle (resources:)") }
        let uses = ResourceReads(trace).uses.filter { large.contains($0.path) }
        guard !uses.isEmpty else { return .notApplicable("the app never opened its resource files over 1 MiB") }
        let copies = ResourceReads.bytesByFile(uses.filter { $0.access.reads > 0 })
        var evidence = uses.prefix(20).map { use in
            Evidence(time: analysis.runTime(use.access.opened), description: describe(use, analysis))
        }
        for resource in kit.resources where resource.bytes > MemoryAnalysis.largeResourceBytes {
            evidence.append(Evidence(time: analysis.runTime(resource.loadedAt),
                                     description: "FrugalKit: \(resource.name), \(ByteCount.display(Double(resource.bytes))) \(resource.mapped ? "mapped (no copy)" : "read whole into anonymous memory")"))
        }
        if let anonymous = record.samples.compactMap(\.memory).map(\.anonymousBytes).max() {
            evidence.append(Evidence(description: "peak held anonymous memory of the process (smaps_rollup): \(ByteCount.display(Double(anonymous)))"))
        }
        guard let bytes = copies.bytes else {
            return .unavailable("resource files over 1 MiB were read, but how much could not be measured: \(trace.bytesUnavailable ?? "/proc/<pid>/io unreadable")")
        }
        let mapped = Set(uses.filter { $0.access.reads == 0 && $0.access.mapped }.map(\.path)).count
        return .value(Double(bytes), display: "\(ByteCount.display(Double(bytes))) of resource files over 1 MiB read into memory rather than mapped"
                        + (mapped > 0 ? " (\(mapped) mapped)" : ""), evidence: evidence)
    }

    /// One use of a resource file, as the report says it.
    private static func describe(_ use: ResourceReads.Use, _ analysis: RunAnalysis) -> String {
        let size = use.fileBytes.map { " (\(ByteCount.display(Double($0))))" } ?? ""
        let step = analysis.record.stepName(at: use.access.opened).map { " during \($0)" } ?? ""
        let what: String
        if use.access.reads == 0 {
            what = use.access.mapped ? "mapped, not read (pages come in as they are touched)" : "opened, not read"
        } else if let bytes = use.bytesRead {
            what = "\(ByteCount.display(Double(bytes))) read into memory with read()"
        } else {
            what = "read with read() (bytes not measured)"
        }
        return "\(use.path)\(size): \(what)\(step)"
    }

    /// The FrugalKit-only judgement, for a run whose bundle was not watched (an older record).
    private static func kitLazyResources(_ analysis: RunAnalysis, _ memory: MemoryAnalysis) -> AuditMeasurement {
        guard let launch = analysis.launchNanoseconds else { return .unavailable("the app never finished launching") }
        let launchEnd = analysis.record.startTime + launch
        let unused = memory.unusedLaunchBytes(launchEnd: launchEnd)
        let evidence = memory.resources.filter { $0.loadedAt <= launchEnd }.map { resource in
            Evidence(time: analysis.runTime(resource.loadedAt),
                     description: "FrugalKit: \(resource.name) (\(ByteCount.display(Double(resource.bytes))), \(resource.mapped ? "mapped" : "loaded")) at launch: "
                        + (resource.firstUse.map { "first used at \(DisplayFormat.number(analysis.runTime($0))) s" } ?? "never used"))
        }
        return .value(Double(unused.bytes), display: "\(ByteCount.display(Double(unused.bytes))) loaded at launch and never used (FrugalKit's resource events; the bundle was not watched)", evidence: evidence)
    }

    private static func kitMapLargeResources(_ analysis: RunAnalysis, _ memory: MemoryAnalysis) -> AuditMeasurement {
        let large = memory.resources.filter { $0.bytes > MemoryAnalysis.largeResourceBytes }
        let peak = memory.peakLargeCopyBytes
        var evidence = large.map { resource in
            Evidence(time: analysis.runTime(resource.loadedAt),
                     description: "FrugalKit: \(resource.name), \(ByteCount.display(Double(resource.bytes))) \(resource.mapped ? "mapped (no copy)" : "read whole into anonymous memory")")
        }
        if let anonymous = analysis.record.samples.compactMap(\.memory).map(\.anonymousBytes).max() {
            evidence.append(Evidence(description: "peak held anonymous memory of the process (smaps_rollup): \(ByteCount.display(Double(anonymous)))"))
        }
        return .value(Double(peak.bytes), display: "\(ByteCount.display(Double(peak.bytes))) held in copies of large resources (FrugalKit's resource events; the bundle was not watched)", evidence: evidence)
    }
}
