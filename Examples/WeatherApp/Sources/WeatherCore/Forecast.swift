import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One day's forecast, as the server sends it and the store keeps it.
public struct Forecast: Codable, Sendable, Equatable {
    public var day: Int
    public var high: Double
    public var low: Double
    public var summary: String
}

/// Loads forecasts with async/await URLSession. Under Frugal the server is reached through the
/// harness's shaping proxy (`FRUGAL_PROXY`); its origin answers `/json/<bytes>` with JSON.
public struct ForecastClient: Sendable {
    let base: URL?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        base = environment["FRUGAL_PROXY"].flatMap { URL(string: "http://\($0)") }
    }

    /// Fetches the week's forecast (the body's size stands for a week of data; the days are made
    /// from it, as a real client would decode them).
    public func week() async throws -> [Forecast] {
        guard let base else { throw URLError(.badURL) }
        let (data, response) = try await URLSession.shared.data(from: base.appendingPathComponent("json/2048"))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        let seed = data.reduce(0) { ($0 &+ Int($1)) % 97 }
        return (0..<7).map { Forecast(day: $0, high: Double(18 + (seed + $0) % 9), low: Double(8 + (seed + $0) % 5), summary: "day \($0)") }
    }
}

/// The forecasts on disk: one JSON file in the app's caches directory (re-creatable data).
public struct ForecastStore: Sendable {
    public let url: URL

    public init() {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
        url = caches.appendingPathComponent("forecast.json")
    }

    public func load() -> [Forecast] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Forecast].self, from: data)) ?? []
    }

    /// Writes and flushes the file to the disk (fsync): safe, and slow, which is why it belongs
    /// off the main thread.
    public func save(_ forecasts: [Forecast]) throws {
        try write(try JSONEncoder().encode(forecasts), to: url)
    }

    private func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        try handle.synchronize()
    }
}
