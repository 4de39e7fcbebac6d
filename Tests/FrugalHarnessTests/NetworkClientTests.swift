import Foundation
import Synchronization
import XCTest
import FrugalCore
import FrugalHarness
@testable import FrugalKit

/// FrugalKit's client over real sockets, through the real shaping proxy to the real origin.
/// Completions come on the client's worker threads here (no run loop).
final class NetworkClientTests: XCTestCase {
    var origin: OriginServer!
    var proxy: ShapingProxy!
    var client: NetworkClient!

    override func setUpWithError() throws {
        origin = OriginServer(measuresCompressibility: true)
        let originPort = try origin.start()
        proxy = ShapingProxy(upstreamHost: "127.0.0.1", upstreamPort: originPort)
        let port = try proxy.start()
        client = NetworkClient(endpoint: NetworkEndpoint(host: "127.0.0.1", port: port), deliveringOn: nil)
    }

    override func tearDown() {
        client.invalidateAndCancel()
        proxy.stop()
        origin.stop()
    }

    /// Runs `requests` resumed together and waits for all of them.
    func results(_ requests: [NetworkRequest], timeout: Double = 20) -> [Result<NetworkResponse, NetworkError>] {
        let results = Mutex([Result<NetworkResponse, NetworkError>?](repeating: nil, count: requests.count))
        let group = DispatchGroup()
        let tasks = requests.enumerated().map { index, request in
            group.enter()
            return client.dataTask(with: request, completionOnWorkerThread: { result in
                results.withLock { $0[index] = result }
                group.leave()
            })
        }
        tasks.forEach { $0.resume() }
        XCTAssertEqual(group.wait(timeout: .now() + timeout), .success)
        return results.withLock { $0 }.map { $0 ?? .failure(.system("no completion")) }
    }

    func testGetAndPostKeepOneConnectionAlive() throws {
        let get = try results([.get("/json/100")])[0].get()
        XCTAssertEqual(get.status, 200)
        XCTAssertEqual(get.body, OriginContent.body(forPath: "/json/100"))
        let post = try results([.post("/upload/a", body: Array(repeating: 7, count: 5000))])[0].get()
        XCTAssertEqual(String(decoding: post.body, as: UTF8.self), #"{"received":5000}"#)
        _ = try results([.get("/ping")])[0].get()
        let stats = origin.statistics()
        XCTAssertEqual(stats.requests, 3)
        XCTAssertEqual(stats.connections, 1, "one after another on one kept-alive connection")
        XCTAssertEqual(stats.paths["/upload/a"]?.requestBodyBytes, 5000)
        // 5,000 equal bytes deflate to a handful: the origin measured it.
        XCTAssertLessThan(try XCTUnwrap(stats.paths["/upload/a"]?.deflatedBytes), 100)
    }

    func testABatchRunsOnParallelConnections() throws {
        // 100 ms each way keeps every request in flight while the others start; without it a busy
        // machine can finish the first before the fourth starts, and keep-alive rightly reuses it.
        proxy.setProfile(.test(latency: 0.1))
        let batch = results((0..<4).map { .get("/bytes/\(1000 + $0)") })
        for (index, result) in batch.enumerated() {
            XCTAssertEqual(try result.get().body.count, 1000 + index)
        }
        XCTAssertEqual(origin.statistics().connections, 4, "resumed together: one connection each (limit 6)")
    }

    func testFaultsBecomeErrorsTheAppCanRetry() throws {
        proxy.inject(.resetAfter(bytes: 256, direction: .uplink), connections: 1)
        let reset = results([.post("/upload/b", body: Array(repeating: 1, count: 4000))])[0]
        XCTAssertEqual(reset.failure, .connectionReset)
        XCTAssertNil(origin.statistics().paths["/upload/b"], "the body never reached the origin")
        let retry = results([.post("/upload/b", body: Array(repeating: 1, count: 4000))])[0]
        XCTAssertEqual(try retry.get().status, 200, "the retry runs on a new connection")

        proxy.setProfile(.offline)
        XCTAssertNotNil(results([.get("/ping")])[0].failure, "offline: the kept-alive connection was reset and a new one is refused")
        proxy.setProfile(.unshaped)
        XCTAssertEqual(try results([.get("/ping")])[0].get().status, 200)
    }

    func testStalledRequestTimesOutOrIsCancelled() throws {
        proxy.inject(.stall(afterBytes: 0, direction: .downlink), connections: 2)
        let timedOut = results([NetworkRequest(target: "/json/100", timeout: 0.5)])[0]
        XCTAssertEqual(timedOut.failure, .timedOut(seconds: 0.5))

        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<NetworkResponse, NetworkError>?>(nil)
        let task = client.dataTask(with: NetworkRequest(target: "/json/100", timeout: 30), completionOnWorkerThread: { result in
            outcome.withLock { $0 = result }
            done.signal()
        })
        let accepted = proxy.statistics().acceptedConnections
        task.resume()
        // Cancelled once its connection is open and stalled at the proxy, not before it started.
        XCTAssertTrue(eventually { self.proxy.statistics().acceptedConnections > accepted }, "the request never reached the proxy")
        XCTAssertEqual(task.state, .running)
        task.cancel()
        // Generous: cancellation shuts the socket down at once; 5 s only guards a hung test.
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(outcome.withLock { $0 }?.failure, .cancelled)
        XCTAssertEqual(task.state, .finished)
    }

    func testNoEndpointFailsEveryTask() {
        let offline = NetworkClient(endpoint: nil, deliveringOn: nil)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<NetworkResponse, NetworkError>?>(nil)
        offline.dataTask(with: .get("/ping"), completionOnWorkerThread: { result in
            outcome.withLock { $0 = result }
            done.signal()
        }).resume()
        XCTAssertEqual(done.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(outcome.withLock { $0 }?.failure, .noEndpoint)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
