import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One hour of a day's forecast.
public struct HourForecast: Codable, Sendable, Equatable {
    public var hour: Int
    public var temperature: Double
    public var precipitation: Double
    public var wind: Double
    public var summary: String
}

/// One day's forecast, as the server sends it and the store keeps it: the day's range and its
/// hours (what the day's detail screen and the widget show).
public struct Forecast: Codable, Sendable, Equatable {
    public var date: String
    public var high: Double
    public var low: Double
    public var summary: String
    public var hours: [HourForecast]
}

/// The API's answer to `GET /v1/forecast?city=...`.
public struct ForecastResponse: Codable, Sendable, Equatable {
    public var city: String
    public var days: [Forecast]
}

/// Loads forecasts from the app's API with async/await `URLSession`, over HTTPS, as it ships.
/// Nothing here is for Frugal: under `frugal run` the process gets `https_proxy` and the run's
/// CA (docs/NETWORK.md, "Your app's server: HTTPS and the proxy"), and frugal.yml answers this
/// URL from a HAR (`Fixtures/api.har`).
public struct ForecastClient: Sendable {
    /// The API's base URL.
    public static let api = URL(string: "https://api.example.test/v1/")!

    public init() {}

    /// The forecast for `city`: ten days, each with its 24 hours.
    public func forecast(city: String) async throws -> ForecastResponse {
        var components = URLComponents(url: Self.api.appendingPathComponent("forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "city", value: city)]
        guard let url = components.url else { throw URLError(.badURL) }
        let (data, response) = try await URLSession.shared.data(from: url)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(ForecastResponse.self, from: data)
    }
}

/// The forecasts on disk, in the app's caches directory (re-creatable data): the ten days in
/// one file, saved the careful way — a temporary file, fsync, rename, then fsync of the
/// directory — so a crash never leaves a torn forecast. One save is two waits for the disk, off
/// the main thread. (It once kept a file per day, twenty fsyncs a save: Frugal's
/// `disk.avoid-frequent-writes`, reading the files from outside, counted 40–50 small writes in a
/// minute of refreshes; the guide asks to "aggregate changes when you can".)
public struct ForecastStore: Sendable {
    public let directory: URL
    /// The one file the days are kept in.
    public var file: URL { directory.appendingPathComponent("forecasts.json") }

    public init(city: String) {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        directory = caches.appendingPathComponent("forecasts").appendingPathComponent(city)
    }

    /// The days saved last time, in date order; none if there are none or they cannot be read.
    public func load() -> [Forecast] {
        guard let data = try? Data(contentsOf: file), let days = try? JSONDecoder().decode([Forecast].self, from: data) else { return [] }
        return days.sorted { $0.date < $1.date }
    }

    /// Saves the days in one file, replacing what was there.
    public func save(_ days: [Forecast]) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try replace(file, with: try JSONEncoder().encode(days))
    }

    /// Writes `data` beside `file`, flushes it to the disk, renames it over `file`, and flushes
    /// the directory so that the rename is on the disk too.
    private func replace(_ file: URL, with data: Data) throws {
        let temporary = file.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        if rename(temporary.path, file.path) != 0 { throw CocoaError(.fileWriteUnknown) }
        let folder = open(directory.path, O_RDONLY | O_DIRECTORY)
        guard folder >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// Every day the app has ever shown, kept for the history chart: one JSON file in Documents (the
/// user's data, backed up). A database in a single file: to add a refresh's days, the whole file is
/// read, decoded, extended, encoded and written again. After years of use it is megabytes.
public struct ForecastHistory: Sendable {
    public let file: URL

    public init() {
        let documents = FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0]
        file = documents.appendingPathComponent("history.json")
    }

    /// Adds `days` to the history (a day already in it is replaced); returns how many days it holds.
    @discardableResult
    public func add(_ days: [Forecast]) throws -> Int {
        var all = (try? JSONDecoder().decode([Forecast].self, from: Data(contentsOf: file))) ?? []
        let new = Set(days.map(\.date))
        all.removeAll { new.contains($0.date) }
        all += days
        all.sort { $0.date < $1.date }
        try JSONEncoder().encode(all).write(to: file, options: .atomic)
        return all.count
    }
}
