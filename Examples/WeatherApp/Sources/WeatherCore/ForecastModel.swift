import Foundation
import FrugalKit

/// How the app is configured: the good app and three mistakes people make.
public enum WeatherMode: String, Sendable {
    /// Refreshes when asked and on one 30-minute Timer with 5 minutes of tolerance; saves off
    /// the main thread; ends its background task.
    case good
    /// Checks for new data with a 1 s Timer, tolerance 0 (bad: power.avoid-polling).
    case polling
    /// Adds each refresh to its multi-year history file from the @MainActor model: the whole file
    /// read, decoded, re-encoded and written on the main thread (bad: main.no-long-blocks).
    case mainIO = "main-io"
    /// Begins a background task for its save on leaving and never ends it (bad: lifecycle.end-background-tasks).
    case leaksTask = "leaks-task"
}

/// The screen's model, isolated to the main actor as a SwiftUI-era view model is.
@MainActor
public final class ForecastModel {
    public private(set) var forecasts: [Forecast] = []
    /// What the screen shows above the list; updated with DispatchQueue.main.async, as code
    /// that came from a completion handler often does.
    public private(set) var status = "idle"
    let mode: WeatherMode
    /// The city the screen shows.
    public let city = "lisbon"
    let client = ForecastClient()
    let store: ForecastStore
    private var timer: Timer?

    public init(mode: WeatherMode) {
        self.mode = mode
        store = ForecastStore(city: city)
        forecasts = store.load()
    }

    /// Starts the periodic refresh the mode calls for.
    public func startTimer() {
        switch mode {
        case .polling:
            // Every second, exactly: the device wakes each second to ask whether anything changed.
            timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in
                MainActor.assumeIsolated { self.status = "checked at \(Date())" }
            }
        default:
            // Every 30 minutes, and the system may fire it up to 5 minutes late to share a wakeup.
            let timer = Timer(fire: Date().addingTimeInterval(1800), interval: 1800, repeats: true) { _ in
                MainActor.assumeIsolated { self.refresh() }
            }
            timer.tolerance = 300
            RunLoop.main.add(timer, forMode: .common)
            self.timer = timer
        }
    }

    public func stopTimer() {
        timer?.invalidate()
        timer = nil
    }

    /// Fetches the city's forecast and shows it.
    /// In a background task, so that a fetch still under way when the user leaves finishes, and
    /// its result is handled, with the time the system grants rather than as background work
    /// outside any task.
    public func refresh() {
        let app = Application.current
        let task = app?.beginBackgroundTask(withName: "refresh-forecast", expirationHandler: nil) ?? .invalid
        Task {
            defer { if task != .invalid { app?.endBackgroundTask(task) } }
            do {
                let response = try await client.forecast(city: city)
                forecasts = response.days
                didLoad()
            } catch {
                DispatchQueue.main.async { self.status = "offline: \(error)" }
            }
        }
    }

    /// The save waiting for the refreshes to pause (`didLoad`).
    private var pendingSave: DispatchWorkItem?

    /// Drops the save waiting for the refreshes to pause: the caller saves now instead.
    public func cancelPendingSave() {
        pendingSave?.cancel()
        pendingSave = nil
    }

    private func didLoad() {
        DispatchQueue.main.async { self.status = "updated" }
        // Saved once the refreshes pause for a second, not after each: a user tapping refresh
        // twice wrote the same forecast twice (the guide: "aggregate changes when you can").
        let forecasts = forecasts, store = store
        pendingSave?.cancel()
        // Inside a background task: a refresh that lands after the user left still gets its save
        // done with the time the system grants, not as background work outside any task.
        let save = DispatchWorkItem {
            MainActor.assumeIsolated {
                let app = Application.current
                let task = app?.beginBackgroundTask(withName: "save-forecast", expirationHandler: nil) ?? .invalid
                Task.detached(priority: .utility) {
                    try? store.save(forecasts)
                    await MainActor.run { if task != .invalid { app?.endBackgroundTask(task) } }
                }
            }
        }
        pendingSave = save
        DispatchQueue.main.asyncAfter(deadline: .now() + 1, execute: save)
        if mode == .mainIO {
            // On the main actor: the whole history file is read, decoded, extended, encoded and
            // written while the screen cannot respond.
            do { try ForecastHistory().add(forecasts) } catch { status = "history failed: \(error)" }
        }
    }
}
