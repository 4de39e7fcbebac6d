import CFrugalSystem

/// Gives the memory an app has freed back to the system, where Apple's platform does so without
/// being asked, so that what Frugal measures is what iOS would count.
///
/// iOS counts an app's footprint (`phys_footprint`): memory the app has dirtied and still holds.
/// Darwin's allocator returns freed pages to the kernel, and on a memory-pressure warning its
/// handler (`malloc_memory_event_handler` in Apple's libmalloc) calls
/// `malloc_zone_pressure_relief(0, 0)` for every zone. glibc keeps freed chunks in its arenas
/// until they are trimmed: an app that emptied an 80 MiB dictionary in `didEnterBackground` still
/// showed 80 MiB resident, and failed `memory.free-on-background` for memory it had given up.
/// FrugalKit therefore calls `malloc_trim(0)` where the platform would have given the memory
/// back: after the app has answered a memory warning, and after it has entered the background.
/// What the app still holds stays resident; only what it freed goes.
enum AllocatorRelief {
    /// What the arenas must hold freed before a trim is worth its cost: 4 MiB, the least
    /// `memory.free-on-background` judges (below it, allocator noise is as large as what an app
    /// could free). A trim makes a system call per free range: a few ms of CPU on a large heap,
    /// which a resting app in the background was once charged for when it had freed nothing.
    static let minimumFreedBytes = 4 << 20

    /// Returns freed heap memory to the kernel (`malloc_trim(0)`, every arena) when there is enough
    /// of it. Not part of the app's handler: it is the platform's work, after the app's code.
    static func relieve() {
        _ = frugal_malloc_trim(minimumFreedBytes)
    }
}
