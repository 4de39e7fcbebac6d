import Foundation
import FrugalKit

/// The weather app: loads the forecast at launch (without waiting for it), refreshes when the
/// user asks, keeps a timer while active only, and saves when it leaves.
public final class WeatherAppDelegate: AppDelegate {
    let mode: WeatherMode
    var model: ForecastModel!
    var saveTask = BackgroundTaskIdentifier.invalid

    public init(mode: WeatherMode) { self.mode = mode }

    public func didFinishLaunching(_ app: Application) {
        model = ForecastModel(mode: mode)
        model.refresh()
    }

    public func didBecomeActive(_ app: Application) { model.startTimer() }

    public func willResignActive(_ app: Application) { model.stopTimer() }

    public func handleInput(_ app: Application, kind: String) {
        if kind == "refresh" { model.refresh() }
    }

    public func didEnterBackground(_ app: Application) {
        // UIKit's spelling, so this file compiles for iOS as well.
        saveTask = app.beginBackgroundTask(withName: "save-forecast") { [unowned self, mode] in
            // The mistake, twice: not even the expiration handler ends it.
            if mode != .leaksTask { app.endBackgroundTask(saveTask) }
        }
        // This save, inside the background task, takes the place of one still waiting for the
        // refreshes to pause, which would otherwise run in the background outside any task.
        model.cancelPendingSave()
        let forecasts = model.forecasts, store = model.store, mode = mode
        Task.detached(priority: .utility) { [saveTask] in
            try? store.save(forecasts)
            // The mistake: the task's end is forgotten, so the app is killed when its time runs out.
            if mode != .leaksTask { await MainActor.run { app.endBackgroundTask(saveTask) } }
        }
    }
}
