import BLEPhone
import BLETime
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
///
/// In a simulation, a request an app makes there leaves the phone as its task resumes, and
/// the clock waits while Foundation's own queues take it over and hand its outcome to the
/// session (``NetworkHandOver``): the same seed gives the same exchanges at the same virtual
/// times, whatever the machine's load. A completion handler of a session other than
/// `URLSession.shared` runs on that session's delegate queue, which the clock does not wait
/// for; async calls (`data(for:)`) are resumed where the answer is given, on any session.
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
        warnIfSharedSessionBypassesPhones()
    }

    /// Whether `URLSession.shared` hands requests for the phones' hosts to this class: false
    /// when something in the process made the shared session before the class was registered
    /// (swift-corelibs-foundation fixes its protocol classes then, and asks them in order), so
    /// those requests go to the real network. Reading it registers the class, and makes the
    /// shared session if nothing has.
    public static var sharedSessionReachesPhones: Bool {
        register()
        let classes = URLSession.shared.configuration.protocolClasses ?? []
        let foundations = URLSessionConfiguration.default.protocolClasses ?? []
        guard let ours = classes.firstIndex(where: { $0 == SimulatedNetworkProtocol.self }) else { return false }
        return !classes[..<ours].contains { type in foundations.contains { $0 == type } }
    }

    /// Whether the shared session's bypass has been logged.
    private static let warned = Mutex(false)

    /// Logs once, as a warning, that `URLSession.shared` bypasses the phones, and what to do.
    private static func warnIfSharedSessionBypassesPhones() {
        guard !sharedSessionReachesPhones,
              warned.withLock({ warned in defer { warned = true }; return !warned }) else { return }
        phoneLog.warning("""
            URLSession.shared was made before SimulatedNetworkProtocol was registered, so apps' requests \
            through it go to the real network: call SimulatedNetworkProtocol.register() before anything \
            in the process uses URLSession.shared, or give other sessions a configuration of their own
            """)
    }

    /// Registers the class with `URLProtocol` (once; later calls do nothing), ahead of
    /// Foundation's own HTTP class.
    ///
    /// swift-corelibs-foundation gives `URLSession.shared` the protocol classes registered
    /// when the shared session is first used, and never looks again; it asks them in the order
    /// they were registered, and registers its own HTTP class when the process makes its first
    /// session of any kind. So registering moves Foundation's classes (those of
    /// `URLSessionConfiguration.default`) behind this one. A process that uses
    /// `URLSession.shared` for real HTTP before any phone serves a host (a test of a real server
    /// beside the phones' tests) calls this first, or its phones' requests would go to the
    /// real network. The class claims only hosts a phone serves, so registering it changes
    /// nothing for other requests.
    public static func register() {
        // Registered under the lock: a caller that finds the flag set must find the class
        // registered too, or its first use of `URLSession.shared` could come in between.
        registered.withLock { registered in
            guard !registered else { return }
            let foundations = URLSessionConfiguration.default.protocolClasses ?? []
            for type in foundations { URLProtocol.unregisterClass(type) }
            _ = URLProtocol.registerClass(SimulatedNetworkProtocol.self)
            for type in foundations { _ = URLProtocol.registerClass(type) }
            registered = true
        }
    }

    /// The phone that serves `url`'s host, if any.
    static func phone(for url: URL?) -> SimulatedPhone? {
        guard let host = url?.host?.lowercased(), let scheme = url?.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else { return nil }
        return hosts.withLock { $0[host]?.phone }
    }

    /// Claims a request for a host a phone serves. Called by the loading system once, on the
    /// thread that resumes the task: when that is the phone's simulation, the phone takes the
    /// request in there and then (``NetworkHandOver``), at the virtual time the app made it.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard let url = request.url, let phone = phone(for: url), phone.serves(host: url.host ?? "") else { return false }
        takeIn(request, url: url, on: phone)
        return true
    }

    /// Sends `request` from the app now running on `phone` if the caller is in the phone's
    /// simulation, and keeps the hand-over for the protocol object that will load it.
    private static func takeIn(_ request: URLRequest, url: URL, on phone: SimulatedPhone) {
        guard let simulation = phone.simulation, Simulation.current === simulation,
              let app = phone.currentNetworkApp, let message = NetworkRequest(request) else { return }
        let handOver = NetworkHandOver(phone: phone, request: request, url: url, simulation: simulation)
        NetworkHandOver.keep(handOver)
        handOver.id = phone.send(message, timeout: timeout(of: request), for: app) { result in handOver.finish(result) }
    }

    /// The request's timeout in microseconds: its interval, or a minute without one.
    private static func timeout(of request: URLRequest) -> Int64 {
        request.timeoutInterval > 0 ? Int64((request.timeoutInterval * 1e6).rounded()) : 60_000_000
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Loads the request: takes over the phone's hand-over when there is one; otherwise (a
    /// request made outside the phone's simulation) sends it now, at the phone's present time.
    override public func startLoading() {
        if let handOver = NetworkHandOver.take(for: request) {
            if let id = handOver.id { sent.withLock { $0 = (handOver.phone, id) } }
            handOver.attach(self)
            return
        }
        guard let url = request.url, let phone = Self.phone(for: url), let app = phone.currentNetworkApp,
              let message = NetworkRequest(request) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotFindHost))
            return
        }
        // The URL loading system's client may be called from any thread: swift-corelibs-foundation
        // hops onto the task's own queue, as Apple's does; the protocol object itself is not
        // touched again.
        nonisolated(unsafe) let loader = self
        let id = phone.send(message, timeout: Self.timeout(of: request), for: app) { result in
            loader.deliver(result, for: url)
        }
        sent.withLock { $0 = (phone, id) }
    }

    override public func stopLoading() {
        guard let sent = sent.withLock({ $0 }) else { return }
        sent.phone.cancelRequest(sent.id)
    }

    /// Hands the outcome to the session, as an HTTP response or a `URLError`.
    func deliver(_ result: Result<NetworkResponse, NetworkFailure>, for url: URL) {
        switch result {
        case let .success(response):
            answer(with: response, for: url)
        case let .failure(failure):
            client?.urlProtocol(self, didFailWithError: URLError(URLError.Code(rawValue: failure.urlErrorCode) ?? .unknown,
                                                                  userInfo: [NSURLErrorFailingURLErrorKey: url]))
        }
    }
}
