import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// disk.write-changed-portions. A journal of 4,096 fixed-size 1 KiB records (4 MiB, the user's,
/// in Documents), one of which each edit changes. Good: keeps the changed records in memory and,
/// once the edits pause for a second (and on resigning active), writes each in place with
/// `FileHandle` (seek + write) and syncs once — the guide's "write only the portions of the file
/// that changed, and aggregate changes when you can". Bad: reads the file, changes the record,
/// and writes the whole file again (`.atomic`) per edit.
final class JournalApp: AppDelegate {
    static let recordSize = 1024, records = 4096
    let rewritesWhole: Bool
    let file = directory(.documentDirectory).appendingPathComponent("journal.db")
    var dirty: [Int: Data] = [:]
    var pending: Timer?
    init(rewritesWhole: Bool) { self.rewritesWhole = rewritesWhole }

    func handleInput(_ app: Application, kind: String) {
        let number = Int.random(in: 0..<JournalApp.records)
        var record = Data("edited at \(Date())".utf8)
        record.append(Data(repeating: 0x20, count: JournalApp.recordSize - record.count))
        if rewritesWhole {
            guard var journal = try? Data(contentsOf: file), journal.count == JournalApp.records * JournalApp.recordSize else { return }
            journal.replaceSubrange((number * JournalApp.recordSize)..<((number + 1) * JournalApp.recordSize), with: record)
            try? journal.write(to: file, options: .atomic)
        } else {
            dirty[number] = record
            pending?.invalidate()
            pending = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in MainActor.assumeIsolated { self.flush() } }
        }
    }

    func willResignActive(_ app: Application) { flush() }

    func flush() {
        pending?.invalidate()
        pending = nil
        guard !dirty.isEmpty, let handle = try? FileHandle(forWritingTo: file) else { return }
        for (number, record) in dirty.sorted(by: { $0.key < $1.key }) {
            try? handle.seek(toOffset: UInt64(number * JournalApp.recordSize))
            try? handle.write(contentsOf: record)
        }
        try? handle.synchronize()
        try? handle.close()
        dirty = [:]
    }
}

/// disk.avoid-frequent-writes. Settings (a Codable struct in a JSON file) changed by a slider
/// that sends a change per step. Good: saves once the changes pause for a second (one `Timer`,
/// invalidated and made again at each change: a cancelled `DispatchWorkItem` would still wake the
/// main queue at its deadline) and on resigning active. Bad: saves every change.
final class SettingsApp: AppDelegate {
    struct Settings: Codable { var volume = 0; var theme = "light"; var recent: [String] = [] }
    let debounced: Bool
    var settings = Settings()
    var pending: Timer?
    let file = directory(.applicationSupportDirectory).appendingPathComponent("settings.json")
    init(debounced: Bool) { self.debounced = debounced }

    func handleInput(_ app: Application, kind: String) {
        // One drag of the slider: ten steps.
        for _ in 0..<10 {
            settings.volume += 1
            settings.recent = Array((["volume \(settings.volume)"] + settings.recent).prefix(8))
            if debounced { scheduleSave() } else { save() }
        }
    }

    func willResignActive(_ app: Application) { if pending != nil { save() } }

    func scheduleSave() {
        pending?.invalidate()
        pending = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in MainActor.assumeIsolated { self.save() } }
    }

    func save() {
        pending?.invalidate()
        pending = nil
        try? JSONEncoder().encode(settings).write(to: file, options: .atomic)
    }
}

/// disk.backup-placement. A podcast app downloading 12 MiB of episodes it can download again.
/// Good: into the caches directory, or (the guide's support files) into Application Support
/// with each file excluded from backup (`URLResourceValues.isExcludedFromBackup`). Bad: into
/// Documents, which backups copy.
final class PodcastApp: AppDelegate {
    enum Place { case caches, excludedSupport, documents }
    let place: Place
    var downloaded = 0
    init(place: Place) { self.place = place }

    func handleInput(_ app: Application, kind: String) {
        guard downloaded < 4 else { return }
        downloaded += 1
        let folder: URL
        switch place {
        case .caches: folder = directory(.cachesDirectory)
        case .excludedSupport: folder = directory(.applicationSupportDirectory).appendingPathComponent("Episodes")
        case .documents: folder = directory(.documentDirectory)
        }
        var target = folder.appendingPathComponent("episode-\(downloaded).mp3")
        let excludes = place == .excludedSupport
        Task.detached(priority: .utility) {
            guard let (data, _) = try? await URLSession.shared.data(from: api("/random/\(3 * 1_048_576)")) else { return }
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? data.write(to: target)
            if excludes {
                var values = URLResourceValues()
                values.isExcludedFromBackup = true
                try? target.setResourceValues(values)
            }
        }
    }
}

/// disk.clean-tmp. Exports a report as a temporary file to share it. Good: removes the file once
/// shared. Bad: leaves it in `NSTemporaryDirectory()`.
final class ReportApp: AppDelegate {
    let removesTemporary: Bool
    var exports = 0
    init(removesTemporary: Bool) { self.removesTemporary = removesTemporary }

    func handleInput(_ app: Application, kind: String) {
        guard exports < 3 else { return }
        exports += 1
        let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("report-\(exports).csv")
        let removesTemporary = removesTemporary
        DispatchQueue.global(qos: .userInitiated).async {
            var rows = Data()
            for row in 0..<100_000 { rows.append(contentsOf: "\(row),\(row * 7 % 1000),item-\(row)\n".utf8) }
            try? rows.write(to: file)
            // Sharing reads it back, as a share sheet would.
            _ = try? Data(contentsOf: file).count
            if removesTemporary { try? FileManager.default.removeItem(at: file) }
        }
    }
}

/// power.avoid-polling, with disk.avoid-frequent-writes. A notes editor saving its text once the
/// typing pauses. Good: the pending save is a `Task` sleeping 2 s, cancelled and made again at
/// each keystroke, as async code writes a debounce; each cancelled sleep's timer still fires,
/// once, before the save (the input's work, not polling), and in a call that interrupts the
/// typing, after the save made on resigning active. Bad: a 1 Hz autosave timer that checks
/// whether anything changed, running for as long as the app does.
final class NotesEditorApp: AppDelegate {
    let checksEverySecond: Bool
    var text = ""
    var dirty = false
    var pendingSave: Task<Void, Never>?
    var autosave: Timer?
    let file = directory(.documentDirectory).appendingPathComponent("note.txt")
    init(checksEverySecond: Bool) { self.checksEverySecond = checksEverySecond }

    func didFinishLaunching(_ app: Application) {
        guard checksEverySecond else { return }
        autosave = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
            MainActor.assumeIsolated { if self.dirty { self.save() } }
        }
    }

    func handleInput(_ app: Application, kind: String) {
        text += "A few more words typed. "
        dirty = true
        guard !checksEverySecond else { return }
        pendingSave?.cancel()
        pendingSave = Task {
            do { try await Task.sleep(for: .seconds(2)) } catch { return }
            self.save()
        }
    }

    /// The guide: on resigning active, save and stop timers. The pending save is cancelled and
    /// made now (its sleep's timer still fires once, in the call).
    func willResignActive(_ app: Application) {
        pendingSave?.cancel()
        if dirty { save() }
    }

    func save() {
        dirty = false
        try? Data(text.utf8).write(to: file, options: .atomic)
    }
}
