import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// The corpus's executable: `frugal.yml` picks an app by name. Each file holds one audit's pair.
@main
struct CorpusApps: FrugalApp {
    static let apps: [AppEntry] = [
        AppEntry("inbox.on-demand") { InboxApp(polls: false) },
        AppEntry("inbox.polls-file") { InboxApp(polls: true) },
        AppEntry("search.index-in-background") { SearchApp(onMain: false) },
        AppEntry("search.index-on-main") { SearchApp(onMain: true) },
        AppEntry("draft.saves-on-resign") { DraftApp(savesOnResign: true) },
        AppEntry("draft.saves-on-quit") { DraftApp(savesOnResign: false) },
        AppEntry("reader.defaults-on-resign") { ReaderApp(savesOnResign: true) },
        AppEntry("reader.defaults-on-quit") { ReaderApp(savesOnResign: false) },
        AppEntry("clock.stops-when-inactive") { ClockApp(stopsWhenInactive: true) },
        AppEntry("clock.ticks-when-inactive") { ClockApp(stopsWhenInactive: false) },
        AppEntry("episodes.download-through-call") { EpisodeApp() },
        AppEntry("backup.ends-task") { BackupApp(endsTask: true) },
        AppEntry("backup.forgets-task") { BackupApp(endsTask: false) },
        AppEntry("share.closes-socket") { ShareApp(closesOnBackground: true) },
        AppEntry("share.keeps-socket") { ShareApp(closesOnBackground: false) },
        AppEntry("agenda.refreshes-off-main") { AgendaApp(onMain: false) },
        AppEntry("agenda.refreshes-on-main") { AgendaApp(onMain: true) },
        AppEntry("crawler.pauses") { CrawlerApp(pauses: true) },
        AppEntry("crawler.keeps-crawling") { CrawlerApp(pauses: false) },
        AppEntry("quotes.async-fetch") { QuotesApp(blocksMain: false) },
        AppEntry("quotes.blocking-fetch") { QuotesApp(blocksMain: true) },
        AppEntry("journal.patches-record") { JournalApp(rewritesWhole: false) },
        AppEntry("journal.rewrites-file") { JournalApp(rewritesWhole: true) },
        AppEntry("settings.debounced") { SettingsApp(debounced: true) },
        AppEntry("settings.saves-each-change") { SettingsApp(debounced: false) },
        AppEntry("notes.debounces-with-task") { NotesEditorApp(checksEverySecond: false) },
        AppEntry("notes.autosaves-every-second") { NotesEditorApp(checksEverySecond: true) },
        AppEntry("lookup.filters-as-you-type") { LookupApp(checksQuery: false) },
        AppEntry("lookup.checks-query") { LookupApp(checksQuery: true) },
        AppEntry("podcasts.in-caches") { PodcastApp(place: .caches) },
        AppEntry("podcasts.excluded-support") { PodcastApp(place: .excludedSupport) },
        AppEntry("podcasts.in-documents") { PodcastApp(place: .documents) },
        AppEntry("report.removes-tmp") { ReportApp(removesTemporary: true) },
        AppEntry("report.leaves-tmp") { ReportApp(removesTemporary: false) },
        AppEntry("thumbs.drops-on-warning") { ThumbnailApp(dropsOnWarning: true) },
        AppEntry("thumbs.ignores-warning") { ThumbnailApp(dropsOnWarning: false) },
        AppEntry("dashboard.fetches-together") { DashboardApp() },
        AppEntry("map.mapped-tiles") { MapApp(mapped: true) },
        AppEntry("map.reads-tiles") { MapApp(mapped: false) },
        AppEntry("tabs.loads-on-open") { TabsApp(preloads: false) },
        AppEntry("tabs.preloads-all") { TabsApp(preloads: true) },
        AppEntry("chat.releases-rooms") { ChatApp(leaks: false) },
        AppEntry("chat.leaks-rooms") { ChatApp(leaks: true) },
        AppEntry("metrics.batches") { MetricsApp(batches: true) },
        AppEntry("metrics.sends-each") { MetricsApp(batches: false) },
        AppEntry("scores.refresh-on-demand") { ScoresApp(polls: false) },
        AppEntry("scores.polls-server") { ScoresApp(polls: true) },
        AppEntry("photos.upload-together") { PhotoUploadApp(together: true) },
        AppEntry("photos.upload-one-by-one") { PhotoUploadApp(together: false) },
        AppEntry("catalog.gzip-page") { CatalogApp(compact: true) },
        AppEntry("catalog.plain-items") { CatalogApp(compact: false) },
        AppEntry("outbox.retries") { OutboxApp(retries: true) },
        AppEntry("outbox.gives-up") { OutboxApp(retries: false) },
    ]
}

/// The run's origin: any host reaches it through the proxy the run gives the process
/// (`http_proxy`), as a real API host would be reached.
func api(_ path: String) -> URL { URL(string: "http://api.corpus.test\(path)")! }

/// `count` bytes that do not compress, as a photo or an encrypted backup's (the kernel's random source).
func incompressible(_ count: Int) -> Data {
    FileHandle(forReadingAtPath: "/dev/urandom")?.readData(ofLength: count) ?? Data(count: count)
}

/// The user's directories, as Foundation names them (the run points them into its sandbox).
func directory(_ which: FileManager.SearchPathDirectory) -> URL {
    let url = FileManager.default.urls(for: which, in: .userDomainMask)[0]
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
