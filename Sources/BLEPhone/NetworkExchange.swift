import Foundation

/// An HTTP request as a simulated server receives it: what an app's `URLRequest` carried.
public struct NetworkRequest: Hashable, Sendable {
    /// The method, upper case ("GET", "POST").
    public var method: String
    /// The host name the app asked for ("backend.sim").
    public var host: String
    /// The path, "/" when the URL had none.
    public var path: String
    /// The query without its "?", or `nil` when the URL had none.
    public var query: String?
    /// The header fields, in the order given.
    public var headers: [(name: String, value: String)]
    /// The body; empty when there is none.
    public var body: Data

    /// A request.
    public init(method: String, host: String, path: String, query: String? = nil,
                headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public static func == (lhs: NetworkRequest, rhs: NetworkRequest) -> Bool {
        lhs.method == rhs.method && lhs.host == rhs.host && lhs.path == rhs.path && lhs.query == rhs.query
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
            && lhs.body == rhs.body
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(host)
        hasher.combine(path)
        hasher.combine(query)
        hasher.combine(body)
    }
}

/// A simulated server's answer.
public struct NetworkResponse: Hashable, Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// An answer; by default 200 with no headers or body.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// A server inside a simulation that phones reach through their cellular link, at virtual
/// time, by host name (`SimulatedPhone.register(server:host:)`). It answers every request:
/// a failure is an HTTP status, not a thrown error.
public protocol NetworkServer: Sendable {
    /// The answer to `request`.
    func respond(to request: NetworkRequest) async -> NetworkResponse
}

/// A server made of a closure, for tests and small scenarios.
public struct ClosureNetworkServer: NetworkServer {
    private let body: @Sendable (NetworkRequest) async -> NetworkResponse

    /// A server that answers with `body`.
    public init(_ body: @escaping @Sendable (NetworkRequest) async -> NetworkResponse) {
        self.body = body
    }

    public func respond(to request: NetworkRequest) async -> NetworkResponse {
        await body(request)
    }
}

/// Why a request over the phone's link failed, with the `URLError` code iOS gives
/// (Foundation's `URLError.Code`, from `NSURLError.h`).
public enum NetworkFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The link was off when the request was made: `NSURLErrorNotConnectedToInternet`, -1009.
    case notConnectedToInternet
    /// The link went down while the request was in flight: `NSURLErrorNetworkConnectionLost`, -1005.
    case networkConnectionLost
    /// No answer within the request's timeout interval: `NSURLErrorTimedOut`, -1001.
    case timedOut

    /// The `URLError.Code` raw value.
    public var urlErrorCode: Int {
        switch self {
        case .notConnectedToInternet: -1009
        case .networkConnectionLost: -1005
        case .timedOut: -1001
        }
    }

    /// "not connected to the internet (-1009)".
    public var description: String {
        switch self {
        case .notConnectedToInternet: "not connected to the internet (\(urlErrorCode))"
        case .networkConnectionLost: "network connection lost (\(urlErrorCode))"
        case .timedOut: "timed out (\(urlErrorCode))"
        }
    }
}
