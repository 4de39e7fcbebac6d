import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import FrugalKit

/// Work a tap starts: builds a search index of 30,000 generated titles (tokenize, lowercase,
/// sort the posting lists) — a few hundred milliseconds of CPU.
func buildIndex(seed: Int) -> [String: [Int]] {
    var index: [String: [Int]] = [:]
    var generator = SystemRandomNumberGenerator()
    let words = ["river", "Stone", "amber", "North", "glass", "Orbit", "maple", "Cinder", "harbor", "Velvet", "quartz", "Lumen"]
    for id in 0..<30_000 {
        let title = (0..<4).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ") + " \(id % (seed + 97))"
        for token in title.split(separator: " ") { index[token.lowercased(), default: []].append(id) }
    }
    for key in index.keys { index[key]?.sort(by: >) }
    return index
}

/// main.no-long-blocks. Search in a library of titles, rebuilt on each tap of "search".
/// Good: the index is built on a global queue and handed to the main queue. Bad: built on the
/// main thread, inside the tap.
final class SearchApp: AppDelegate {
    let onMain: Bool
    var index: [String: [Int]] = [:]
    init(onMain: Bool) { self.onMain = onMain }

    func handleInput(_ app: Application, kind: String) {
        if onMain {
            index = buildIndex(seed: index.count)
            return
        }
        let seed = index.count
        DispatchQueue.global(qos: .userInitiated).async {
            let built = buildIndex(seed: seed)
            DispatchQueue.main.async { MainActor.assumeIsolated { self.index = built } }
        }
    }
}

/// main.no-waiting-on-main. A quotes screen fetching from a slow API (the fixture answers after
/// 200 ms). Good: `async`/`await` with URLSession from a `Task`. Bad: waits for the same
/// request on the main thread with a semaphore.
final class QuotesApp: AppDelegate {
    let blocksMain: Bool
    var quotes: [String] = []
    init(blocksMain: Bool) { self.blocksMain = blocksMain }

    func handleInput(_ app: Application, kind: String) {
        let url = api("/v1/quotes")
        if blocksMain {
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var body = Data()
            URLSession.shared.dataTask(with: url) { data, _, _ in
                body = data ?? Data()
                done.signal()
            }.resume()
            done.wait()
            quotes = String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
        } else {
            Task { @MainActor in
                guard let (data, _) = try? await URLSession.shared.data(from: url) else { return }
                self.quotes = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
    }
}
