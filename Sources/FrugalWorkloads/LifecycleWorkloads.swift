import Foundation
import FrugalKit
import FrugalCore
import FrugalProbe
#if canImport(Glibc)
import Glibc
#endif

extension WorkloadCatalogue {
    static let lifecycle: [WorkloadDefinition] = [
        WorkloadDefinition(name: "notes.loses-edits",
                           summary: "keeps edits in memory and saves only in willTerminate, which a suspended app never gets (bad: lifecycle.save-state)",
                           defaultScenarios: ["save-state"]) { StatePreservingNotesApp(savesOnBackground: false) },
        WorkloadDefinition(name: "notes.saves-on-background",
                           summary: "saves its edits in didEnterBackground and restores them at launch (good)",
                           defaultScenarios: ["save-state"]) { StatePreservingNotesApp(savesOnBackground: true) },
        WorkloadDefinition(name: "timer.keeps-running-inactive",
                           summary: "a 20 Hz display timer that runs through interruptions (bad: lifecycle.quiesce-when-inactive)",
                           defaultScenarios: ["interruption"]) { DisplayTimerApp(pausesWhenInactive: false) },
        WorkloadDefinition(name: "timer.pauses-inactive",
                           summary: "the same timer, invalidated in willResignActive and restarted in didBecomeActive (good)",
                           defaultScenarios: ["interruption"]) { DisplayTimerApp(pausesWhenInactive: true) },
        WorkloadDefinition(name: "upload.leaks-task",
                           summary: "uploads in a background task it never ends, so it is killed when the background time runs out (bad: lifecycle.end-background-tasks)",
                           defaultScenarios: ["background-upload"]) { UploadApp(endsTask: false) },
        WorkloadDefinition(name: "upload.ends-task",
                           summary: "the same upload, ending its background task when done or expired (good)",
                           defaultScenarios: ["background-upload"]) { UploadApp(endsTask: true) },
        WorkloadDefinition(name: "server.keeps-listening",
                           summary: "a local sharing server whose listening socket stays open while suspended (bad: lifecycle.close-listeners)",
                           defaultScenarios: ["suspend-resume"]) { SharingServerApp(closesInBackground: false) },
        WorkloadDefinition(name: "server.closes-listener",
                           summary: "the same server, closed in didEnterBackground and reopened in willEnterForeground (good)",
                           defaultScenarios: ["suspend-resume"]) { SharingServerApp(closesInBackground: true) },
    ]
}

/// A notes app whose edits are its state.
final class StatePreservingNotesApp: AppDelegate, StatePreserving {
    let savesOnBackground: Bool
    var notes: [String: String] = [:]
    init(savesOnBackground: Bool) { self.savesOnBackground = savesOnBackground }

    var preservedState: [String: String] { notes }

    func didFinishLaunching(_ app: Application) {
        if let restored = app.restoredState() { notes = restored }
    }

    func handleInput(_ app: Application, kind: String) {
        guard kind == "edit" else { return }
        let number = notes.count + 1
        notes["note-\(number)"] = "edit \(number) of pid \(getpid())"
    }

    func didEnterBackground(_ app: Application) {
        if savesOnBackground { save(app) }
    }

    func willTerminate(_ app: Application) { save(app) }

    private func save(_ app: Application) {
        do { try app.preserveState(notes) } catch { app.mark("save-failed", detail: "\(error)") }
    }
}

/// A stopwatch whose display refreshes at 20 Hz.
final class DisplayTimerApp: AppDelegate {
    let pausesWhenInactive: Bool
    var timer: RunLoopTimer?
    var frames = 0
    init(pausesWhenInactive: Bool) { self.pausesWhenInactive = pausesWhenInactive }

    func didFinishLaunching(_ app: Application) {
        if !pausesWhenInactive { start(app) }
    }

    func didBecomeActive(_ app: Application) {
        if pausesWhenInactive { start(app) }
    }

    func willResignActive(_ app: Application) {
        if pausesWhenInactive {
            timer?.invalidate()
            timer = nil
        }
    }

    private func start(_ app: Application) {
        guard timer == nil else { return }
        timer = app.runLoop.scheduleFrameTimer(name: "display", framesPerSecond: 20) { [unowned self] _ in
            self.frames += 1
        }
    }
}

/// Uploads what the user queued when it goes to the background, inside a background task. The
/// upload goes to a server that takes 1 s to accept it, over a real loopback connection.
final class UploadApp: AppDelegate {
    let endsTask: Bool
    var pending: [UInt8]?
    var task = BackgroundTaskIdentifier.invalid
    init(endsTask: Bool) { self.endsTask = endsTask }

    func handleInput(_ app: Application, kind: String) {
        if kind == "upload" { pending = [UInt8](repeating: UInt8(ascii: "u"), count: 64 * 1024) }
    }

    func didEnterBackground(_ app: Application) {
        guard let payload = pending else { return }
        task = app.beginBackgroundTask(name: "upload") { [unowned self] in
            app.mark("upload-expiring")
            if self.endsTask { app.endBackgroundTask(self.task) }
        }
        let task = self.task
        Thread.detachNewThread { [endsTask] in
            let reply = try? BlockingCalls.measure("network.request", detail: "upload to a server that takes 1 s") {
                try SlowLoopbackServer.request(latency: 1.0, responseBytes: 6, payload: payload)
            }
            app.runLoop.perform("upload-finished") { [unowned self] in
                self.pending = reply == nil ? payload : nil
                if endsTask { app.endBackgroundTask(task) }
            }
        }
    }
}

/// Shares documents with nearby devices through a local TCP server on the main run loop.
final class SharingServerApp: AppDelegate {
    let closesInBackground: Bool
    var listener: Int32 = -1
    init(closesInBackground: Bool) { self.closesInBackground = closesInBackground }

    func didFinishLaunching(_ app: Application) { open(app) }

    func didEnterBackground(_ app: Application) {
        if closesInBackground { closeListener(app) }
    }

    func willEnterForeground(_ app: Application) {
        if closesInBackground { open(app) }
    }

    func willTerminate(_ app: Application) { closeListener(app) }

    private func open(_ app: Application) {
        guard listener < 0, let (fd, port) = try? LoopbackSocket.listen() else { return }
        listener = fd
        app.mark("sharing-server", detail: "listening on 127.0.0.1:\(port)")
        try? app.runLoop.addReadSource(fd: fd, name: "sharing-accept") { fd in
            // A peer that went away before it was accepted needs nothing.
            if let client = try? SystemCall.retrying("accept", { accept(fd, nil, nil) }) { try? SystemCall.close(client) }
        }
    }

    private func closeListener(_ app: Application) {
        guard listener >= 0 else { return }
        app.runLoop.removeReadSource(fd: listener)
        try? SystemCall.close(listener, subject: "listener")
        listener = -1
    }
}
