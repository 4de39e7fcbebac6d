import Foundation
import FrugalProtocol

/// Where the client connects: the harness's shaping proxy, from `FRUGAL_PROXY=HOST:PORT`.
public struct NetworkEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The environment variable the harness sets for every run.
    public static let environmentKey = FrugalProtocol.Environment.proxy

    /// An IPv4 address (the harness uses 127.0.0.1).
    public var host: String
    /// The TCP port.
    public var port: Int

    /// The endpoint `host`:`port`.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        let host = String(text[..<colon])
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    /// The endpoint in this process's environment, if the harness gave one.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> NetworkEndpoint? {
        environment[environmentKey].flatMap(NetworkEndpoint.init)
    }

    /// `HOST:PORT`.
    public var description: String { "\(host):\(port)" }
}

/// An HTTP/1.1 request, as `URLRequest`.
public struct NetworkRequest: Sendable, Equatable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The request target: a path and optional query (`/json/4000`).
    public var target: String
    /// Header fields, in order.
    public var headers: [(String, String)]
    /// The body's bytes.
    public var body: [UInt8]
    /// Seconds without progress (connecting, sending or receiving) before the request fails.
    public var timeout: Double
    /// What the app is trying to do; a retry with the same operation is another attempt of it
    /// (`network.handle-failures` counts operations lost). Default: `METHOD target`.
    public var operation: String?

    /// A request for `target` (a path on the origin server).
    public init(method: String = "GET", target: String, headers: [(String, String)] = [], body: [UInt8] = [],
                timeout: Double = 10, operation: String? = nil) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.operation = operation
    }

    /// A GET of `target`.
    public static func get(_ target: String, timeout: Double = 10, operation: String? = nil) -> NetworkRequest {
        NetworkRequest(target: target, timeout: timeout, operation: operation)
    }

    /// A POST of `body` to `target`.
    public static func post(_ target: String, body: [UInt8], contentType: String = "application/octet-stream",
                            timeout: Double = 10, operation: String? = nil) -> NetworkRequest {
        NetworkRequest(method: "POST", target: target, headers: [("content-type", contentType)], body: body, timeout: timeout, operation: operation)
    }

    /// The operation this request is an attempt of.
    public var operationName: String { operation ?? "\(method) \(target)" }

    /// Equal when method, target, headers, body and timeout are.
    public static func == (lhs: NetworkRequest, rhs: NetworkRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body && lhs.timeout == rhs.timeout
            && lhs.operation == rhs.operation && lhs.headers.map { "\($0.0):\($0.1)" } == rhs.headers.map { "\($0.0):\($0.1)" }
    }
}

/// A whole HTTP response.
public struct NetworkResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    /// The body's bytes.
    public var body: [UInt8]
}

/// Why a request did not get a whole response.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The harness gave no `FRUGAL_PROXY` (the app runs outside Frugal).
    case noEndpoint
    /// Nothing listens at the endpoint.
    case connectionRefused
    /// The peer reset the connection (a fault, or the network went offline).
    case connectionReset
    /// The connection closed before the whole response arrived.
    case connectionClosed
    /// No progress for the request's timeout.
    case timedOut(seconds: Double)
    /// The response could not be parsed.
    case malformedResponse(String)
    /// The app cancelled the task.
    case cancelled
    /// Another system call failed.
    case system(String)

    /// One line naming the failure.
    public var description: String {
        switch self {
        case .noEndpoint: return "no FRUGAL_PROXY endpoint"
        case .connectionRefused: return "connection refused"
        case .connectionReset: return "connection reset by peer"
        case .connectionClosed: return "connection closed before the whole response"
        case .timedOut(let seconds): return "timed out after \(seconds) s without progress"
        case .malformedResponse(let why): return "malformed response: \(why)"
        case .cancelled: return "cancelled"
        case .system(let what): return what
        }
    }
}
