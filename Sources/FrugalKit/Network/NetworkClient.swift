import Foundation
import FrugalProtocol
import FrugalSystem

/// A URLSession-like HTTP/1.1 client for workloads, over plain blocking sockets (no SwiftNIO in
/// the app's process). It connects to the harness's shaping proxy (`FRUGAL_PROXY`), keeps
/// connections alive, runs up to `maximumConnections` requests side by side, and delivers every
/// completion on the main run loop. Retrying is the app's business, as with URLSession.
///
///     let client = NetworkClient(app: app)
///     client.dataTask(with: .get("/json/4000")) { result in ... }.resume()
///
/// Each request runs on one of the client's worker threads inside
/// `BlockingCalls.measure("network.request", ...)`, with the app's call site, and is reported to
/// the harness as a `networkRequest` event (outcome, bytes, whether the connection was reused).
/// Idle workers sleep on a condition variable: an idle client causes no wakeups. Safe from any
/// thread.
// @unchecked: its mutable fields (`pending`, `workers`, `idleWorkers`, `nextID`, `invalidated`)
// are read and written only holding `condition`'s lock (NSCondition, for the workers' wait).
public final class NetworkClient: @unchecked Sendable {
    /// How the client behaves.
    public struct Configuration: Sendable {
        /// Connections (and worker threads) at most, as `httpMaximumConnectionsPerHost`
        /// (URLSession's default is 6 on macOS).
        public var maximumConnections: Int
        /// At most `maximumConnections` connections at once (6, as browsers per host).
        public init(maximumConnections: Int = 6) {
            self.maximumConnections = max(1, maximumConnections)
        }
    }

    /// Where requests go; nil when the app runs outside the harness (every task then fails).
    public let endpoint: NetworkEndpoint?
    /// The client's settings.
    public let configuration: Configuration
    private let runLoop: MainRunLoop?
    private let emitter: EventEmitter?
    private let condition = NSCondition()
    private var pending: [NetworkTask] = []
    private var workers = 0
    private var idleWorkers = 0
    private var nextID = 1
    private var invalidated = false

    /// A client delivering completions on `runLoop`.
    public convenience init(endpoint: NetworkEndpoint?, configuration: Configuration = Configuration(), runLoop: MainRunLoop,
                            emitter: EventEmitter? = nil) {
        self.init(endpoint: endpoint, configuration: configuration, deliveringOn: runLoop, emitter: emitter)
    }

    /// A client delivering completions on `runLoop`, or on its worker threads when nil (only
    /// `dataTask(with:completionOnWorkerThread:)` can be used then: tests without a run loop).
    init(endpoint: NetworkEndpoint?, configuration: Configuration = Configuration(), deliveringOn runLoop: MainRunLoop?,
         emitter: EventEmitter? = nil) {
        self.endpoint = endpoint
        self.configuration = configuration
        self.runLoop = runLoop
        self.emitter = emitter
    }

    /// The app's client: the proxy from `FRUGAL_PROXY`, completions on the app's main run loop.
    public convenience init(app: Application, configuration: Configuration = Configuration()) {
        self.init(endpoint: NetworkEndpoint.fromEnvironment(), configuration: configuration, deliveringOn: app.runLoop, emitter: app.emitter)
    }

    /// A suspended task for `request`; `completion` runs on the main run loop.
    public func dataTask(with request: NetworkRequest, file: String = #fileID, line: Int = #line,
                         completion: @escaping @MainActor @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        guard let runLoop else { preconditionFailure("NetworkClient: a client without a run loop has no main thread to deliver on") }
        let name = "network:\(request.method) \(request.target)"
        return makeTask(request, file: file, line: line) { result in runLoop.perform(name) { completion(result) } }
    }

    /// A suspended task whose completion runs on the worker thread that ran it (a client
    /// without a run loop, in tests).
    func dataTask(with request: NetworkRequest, file: String = #fileID, line: Int = #line,
                  completionOnWorkerThread completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        makeTask(request, file: file, line: line, completion: completion)
    }

    private func makeTask(_ request: NetworkRequest, file: String, line: Int,
                          completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) -> NetworkTask {
        let id = withLock { () -> Int in
            defer { nextID += 1 }
            return nextID
        }
        return NetworkTask(id: id, request: request, client: self, file: file, line: line, completion: completion)
    }

    /// Cancels every task and lets the worker threads end, closing their connections.
    public func invalidateAndCancel() {
        let waiting = withLock { () -> [NetworkTask] in
            invalidated = true
            defer { pending.removeAll() }
            for task in pending { task.taskState = .finished }
            return pending
        }
        condition.broadcast()
        for task in waiting { deliver(task, .failure(.cancelled)) }
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    func resume(_ task: NetworkTask) {
        let start: Bool = withLock {
            guard task.taskState == .suspended, !invalidated else { return false }
            task.taskState = .waiting
            pending.append(task)
            if pending.count > idleWorkers && workers < configuration.maximumConnections {
                workers += 1
                return true
            }
            return false
        }
        if start {
            let worker = Thread { [self] in workerLoop() }
            worker.name = "frugal-network"
            worker.start()
        }
        condition.signal()
    }

    func cancel(_ task: NetworkTask) {
        let dropped: Bool = withLock {
            switch task.taskState {
            case .suspended, .waiting:
                pending.removeAll { $0 === task }
                task.taskState = .finished
                return true
            case .running:
                task.cancelRequested = true
                task.connection?.abort()
                return false
            case .finished:
                return false
            }
        }
        if dropped { deliver(task, .failure(.cancelled)) }
    }

    private func deliver(_ task: NetworkTask, _ result: Result<NetworkResponse, NetworkError>) {
        task.completion(result)
    }

    /// One worker: takes waiting tasks in order and runs each on its kept-alive connection.
    private func workerLoop() {
        // FrugalKit's runtime threads are named frugal-…, so a per-thread report can tell them
        // from the app's own (Thread.name, set above, never reaches the kernel on Linux).
        // A failure leaves the process's name: nothing worse.
        try? SystemCall.nameCurrentThread("frugal-network")
        var connection: TCPConnection?
        var delivery: (() -> Void)?
        while true {
            // Counted idle before the completion goes out, so a task the app resumes from its
            // completion reuses this worker's kept-alive connection instead of opening another.
            withLock { idleWorkers += 1 }
            delivery?()
            delivery = nil
            condition.lock()
            while pending.isEmpty && !invalidated {
                condition.wait()
            }
            idleWorkers -= 1
            if invalidated {
                workers -= 1
                condition.unlock()
                connection?.close()
                return
            }
            let task = pending.removeFirst()
            task.taskState = .running
            condition.unlock()
            (connection, delivery) = run(task, on: connection)
        }
    }

    /// Runs `task` on `connection` (or a new one); returns the connection if it can be kept
    /// alive, and the delivery of the task's completion.
    private func run(_ task: NetworkTask, on kept: TCPConnection?) -> (TCPConnection?, () -> Void) {
        let request = task.request
        var connection = kept
        if let stale = connection, stale.isStale {
            stale.close()
            connection = nil
        }
        let reused = connection != nil
        var sent = 0, received = 0
        let start = MonotonicClock.now()
        var result: Result<NetworkResponse, NetworkError>
        result = BlockingCalls.measure("network.request", detail: "\(request.method) \(request.target)", file: task.file, line: task.line) {
            do {
                guard let endpoint else { throw NetworkError.noEndpoint }
                let open = try connection ?? TCPConnection(to: endpoint, timeout: request.timeout)
                connection = open
                do { try open.setTimeout(request.timeout) } catch { throw NetworkError.system("\(error)") }
                let cancelled = withLock { () -> Bool in
                    task.connection = open
                    return task.cancelRequested
                }
                if cancelled { throw NetworkError.cancelled }
                let bytes = HTTPMessage.serialize(request, host: endpoint.description)
                try open.send(bytes, timeout: request.timeout)
                sent = bytes.count
                var parser = HTTPResponseParser()
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while !parser.isComplete {
                    let count = try open.receive(into: &buffer, timeout: request.timeout)
                    if count == 0 { throw NetworkError.connectionClosed }
                    received += count
                    try parser.feed(buffer[0..<count])
                }
                open.requestsServed += 1
                if parser.closes || parser.surplus > 0 {
                    open.close()
                    connection = nil
                }
                return .success(NetworkResponse(status: parser.status, headers: parser.headers, body: parser.body))
            } catch let error as NetworkError {
                connection?.close()
                connection = nil
                return .failure(error)
            } catch {
                connection?.close()
                connection = nil
                return .failure(.system("\(error)"))
            }
        }
        let end = MonotonicClock.now()
        let cancelled = withLock { () -> Bool in
            task.connection = nil
            task.taskState = .finished
            return task.cancelRequested
        }
        if cancelled {
            connection?.close()
            connection = nil
            result = .failure(.cancelled)
        }
        report(task, start: start, end: end, result: result, sent: sent, received: received, reused: reused)
        let outcome = result
        return (connection, { [self] in deliver(task, outcome) })
    }

    private func report(_ task: NetworkTask, start: UInt64, end: UInt64, result: Result<NetworkResponse, NetworkError>,
                        sent: Int, received: Int, reused: Bool) {
        guard let emitter = emitter ?? Application.current?.emitter else { return }
        let outcome: NetworkRequestRecord.Outcome
        var status: Int?, error: String?
        switch result {
        case .success(let response):
            outcome = .completed
            status = response.status
        case .failure(.cancelled):
            outcome = .cancelled
            error = NetworkError.cancelled.description
        case .failure(let failure):
            outcome = .failed
            error = failure.description
        }
        let request = task.request
        emitter.emit(.networkRequest(NetworkRequestRecord(
            task: task.id, method: request.method, target: request.target, operation: request.operationName,
            start: start, end: end, outcome: outcome, status: status, error: error, bytesSent: sent, bytesReceived: received,
            reusedConnection: reused, callSite: "\(task.file):\(task.line)", connectionLimit: configuration.maximumConnections)), at: end)
    }
}
