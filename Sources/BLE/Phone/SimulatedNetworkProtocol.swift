import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Foundation's way into an app's `URLSession` requests (`URLProtocol`): it claims a request
/// whose host a ``SimulatedPhone`` serves (``SimulatedPhone/register(server:host:)``) and
/// sends it over that phone's cellular link, at virtual time; every other request it leaves
/// to Foundation, so real HTTP (a served world's `ble backend`) goes through untouched.
///
/// ``SimulatedPhone/register(server:host:)`` registers the class with
/// `URLProtocol.registerClass(_:)`, which swift-corelibs-foundation consults for
/// `URLSession.shared` only (checked); a session made with a configuration of its own
/// reaches the phone when the configuration names the class in `protocolClasses`. A request
/// is the app's that last ran its launch entry point on the phone
/// (``SimulatedPhone/currentNetworkApp``).
public final class SimulatedNetworkProtocol: URLProtocol {
    /// A phone serving a host, held weakly: a phone that is gone serves nothing.
    private struct Serving: Sendable {
        weak var phone: SimulatedPhone?
    }

    /// The phone serving each host (lower case): the last to register it.
    private static let hosts = Mutex<[String: Serving]>([:])
    /// Whether the class is registered with `URLProtocol`.
    private static let registered = Mutex(false)
    /// The request's number on its phone, once sent.
    private let sent = Mutex<(phone: SimulatedPhone, id: UInt64)?>(nil)

    /// Makes `phone` the one that serves `host`, and registers the class once.
    static func serve(host: String, on phone: SimulatedPhone) {
        hosts.withLock { $0[host.lowercased()] = Serving(phone: phone) }
        register()
    }

    /// Registers the class with `URLProtocol` (once; later calls do nothing).
    ///
    /// swift-corelibs-foundation gives `URLSession.shared` the protocol classes registered
    /// when the shared session is first used, and never looks again. A process that uses
    /// `URLSession.shared` for real HTTP before any phone serves a host (a test of a real
    /// server beside the phones' tests) calls this first, or its phones' requests would go
    /// to the real network. The class claims only hosts a phone serves, so registering it
    /// changes nothing for other requests.
    public static func register() {
        // Registered under the lock: a caller that finds the flag set must find the class
        // registered too, or its first use of `URLSession.shared` could come in between.
        registered.withLock { registered in
            guard !registered else { return }
            _ = URLProtocol.registerClass(SimulatedNetworkProtocol.self)
            registered = true
        }
    }

    /// The phone that serves `url`'s host, if any.
    static func phone(for url: URL?) -> SimulatedPhone? {
        guard let host = url?.host?.lowercased(), let scheme = url?.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return nil }
        return hosts.withLock { $0[host]?.phone }
    }

    override public class func canInit(with request: URLRequest) -> Bool {
        phone(for: request.url)?.serves(host: request.url?.host ?? "") ?? false
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public func startLoading() {
        guard let url = request.url, let phone = Self.phone(for: url), let app = phone.currentNetworkApp else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? "/"
        let message = NetworkRequest(
            method: (request.httpMethod ?? "GET").uppercased(), host: url.host?.lowercased() ?? "",
            path: path.isEmpty ? "/" : path, query: components?.percentEncodedQuery,
            headers: (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: request.httpBody ?? request.httpBodyStream.map(Self.read) ?? Data())
        let timeout = request.timeoutInterval > 0 ? Int64((request.timeoutInterval * 1e6).rounded()) : 60_000_000
        // The URL loading system's client may be called from any thread: swift-corelibs-foundation
        // hops onto the task's own queue, as Apple's does; the protocol object itself is not
        // touched again.
        nonisolated(unsafe) let loader = self
        let id = phone.send(message, timeout: timeout, for: app) { result in
            loader.deliver(result, for: url)
        }
        sent.withLock { $0 = (phone, id) }
    }

    override public func stopLoading() {
        guard let sent = sent.withLock({ $0 }) else { return }
        sent.phone.cancelRequest(sent.id)
    }

    /// Hands the outcome to the session, as an HTTP response or a `URLError`.
    private func deliver(_ result: Result<NetworkResponse, NetworkFailure>, for url: URL) {
        switch result {
        case let .success(response):
            guard let answer = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                               headerFields: response.headers) else {
                client?.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
                return
            }
            client?.urlProtocol(self, didReceive: answer, cacheStoragePolicy: .notAllowed)
            if !response.body.isEmpty { client?.urlProtocol(self, didLoad: response.body) }
            client?.urlProtocolDidFinishLoading(self)
        case let .failure(failure):
            client?.urlProtocol(self, didFailWithError: URLError(URLError.Code(rawValue: failure.urlErrorCode) ?? .unknown,
                                                                  userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
    }

    /// The bytes of a streamed body (`URLSession.upload(for:from:)` on some platforms).
    private static func read(_ stream: InputStream) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        stream.open()
        defer { stream.close() }
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}
