import FrugalKit
import NotesCore

/// The executable `frugal.yml` names (`product: NotesProfile`). Run by hand it says it must be
/// started by `frugal run`.
@main
struct NotesProfile: FrugalApp {
    static let apps = [AppEntry("notes") { NotesAppDelegate() }]
}
