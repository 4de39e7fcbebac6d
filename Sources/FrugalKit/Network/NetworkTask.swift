import Foundation

/// One request of a `NetworkClient`, as `URLSessionDataTask`: created suspended, started with
/// `resume()`, stopped with `cancel()`. Its completion runs once, on the main run loop. Safe from
/// any thread.
// @unchecked: its mutable fields (`taskState`, `cancelRequested`, `connection`) are read and
// written only holding its client's lock (`NetworkClient.withLock`).
public final class NetworkTask: @unchecked Sendable {
    /// Where a task is in its life.
    public enum State: Sendable, Equatable {
        /// Created, not resumed.
        case suspended
        /// Resumed, waiting for a free connection.
        case waiting
        /// On a connection.
        case running
        /// Ended (completed, failed or cancelled); the completion has been sent.
        case finished
    }

    /// The client's id for the task, increasing from 1.
    public let id: Int
    /// The request this task sends.
    public let request: NetworkRequest
    let file: String
    let line: Int
    /// Delivers the result: on the main run loop for an app's client.
    let completion: @Sendable (Result<NetworkResponse, NetworkError>) -> Void
    private let client: NetworkClient

    // Guarded by the client's lock.
    var taskState = State.suspended
    var cancelRequested = false
    var connection: TCPConnection?

    init(id: Int, request: NetworkRequest, client: NetworkClient, file: String, line: Int,
         completion: @escaping @Sendable (Result<NetworkResponse, NetworkError>) -> Void) {
        self.id = id
        self.request = request
        self.client = client
        self.file = file
        self.line = line
        self.completion = completion
    }

    /// Where the task is now.
    public var state: State { client.withLock { taskState } }

    /// Starts the task: it runs as soon as a connection is free (the client opens up to
    /// `maximumConnections` at once; tasks resumed together run side by side). Once only.
    public func resume() { client.resume(self) }

    /// Cancels the task: a waiting task never runs, a running one has its connection shut down.
    /// Its completion gets `NetworkError.cancelled`, unless it had already finished.
    public func cancel() { client.cancel(self) }
}
