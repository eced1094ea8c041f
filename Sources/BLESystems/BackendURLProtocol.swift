import BLE
import BLEPhone
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Foundation's way into an office program's `URLSession` (`URLProtocol`): a session from
/// ``session(for:)`` sends its requests to a ``NetworkServer`` in the process — the back end's
/// router without a socket — so the office asks exactly what it would ask over HTTP, and every
/// answer can be recorded for the story.
final class BackendURLProtocol: URLProtocol {
    /// The server behind each host (lower case).
    private static let servers = Mutex<[String: any NetworkServer]>([:])
    private static let counter = Atomic<Int>(0)

    /// A session whose requests to the returned base address reach `server`; a host of its
    /// own, since the table of hosts is process-wide. ``forget(_:)`` the host after the run.
    static func session(for server: any NetworkServer) -> (session: URLSession, baseURL: URL, host: String) {
        let host = "backend-\(counter.add(1, ordering: .relaxed).newValue).office"
        servers.withLock { $0[host] = server }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [BackendURLProtocol.self]
        return (URLSession(configuration: configuration), URL(string: "http://\(host)")!, host)
    }

    /// Stops serving `host`.
    static func forget(_ host: String) {
        _ = servers.withLock { $0.removeValue(forKey: host) }
    }

    private static func server(for url: URL?) -> (any NetworkServer)? {
        guard let host = url?.host?.lowercased() else { return nil }
        return servers.withLock { $0[host] }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        server(for: request.url) != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        guard let url = request.url, let server = Self.server(for: url), let message = NetworkRequest(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        // Safe: the task below is the only code that touches this protocol object after
        // startLoading returns (stopLoading does nothing), and the loading system's client may
        // be called from any thread — swift-corelibs-foundation hops onto the task's own queue.
        nonisolated(unsafe) let loader = self
        Task {
            let response = await server.respond(to: message)
            loader.answer(with: response, for: url)
        }
    }

    override func stopLoading() {}
}
